package label

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAnswerStatuses(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	q := f.next("ann")
	for _, key := range []string{"context", "arm1", "arm2", "context_label", "arm1_label", "arm2_label", "score", "sigma", "progress"} {
		if _, ok := q[key]; !ok {
			t.Errorf("next reply lacks %q: %v", key, q)
		}
	}
	if again := f.next("ann"); again["id"] != q["id"] {
		t.Errorf("asking again gave query %v, want the pending %v", again["id"], q["id"])
	}
	if st, r := f.answer(q["id"], 1); st != http.StatusOK || r["repeated"] != false {
		t.Fatalf("answer: status %d, reply %v", st, r)
	}
	if st, r := f.answer(q["id"], 1); st != http.StatusOK || r["repeated"] != true {
		t.Errorf("repeated identical answer: status %d, reply %v; want 200, repeated", st, r)
	}
	if st, r := f.answer(q["id"], 0); st != http.StatusConflict || r["field"] != "id" {
		t.Errorf("different answer to an answered query: status %d, reply %v; want 409", st, r)
	}
	if st, r := f.do("POST", "/api/skip", map[string]any{"id": q["id"]}); st != http.StatusConflict {
		t.Errorf("skip of an answered query: status %d, reply %v; want 409", st, r)
	}
	if st, _ := f.answer("9-99", 1); st != http.StatusNotFound {
		t.Errorf("unknown id: status %d, want 404", st)
	}
	if n := countKind(f.events(), Answer); n != 1 {
		t.Errorf("log has %d answers, want 1 (repeats are not logged)", n)
	}
	s := f.next("ann")
	if st, _ := f.do("POST", "/api/skip", map[string]any{"id": s["id"]}); st != http.StatusOK {
		t.Errorf("skip: status %d", st)
	}
	if st, r := f.do("POST", "/api/skip", map[string]any{"id": s["id"]}); st != http.StatusOK || r["repeated"] != true {
		t.Errorf("repeated skip: status %d, reply %v", st, r)
	}
	if st, _ := f.answer(s["id"], 1); st != http.StatusConflict {
		t.Errorf("answer to a skipped query: status %d, want 409", st)
	}
}

func TestBadInput(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	id := f.next("ann")["id"].(string)
	tests := []struct {
		name, method, path string
		body               any
		ctype              string
		status             int
		field              string
	}{
		{"labeller missing", "GET", "/api/next", nil, "", 400, "labeller"},
		{"labeller invalid", "GET", "/api/next?labeller=a%20b", nil, "", 400, "labeller"},
		{"labeller too long", "GET", "/api/next?labeller=" + strings.Repeat("x", 65), nil, "", 400, "labeller"},
		{"not JSON content type", "POST", "/api/answer", `{"id":"` + id + `","y":1}`, "text/plain", 415, "Content-Type"},
		{"not JSON", "POST", "/api/answer", `id=1`, "", 400, "body"},
		{"unknown field", "POST", "/api/answer", map[string]any{"id": id, "y": 1, "z": 2}, "", 400, "z"},
		{"y a string", "POST", "/api/answer", `{"id":"` + id + `","y":"1"}`, "", 400, "y"},
		{"id a number", "POST", "/api/answer", `{"id":3,"y":1}`, "", 400, "id"},
		{"y out of range", "POST", "/api/answer", map[string]any{"id": id, "y": 0.7}, "", 400, "y"},
		{"id missing", "POST", "/api/answer", map[string]any{"y": 1}, "", 400, "id"},
		{"y missing", "POST", "/api/answer", map[string]any{"id": id}, "", 400, "y"},
		{"an array", "POST", "/api/answer", `[1]`, "", 400, "body"},
		{"nested arrays", "POST", "/api/skip", `[[[[1]]]]`, "", 400, "body"},
		{"a number", "POST", "/api/undo", `3`, "", 400, "body"},
		{"a string", "POST", "/api/answer", `"x"`, "", 400, "body"},
		{"trailing data", "POST", "/api/answer", `{"id":"` + id + `","y":1} {}`, "", 400, "body"},
		{"too large", "POST", "/api/answer", `{"id":"` + strings.Repeat("x", maxBody) + `","y":1}`, "", 413, "body"},
		{"skip id missing", "POST", "/api/skip", map[string]any{}, "", 400, "id"},
		{"undo labeller missing", "POST", "/api/undo", map[string]any{}, "", 400, "labeller"},
		{"undo labeller invalid", "POST", "/api/undo", map[string]any{"labeller": "<b>"}, "", 400, "labeller"},
		{"unknown endpoint", "GET", "/api/nothing", nil, "", 404, ""},
	}
	for _, tc := range tests {
		var hdr []string
		if tc.ctype != "" {
			hdr = []string{"Content-Type", tc.ctype}
		}
		st, r := f.do(tc.method, tc.path, tc.body, hdr...)
		if st != tc.status || tc.field != "" && r["field"] != tc.field {
			t.Errorf("%s: status %d, reply %v; want %d naming field %q", tc.name, st, r, tc.status, tc.field)
		}
		if r["error"] == nil {
			t.Errorf("%s: reply %v has no error message", tc.name, r)
		}
		if msg := fmt.Sprint(r["error"]); strings.Contains(msg, "struct") || strings.Contains(msg, "*string") {
			t.Errorf("%s: error %q shows a Go type", tc.name, msg)
		}
	}
	if st, _ := f.do("GET", "/api/answer", nil); st != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/answer: status %d, want 405", st)
	}
	if n := countKind(f.events(), Answer); n != 0 {
		t.Errorf("bad input logged %d answers", n)
	}
}

