package label

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The parsers of what a user or a client can send are fuzzed with
// "go test -fuzz FuzzUnmarshalEvent ./label" (and FuzzDisplayFile,
// FuzzAPI); inputs the fuzzer found interesting are kept under
// testdata/fuzz/ and run as ordinary test cases by "go test".

// FuzzUnmarshalEvent: a log line never panics the parser; an accepted line
// marshals back to an event that parses equal.
func FuzzUnmarshalEvent(f *testing.F) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, e := range []Event{
		{Seq: 1, Kind: Start, Time: at, Epoch: 1},
		{Seq: 2, Kind: Answer, Time: at, ID: "1-1", Labeller: "ann", Context: "u1", Arm1: "red", Arm2: "blue", A2: 1, Y: 1},
		{Seq: 3, Kind: Answer, Time: at, ID: "1-2", Labeller: "ann", Context: "u1", Arm1: "red", Arm2: "gold", A2: 3, Y: 0.5, BothBad: true},
		{Seq: 4, Kind: Answer, Time: at, ID: "1-3", Labeller: "ann", Context: "u1", Arm1: "blue", Arm2: "red", A1: 1, Y: 0, Recheck: 2},
		{Seq: 5, Kind: Rank, Time: at, ID: "1-4", Labeller: "bob", Context: "u2", C: 1, Arms: []string{"a", "b", "c"}, AI: []int{0, 1, 2}, Order: []int{2, 0, 1}},
		{Seq: 6, Kind: Skip, Time: at, ID: "1-5", Labeller: "bob", Context: "u2", C: 1, Arms: []string{"a", "b", "c"}, AI: []int{0, 1, 2}},
		{Seq: 7, Kind: Undo, Time: at, Labeller: "bob", Undoes: 6},
	} {
		f.Add(bytes.TrimSuffix(e.marshal(), []byte("\n")))
	}
	f.Add([]byte(`{"v":1,"seq":1,"kind":"start","time":"2026-01-01T00:00:00Z","epoch":1,"crc":"00000000"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := unmarshal(line)
		if err != nil {
			return
		}
		again, err := unmarshal(bytes.TrimSuffix(e.marshal(), []byte("\n")))
		if err != nil {
			t.Fatalf("an accepted line %q marshals to one that is refused: %v", line, err)
		}
		if d := cmp.Diff(e, again); d != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", line, d)
		}
	})
}

// FuzzDisplayFile: a display file never panics the reader; an accepted one
// labels every context and arm with valid UTF-8.
func FuzzDisplayFile(f *testing.F) {
	for _, s := range []string{
		"context,arm,label\nu1,,Hello\nu1,red,Red\n",
		"context,arm,label,image\nu1,red,Red,x.png\n",
		"label,arm,context\nR\xf6d,red,u1\n",
		"context,arm,label\nu9,red,x\n",
		"\xef\xbb\xbfcontext,arm,label\r\nu2,gold,\"multi\nline\"\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "display.csv")
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		ix, err := newIndex(testCatalogue(t))
		if err != nil {
			t.Fatal(err)
		}
		d, err := loadDisplay(path, ix)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		defer d.close()
		for c := range d.arms {
			if !utf8Valid(d.context[c].label) {
				t.Fatalf("context %d label %q is not UTF-8", c, d.context[c].label)
			}
			for _, e := range d.arms[c] {
				if !utf8Valid(e.label) {
					t.Fatalf("arm label %q is not UTF-8", e.label)
				}
			}
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// FuzzAPI: any body to the POST endpoints and any query to GET /api/next
// gets a reply of 2xx, 4xx or 503 (every duel held), never another 5xx or
// a panic, and the export keeps working.
func FuzzAPI(f *testing.F) {
	for _, s := range []string{
		`{"id":"1-1","y":1}`, `{"id":"1-1","y":0.5,"both_bad":true}`, `{"id":"1-1","order":[0]}`,
		`{"id":"1-1"}`, `{"labeller":"ann"}`, `{"id":"1-1","y":"1"}`, `[]`, `{"id":null}`, `{"id":"1-1","order":[99,-1]}`,
	} {
		f.Add("ann", s)
	}
	cat := testCatalogue(f)
	dir := f.TempDir()
	srv, err := New(cat, roundRobin(cat), Options{LogDir: dir, Logger: quiet(), ClientReservations: -1, NewLabellersPerHour: -1})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Close() })
	h := srv.Handler()
	call := func(t *testing.T, method, target, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, target, strings.NewReader(body))
		req.Host = "127.0.0.1"
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 && w.Code != http.StatusServiceUnavailable {
			t.Fatalf("%s %s %q: status %d: %s", method, target, body, w.Code, w.Body)
		}
		return w
	}
	f.Fuzz(func(t *testing.T, labeller, body string) {
		call(t, "GET", "/api/next?labeller="+neturl.QueryEscape(labeller), "")
		for _, p := range []string{"/api/answer", "/api/skip", "/api/undo"} {
			call(t, "POST", p, body)
		}
		call(t, "GET", "/api/progress?labeller="+neturl.QueryEscape(labeller), "")
		if w := call(t, "GET", "/api/export", ""); w.Code != http.StatusOK {
			t.Fatalf("export: %d", w.Code)
		}
	})
}
