package label

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// browserDisplay writes a display file with a picture per context and a
// colour swatch per arm, and labels that look like HTML.
func browserDisplay(t *testing.T) string {
	dir := t.TempDir()
	swatch := func(name string, c color.RGBA, w, h int) {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				k := uint8(255 * x / w / 3)
				img.Set(x, y, color.RGBA{max(c.R, k), max(c.G, k), max(c.B, k), 255})
			}
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
	}
	colours := map[string]color.RGBA{"red": {200, 40, 40, 255}, "green": {40, 160, 60, 255},
		"blue": {40, 80, 200, 255}, "gold": {220, 170, 30, 255}}
	for name, c := range colours {
		swatch(name+".png", c, 160, 90)
	}
	swatch("scene.png", color.RGBA{90, 90, 110, 255}, 300, 60)
	var rows strings.Builder
	rows.WriteString("context,arm,label,image\n")
	for _, u := range []string{"u1", "u2", "u3"} {
		rows.WriteString(u + `,,"Which colour suits <i>` + u + `</i> best? (""quotes"" & <ampersands>)",scene.png` + "\n")
	}
	rows.WriteString(`u1,red,<b>Red</b>: warm,red.png` + "\n" +
		`u1,green,"<img src=x onerror=""document.title='pwned'"">",green.png` + "\n" +
		"u1,blue,Blue,blue.png\nu1,gold,Gold,gold.png\n")
	path := filepath.Join(dir, "display.csv")
	if err := os.WriteFile(path, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserKeyboard labels 20 queries with the keyboard in headless
// Chromium (with one skip and one undo on the way) and checks the log, the
// escaping of labels in the page and the token's use for images. Set
// LABEL_SCREENSHOT_DIR to keep the screenshots.
func TestBrowserKeyboard(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (Debian: apt-get install chromium chromium-driver, or make test-browser)")
	}
	driver, err := exec.LookPath("chromedriver")
	if err != nil {
		t.Skip("chromedriver is not installed (Debian: apt-get install chromium-driver, or make test-browser)")
	}
	shots := os.Getenv("LABEL_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	} else if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	const token = "browser-test-token-0123"
	f := newFixture(t, nil, "", Options{DisplayFile: browserDisplay(t), Token: token, Budget: 40})
	w := startWebDriver(t, chromium, driver)
	w.open(f.ts.URL + "/?labeller=ann&token=" + token)
	w.waitFor("the first query", "return !!document.body.dataset.qid")
	w.waitFor("the images", "return ['context-img', 'left-img', 'right-img'].every((id) => document.getElementById(id).complete)")

	// Labels are text, never markup.
	var dom struct {
		Context, Title string
		Markup         int
		Images         []int
	}
	w.eval(`const q = (s) => document.querySelector(s);
		return {context: q('#context-label').textContent, title: document.title,
			markup: document.querySelectorAll('#duel b, #duel i, #duel img:not([id])').length,
			images: ['context-img', 'left-img', 'right-img'].map((id) => document.getElementById(id).naturalWidth)};`, &dom)
	if !strings.HasPrefix(dom.Context, "Which colour suits <i>u") || dom.Markup != 0 || dom.Title != "Which is better?" {
		t.Errorf("page shows context %q, %d elements made from labels, title %q; want the label as text", dom.Context, dom.Markup, dom.Title)
	}
	if dom.Images[0] != 300 {
		t.Errorf("context image natural widths %v; want 300 (loaded with the token)", dom.Images)
	}
	w.screenshot(filepath.Join(shots, "label-page.png"))

	arrows := map[string]float64{"\uE012": 1, "\uE014": 0, "t": 0.5}
	keys := []string{"\uE012", "\uE014", "t", "\uE012", "\uE012", "u", "\uE014", "s", "\uE012", "t",
		"\uE014", "\uE014", "\uE012", "t", "\uE012", "\uE014", "\uE012", "\uE012", "\uE014", "t", "\uE012", "\uE014", "\uE012"}
	var want []float64 // kept answers in order
	for i, k := range keys {
		before := w.evalString("return document.body.dataset.qid")
		w.key(k)
		w.waitFor("the query after key "+strings.ToValidUTF8(k, "?"),
			"return !document.body.dataset.busy && document.body.dataset.qid !== "+jsString(before))
		switch y, isAnswer := arrows[k]; {
		case isAnswer:
			want = append(want, y)
		case k == "u":
			want = want[:len(want)-1]
		}
		if i == 12 {
			w.screenshot(filepath.Join(shots, "label-page-later.png"))
		}
	}
	if len(want) != 20 {
		t.Fatalf("the key sequence keeps %d answers, want 20", len(want))
	}
	events := f.events()
	var got []float64
	for _, e := range keptAnswers(events) {
		if e.Labeller != "ann" {
			t.Errorf("answer %+v by %q, want ann", e, e.Labeller)
		}
		got = append(got, e.Y)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logged answers differ from the keys pressed (-want +got):\n%s", diff)
	}
	if countKind(events, Skip) != 1 || countKind(events, Undo) != 1 {
		t.Errorf("log has %d skips and %d undos, want 1 and 1", countKind(events, Skip), countKind(events, Undo))
	}
	if p := w.evalString("return document.getElementById('progress').textContent"); !strings.Contains(p, "answered 20") {
		t.Errorf("progress shows %q, want 20 answered", p)
	}

	w.open(f.ts.URL + "/summary?labeller=ann&token=" + token)
	w.waitFor("the summary", "return document.body.dataset.ready === '1'")
	if n := w.evalString("return String(document.querySelectorAll('#policy tbody tr').length)"); n != "3" {
		t.Errorf("summary has %s rows, want 3", n)
	}
	w.screenshot(filepath.Join(shots, "label-summary.png"))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
