package label

import (
	"bytes"
	"encoding/csv"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// acked is an acknowledged answer or skip, as the test saw it.
type acked struct {
	id, labeller, context, arm1, arm2 string
	y                                 float64 // -1 for a skip
	undone                            bool
}

// randomSession drives f with random answers, ties, skips and undos from
// three labellers and returns what the server acknowledged, in order.
func randomSession(t *testing.T, f *fixture, steps int, rng *rand.Rand) []*acked {
	var all []*acked
	stacks := map[string][]*acked{}
	for range steps {
		who := []string{"ann", "bob", "cid"}[rng.IntN(3)]
		switch r := rng.IntN(10); {
		case r == 0:
			st, _ := f.do("POST", "/api/undo", map[string]any{"labeller": who})
			if want := len(stacks[who]) > 0; (st == http.StatusOK) != want {
				t.Fatalf("undo by %s: status %d, but the test expects undo possible = %v", who, st, want)
			}
			if st == http.StatusOK {
				s := stacks[who]
				s[len(s)-1].undone = true
				stacks[who] = s[:len(s)-1]
			}
		default:
			st, q := f.do("GET", "/api/next?labeller="+who, nil)
			if st != http.StatusOK || q["done"] == true {
				t.Fatalf("next for %s: status %d, reply %v", who, st, q)
			}
			a := &acked{id: q["id"].(string), labeller: who, context: q["context"].(string), arm1: q["arm1"].(string), arm2: q["arm2"].(string)}
			if r == 1 {
				a.y = -1
				st, _ = f.do("POST", "/api/skip", map[string]any{"id": a.id})
			} else {
				a.y = []float64{0, 1, 1, 0, 0.5}[rng.IntN(5)]
				st, _ = f.answer(a.id, a.y)
			}
			if st != http.StatusOK {
				t.Fatalf("answer %+v: status %d", a, st)
			}
			all = append(all, a)
			stacks[who] = append(stacks[who], a)
		}
	}
	return all
}

// wantCSV is the answers CSV of the acknowledged answers not undone.
func wantCSV(all []*acked) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"context", "arm1", "arm2", "y", "labeller", "both_bad", "recheck"})
	for _, a := range all {
		if a.y >= 0 && !a.undone {
			w.Write([]string{a.context, a.arm1, a.arm2, formatY(a.y), a.labeller, "0", "0"})
		}
	}
	w.Flush()
	return b.String()
}

func TestReplayEqualsAcknowledged(t *testing.T) {
	f := newFixture(t, bigCatalogue(t), "", Options{})
	all := randomSession(t, f, 150, rand.New(rand.NewPCG(1, 2)))
	want := wantCSV(all)
	var got bytes.Buffer
	if rep, err := ExportLog(f.dir, nil, nil, &got); err != nil || rep != nil {
		t.Fatalf("ExportLog: %v, repair %v", err, rep)
	}
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("exported log differs from the acknowledged answers (-want +got):\n%s", diff)
	}
	sum := f.settle()
	_, prog := f.do("GET", "/api/progress", nil)
	f.close()

	g := newFixture(t, f.cat, f.dir, Options{})
	sum2 := g.settle()
	_, prog2 := g.do("GET", "/api/progress", nil)
	// The live session rebuilt its proposer after undos; the restart built it once.
	delete(sum["learner"].(map[string]any), "rebuilds")
	delete(sum2["learner"].(map[string]any), "rebuilds")
	if diff := cmp.Diff(sum, sum2); diff != "" {
		t.Errorf("summary after replay differs (-live +replayed):\n%s", diff)
	}
	if diff := cmp.Diff(prog, prog2); diff != "" {
		t.Errorf("progress after replay differs (-live +replayed):\n%s", diff)
	}
	resp, err := g.ts.Client().Get(g.ts.URL + "/api/export")
	if err != nil {
		t.Fatal(err)
	}
	got.Reset()
	got.ReadFrom(resp.Body)
	resp.Body.Close()
	if got.String() != want {
		t.Errorf("GET /api/export after replay differs from the acknowledged answers")
	}
	// An answer acknowledged before the restart is still idempotent.
	for _, a := range all {
		if a.y >= 0 && !a.undone {
			if st, r := g.answer(a.id, a.y); st != http.StatusOK || r["repeated"] != true {
				t.Errorf("repeating answer %+v after restart: status %d, reply %v", a, st, r)
			}
			break
		}
	}
	if ev := g.events(); countKind(ev, Start) != 2 {
		t.Errorf("log has %d starts, want 2", countKind(ev, Start))
	}
}

