package label

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestScoresHiddenAndConfig: the learner's score and σ are null unless
// Options.ShowScores; /api/config tells the page what it needs.
func TestScoresHiddenAndConfig(t *testing.T) {
	for _, show := range []bool{false, true} {
		f := newFixture(t, nil, "", Options{ShowScores: show, Instructions: "Be kind.", Budget: 9})
		q := f.next("ann")
		if (q["score"] != nil) != show || (q["sigma"] != nil) != show {
			t.Errorf("ShowScores %v: score %v, sigma %v", show, q["score"], q["sigma"])
		}
		_, c := f.do("GET", "/api/config", nil)
		if c["show_scores"] != show || c["instructions"] != "Be kind." || c["arms"] != 2.0 || c["budget"] != 9.0 {
			t.Errorf("config %v", c)
		}
	}
	for _, opt := range []Options{{Instructions: "\xff"}, {Instructions: strings.Repeat("x", 70000)}, {Arms: 3, Recheck: 0.1}, {Rank: true}, {Recheck: 0.9}} {
		cat := testCatalogue(t)
		if _, err := New(cat, roundRobin(cat), Options{LogDir: t.TempDir(), Logger: quiet(), Instructions: opt.Instructions, Arms: opt.Arms, Rank: opt.Rank, Recheck: opt.Recheck}); err == nil {
			t.Errorf("New accepted %+v", opt)
		}
	}
}

// TestNoDuelTwice: a labeller is never shown a duel they answered, tied, or
// skipped; when none is left they are done (others still get duels).
func TestNoDuelTwice(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	seen := map[string]bool{}
	for i := range 18 { // testCatalogue has 18 duels
		q := f.next("ann")
		key := q["context"].(string) + "/" + min(q["arm1"].(string), q["arm2"].(string)) + "/" + max(q["arm1"].(string), q["arm2"].(string))
		if seen[key] {
			t.Fatalf("query %d: duel %s shown to ann twice", i, key)
		}
		seen[key] = true
		switch i % 3 {
		case 0:
			f.answer(q["id"], 1)
		case 1:
			f.answer(q["id"], 0.5)
		default:
			f.do("POST", "/api/skip", map[string]any{"id": q["id"]})
		}
	}
	st, r := f.do("GET", "/api/next?labeller=ann", nil)
	if st != http.StatusOK || r["done"] != true || !strings.Contains(r["message"].(string), "not answered or skipped") {
		t.Errorf("ann after every duel: %d %v; want done", st, r)
	}
	if q := f.next("bob"); q["id"] == nil {
		t.Error("bob gets no duel")
	}
}

// TestRecheck: with Options.Recheck, about that share of a labeller's
// queries repeat one of their strict answers, sides swapped; the answer is
// logged with the line of the first, exported with recheck = 1, counted in
// the progress (with agreement) and not fed to the proposer.
func TestRecheck(t *testing.T) {
	f := newFixture(t, bigCatalogue(t), "", Options{Recheck: 0.2, Seed: 3})
	type dk struct{ c, a, b string }
	answers := map[dk]float64{}
	rechecks, agree := 0, 0
	for range 40 {
		q := f.next("ann")
		a1, a2 := q["arm1"].(string), q["arm2"].(string)
		k := dk{q["context"].(string), a1, a2}
		back := dk{k.c, a2, a1}
		if y, ok := answers[back]; ok { // a recheck: the duel with its sides swapped
			rechecks++
			if st, _ := f.answer(q["id"], 1-y); st != http.StatusOK { // the same winner
				t.Fatalf("recheck answer: %d", st)
			}
			agree++
			continue
		}
		if _, ok := answers[k]; ok {
			t.Fatalf("duel %v shown again with the same sides", k)
		}
		answers[k] = float64(len(answers) % 2)
		f.answer(q["id"], answers[k])
	}
	if rechecks < 4 || rechecks > 10 {
		t.Errorf("%d rechecks in 40 queries, want about 20%%", rechecks)
	}
	_, p := f.do("GET", "/api/progress?labeller=ann", nil)
	if p["rechecks"] != float64(rechecks) || p["recheck_agree"] != float64(agree) || p["mine"] != 40.0 {
		t.Errorf("progress %v; want %d rechecks, all agreeing, 40 answers", p, rechecks)
	}
	sum := f.settle()
	if used := sum["learner"].(map[string]any)["used"]; used != float64(40-rechecks) {
		t.Errorf("the proposer used %v answers; want the %d that are no rechecks", used, 40-rechecks)
	}
	n := 0
	for _, e := range f.events() {
		if e.Kind == Answer && e.Recheck != 0 {
			n++
			if orig := f.events()[e.Recheck-1]; orig.Kind != Answer || orig.Arm1 != e.Arm2 || orig.Arm2 != e.Arm1 || orig.Recheck != 0 {
				t.Errorf("recheck %+v of line %d (%+v)", e, e.Recheck, orig)
			}
		}
	}
	rows := exportRows(t, f, "")
	marked := 0
	for _, r := range rows[1:] {
		if r[6] == "1" {
			marked++
		}
	}
	if n != rechecks || marked != rechecks {
		t.Errorf("%d rechecks logged, %d exported as such; want %d", n, marked, rechecks)
	}
}

