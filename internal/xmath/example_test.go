package xmath_test

import (
	"fmt"

	"github.com/neural-adb/nadb/internal/xmath"
)

// The results are the same bits on every processor; %b shows all of them.
func Example() {
	fmt.Printf("%b\n", xmath.Exp(1))
	fmt.Printf("%b\n", xmath.Erfc(2))
	fmt.Printf("%b\n", xmath.Pow(2, 0.25))
	// Output:
	// 6121026514868073p-51
	// 5393061252501094p-60
	// 5355712719992597p-52
}
