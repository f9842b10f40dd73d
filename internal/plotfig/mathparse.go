package plotfig

import "strings"

// mnode is a node of a parsed math expression.
type mnode struct {
	kind mkind
	s    string  // glyphs (mItalic, mRoman, mOp) or accent name (mAccent)
	size float64 // space width in em (mSpace)
	kids []mnode // mGroup, mSub, mSup, mSqrt, mAccent
}

type mkind int

const (
	mItalic mkind = iota
	mRoman
	mOp
	mSpace
	mGroup
	mSub
	mSup
	mSqrt
	mAccent
)

// greek maps TeX names to letters; lower case is set in italic, upper case
// upright, as TeX does.
var greek = map[string]string{
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
	"eta": "η", "theta": "θ", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π",
	"rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
	"Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}

// symbols are upright glyphs; relations and binary operators get space
// around them (mOp).
var symbols = map[string]struct {
	s  string
	op bool
}{
	"|": {"‖", false}, "le": {"≤", true}, "leq": {"≤", true}, "ge": {"≥", true}, "geq": {"≥", true},
	"cdot": {"·", true}, "times": {"×", true}, "infty": {"∞", false}, "approx": {"≈", true},
	"pm": {"±", true}, "in": {"∈", true}, "to": {"→", true}, "neq": {"≠", true}, "ldots": {"…", false},
}

// opNames are set upright (\max, \log).
var opNames = map[string]bool{"max": true, "min": true, "log": true, "ln": true, "exp": true, "arg": true, "det": true, "sup": true, "inf": true}

// parseMath parses the text between two dollar signs. Unknown commands are
// set upright as their name, so a typo shows instead of failing.
func parseMath(s string) []mnode {
	p := &mparser{s: s}
	return p.list(false)
}

type mparser struct {
	s string
	i int
}

// list parses nodes until the end or, in a group, the closing brace.
func (p *mparser) list(group bool) []mnode {
	var out []mnode
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '}':
			p.i++
			if group {
				return out
			}
		case c == '_' || c == '^':
			p.i++
			k := mSub
			if c == '^' {
				k = mSup
			}
			out = append(out, mnode{kind: k, kids: p.arg()})
		default:
			if n, ok := p.atom(); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// arg parses the argument of a script or command: a group or one atom.
func (p *mparser) arg() []mnode {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	if p.i >= len(p.s) {
		return nil
	}
	if p.s[p.i] == '{' {
		p.i++
		return p.list(true)
	}
	if n, ok := p.atom(); ok {
		return []mnode{n}
	}
	return nil
}

// atom parses one symbol, command or group; ok is false for ignored input
// (spaces: TeX sets its own spacing in mathematics).
func (p *mparser) atom() (mnode, bool) {
	c := p.s[p.i]
	switch {
	case c == ' ':
		p.i++
		return mnode{}, false
	case c == '{':
		p.i++
		return mnode{kind: mGroup, kids: p.list(true)}, true
	case c == '\\':
		return p.command()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		p.i++
		return mnode{kind: mItalic, s: string(c)}, true
	case c == '-':
		p.i++
		return mnode{kind: mOp, s: "−"}, true
	case c == '+' || c == '=' || c == '<' || c == '>':
		p.i++
		return mnode{kind: mOp, s: string(c)}, true
	default:
		// Digits, punctuation and any UTF-8 sequence, upright.
		j := p.i + 1
		for j < len(p.s) && p.s[j]&0xC0 == 0x80 {
			j++
		}
		n := mnode{kind: mRoman, s: p.s[p.i:j]}
		p.i = j
		return n, true
	}
}

func (p *mparser) command() (mnode, bool) {
	p.i++ // backslash
	if p.i >= len(p.s) {
		return mnode{kind: mRoman, s: "\\"}, true
	}
	c := p.s[p.i]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		p.i++
		switch c {
		case ',':
			return mnode{kind: mSpace, size: 0.17}, true
		case ' ':
			return mnode{kind: mSpace, size: 0.33}, true
		case '|':
			return mnode{kind: mRoman, s: "‖"}, true
		}
		return mnode{kind: mRoman, s: string(c)}, true
	}
	j := p.i
	for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z') {
		j++
	}
	name := p.s[p.i:j]
	p.i = j
	switch {
	case greek[name] != "":
		if strings.ToLower(name[:1]) == name[:1] {
			return mnode{kind: mItalic, s: greek[name]}, true
		}
		return mnode{kind: mRoman, s: greek[name]}, true
	case symbols[name].s != "":
		sy := symbols[name]
		if sy.op {
			return mnode{kind: mOp, s: sy.s}, true
		}
		return mnode{kind: mRoman, s: sy.s}, true
	case opNames[name]:
		return mnode{kind: mRoman, s: name}, true
	case name == "sqrt":
		return mnode{kind: mSqrt, kids: p.arg()}, true
	case name == "tilde" || name == "hat" || name == "bar":
		return mnode{kind: mAccent, s: name, kids: p.arg()}, true
	case name == "mathrm" || name == "text":
		kids := p.arg()
		for i := range kids {
			if kids[i].kind == mItalic {
				kids[i].kind = mRoman
			}
		}
		return mnode{kind: mGroup, kids: kids}, true
	}
	return mnode{kind: mRoman, s: name}, true
}

// asciiOf spells in ASCII the glyphs a font may lack (missingToASCII):
// Liberation has no ∈, for one.
var asciiOf = map[rune]string{
	'α': "alpha", 'β': "beta", 'γ': "gamma", 'δ': "delta", 'ε': "eps", 'ζ': "zeta", 'η': "eta",
	'θ': "theta", 'κ': "kappa", 'λ': "lambda", 'μ': "mu", 'ν': "nu", 'ξ': "xi", 'π': "pi",
	'ρ': "rho", 'σ': "sigma", 'τ': "tau", 'φ': "phi", 'χ': "chi", 'ψ': "psi", 'ω': "omega",
	'Γ': "Gamma", 'Δ': "Delta", 'Θ': "Theta", 'Λ': "Lambda", 'Σ': "Sigma", 'Φ': "Phi", 'Ψ': "Psi", 'Ω': "Omega",
	'‖': "||", '≤': "<=", '≥': ">=", '·': "*", '×': "x", '∞': "inf", '≈': "~", '±': "+/-",
	'−': "-", '→': "->", '√': "sqrt", '∈': " in ", '²': "^2", '³': "^3", '¹': "^1", '–': "-", '—': "-",
	'≠': "!=", '…': "...", '¯': "_",
}
