package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// texRune is the LaTeX for one non-ASCII rune of the inputs: in math mode
// (wrapped in \ensuremath) when math is set, else as text. pdfLaTeX with
// T1 fonts sets Latin-1 letters itself; they are not listed.
type texRune struct {
	tex  string
	math bool
}

var texRunes = map[rune]texRune{
	'±': {`\pm`, true}, '×': {`\times`, true}, '·': {`\cdot`, true}, '−': {`-`, true},
	'≈': {`\approx`, true}, '≤': {`\le`, true}, '≥': {`\ge`, true}, '≠': {`\ne`, true},
	'⪯': {`\preceq`, true}, '⪰': {`\succeq`, true}, '∈': {`\in`, true}, '→': {`\to`, true},
	'←': {`\leftarrow`, true}, '↑': {`\uparrow`, true}, '↓': {`\downarrow`, true},
	'√': {`\surd`, true}, '‖': {`\|`, true}, '∞': {`\infty`, true}, '∑': {`\sum`, true},
	'⌈': {`\lceil`, true}, '⌉': {`\rceil`, true}, '⌊': {`\lfloor`, true}, '⌋': {`\rfloor`, true},
	'′': {`'`, true}, '∝': {`\propto`, true}, '∼': {`\sim`, true}, '≪': {`\ll`, true}, '≫': {`\gg`, true},
	'𝕍': {`\mathbb{V}`, true}, '𝔼': {`\mathbb{E}`, true}, 'ℝ': {`\mathbb{R}`, true},
	'α': {`\alpha`, true}, 'β': {`\beta`, true}, 'γ': {`\gamma`, true}, 'δ': {`\delta`, true},
	'ε': {`\varepsilon`, true}, 'η': {`\eta`, true}, 'θ': {`\theta`, true}, 'κ': {`\kappa`, true},
	'λ': {`\lambda`, true}, 'μ': {`\mu`, true}, 'ν': {`\nu`, true}, 'ξ': {`\xi`, true},
	'π': {`\pi`, true}, 'ρ': {`\rho`, true}, 'σ': {`\sigma`, true}, 'τ': {`\tau`, true},
	'φ': {`\varphi`, true}, 'χ': {`\chi`, true}, 'ψ': {`\psi`, true}, 'ω': {`\omega`, true},
	'Γ': {`\Gamma`, true}, 'Δ': {`\Delta`, true}, 'Θ': {`\Theta`, true}, 'Λ': {`\Lambda`, true},
	'Π': {`\Pi`, true}, 'Σ': {`\Sigma`, true}, 'Φ': {`\Phi`, true}, 'Ψ': {`\Psi`, true}, 'Ω': {`\Omega`, true},
	'–': {`--`, false}, '—': {`---`, false}, '…': {`\dots{}`, false}, '§': {`\S{}`, false},
	'‘': {"`", false}, '’': {`'`, false}, '“': {"``", false}, '”': {`''`, false},
	'✓': {`\checkmark{}`, false}, '\u00a0': {`~`, false},
}

// Superscript and subscript characters, set as one ^{…} or _{…} per run.
var (
	superscripts = map[rune]string{'⁰': "0", '¹': "1", '²': "2", '³': "3", '⁴': "4", '⁵': "5", '⁶': "6", '⁷': "7", '⁸': "8", '⁹': "9", '⁻': "-", '⁺': "+", 'ᵀ': `\top`, 'ⁿ': "n"}
	subscripts   = map[rune]string{'₀': "0", '₁': "1", '₂': "2", '₃': "3", '₄': "4", '₅': "5", '₆': "6", '₇': "7", '₈': "8", '₉': "9"}
)

// asciiEscapes are the ASCII characters LaTeX treats specially.
var asciiEscapes = map[rune]string{
	'\\': `\textbackslash{}`, '{': `\{`, '}': `\}`, '$': `\$`, '&': `\&`, '#': `\#`,
	'^': `\^{}`, '_': `\_`, '%': `\%`, '~': `\textasciitilde{}`, '<': `\textless{}`, '>': `\textgreater{}`,
}

// latin1 reports whether r is a Latin-1 letter that T1-encoded fonts set
// directly (é, ö, Õ).
func latin1(r rune) bool { return r >= 0xc0 && r <= 0xff && r != '×' && r != '÷' }

