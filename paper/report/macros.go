package report

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// macros are the values the prose cites, by key: \nadb{key} in the LaTeX
// prints one (the preamble defines \nadb and \nadbdef; an undefined key
// prints a visible placeholder). Keys are slash-separated paths named after
// their source file and columns; doc.go lists the scheme.
type macros struct{ vals map[string]string }

func newMacros() *macros { return &macros{vals: map[string]string{}} }

// keyPart matches what a key may hold: letters, digits and - _ . / =.
var keyPart = regexp.MustCompile(`^[A-Za-z0-9._=/-]+$`)

// math sets key to a number or formula in math mode.
func (m *macros) math(key, tex string) { m.set(key, `\ensuremath{`+tex+`}`) }

// text sets key to LaTeX text.
func (m *macros) text(key, tex string) { m.set(key, tex) }

func (m *macros) set(key, val string) {
	if !keyPart.MatchString(key) {
		panic(fmt.Sprintf("report: macro key %q has characters outside [A-Za-z0-9._=/-]", key))
	}
	m.vals[key] = val
}

// latex writes macros.tex: one \nadbdef per key, sorted.
func (m *macros) latex() []byte {
	keys := make([]string, 0, len(m.vals))
	for k := range m.vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteString("% \\nadb{key} prints a value; the keys are listed in paper/report/doc.go.\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\\nadbdef{%s}{%s}\n", k, m.vals[k])
	}
	return b.Bytes()
}

// Slug is the key form of a label: lower case, every run of characters
// other than letters and digits one hyphen ("Square, K = 10" → square-k-10).
func Slug(label string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	return b.String()
}
