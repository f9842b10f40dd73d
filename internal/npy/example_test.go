package npy_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/neural-adb/nadb/internal/npy"
)

// Write an array as np.save does, then open it mapped.
func Example() {
	path := filepath.Join(os.TempDir(), "npy-example.npy")
	defer os.Remove(path)
	f, _ := os.Create(path)
	npy.Write(f, []int{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	f.Close()

	a, err := npy.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()
	fmt.Println(npy.ShapeString(a.Shape), a.DType, a.F32)
	// Output: (2, 3) float32 [1 2 3 4 5 6]
}
