package label

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// testCatalogue has 3 contexts of 4 arms (18 duels).
func testCatalogue(t testing.TB) *Table {
	t.Helper()
	arms := []string{"red", "green", "blue", "gold"}
	cat, err := NewTable([]string{"u1", "u2", "u3"}, [][]string{arms, arms, arms})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// bigCatalogue has 10 contexts of 5 arms (100 duels).
func bigCatalogue(t testing.TB) *Table {
	t.Helper()
	ids := make([]string, 10)
	arms := make([][]string, 10)
	for c := range ids {
		ids[c] = fmt.Sprintf("ctx%d", c)
		arms[c] = []string{"a", "b", "c", "d", "e"}
	}
	cat, err := NewTable(ids, arms)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// clock is a settable clock for tests.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

type fixture struct {
	t     testing.TB
	cat   Catalogue
	srv   *Server
	ts    *httptest.Server
	dir   string
	clock *clock
}

// roundRobin returns a proposer constructor over cat with seed 7.
func roundRobin(cat Catalogue) func() (Proposer, error) {
	return func() (Proposer, error) { return NewRoundRobin(cat, 7), nil }
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// newFixture starts a server on cat (testCatalogue when nil) with a log in
// dir (a new temporary folder when empty).
func newFixture(t testing.TB, cat Catalogue, dir string, opt Options) *fixture {
	t.Helper()
	if cat == nil {
		cat = testCatalogue(t)
	}
	if dir == "" {
		dir = t.TempDir()
	}
	f := &fixture{t: t, cat: cat, dir: dir, clock: newClock()}
	opt.LogDir = dir
	if opt.Now == nil {
		opt.Now = f.clock.Now
	}
	if opt.Logger == nil {
		opt.Logger = quiet()
	}
	srv, err := New(cat, roundRobin(cat), opt)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	f.ts = httptest.NewServer(srv.Handler())
	t.Cleanup(f.close)
	return f
}

func (f *fixture) close() {
	if f.ts != nil {
		f.ts.Close()
		f.srv.Close()
		f.ts = nil
	}
}

// do sends a request (body: nil, a string sent as is, or a value sent as
// JSON) and returns the status and the decoded JSON object of the reply.
func (f *fixture) do(method, path string, body any, header ...string) (int, map[string]any) {
	f.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			f.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, r)
	if err != nil {
		f.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	var m map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(data, &m); err != nil {
			f.t.Fatalf("%s %s: reply %q is not JSON: %v", method, path, data, err)
		}
	}
	return resp.StatusCode, m
}

// next asks for labeller's next query and fails the test unless it gets one.
func (f *fixture) next(labeller string) map[string]any {
	f.t.Helper()
	st, q := f.do("GET", "/api/next?labeller="+labeller, nil)
	if st != http.StatusOK || q["id"] == nil {
		f.t.Fatalf("next for %s: status %d, reply %v", labeller, st, q)
	}
	return q
}

// answer posts y for id and returns the status and reply.
func (f *fixture) answer(id any, y float64) (int, map[string]any) {
	f.t.Helper()
	return f.do("POST", "/api/answer", map[string]any{"id": id, "y": y})
}

// events reads the fixture's log.
func (f *fixture) events() []Event {
	f.t.Helper()
	ev, rep, err := ReadLog(f.dir)
	if err != nil || rep != nil {
		f.t.Fatalf("reading the log: %v, repair %v", err, rep)
	}
	return ev
}

func countKind(events []Event, k Kind) int {
	n := 0
	for _, e := range events {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// settle waits until no rebuild runs and the proposer holds no undone
// answer, and returns the summary.
func (f *fixture) settle() map[string]any {
	f.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		_, s := f.do("GET", "/api/summary", nil)
		l := s["learner"].(map[string]any)
		if l["rebuilding"] == false && l["stale"] == 0.0 {
			return s
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("the proposer was not rebuilt within a minute: %v", l)
		}
	}
}
