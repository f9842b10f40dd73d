package enum

import "testing"

type color string

var colors = []color{"red", "green"}

func TestParse(t *testing.T) {
	if c, err := Parse("colour", "green", colors); err != nil || c != "green" {
		t.Fatalf("Parse(green) = %q, %v", c, err)
	}
	_, err := Parse("colour", "blue", colors)
	if err == nil || err.Error() != `unknown colour "blue" (want one of red, green)` {
		t.Fatalf("Parse(blue) error = %v", err)
	}
	if err := Check("colour", color("red"), colors); err != nil {
		t.Fatal(err)
	}
	if err := Check("colour", color(""), colors); err == nil {
		t.Fatal("Check accepted the empty value")
	}
}
