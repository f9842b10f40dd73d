package label

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// browserCatalogue has 3 contexts of 6 colours (45 duels).
func browserCatalogue(t *testing.T) *Table {
	t.Helper()
	arms := []string{"red", "green", "blue", "gold", "grey", "pink"}
	cat, err := NewTable([]string{"u1", "u2", "u3"}, [][]string{arms, arms, arms})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// browser starts headless Chromium, or skips the test without it, and
// returns it with the folder for screenshots.
func browser(t *testing.T) (*webDriver, string) {
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
	return startWebDriver(t, chromium, driver), shots
}

const guidelines = "Choose the colour that suits the person best.\n\nIf both are equally good, press T; if neither suits them, press B (both bad).\nSkip (S) when you cannot tell."

// TestBrowserKeyboard labels 20 queries with the keyboard in headless
// Chromium (keys in either case, with a skip, a tie, "both bad" and an undo
// on the way) and checks the log, the escaping of labels in the page, the
// token's use for images, the guidelines, the hidden scores, the "saved"
// confirmation and the progress of the labeller and the session. Set
// LABEL_SCREENSHOT_DIR to keep the screenshots.
func TestBrowserKeyboard(t *testing.T) {
	w, shots := browser(t)
	const token = "browser-test-token-0123"
	f := newFixture(t, browserCatalogue(t), "", Options{DisplayFile: browserDisplay(t), Token: token, Budget: 40, Instructions: guidelines})
	w.open(f.ts.URL + "/?labeller=ann&token=" + token)
	w.waitFor("the first query", "return !!document.body.dataset.qid")
	w.waitFor("the images", "return ['context-img', 'left-img', 'right-img'].every((id) => document.getElementById(id).complete)")

	// Labels are text, never markup; the guidelines are shown on the first
	// visit; the learner's score is not.
	var dom struct {
		Context, Title, Guide, Reason string
		Markup                        int
		Images                        []int
		GuideShown, ReasonShown, Link bool
	}
	w.eval(`const q = (s) => document.querySelector(s);
		return {context: q('#context-label').textContent, title: document.title,
			markup: document.querySelectorAll('#duel b, #duel i, #duel img:not([id])').length,
			images: ['context-img', 'left-img', 'right-img'].map((id) => document.getElementById(id).naturalWidth),
			guide: q('#guide-text').textContent, guideShown: !q('#guide').hidden,
			reason: q('#reason').textContent, reasonShown: !q('#reason').hidden, link: !q('#summary-link').hidden};`, &dom)
	if !strings.HasPrefix(dom.Context, "Which colour suits <i>u") || dom.Markup != 0 || dom.Title != "Which is better?" {
		t.Errorf("page shows context %q, %d elements made from labels, title %q; want the label as text", dom.Context, dom.Markup, dom.Title)
	}
	if dom.Images[0] != 300 {
		t.Errorf("context image natural widths %v; want 300 (loaded with the token)", dom.Images)
	}
	if !dom.GuideShown || !strings.Contains(dom.Guide, "suits the person best") || !strings.Contains(dom.Guide, "press B (both bad)") {
		t.Errorf("guidelines shown %v: %q", dom.GuideShown, dom.Guide)
	}
	if dom.ReasonShown || dom.Reason != "" || dom.Link {
		t.Errorf("scores shown to the labeller (%v, %q) or the summary linked (%v); want them hidden", dom.ReasonShown, dom.Reason, dom.Link)
	}
	w.screenshot(filepath.Join(shots, "label-guidelines.png"))
	w.eval("document.getElementById('guide-close').click(); return true", nil)

	// Keys in either case (Shift and Caps Lock give capitals).
	y := map[string]float64{"\uE012": 1, "\uE014": 0, "t": 0.5, "T": 0.5, "b": 0.5, "B": 0.5}
	keys := []string{"\uE012", "\uE014", "T", "\uE012", "\uE012", "U", "\uE014", "S", "\uE012", "t",
		"\uE014", "b", "\uE012", "t", "\uE012", "\uE014", "\uE012", "B", "\uE014", "t", "\uE012", "\uE014", "\uE012"}
	var want []float64 // kept answers in order
	var wantBad []bool
	for i, k := range keys {
		before := w.evalString("return document.body.dataset.qid")
		w.key(k)
		w.waitFor("the query after key "+strings.ToValidUTF8(k, "?"),
			"return !document.body.dataset.busy && document.body.dataset.qid !== "+jsString(before))
		toast := w.evalString("return document.body.dataset.toast || ''")
		switch v, isAnswer := y[k]; {
		case isAnswer:
			want = append(want, v)
			wantBad = append(wantBad, strings.EqualFold(k, "b"))
			if !strings.HasSuffix(toast, "saved ✓") {
				t.Errorf("after key %q the page confirms %q; want a saved answer", k, toast)
			}
		case k == "U":
			want, wantBad = want[:len(want)-1], wantBad[:len(wantBad)-1]
			if !strings.HasPrefix(toast, "Undone: ") {
				t.Errorf("after undo the page confirms %q", toast)
			}
		}
		if i == 0 {
			w.screenshot(filepath.Join(shots, "label-page-saved.png"))
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
	var gotBad []bool
	seen := map[duel]bool{}
	for _, e := range keptAnswers(events) {
		if e.Labeller != "ann" {
			t.Errorf("answer %+v by %q, want ann", e, e.Labeller)
		}
		if d := duelOf(e.C, e.A1, e.A2); seen[d] {
			t.Errorf("duel %+v shown to ann twice", d)
		} else {
			seen[d] = true
		}
		got, gotBad = append(got, e.Y), append(gotBad, e.BothBad)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logged answers differ from the keys pressed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantBad, gotBad); diff != "" {
		t.Errorf("logged \"both bad\" differ from the keys pressed (-want +got):\n%s", diff)
	}
	if countKind(events, Skip) != 1 || countKind(events, Undo) != 1 {
		t.Errorf("log has %d skips and %d undos, want 1 and 1", countKind(events, Skip), countKind(events, Undo))
	}
	mine := w.evalString("return document.getElementById('progress-mine').textContent")
	session := w.evalString("return document.getElementById('progress-session').textContent")
	if mine != "You: 20 answers (1 skipped)" || session != "Session: 20 of 40 (50%)" {
		t.Errorf("progress shows %q and %q; want 20 of the labeller's answers and half the budget", mine, session)
	}
	w.screenshot(filepath.Join(shots, "label-page.png"))

	w.open(f.ts.URL + "/summary?labeller=ann&token=" + token)
	w.waitFor("the summary", "return document.body.dataset.ready === '1'")
	if n := w.evalString("return String(document.querySelectorAll('#policy tbody tr').length)"); n != "3" {
		t.Errorf("summary has %s rows, want 3", n)
	}
	// 20 answers kept, of which 4 ties and 2 "both bad": the learner used 14.
	if l := w.evalString("return document.getElementById('learner').textContent"); !strings.Contains(l, "The learner has used 14 answers: 0 given before the session (the answers file) and 14 from this session") {
		t.Errorf("summary says %q", l)
	}
	w.screenshot(filepath.Join(shots, "label-summary.png"))
}

// TestBrowserSets labels with three arms at once (the best of 3, number
// keys) and then ranks four (number keys, the last rank implied), and
// checks the log's rankings and the duels they imply.
func TestBrowserSets(t *testing.T) {
	w, shots := browser(t)
	cat := browserCatalogue(t)
	f := newFixture(t, cat, "", Options{DisplayFile: browserDisplay(t), Arms: 3})
	w.open(f.ts.URL + "/?labeller=ann")
	w.waitFor("the first set", "return !!document.body.dataset.qid && document.querySelectorAll('#set .option').length === 3")
	if tie := w.evalString("return String(document.getElementById('tie').hidden)"); tie != "true" {
		t.Error("the tie button is shown for a set")
	}
	w.screenshot(filepath.Join(shots, "label-best-of-3.png"))
	for _, k := range []string{"2", "1", "3"} {
		before := w.evalString("return document.body.dataset.qid")
		w.key(k)
		w.waitFor("the set after key "+k, "return !document.body.dataset.busy && document.body.dataset.qid !== "+jsString(before))
	}
	f.close()
	var orders [][]int
	for _, e := range f.events() {
		if e.Kind == Rank {
			if len(e.Arms) != 3 {
				t.Errorf("rank event with %d arms, want 3", len(e.Arms))
			}
			orders = append(orders, e.Order)
		}
	}
	if diff := cmp.Diff([][]int{{1}, {0}, {2}}, orders); diff != "" {
		t.Errorf("best-of-3 choices (-want +got):\n%s", diff)
	}

	g := newFixture(t, cat, "", Options{DisplayFile: browserDisplay(t), Arms: 4, Rank: true})
	w.open(g.ts.URL + "/?labeller=bob")
	w.waitFor("the first ranking", "return !!document.body.dataset.qid && document.querySelectorAll('#set .option').length === 4")
	w.key("3")
	w.key("1")
	w.waitFor("two ranks", "return document.querySelectorAll('#set .ranked').length === 2")
	badges := w.evalString("return Array.from(document.querySelectorAll('#set .rank-badge')).map((b) => b.textContent).join(',')")
	if badges != "2nd,,1st," {
		t.Errorf("rank badges %q, want 2nd,,1st,", badges)
	}
	w.screenshot(filepath.Join(shots, "label-rank-4.png"))
	before := w.evalString("return document.body.dataset.qid")
	w.key("4")
	w.waitFor("the next ranking", "return !document.body.dataset.busy && document.body.dataset.qid !== "+jsString(before))
	g.close()
	for _, e := range g.events() {
		if e.Kind != Rank {
			continue
		}
		if diff := cmp.Diff([]int{2, 0, 3, 1}, e.Order); diff != "" {
			t.Errorf("ranking (-want +got):\n%s", diff)
		}
		if n := len(e.ImpliedPairs()); n != 6 {
			t.Errorf("a ranking of 4 implies %d duels, want 6", n)
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBrowserHeldKey holds ← down for about a second: the auto-repeated
// keydowns must not answer the duels shown after the first answer.
func TestBrowserHeldKey(t *testing.T) {
	w, _ := browser(t)
	f := newFixture(t, browserCatalogue(t), "", Options{})
	w.open(f.ts.URL + "/?labeller=ann")
	w.waitFor("the first query", "return !!document.body.dataset.qid")
	first := w.evalString("return document.body.dataset.qid")
	w.holdKey(20, 40*time.Millisecond)
	w.waitFor("the query after the held key", "return !document.body.dataset.busy && document.body.dataset.qid !== "+jsString(first))
	time.Sleep(200 * time.Millisecond) // a late repeat would have answered by now
	f.close()
	if n := len(keptAnswers(f.events())); n != 1 {
		t.Errorf("holding ← down for 20 repeats logged %d answers, want 1", n)
	}
}

// TestBrowserRestart restarts the server under an open page, once on the
// same log (the page's query gets 409) and once on a new log (404): a key
// press shows the new server's next query instead of an error.
func TestBrowserRestart(t *testing.T) {
	w, _ := browser(t)
	cat := browserCatalogue(t)
	dir := t.TempDir()
	f := newFixture(t, cat, dir, Options{})
	addr := f.ts.Listener.Addr().String()
	w.open(f.ts.URL + "/?labeller=ann")
	w.waitFor("the first query", "return document.body.dataset.qid === '1-1'")
	restart := func(dir string) *fixture {
		f.close()
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("cannot listen again on %s: %v", addr, err)
		}
		g := &fixture{t: t, cat: cat, dir: dir, clock: newClock()}
		g.srv, err = New(cat, roundRobin(cat), Options{LogDir: dir, Now: g.clock.Now, Logger: quiet()})
		if err != nil {
			t.Fatal(err)
		}
		g.ts = httptest.NewUnstartedServer(g.srv.Handler())
		g.ts.Listener.Close()
		g.ts.Listener = ln
		g.ts.Start()
		t.Cleanup(g.close)
		return g
	}
	for _, tc := range []struct{ dir, want string }{{dir, "2-1"}, {t.TempDir(), "1-1"}} {
		f = restart(tc.dir)
		w.key("\uE012")
		w.waitFor("the new server's query "+tc.want, "return !document.body.dataset.busy && document.body.dataset.qid === "+jsString(tc.want))
		if msg := w.evalString("return document.getElementById('message').textContent"); msg != "" {
			t.Errorf("after the restart the page says %q", msg)
		}
	}
}