// smallLog writes a log of a start and n answers in a new folder and
// returns the folder and the log's bytes.
func smallLog(t *testing.T, n int) (string, []byte) {
	f := newFixture(t, nil, "", Options{})
	for i := range n {
		f.answer(f.next("ann")["id"], float64(i%2))
	}
	f.close()
	data, err := os.ReadFile(filepath.Join(f.dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	return f.dir, data
}

func TestTornLastLine(t *testing.T) {
	extra := (&Event{Seq: 5, Kind: Answer, Time: time.Unix(0, 0), ID: "1-9", Labeller: "ann",
		Context: "u1", Arm1: "red", Arm2: "blue", C: 0, A1: 0, A2: 2, Y: 1}).marshal()
	tests := []struct {
		name string
		tail []byte
	}{
		{"cut mid-line", extra[:len(extra)/2]},
		{"complete but no newline", extra[:len(extra)-1]},
		{"checksum mismatch", bytes.Replace(extra, []byte(`"ann"`), []byte(`"anm"`), 1)},
		{"zero bytes", make([]byte, 100)},
		{"garbage with newline", []byte("{not json\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, good := smallLog(t, 3) // lines 1–4
			path := filepath.Join(dir, LogName)
			if err := os.WriteFile(path, append(bytes.Clone(good), tc.tail...), 0o644); err != nil {
				t.Fatal(err)
			}
			var msgs bytes.Buffer
			f := newFixture(t, nil, dir, Options{Logger: slog.New(slog.NewTextHandler(&msgs, nil))})
			rep := f.srv.Repair()
			if rep == nil || rep.Line != 5 || rep.File != path || rep.Bytes != len(tc.tail) {
				t.Fatalf("repair %+v; want line 5 of %s, %d bytes", rep, path, len(tc.tail))
			}
			if !strings.Contains(msgs.String(), path+" line 5") {
				t.Errorf("the server's message %q does not name %s line 5", msgs.String(), path)
			}
			kept, err := os.ReadFile(filepath.Join(dir, TornName))
			if err != nil || !bytes.Equal(bytes.TrimRight(kept, "\n"), bytes.TrimRight(tc.tail, "\n")) {
				t.Errorf("saved torn bytes %q, %v; want %q", kept, err, tc.tail)
			}
			ev := f.events()
			if countKind(ev, Answer) != 3 || len(ev) != 5 {
				t.Errorf("log after repair has %d answers in %d lines; want the 3 answers, the old and the new start", countKind(ev, Answer), len(ev))
			}
			if st, _ := f.answer(f.next("bob")["id"], 1); st != http.StatusOK {
				t.Fatalf("answer after repair: status %d", st)
			}
			if ev := f.events(); countKind(ev, Answer) != 4 {
				t.Errorf("log has %d answers after one more, want 4", countKind(ev, Answer))
			}
		})
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(lines [][]byte) [][]byte
		cause string
	}{
		{"flipped byte", func(l [][]byte) [][]byte {
			l[2] = bytes.Replace(l[2], []byte(`"ann"`), []byte(`"anm"`), 1)
			return l
		}, "checksum mismatch"},
		{"missing line", func(l [][]byte) [][]byte { return append(l[:2:2], l[3:]...) }, "sequence number 4; expected 3"},
		{"empty line", func(l [][]byte) [][]byte { l[2] = nil; return l }, "no checksum"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, good := smallLog(t, 4) // lines 1–5
			path := filepath.Join(dir, LogName)
			lines := bytes.SplitAfter(good, []byte("\n"))
			for i := range lines {
				lines[i] = bytes.TrimSuffix(lines[i], []byte("\n"))
			}
			bad := bytes.Join(tc.edit(lines[:5]), []byte("\n"))
			bad = append(bad, '\n')
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := New(testCatalogue(t), roundRobin(testCatalogue(t)), Options{LogDir: dir, Logger: quiet()})
			if err == nil || !strings.Contains(err.Error(), path+" line 3") || !strings.Contains(err.Error(), tc.cause) {
				t.Errorf("New: %v; want an error naming %s line 3: %s", err, path, tc.cause)
			}
			if _, _, err := ReadLog(dir); err == nil || !strings.Contains(err.Error(), "line 3") {
				t.Errorf("ReadLog: %v; want an error naming line 3", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, bad) {
				t.Errorf("a corrupt log was changed")
			}
		})
	}
}

// TestLogOfAnotherCatalogue: a log is refused by New and ExportLog for
// another catalogue, naming the line; ExportLog refuses a folder without a
// log.
func TestLogOfAnotherCatalogue(t *testing.T) {
	dir, _ := smallLog(t, 2)
	other, err := NewTable([]string{"u1", "u2", "u3"}, [][]string{
		{"gold", "blue", "green", "red"}, {"gold", "blue", "green", "red"}, {"a", "b", "c", "d"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(other, roundRobin(other), Options{LogDir: dir, Logger: quiet()})
	if err == nil || !strings.Contains(err.Error(), "another catalogue") || !strings.Contains(err.Error(), " line ") {
		t.Errorf("New with another catalogue: %v; want an error naming the line", err)
	}
	var out strings.Builder
	_, err = ExportLog(dir, other, nil, &out)
	if err == nil || !strings.Contains(err.Error(), "another catalogue") || !strings.Contains(err.Error(), " line ") || out.Len() > 0 {
		t.Errorf("ExportLog with another catalogue: %v, wrote %q; want an error naming the line and nothing written", err, out.String())
	}
	if _, err := ExportLog(filepath.Join(dir, "typo"), nil, nil, &out); err == nil || !strings.Contains(err.Error(), "has no answer log") {
		t.Errorf("ExportLog of a folder without a log: %v; want an error", err)
	}
}

func TestLogLocked(t *testing.T) {
	f := newFixture(t, nil, "", Options{})
	_, err := New(f.cat, roundRobin(f.cat), Options{LogDir: f.dir, Logger: quiet()})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second server on the same log: %v; want an in-use error", err)
	}
}

func TestEventRoundTrip(t *testing.T) {
	at := time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.UTC)
	for _, e := range []Event{
		{Seq: 1, Kind: Start, Time: at, Epoch: 3},
		{Seq: 2, Kind: Answer, Time: at, ID: "3-1", Labeller: "ann", Context: "a,\"b\"\nc", Arm1: "é", Arm2: "</script>", C: 0, A1: 2, A2: 1, Y: 0.5},
		{Seq: 3, Kind: Answer, Time: at, ID: "3-2", Labeller: "ann", Context: "x", Arm1: "p", Arm2: "q", A2: 1, Y: 0},
		{Seq: 4, Kind: Skip, Time: at, ID: "3-3", Labeller: "bob", Context: "x", Arm1: "q", Arm2: "p", A1: 1},
		{Seq: 5, Kind: Undo, Time: at, Labeller: "bob", Undoes: 4},
		{Seq: 6, Kind: Answer, Time: at, ID: "3-4", Labeller: "ann", Context: "x", Arm1: "p", Arm2: "q", A2: 1, Y: 0.5, BothBad: true},
		{Seq: 7, Kind: Answer, Time: at, ID: "3-5", Labeller: "ann", Context: "x", Arm1: "q", Arm2: "p", A1: 1, Y: 1, Recheck: 3},
		{Seq: 8, Kind: Rank, Time: at, ID: "3-6", Labeller: "cid", Context: "x", C: 1, Arms: []string{"p", "r", "q"}, AI: []int{0, 2, 1}, Order: []int{2}},
		{Seq: 9, Kind: Rank, Time: at, ID: "3-7", Labeller: "cid", Context: "x", C: 1, Arms: []string{"p", "r", "q"}, AI: []int{0, 2, 1}, Order: []int{1, 0, 2}},
		{Seq: 10, Kind: Rank, Time: at, ID: "3-8", Labeller: "cid", Context: "x", C: 1, Arms: []string{"p", "r"}, AI: []int{0, 2}, Order: []int{}, BothBad: true},
		{Seq: 11, Kind: Skip, Time: at, ID: "3-9", Labeller: "cid", Context: "x", C: 1, Arms: []string{"p", "r", "q"}, AI: []int{0, 2, 1}},
	} {
		line := e.marshal()
		if bytes.Count(line, []byte("\n")) != 1 || !strings.Contains(string(line), `"v":2,`) {
			t.Errorf("line %q is not one versioned line", line)
		}
		got, err := unmarshal(bytes.TrimSuffix(line, []byte("\n")))
		if err != nil {
			t.Errorf("unmarshal(%q): %v", line, err)
		}
		if diff := cmp.Diff(e, got); diff != "" {
			t.Errorf("round trip of %q (-want +got):\n%s", line, diff)
		}
	}
}

func TestWriteAnswersQuotes(t *testing.T) {
	events := []Event{
		{Seq: 1, Kind: Answer, Context: "a,\"b\"", Arm1: "x y", Arm2: "z", Y: 1, Labeller: "ann"},
		{Seq: 2, Kind: Answer, Context: "c", Arm1: "p", Arm2: "q", Y: 0.5, Labeller: "ann"},
		{Seq: 3, Kind: Skip, Context: "c", Arm1: "p", Arm2: "q"},
		{Seq: 4, Kind: Answer, Context: "c", Arm1: "q", Arm2: "p", Y: 0},
		{Seq: 5, Kind: Undo, Undoes: 4},
		{Seq: 6, Kind: Answer, Context: "c", Arm1: "p", Arm2: "r", Y: 0.5, BothBad: true, Labeller: "bob"},
		{Seq: 7, Kind: Answer, Context: "c", Arm1: "q", Arm2: "p", Y: 0, Recheck: 2, Labeller: "ann"},
		{Seq: 8, Kind: Rank, Context: "c", Arms: []string{"p", "r", "q"}, AI: []int{0, 2, 1}, Order: []int{2, 0}, Labeller: "cid"},
		{Seq: 9, Kind: Rank, Context: "d", Arms: []string{"u", "v", "w"}, AI: []int{0, 1, 2}, Order: []int{1}, Labeller: "cid"},
		{Seq: 10, Kind: Rank, Context: "e", Arms: []string{"u", "v", "w"}, AI: []int{0, 1, 2}, Order: []int{}, BothBad: true, Labeller: "dan"},
	}
	var b bytes.Buffer
	if err := WriteAnswers(&b, events); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"context", "arm1", "arm2", "y", "labeller", "both_bad", "recheck"},
		{"a,\"b\"", "x y", "z", "1", "ann", "0", "0"}, {"c", "p", "q", "0.5", "ann", "0", "0"},
		{"c", "p", "r", "0.5", "bob", "1", "0"}, {"c", "q", "p", "0", "ann", "0", "1"},
		// The ranking q > p > r and the choice of v as the best of u, v, w.
		{"c", "q", "p", "1", "cid", "0", "0"}, {"c", "q", "r", "1", "cid", "0", "0"}, {"c", "p", "r", "1", "cid", "0", "0"},
		{"d", "v", "u", "1", "cid", "0", "0"}, {"d", "v", "w", "1", "cid", "0", "0"},
		// Every arm bad.
		{"e", "u", "v", "0.5", "dan", "1", "0"}, {"e", "u", "w", "0.5", "dan", "1", "0"}, {"e", "v", "w", "0.5", "dan", "1", "0"}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("answers CSV (-want +got):\n%s", diff)
	}
}
