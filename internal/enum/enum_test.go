package enum

import (
	"strings"
	"testing"
)

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

func TestSuggest(t *testing.T) {
	algos := []string{"apo", "neural-adb-plus", "neural-adb-ucb", "neural-adb-ts", "random", "random-nn"}
	for _, c := range []struct{ in, want string }{
		{"neural-adb-usb", "neural-adb-ucb"},    // a substitution
		{"nueral-adb-ucb", "neural-adb-ucb"},    // a transposition
		{"Neural-ADB-UCB", "neural-adb-ucb"},    // case
		{"neural-adb-pluss", "neural-adb-plus"}, // an insertion
		{"randm", "random"},                     // a deletion
		{"apo", "apo"},                          // exact (callers check first)
		{"neural-adb", ""},                      // a prefix of several: no guess
		{"neural-adb-p", "neural-adb-plus"},     // a prefix of one
		{"xyz", ""},                             // nothing close
		{"ap", "apo"},                           // one edit on a short name
		{"sin", ""},                             // not close to anything here
	} {
		if got := Suggest(c.in, algos); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUnknownSuggests(t *testing.T) {
	err := Unknown("problem", "sqaure", []string{"square", "sine", "cosine"})
	if want := `unknown problem "sqaure": did you mean "square"? (want one of square, sine, cosine)`; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if err := Unknown("problem", "zzz", []string{"square"}); strings.Contains(err.Error(), "did you mean") {
		t.Errorf("suggested something for a name far from every known one: %v", err)
	}
}