func TestExpiryAndSupersede(t *testing.T) {
	one, err := NewTable([]string{"c"}, [][]string{{"x", "y"}}) // a single duel
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, one, "", Options{LabellerTimeout: time.Minute})
	a := f.next("ann")
	if st, r := f.do("GET", "/api/next?labeller=bob", nil); st != http.StatusServiceUnavailable {
		t.Fatalf("bob while ann holds the only duel: status %d, reply %v; want 503", st, r)
	}
	f.clock.advance(2 * time.Minute)
	b := f.next("bob")
	if b["id"] == a["id"] {
		t.Fatalf("bob got ann's expired ticket %v", a["id"])
	}
	if st, _ := f.answer(a["id"], 1); st != http.StatusConflict {
		t.Errorf("late answer to a superseded query: status %d, want 409", st)
	}
	if st, _ := f.answer(b["id"], 0); st != http.StatusOK {
		t.Errorf("bob's answer: status %d", st)
	}
	// An expired query that nobody else took is still accepted.
	c := f.next("cid")
	f.clock.advance(2 * time.Minute)
	if st, _ := f.answer(c["id"], 1); st != http.StatusOK {
		t.Errorf("late answer to an expired, not reissued query: status %d, want 200", st)
	}
}

func TestUndo(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	if st, _ := f.do("POST", "/api/undo", map[string]any{"labeller": "ann"}); st != http.StatusConflict {
		t.Errorf("undo with nothing to undo: status %d, want 409", st)
	}
	q1 := f.next("ann")
	f.answer(q1["id"], 1)
	q2 := f.next("ann")
	f.answer(q2["id"], 0.5)
	q3 := f.next("ann") // pending; released by the undo
	st, r := f.do("POST", "/api/undo", map[string]any{"labeller": "ann"})
	u, _ := r["undone"].(map[string]any)
	if st != http.StatusOK || u["id"] != q2["id"] || u["y"] != 0.5 {
		t.Fatalf("undo: status %d, reply %v; want the tie of %v", st, r, q2["id"])
	}
	if st, _ := f.answer(q2["id"], 0.5); st != http.StatusConflict {
		t.Errorf("answer to an undone query: status %d, want 409", st)
	}
	if st, _ := f.answer(q3["id"], 1); st != http.StatusConflict {
		t.Errorf("answer to the query released by the undo: status %d, want 409", st)
	}
	again := f.next("ann")
	if again["context"] != q2["context"] || again["arm1"] != q2["arm1"] || again["arm2"] != q2["arm2"] || again["id"] == q2["id"] {
		t.Errorf("after undo, next is %v; want the undone duel of %v under a new id", again, q2)
	}
	if st, r = f.do("POST", "/api/undo", map[string]any{"labeller": "ann"}); st != http.StatusOK {
		t.Fatalf("second undo: status %d, reply %v", st, r)
	}
	if id := r["undone"].(map[string]any)["id"]; id != q1["id"] {
		t.Errorf("second undo undid %v, want %v", id, q1["id"])
	}
	_, p := f.do("GET", "/api/progress?labeller=ann", nil)
	if p["answered"] != 0.0 || p["undone"] != 2.0 || p["mine"] != 0.0 {
		t.Errorf("progress after two undos: %v", p)
	}
	// The proposer was rebuilt without the undone strict answer.
	s := f.settle()
	for _, c := range s["contexts"].([]any) {
		if q := c.(map[string]any)["queries"]; q != 0.0 {
			t.Errorf("summary after undoing every answer: %v queries in %v", q, c)
		}
	}
	ev := f.events()
	if countKind(ev, Undo) != 2 || countKind(ev, Answer) != 2 {
		t.Errorf("log has %d undos and %d answers, want 2 and 2", countKind(ev, Undo), countKind(ev, Answer))
	}
}

