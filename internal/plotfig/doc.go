// Package plotfig draws the reproduction's figures with gonum/plot: panels of
// mean curves with confidence bands laid out in a grid, a legend outside the
// data areas, and byte-identical PNG, SVG and PDF output for identical inputs.
// It knows nothing of the experiments: callers choose styles and labels.
//
// What a panel can show:
//   - Series: a mean line with an optional 95% band (a closed polygon through
//     the lower envelope and back along the upper one, under the line; gonum
//     has no band plotter), a marker repeated six times along the line at
//     positions staggered between series so that coinciding curves stay
//     visible, and points marked Undefined (no value exists there, such as
//     a bound whose radicand is negative) drawn as crosses in a strip under
//     the panel, below its x axis and labelled "undefined": outside the
//     plotted range, so that they never read as values.
//   - RefLine: a labelled horizontal reference (chance level, a constant
//     model's loss) in a dash pattern no series uses.
//   - Span: a hatched x range, such as where a bound does not exist.
//
// Ticks are at multiples of 1, 2 or 5 × 10^k, 3 to 7 of them, labelled without
// trailing zeros (integers only where Panel.IntX/IntY say so); log axes label
// powers of ten. A linear y range ends at the labelled tick just outside the
// data when that adds at most a tenth of it, and includes Panel.YInclude
// (a metric's best value, so that differences are seen against its scale).
// Legends go right of the grid, below it, or one per row (LegendPlacement);
// Figure.ShareY aligns the y ranges of a column; Title and Watermark mark
// figures that are not results (quick-scale smoke tests).
//
// Print: every text is at least MinFontSize (7 pt; tick labels, legends),
// so a figure drawn TextWidth wide and included at its natural size prints
// readably beside 10-pt text; ReadPDFInfo reads a PDF's page size and text
// sizes back for tests. Panel titles wider than their panel are broken at
// spaces.
//
// Labels may hold mathematics between dollar signs in a small TeX subset
// ($\|z\|_{V_T^{-1}}$, $\lambda_{\min}$, $\sqrt{\tilde{d}/T}$): letters in
// italic, sub- and superscripts lowered and raised at 70% size, Greek letters
// and symbols as Unicode in PNG and SVG. gonum/plot's text.Latex (v0.17.0)
// panics on every subscript and superscript, so the package has its own
// handler. gonum's PDF backend writes text in a single-byte code page (it
// garbles λ and ‖) and cannot select italics, so in PDFs mathematics and
// non-ASCII text are filled glyph outlines taken from the font, and plain
// ASCII text stays text. PDFs render translucent fills as grey, so they use
// the colours pre-mixed with white. The PDF creation and modification dates
// are pinned so that the bytes do not depend on the day.
//
// Colours: Palette is Paul Tol's "muted" qualitative scheme (built to stay
// distinct under colour-vision deficiencies) with black, grey and Okabe–Ito
// orange; Sequential is a light-to-dark ramp for ordered families.
package plotfig
