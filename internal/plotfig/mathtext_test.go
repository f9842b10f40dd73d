package plotfig

import (
	"strings"
	"testing"

	stdfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// glyphs lays txt out and returns "text@dy" per run (dy: the baseline
// offset in units of the font size, rounded to tenths; bars as "bar").
func glyphs(t *testing.T, txt string) string {
	t.Helper()
	h := mathText{Fonts: font.DefaultCache}
	fnt := font.From(plot.DefaultFont, vg.Points(10))
	runs, _ := h.layout(txt, fnt)
	var out []string
	for _, r := range runs {
		if r.bar {
			out = append(out, "bar")
			continue
		}
		s := r.s
		if r.face.Font.Style == stdfont.StyleItalic {
			s = "/" + s + "/"
		}
		dy := float64(r.y) / 10
		switch {
		case dy < -0.05:
			s += "_"
		case dy > 0.05:
			s += "^"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestMathLayout(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"plain T (duels)", "plain T (duels)"},
		{`$V_T^{-1}$`, "/V/ /T/_ −^ 1^"},
		{`$\|z\|_{V_T^{-1}}$`, "‖ /z/ ‖ /V/_ /T/_ −^ 1^"},
		{`$\lambda_{\min}$`, "/λ/ min_"},
		{`$\sqrt{d/T}$`, "√ /d/ / /T/ bar"},
		{`$\tilde{d}$`, "/d/ ~^"},
		{`$a \in B$`, "/a/  in  /B/"}, // Liberation has no ∈: spelled
		{`$\mathrm{max}_Z$`, "m a x /Z/_"},
		{`$\unknown$`, "unknown"},
		{`price \$5`, "price $5"},
	} {
		if got := glyphs(t, tc.in); got != tc.want {
			t.Errorf("%q: runs %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMathMalformed checks that broken markup is drawn as best it can be,
// never a panic.
func TestMathMalformed(t *testing.T) {
	for _, in := range []string{"$", "$x", "$x_$", "$x^$", "$\\$", "${$", "$}$", "$\\sqrt$", "$\\tilde$", "$_{}$", "$\\$$"} {
		glyphs(t, in)
	}
}

// TestMathBox checks that scripts enlarge the box.
func TestMathBox(t *testing.T) {
	h := mathText{Fonts: font.DefaultCache}
	fnt := font.From(plot.DefaultFont, vg.Points(10))
	_, hPlain, dPlain := h.Box("V", fnt)
	_, hSup, _ := h.Box("$V^{2^2}$", fnt)
	_, _, dSub := h.Box("$V_{T_T}$", fnt)
	if !(hSup > hPlain) || !(dSub > dPlain) {
		t.Errorf("heights %v (plain) %v (superscripts), depths %v %v (subscripts)", hPlain, hSup, dPlain, dSub)
	}
}