func TestBudget(t *testing.T) {
	f := newFixture(t, nil, "", Options{Budget: 3})
	a, b := f.next("ann"), f.next("bob")
	f.next("cid")
	if st, _ := f.do("GET", "/api/next?labeller=dan", nil); st != http.StatusServiceUnavailable {
		t.Errorf("dan when the rest of the budget is shown to others: status %d, want 503", st)
	}
	f.answer(a["id"], 1)
	f.answer(b["id"], 0)
	_, p := f.do("GET", "/api/progress", nil)
	if p["remaining"] != 1.0 || p["budget"] != 3.0 || p["answered"] != 2.0 || p["pending"] != 1.0 {
		t.Errorf("progress: %v; want 2 answered, 1 pending, 1 remaining of 3", p)
	}
	c := f.next("cid")
	f.answer(c["id"], 0.5)
	st, r := f.do("GET", "/api/next?labeller=ann", nil)
	if st != http.StatusOK || r["done"] != true {
		t.Errorf("next after the budget: status %d, reply %v; want done", st, r)
	}
}

func TestConcurrentLabellersDistinct(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	const labellers, rounds = 8, 10
	for round := range rounds {
		held := make([]map[string]any, labellers)
		var wg sync.WaitGroup
		for i := range labellers {
			wg.Go(func() {
				_, held[i] = f.do("GET", fmt.Sprintf("/api/next?labeller=l%d", i), nil)
			})
		}
		wg.Wait()
		seen := map[string]string{}
		for i, q := range held {
			if q["id"] == nil {
				t.Fatalf("round %d: labeller %d got %v", round, i, q)
			}
			a1, a2 := q["arm1"].(string), q["arm2"].(string)
			key := q["context"].(string) + "/" + min(a1, a2) + "/" + max(a1, a2)
			if other, dup := seen[key]; dup {
				t.Errorf("round %d: labellers %s and l%d both hold duel %s", round, other, i, key)
			}
			seen[key] = fmt.Sprintf("l%d", i)
		}
		for i := range labellers {
			wg.Go(func() {
				if st, r := f.answer(held[i]["id"], float64(i%2)); st != http.StatusOK {
					t.Errorf("round %d: answer of l%d: status %d, reply %v", round, i, st, r)
				}
			})
		}
		wg.Wait()
	}
	if n := countKind(f.events(), Answer); n != labellers*rounds {
		t.Errorf("log has %d answers, want %d", n, labellers*rounds)
	}
}