// exportRows returns the CSV of GET /api/export?scope=scope.
func exportRows(t *testing.T, f *fixture, scope string) [][]string {
	t.Helper()
	resp, err := f.ts.Client().Get(f.ts.URL + "/api/export?scope=" + scope)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rows, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("export: %d %v", resp.StatusCode, err)
	}
	return rows
}

// TestBothBadAndPriorExport: "both bad" is y = ½ with both_bad, distinct
// from a tie in the log, the progress and the export; scope=all exports the
// prior answers first.
func TestBothBadAndPriorExport(t *testing.T) {
	prior := []Record{{Context: "u1", Arm1: "red", Arm2: "gold", Y: 1, Labeller: "old"}}
	f := newFixture(t, nil, "", Options{Prior: prior})
	a, b := f.next("ann"), f.next("bob")
	f.answer(a["id"], 0.5)
	if st, r := f.do("POST", "/api/answer", map[string]any{"id": b["id"], "y": 0.5, "both_bad": true}); st != http.StatusOK {
		t.Fatalf("both bad: %d %v", st, r)
	}
	if st, r := f.do("POST", "/api/answer", map[string]any{"id": b["id"], "y": 0.5}); st != http.StatusConflict {
		t.Errorf("a tie after both bad: %d %v; want 409", st, r)
	}
	if st, r := f.do("POST", "/api/answer", map[string]any{"id": f.next("cid")["id"], "y": 1, "both_bad": true}); st != http.StatusBadRequest || r["field"] != "both_bad" {
		t.Errorf("both bad with y = 1: %d %v", st, r)
	}
	_, p := f.do("GET", "/api/progress", nil)
	if p["ties"] != 1.0 || p["both_bad"] != 1.0 || p["answered"] != 2.0 {
		t.Errorf("progress %v; want 1 tie, 1 both bad", p)
	}
	session, all := exportRows(t, f, "session"), exportRows(t, f, "all")
	if len(session) != 3 || session[1][5] != "0" || session[2][5] != "1" || session[2][3] != "0.5" {
		t.Errorf("session export %v", session)
	}
	if len(all) != 4 || strings.Join(all[1], ",") != "u1,red,gold,1,old,0,0" {
		t.Errorf("export of all answers %v; want the prior answer first", all)
	}
	if st, r := f.do("GET", "/api/export?scope=everything", nil); st != http.StatusBadRequest || r["field"] != "scope" {
		t.Errorf("bad scope: %d %v", st, r)
	}
}