// Escape returns s as LaTeX text: special characters escaped, mathematical
// symbols and Greek letters in \ensuremath, runs of superscript and subscript
// characters as one script, a letter followed by a combining tilde as
// \tilde{…}, and the plain-text subscripts of the claims' statements as
// subscripts (mathSubscript: Σ_max, z_s, ‖z‖_{V_T⁻¹}, max_{z∈Z}; mean_gap
// stays text). A rune it has no spelling for is an error that names it, so
// that an input never reaches the PDF as a missing glyph.
func Escape(s string) (string, error) { return escape(s, true) }

// mathSubscript reports whether the '_' at rs[i] starts a subscript written
// in plain text, and returns the subscript and the index of its last rune.
// The base must be a variable: one letter standing alone (z_s, not mean_gap),
// a mathematical symbol or superscript (Σ_s, ‖z‖_{…}, ‖z‖²_{…}), or the
// operators max and min; the subscript is a braced group ({V_T⁻¹},
// balanced), one Greek letter (κ_μ), or one to three letters or digits
// (max, T, 28).
func mathSubscript(rs []rune, i int) (sub string, braced bool, end int, ok bool) {
	if i == 0 || i+1 >= len(rs) {
		return "", false, 0, false
	}
	isLetter := func(r rune) bool { return r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }
	isAlnum := func(r rune) bool { return isLetter(r) || r >= '0' && r <= '9' }
	p := rs[i-1]
	word := i - 1
	for word > 0 && isLetter(rs[word-1]) {
		word--
	}
	w := string(rs[word:i])
	standalone := word == 0 || !isAlnum(rs[word-1]) && rs[word-1] != '_' && rs[word-1] != '.'
	t, isMath := texRunes[p]
	_, isSup := superscripts[p]
	switch {
	case isLetter(p) && standalone && (len(w) == 1 || w == "max" || w == "min"):
	case isMath && t.math, isSup:
	default:
		return "", false, 0, false
	}
	if t, ok := texRunes[rs[i+1]]; ok && t.math && (i+2 == len(rs) || !isAlnum(rs[i+2])) {
		return string(rs[i+1]), false, i + 1, true // κ_μ
	}
	if rs[i+1] == '{' {
		depth := 0
		for j := i + 1; j < len(rs); j++ {
			switch rs[j] {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return string(rs[i+2 : j]), true, j, true
				}
			}
		}
		return "", false, 0, false
	}
	j := i + 1
	for j < len(rs) && isAlnum(rs[j]) && j-i <= 3 {
		j++
	}
	if j == i+1 || j < len(rs) && (isAlnum(rs[j]) || rs[j] == '_') {
		return "", false, 0, false
	}
	return string(rs[i+1 : j]), false, j - 1, true
}

// escape is Escape; plain-text subscripts become subscripts only when math
// is set (Code keeps underscores as text).
func escape(s string, math bool) (string, error) {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' && math {
			if sub, braced, end, ok := mathSubscript(rs, i); ok {
				inner, err := escape(sub, true)
				if err != nil {
					return "", err
				}
				if !braced && utf8.RuneCountInString(sub) > 1 && strings.Trim(sub, "0123456789") != "" {
					inner = `\mathrm{` + inner + `}`
				}
				fmt.Fprintf(&b, `\ensuremath{_{%s}}`, inner)
				i = end
				continue
			}
		}
		if r == '^' && math && i > 0 && i+1 < len(rs) && rs[i-1] != ' ' {
			// A plain-text power (T^0.5, x^{-1}): a superscript.
			j := i + 1
			if rs[j] == '-' || rs[j] == '−' {
				j++
			}
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.' && j+1 < len(rs) && rs[j+1] >= '0' && rs[j+1] <= '9') {
				j++
			}
			if j > i+1 && rs[j-1] >= '0' && rs[j-1] <= '9' {
				inner, err := escape(string(rs[i+1:j]), true)
				if err != nil {
					return "", err
				}
				fmt.Fprintf(&b, `\ensuremath{^{%s}}`, inner)
				i = j - 1
				continue
			}
		}
		if i+1 < len(rs) && rs[i+1] == '\u0303' {
			base, err := escape(string(r), math)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, `\ensuremath{\tilde{%s}}`, strings.TrimSuffix(strings.TrimPrefix(base, `\ensuremath{`), "}"))
			i++
			continue
		}
		if _, ok := superscripts[r]; ok {
			j := i
			var sc strings.Builder
			for ; j < len(rs); j++ {
				t, ok := superscripts[rs[j]]
				if !ok {
					break
				}
				sc.WriteString(t)
			}
			fmt.Fprintf(&b, `\ensuremath{^{%s}}`, sc.String())
			i = j - 1
			continue
		}
		if _, ok := subscripts[r]; ok {
			j := i
			var sc strings.Builder
			for ; j < len(rs); j++ {
				t, ok := subscripts[rs[j]]
				if !ok {
					break
				}
				sc.WriteString(t)
			}
			fmt.Fprintf(&b, `\ensuremath{_{%s}}`, sc.String())
			i = j - 1
			continue
		}
		switch {
		case r == utf8.RuneError:
			return "", fmt.Errorf("report: invalid UTF-8 in %q", s)
		case r < 0x80:
			if e, ok := asciiEscapes[r]; ok {
				b.WriteString(e)
			} else {
				b.WriteRune(r)
			}
		case latin1(r):
			b.WriteRune(r)
		default:
			t, ok := texRunes[r]
			if !ok {
				return "", fmt.Errorf("report: no LaTeX spelling for %q (U+%04X) in %q; add it to texRunes", r, r, s)
			}
			if t.math {
				fmt.Fprintf(&b, `\ensuremath{%s}`, t.tex)
			} else {
				b.WriteString(t.tex)
			}
		}
	}
	return b.String(), nil
}

