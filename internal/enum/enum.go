// Package enum parses the small closed sets of names that configure the
// project (initialisations, optimisers, problem functions, …). Each such set
// is a string type with its own constants and a list of its valid values;
// this package gives them one parser and one error message, so that a value
// is checked once, where text becomes the type (encoding.TextUnmarshaler),
// and compared as a typed constant everywhere else.
package enum

import (
	"fmt"
	"slices"
	"strings"
)

// Parse returns the element of values spelled s, or an error that names what
// is being parsed and lists the valid values.
func Parse[T ~string](what, s string, values []T) (T, error) {
	for _, v := range values {
		if string(v) == s {
			return v, nil
		}
	}
	return "", Unknown(what, s, Strings(values))
}

// Check reports an error when v is not one of values.
func Check[T ~string](what string, v T, values []T) error {
	if slices.Contains(values, v) {
		return nil
	}
	return Unknown(what, string(v), Strings(values))
}

// Strings returns values as plain strings.
func Strings[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// Join lists values separated by ", ".
func Join[T ~string](values []T) string { return strings.Join(Strings(values), ", ") }

// Unknown returns the error for a name s that is not one of known: it names
// what was being looked up, suggests the closest known name when one is a
// likely misspelling (Suggest), and lists the valid names.
func Unknown(what, s string, known []string) error {
	if m := Suggest(s, known); m != "" {
		return fmt.Errorf("unknown %s %q: did you mean %q? (want one of %s)", what, s, m, strings.Join(known, ", "))
	}
	return fmt.Errorf("unknown %s %q (want one of %s)", what, s, strings.Join(known, ", "))
}

// Suggest returns the known name s most likely stands for, or "": the one
// known name that s abbreviates (s, of at least three characters, is a prefix
// of it and of no other; a prefix of several is ambiguous and gets no
// suggestion); otherwise the name closest to s in edit distance (insertions,
// deletions, substitutions and transpositions of adjacent characters, case
// ignored), if it is within a third of the longer name's length (at least 1
// edit, at most 3). Ties go to the earlier element of known.
func Suggest(s string, known []string) string {
	ls := strings.ToLower(s)
	var prefixOf []string
	if len(ls) >= 3 {
		for _, k := range known {
			if strings.HasPrefix(strings.ToLower(k), ls) {
				prefixOf = append(prefixOf, k)
			}
		}
	}
	switch {
	case len(prefixOf) == 1:
		return prefixOf[0]
	case len(prefixOf) > 1:
		return ""
	}
	best, bestD := "", 4
	for _, k := range known {
		lk := strings.ToLower(k)
		d := editDistance([]rune(ls), []rune(lk))
		if d <= min(3, max(1, max(len(ls), len(lk))/3)) && d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
