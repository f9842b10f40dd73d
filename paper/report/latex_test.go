package report

import (
	"math"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, 50% & more_x", `plain text, 50\% \& more\_x`},
		{"λ‖θ‖²", `\ensuremath{\lambda}\ensuremath{\|}\ensuremath{\theta}\ensuremath{\|}\ensuremath{^{2}}`},
		{"V_T⁻¹", `V\ensuremath{_{T}}\ensuremath{^{-1}}`},
		{"z_sᵀ", `z\ensuremath{_{s}}\ensuremath{^{\top}}`},
		{"E[z_s z_sᵀ] ⪯ Σ_max", `E[z\ensuremath{_{s}} z\ensuremath{_{s}}\ensuremath{^{\top}}] \ensuremath{\preceq} \ensuremath{\Sigma}\ensuremath{_{\mathrm{max}}}`},
		{"max_{z∈Z}‖z‖_{V_T⁻¹} ≤ L/G_T", `max\ensuremath{_{z\ensuremath{\in}Z}}\ensuremath{\|}z\ensuremath{\|}\ensuremath{_{V\ensuremath{_{T}}\ensuremath{^{-1}}}} \ensuremath{\le} L/G\ensuremath{_{T}}`},
		{"z_28, F_{s−1}", `z\ensuremath{_{28}}, F\ensuremath{_{s\ensuremath{-}1}}`},
		{"T^0.06, T^-1 and 2 ^ 3", `T\ensuremath{^{0.06}}, T\ensuremath{^{-1}} and 2 \^{} 3`},
		{"κ_μ, ‖Δφ‖²_{V⁻¹}", `\ensuremath{\kappa}\ensuremath{_{\ensuremath{\mu}}}, \ensuremath{\|}\ensuremath{\Delta}\ensuremath{\varphi}\ensuremath{\|}\ensuremath{^{2}}\ensuremath{_{V\ensuremath{^{-1}}}}`},
		{"mean_gap/square, plus_doc.go, a_bcde", `mean\_gap/square, plus\_doc.go, a\_bcde`},
		{"d̃ and θ̃", `\ensuremath{\tilde{d}} and \ensuremath{\tilde{\theta}}`},
		{"2a–2c — ok…", `2a--2c --- ok\dots{}`},
		{"{x} $1 #2 ~ ^ \\", `\{x\} \$1 \#2 \textasciitilde{} \^{} \textbackslash{}`},
		{"Zürich, Õ", "Zürich, Õ"},
		{"a < b > c", `a \textless{} b \textgreater{} c`},
	} {
		got, err := Escape(tc.in)
		if err != nil {
			t.Errorf("Escape(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A rune without a spelling is an error that names it, never a glyph
// missing from the PDF.
func TestEscapeUnknownRune(t *testing.T) {
	_, err := Escape("a ☃ b")
	if err == nil || !strings.Contains(err.Error(), "U+2603") {
		t.Errorf("Escape of a snowman: error %v, want one naming U+2603", err)
	}
	if _, err := Escape("bad \xff byte"); err == nil {
		t.Error("Escape of invalid UTF-8: no error")
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"**0.687 ± 0.005**", `\textbf{0.687 \ensuremath{\pm} 0.005}`},
		{"see `figures/a_b.md` now", `see \nadbcode{figures/\allowbreak{}a\_b.md} now`},
		{`a \| b`, "a | b"},
		{"unmatched ** and ` stay", "unmatched ** and ` stay"},
		{"2 * 3", "2 * 3"},
		{"", ""},
	} {
		got, err := Markdown(tc.in)
		if err != nil {
			t.Errorf("Markdown(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		got, want string
	}{
		{Num(7.02328), "7.02"},
		{Num(31.1586), "31.2"},
		{Num(0.5), "0.500"},
		{Num(1000), "1000"},
		{Num(1945.3), "1945"},
		{Num(1.7599e-16), `1.76\times 10^{-16}`},
		{Num(1.8451e8), `1.85\times 10^{8}`},
		{Num(-0.0236), "-0.0236"},
		{Num(nan), `\text{n/a}`},
		{PM(7.02328, 0.586413), `7.02 \pm 0.59`},
		{PM(31.1586, 2.09997), `31.2 \pm 2.1`},
		{PM(0.0243, 0.0053), `0.0243 \pm 0.0053`},
		{PM(0.0085, 0.000908), `0.00850 \pm 0.00091`},
		{PM(1945.3, 126.4), `1950 \pm 130`},
		{PM(5.05419, 1.15465), `5.1 \pm 1.2`},
		{PM(0.7071, 0), `0.707 \pm 0`},
		{PM(2.5, nan), "2.50"},
		{P(0.31249), "0.31"},
		{P(2e-5), `< 10^{-4}`},
		{P(1), "1"},
		{PRel(0.0229), "= 0.023"},
		{PRel(3e-10), `< 10^{-4}`},
		{Percent(0.9006), `90\%`},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestSlugAndCurveKey(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Slug("Square, K = 10, varying d"), "square-k-10-varying-d"},
		{Slug("d=5"), "d-5"},
		{Slug("  Sine "), "sine"},
		{curveKey("neural-adb-ucb, random contexts (ours)"), "neural-adb-ucb-randctx"},
		{curveKey("ae-dpo (our interpretation)"), "ae-dpo"},
		{curveKey("random"), "random"},
		{curveKey("neural-adb-target (ours), passive twin (random duels)"), "neural-adb-target-twin"},
		{curveKey("neural-adb-target (ours)"), "neural-adb-target"},
		{curveKey("some-learner (ours)"), "some-learner"},
		{curveKey("width 16"), "width-16"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestMarkdownTables(t *testing.T) {
	doc := "# title\n\n| a | b \\| c |\n|---|---:|\n| 1 | **2** |\n| 3 | 4 |\n\ntext\n\n| x |\n|---|\n"
	ts := markdownTables(doc)
	if len(ts) != 2 {
		t.Fatalf("%d tables, want 2", len(ts))
	}
	if got := strings.Join(ts[0].header, ";"); got != `a;b \| c` {
		t.Errorf("header %q", got)
	}
	if len(ts[0].rows) != 2 || ts[0].rows[0][1] != "**2**" || len(ts[1].rows) != 0 {
		t.Errorf("rows %q and %q", ts[0].rows, ts[1].rows)
	}
}