// Markdown returns a cell of a Markdown table (or a line of Markdown prose)
// as LaTeX: **bold** as \textbf, `code` as \nadbcode (typewriter with break
// points), \| as |, the rest through Escape. An unmatched marker is text.
func Markdown(s string) (string, error) {
	s = strings.ReplaceAll(s, `\|`, "|")
	var b strings.Builder
	text := func(t string) error {
		e, err := Escape(t)
		b.WriteString(e)
		return err
	}
	for {
		i := strings.IndexAny(s, "*`")
		if i < 0 {
			err := text(s)
			return b.String(), err
		}
		if err := text(s[:i]); err != nil {
			return "", err
		}
		s = s[i:]
		switch {
		case strings.HasPrefix(s, "**") && strings.Contains(s[2:], "**"):
			j := strings.Index(s[2:], "**")
			in, err := Markdown(s[2 : 2+j])
			if err != nil {
				return "", err
			}
			b.WriteString(`\textbf{` + in + `}`)
			s = s[2+j+2:]
		case s[0] == '`' && strings.Contains(s[1:], "`"):
			j := strings.IndexByte(s[1:], '`')
			c, err := Code(s[1 : 1+j])
			if err != nil {
				return "", err
			}
			b.WriteString(c)
			s = s[1+j+1:]
		default:
			if err := text(s[:1]); err != nil {
				return "", err
			}
			s = s[1:]
		}
	}
}

// Code returns s in typewriter type (\nadbcode, defined by the report's
// preamble), escaped, with break points after slashes, hyphens and commas
// so that long paths and flag lists wrap inside table cells.
func Code(s string) (string, error) {
	var b strings.Builder
	start := 0
	for i, r := range s {
		if r == '/' || r == '-' || r == ',' {
			e, err := escape(s[start:i+1], false)
			if err != nil {
				return "", err
			}
			b.WriteString(e + `\allowbreak{}`)
			start = i + 1
		}
	}
	e, err := escape(s[start:], false)
	if err != nil {
		return "", err
	}
	return `\nadbcode{` + b.String() + e + `}`, nil
}

// longHead is the head of a long table (xltabular or longtable) with
// ncols columns: its caption, \nadbcaption{name} (written by hand in the
// prose with \nadbsetcaption), the label tab:name, and the header row,
// repeated with "(continued)" on later pages.
func longHead(name string, ncols int, header string) string {
	return fmt.Sprintf("\\caption{\\nadbcaption{%[1]s}}\\label{tab:%[1]s}\\\\\n\\toprule\n%[3]s \\\\\n\\midrule\n\\endfirsthead\n"+
		"\\multicolumn{%[2]d}{@{}l}{\\small\\itshape (continued)} \\\\\n\\toprule\n%[3]s \\\\\n\\midrule\n\\endhead\n", name, ncols, header)
}