// TestSetsOverAPI: with Options.Arms 3 a query shows three arms; the best,
// a ranking and "all bad" are recorded as rank events and exported as their
// implied duels; bad orders are refused; undo and skip work on sets.
func TestSetsOverAPI(t *testing.T) {
	for _, rank := range []bool{false, true} {
		f := newFixture(t, bigCatalogue(t), "", Options{Arms: 3, Rank: rank})
		q := f.next("ann")
		if q["set"] != true || q["rank"] != rank || len(q["arms"].([]any)) != 3 {
			t.Fatalf("set query %v", q)
		}
		bads := []any{[]int{3}, []int{0, 0, 1}, []int{}, []int{0, 1, 2, 3}}
		if rank { // Options.Rank: a ranking, not only the best
			bads = append(bads, []int{2})
		}
		for _, bad := range bads {
			st, r := f.do("POST", "/api/answer", map[string]any{"id": q["id"], "order": bad})
			if st != http.StatusBadRequest || r["field"] != "order" {
				t.Errorf("rank %v, order %v: %d %v, want 400 naming order", rank, bad, st, r)
			}
		}
		if _, r := f.do("POST", "/api/answer", map[string]any{"id": q["id"], "order": []int{0, 1, 2, 3}}); !strings.Contains(fmt.Sprint(r["error"]), "want 1 (the best of 3), or 2 or 3 (a ranking") {
			t.Errorf("the error for a wrong length says %v", r["error"])
		}
		if st, _ := f.answer(q["id"], 1); st != http.StatusBadRequest {
			t.Errorf("y for a set: status %d, want 400", st)
		}
		order := []int{2}
		if rank {
			order = []int{2, 0, 1}
		}
		if st, r := f.do("POST", "/api/answer", map[string]any{"id": q["id"], "order": order}); st != http.StatusOK {
			t.Fatalf("order %v: %d %v", order, st, r)
		}
		q2 := f.next("ann")
		f.do("POST", "/api/answer", map[string]any{"id": q2["id"], "both_bad": true})
		q3 := f.next("ann")
		if st, _ := f.do("POST", "/api/skip", map[string]any{"id": q3["id"]}); st != http.StatusOK {
			t.Errorf("skip of a set: %d", st)
		}
		st, r := f.do("POST", "/api/undo", map[string]any{"labeller": "ann"})
		if st != http.StatusOK || len(r["undone"].(map[string]any)["arms"].([]any)) != 3 {
			t.Errorf("undo of a skipped set: %d %v", st, r)
		}
		rows := exportRows(t, f, "")
		arms := q["arms"].([]any)
		id := func(i int) string { return arms[i].(map[string]any)["arm"].(string) }
		want := [][]string{{q["context"].(string), id(2), id(0), "1"}, {q["context"].(string), id(2), id(1), "1"}}
		if rank {
			want = [][]string{{q["context"].(string), id(2), id(0), "1"}, {q["context"].(string), id(2), id(1), "1"}, {q["context"].(string), id(0), id(1), "1"}}
		}
		for i, w := range want {
			if got := rows[1+i][:4]; strings.Join(got, ",") != strings.Join(w, ",") {
				t.Errorf("rank %v: export row %d %v, want %v", rank, i, got, w)
			}
		}
		if n := len(rows) - 1 - len(want); n != 3 || rows[len(rows)-1][5] != "1" {
			t.Errorf("rank %v: %d rows for \"all bad\", want its 3 pairs with both_bad", rank, n)
		}
		if used := f.settle()["learner"].(map[string]any)["used"]; used != float64(len(want)) {
			t.Errorf("rank %v: the proposer used %v duels, want %d", rank, used, len(want))
		}
	}
}

// TestClientLimits: one client making up labeller ids gets 429 past
// Options.NewLabellersPerHour, and its labellers hold at most
// Options.ClientReservations queries; another client still gets duels; the
// labeller table forgets ids that never answered.
func TestClientLimits(t *testing.T) {
	f := newFixture(t, bigCatalogue(t), "", Options{ClientReservations: 5, NewLabellersPerHour: 8, LabellerTimeout: time.Minute})
	held := 0
	for i := range 20 {
		st, r := f.do("GET", fmt.Sprintf("/api/next?labeller=bot%d", i), nil)
		switch {
		case st == http.StatusOK:
			held++
		case st != http.StatusTooManyRequests || r["field"] != "labeller":
			t.Fatalf("bot%d: %d %v; want 200 or 429", i, st, r)
		}
	}
	if held != 5 {
		t.Errorf("one client holds %d queries, want the limit of 5", held)
	}
	// The other client: the test server sees every request from 127.0.0.1,
	// so call the handler as if from another address.
	req := httptest.NewRequest("GET", "/api/next?labeller=real", nil)
	req.RemoteAddr = "192.0.2.7:4242"
	req.Host = "127.0.0.1"
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusOK || !bytes.Contains(w.Body.Bytes(), []byte(`"id"`)) {
		t.Errorf("a labeller of another client: %d %s", w.Code, w.Body)
	}
	// The ids refused for holding too many queries were not counted: once
	// the held queries expire, three more new ids pass, the ninth does not.
	f.clock.advance(2 * time.Minute)
	for i := range 3 {
		if st, r := f.do("GET", fmt.Sprintf("/api/next?labeller=late%d", i), nil); st != http.StatusOK {
			t.Errorf("new id %d of the client: %d %v, want 200", 6+i, st, r)
		}
	}
	_, r := f.do("GET", "/api/next?labeller=bot99", nil)
	if !strings.Contains(fmt.Sprint(r["error"]), "new labeller ids in the last hour") {
		t.Errorf("the ninth new id of one client: %v", r)
	}
	// An hour later the made-up ids that never answered are forgotten.
	f.clock.advance(time.Hour + time.Minute)
	f.srv.sess.mu.Lock()
	f.srv.sess.prune(f.clock.Now())
	n := len(f.srv.sess.labellers)
	f.srv.sess.mu.Unlock()
	if n != 0 {
		t.Errorf("%d labellers remembered after their queries expired long ago, want 0", n)
	}
	if st, _ := f.do("GET", "/api/next?labeller=bot100", nil); st != http.StatusOK {
		t.Errorf("a new id an hour later: %d", st)
	}
}