func TestSummary(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	_, s := f.do("GET", "/api/summary", nil)
	c0 := s["contexts"].([]any)[0].(map[string]any)
	if c0["policy"] != nil || c0["policy_index"] != -1.0 {
		t.Errorf("policy before any answer: %v, want null", c0)
	}
	q := f.next("ann")
	f.answer(q["id"], 1)
	_, s = f.do("GET", "/api/summary", nil)
	for _, c := range s["contexts"].([]any) {
		c := c.(map[string]any)
		if c["context"] != q["context"] {
			continue
		}
		if c["policy"] != q["arm1"] || c["queries"] != 1.0 {
			t.Errorf("summary of %v after arm1 won: %v", q, c)
		}
	}
}

// TestStaleIDs: a query that is no longer pending because the server
// restarted, or because its new labeller was forgotten (prune), gets 409
// (ask for the next query), as doc.go says, not 404; an id never issued
// still gets 404.
func TestStaleIDs(t *testing.T) {
	f := newFixture(t, nil, "", Options{LabellerTimeout: time.Minute})
	a := f.next("ann")
	f.close()
	g := newFixture(t, f.cat, f.dir, Options{LabellerTimeout: time.Minute})
	if st, r := g.answer(a["id"], 1); st != http.StatusConflict || r["field"] != "id" {
		t.Errorf("answer to a query pending at a restart: %d %v, want 409", st, r)
	}
	if st, r := g.do("POST", "/api/skip", map[string]any{"id": a["id"]}); st != http.StatusConflict {
		t.Errorf("skip of a query pending at a restart: %d %v, want 409", st, r)
	}
	b := g.next("bob") // a new labeller, forgotten once the query long expired
	g.clock.advance(3 * time.Minute)
	g.srv.sess.mu.Lock()
	g.srv.sess.prune(g.clock.Now())
	g.srv.sess.mu.Unlock()
	if st, r := g.answer(b["id"], 1); st != http.StatusConflict {
		t.Errorf("answer to a pruned query: %d %v, want 409", st, r)
	}
	for _, id := range []string{"2-2", "3-1", "0-1", "2-0", "x", "1-x"} {
		if st, r := g.answer(id, 1); st != http.StatusNotFound {
			t.Errorf("answer to id %q never issued: %d %v, want 404", id, st, r)
		}
	}
}

// TestAnswerLabeller: an answer or skip that names its labeller is refused
// (409) for another labeller's query and changes nothing; without a
// labeller any client may answer (the trust model of doc.go).
func TestAnswerLabeller(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	a, b := f.next("ann"), f.next("bob")
	if st, r := f.do("POST", "/api/answer", map[string]any{"id": a["id"], "labeller": "bob", "y": 1}); st != http.StatusConflict || r["field"] != "labeller" {
		t.Errorf("bob answers ann's query: %d %v, want 409 naming labeller", st, r)
	}
	if st, r := f.do("POST", "/api/skip", map[string]any{"id": a["id"], "labeller": "bob"}); st != http.StatusConflict || r["field"] != "labeller" {
		t.Errorf("bob skips ann's query: %d %v, want 409 naming labeller", st, r)
	}
	if st, r := f.do("POST", "/api/answer", map[string]any{"id": a["id"], "labeller": "<b>", "y": 1}); st != http.StatusBadRequest || r["field"] != "labeller" {
		t.Errorf("an invalid labeller: %d %v, want 400 naming labeller", st, r)
	}
	if n := len(keptAnswers(f.events())) + countKind(f.events(), Skip); n != 0 {
		t.Fatalf("refused answers logged %d events", n)
	}
	if st, r := f.do("POST", "/api/answer", map[string]any{"id": a["id"], "labeller": "ann", "y": 1}); st != http.StatusOK {
		t.Errorf("ann answers her query: %d %v", st, r)
	}
	if st, r := f.do("POST", "/api/skip", map[string]any{"id": b["id"]}); st != http.StatusOK {
		t.Errorf("a skip without a labeller: %d %v, want 200", st, r)
	}
	for _, e := range f.events() {
		if e.ID == a["id"] && e.Labeller != "ann" || e.ID == b["id"] && e.Labeller != "bob" {
			t.Errorf("event %+v under the wrong labeller", e)
		}
	}
}
