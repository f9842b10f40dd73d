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
	return "", fmt.Errorf("unknown %s %q (want one of %s)", what, s, Join(values))
}

// Check reports an error when v is not one of values.
func Check[T ~string](what string, v T, values []T) error {
	if slices.Contains(values, v) {
		return nil
	}
	return fmt.Errorf("unknown %s %q (want one of %s)", what, string(v), Join(values))
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
