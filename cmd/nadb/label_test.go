package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neural-adb/nadb/internal/poolfile"
	"github.com/neural-adb/nadb/label"
)

// cemsDir writes the CEMS files with "nadb data cems" into a temporary
// folder, and some.csv: the first n answers of answers.csv.
func cemsDir(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(context.Background(), &out, &out, []string{"data", "cems", "-out", dir}); err != nil {
		t.Fatalf("nadb data cems: %v\n%s", err, out.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "answers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(filepath.Join(dir, "some.csv"), []byte(strings.Join(lines[:1+n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// nadb runs the command line in process and returns its stdout, stderr and
// error.
func nadb(args ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, args)
	return stdout.String(), stderr.String(), err
}

// readCSV reads a CSV file with its header.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// readPool reads the pool file and the answers file some.csv of dir.
func readPool(t *testing.T, dir string) (*poolfile.PoolFile, *poolfile.Answers) {
	t.Helper()
	in, err := readPoolInput(filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return in.file, in.answers
}

// small keeps the networks of the tests small and often retrained.
var small = []string{"-width", "16", "-retrain-every", "10"}

// TestSuggestCEMS asks Neural-ADB for 12 queries on the CEMS pool after 300
// recorded answers: they are distinct duels of the pool, with a score and a
// σ, and the skipped ties are reported.
func TestSuggestCEMS(t *testing.T) {
	dir := cemsDir(t, 300)
	pf, ans := readPool(t, dir)
	out := filepath.Join(dir, "next.csv")
	_, stderr, err := nadb(append([]string{"suggest", "-pool", filepath.Join(dir, "pool.csv"), "-answers", filepath.Join(dir, "some.csv"),
		"-algo", "neural-adb-ucb", "-n", "12", "-out", out}, small...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	ties := len(ans.List) - len(ans.Strict())
	if ties == 0 || !strings.Contains(stderr, "skipped "+strconv.Itoa(ties)+" ties") {
		t.Errorf("stderr %q does not report the %d ties skipped", stderr, ties)
	}
	rows := readCSV(t, out)
	if strings.Join(rows[0], ",") != "context,arm1,arm2,score,sigma" || len(rows) != 13 {
		t.Fatalf("suggest wrote %d rows, header %v; want 12 queries", len(rows)-1, rows[0])
	}
	ctxOf := map[string]int{}
	for c, id := range pf.Contexts {
		ctxOf[id] = c
	}
	K := pf.Pool.Arms
	seen := map[[3]string]bool{}
	for _, r := range rows[1:] {
		c, ok := ctxOf[r[0]]
		arms := pf.Arms[c*K : (c+1)*K]
		if !ok || !slices.Contains(arms, r[1]) || !slices.Contains(arms, r[2]) || r[1] == r[2] {
			t.Errorf("query %v is not a duel of the pool", r)
		}
		key := [3]string{r[0], min(r[1], r[2]), max(r[1], r[2])}
		if seen[key] {
			t.Errorf("duel %v suggested twice", r)
		}
		seen[key] = true
		score, err1 := strconv.ParseFloat(r[3], 64)
		sigma, err2 := strconv.ParseFloat(r[4], 64)
		if err1 != nil || err2 != nil || math.IsNaN(score) || !(sigma > 0) {
			t.Errorf("query %v: want a score and σ > 0", r)
		}
	}
}

// TestExportAndModelCEMS exports Neural-ADB's policy on the CEMS pool with its
// model, exports again from the saved model, and checks that every context
// has one policy arm, that the answers are counted, that the loaded model
// gives the same policy and scores, and that it is refused for another pool
// file and another format version.
func TestExportAndModelCEMS(t *testing.T) {
	dir := cemsDir(t, 200)
	pf, ans := readPool(t, dir)
	poolPath, some := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv")
	model, learned, loaded := filepath.Join(dir, "model.json"), filepath.Join(dir, "learned.csv"), filepath.Join(dir, "loaded.csv")
	if _, stderr, err := nadb(append([]string{"export", "-pool", poolPath, "-answers", some, "-algo", "neural-adb-ucb",
		"-out", learned, "-model", model}, small...)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if _, stderr, err := nadb("export", "-pool", poolPath, "-load", model, "-answers", some, "-out", loaded); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	a, b := readCSV(t, learned), readCSV(t, loaded)
	if strings.Join(a[0], ",") != "context,arm,policy,score,sigma,queries" || len(a) != 1+len(pf.Arms) || len(b) != len(a) {
		t.Fatalf("export wrote %d and %d rows, header %v; want 1 + %d", len(a), len(b), a[0], len(pf.Arms))
	}
	K := pf.Pool.Arms
	policies, queries := map[string]int{}, 0
	for i, r := range a[1:] {
		c := i / K
		if r[0] != pf.Contexts[c] || r[1] != pf.Arms[i] {
			t.Fatalf("row %d is %v, want context %s arm %s", i+1, r, pf.Contexts[c], pf.Arms[i])
		}
		if r[2] == "1" {
			policies[r[0]]++
		}
		if i%K == 0 {
			n, _ := strconv.Atoi(r[5])
			queries += n
		}
		if s := b[i+1]; s[0] != r[0] || s[1] != r[1] || s[2] != r[2] || s[3] != r[3] || s[4] != "NaN" || s[5] != r[5] {
			t.Errorf("row %d: loaded model gives %v, learner %v", i+1, s, r)
		}
	}
	if len(policies) != len(pf.Contexts) {
		t.Errorf("%d contexts have a policy arm, want all %d", len(policies), len(pf.Contexts))
	}
	for c, n := range policies {
		if n != 1 {
			t.Errorf("context %s has %d policy arms", c, n)
		}
	}
	if queries != len(ans.Strict()) {
		t.Errorf("export counts %d answers, want the %d strict ones", queries, len(ans.Strict()))
	}

	// Another pool file: one feature value changed.
	text, _ := os.ReadFile(poolPath)
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, bytes.Replace(text, []byte("s1,London,1,"), []byte("s1,London,2,"), 1), 0o644)
	_, _, err := nadb("export", "-pool", other, "-load", model)
	if err == nil || !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "-load") || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("a model of another pool: error %v; want a usage error naming -load and the sha256", err)
	}
	js, _ := os.ReadFile(model)
	v2 := filepath.Join(dir, "v2.json")
	os.WriteFile(v2, bytes.Replace(js, []byte(`"version": 1`), []byte(`"version": 2`), 1), 0o644)
	_, _, err = nadb("export", "-pool", poolPath, "-load", v2)
	if err == nil || !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("a model of format version 2: error %v; want a usage error naming the version", err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeCEMS starts "nadb serve" on the CEMS files, answers a query
// through the API, reads the summary, and stops it as Ctrl-C does.
func TestServeCEMS(t *testing.T) {
	dir := cemsDir(t, 50)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, &stdout, &stderr, []string{"serve", "-pool", filepath.Join(dir, "pool.csv"), "-answers", filepath.Join(dir, "some.csv"),
			"-display", filepath.Join(dir, "display.csv"), "-log", filepath.Join(dir, "log"), "-algo", "apo", "-addr", "127.0.0.1:0"})
	}()
	var page string
	for deadline := time.Now().Add(30 * time.Second); page == ""; time.Sleep(20 * time.Millisecond) {
		if s, ok := strings.CutPrefix(stdout.String(), "labelling page: "); ok {
			page, _, _ = strings.Cut(s, "\n")
		}
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve printed no URL:\n%s", stderr.String())
		}
	}
	get := func(path string, v any) {
		resp, err := http.Get(page + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		if v != nil {
			json.NewDecoder(resp.Body).Decode(v)
		} else {
			io.Copy(io.Discard, resp.Body)
		}
	}
	get("", nil)
	var q struct {
		ID        string
		Arm1Label string `json:"arm1_label"`
	}
	get("api/next?labeller=ann", &q)
	if q.ID == "" || !strings.Contains(q.Arm1Label, "(") {
		t.Fatalf("next query %+v; want an id and a school label of the display file", q)
	}
	resp, err := http.Post(page+"api/answer", "application/json", strings.NewReader(`{"id":"`+q.ID+`","y":1}`))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("answer: %v %v", err, resp)
	}
	resp.Body.Close()
	var sum struct {
		Answered int
		Contexts []struct{ Policy *string }
	}
	get("api/summary", &sum)
	if sum.Answered != 1 || len(sum.Contexts) != 303 || sum.Contexts[0].Policy == nil {
		t.Errorf("summary: %d answered, %d contexts; want 1 and 303 with a policy", sum.Answered, len(sum.Contexts))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after Ctrl-C: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop within 10 s of Ctrl-C")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "log", "answers.jsonl")); err != nil || !strings.Contains(string(b), `"kind":"answer"`) {
		t.Errorf("the log has no answer: %v\n%s", err, b)
	}
}

// TestLabelCommandsBadInput checks that bad input to data, suggest, export
// and serve is a usage error that names the flag or file.
func TestLabelCommandsBadInput(t *testing.T) {
	dir := cemsDir(t, 20)
	pool, some := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv")
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("context,arm1,arm2,y\ns1,London,Atlantis,1\n"), 0o644)
	notModel := filepath.Join(dir, "display.csv")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	latin1Pool := write("latin1.csv", "context,arm,x\nZ\xfcrich,a,1\nZ\xfcrich,b,2\n")
	hugePool := write("huge.csv", "context,arm,x\nc,"+strings.Repeat("y", 100000)+",1\n")
	absurdPool := write("absurd.csv", "context,arm,x,utility\nc,a,1,1e308\nc,b,2,-1e308\n")
	scalePool := write("scale.csv", "context,arm,x,z\nc,a,1,1e300\nc,b,2,-1e300\n")
	latin1Guide := write("guide.txt", "Choose the school you would pick. Gr\xfc\xdfe!\n")
	emptyToken := write("token-empty", "\n")
	nullModel := write("null.json", `{"format": "nadb-model", "version": 1, "algorithm": "random", "kind": "linear", "input_dim": 1, "pool_sha256": "", "seed": 1, "theta": [null], "offset": 0}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"data"}, "cems"},
		{[]string{"data", "shuttle", "-out", dir}, "unknown data set"},
		{[]string{"data", "cems"}, "-out"},
		{[]string{"suggest", "-algo", "apo"}, "-pool"},
		{[]string{"suggest", "-pool", filepath.Join(dir, "nope.csv"), "-algo", "apo"}, "nope.csv"},
		{[]string{"suggest", "-pool", some, "-algo", "apo"}, "-pool"},
		{[]string{"suggest", "-pool", latin1Pool}, `latin1.csv line 2, column 1 (context): the context is not valid UTF-8 (byte 0xfc at byte 2`},
		{[]string{"suggest", "-pool", hugePool}, `huge.csv line 2, column 2 (arm): a field of 100000 bytes, beyond the limit of 64 kB per field: "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"… (100000 bytes)`},
		{[]string{"suggest", "-pool", absurdPool}, `absurd.csv line 2, column 4 (utility): utility "1e308" is beyond ±1e+15`},
		{[]string{"suggest", "-pool", scalePool}, `-pool: ` + scalePool + `: the features span 2 (column "x") to 1e+300 (column "z"): rescale the columns`},
		{[]string{"suggest", "-pool", pool, "-out", dir}, "-out: " + dir + " is a directory"},
		{[]string{"suggest", "-pool", pool, "-algo", "nope"}, "unknown algorithm"},
		{[]string{"suggest", "-pool", pool, "-algo", "apo", "-n", "0"}, "-n"},
		{[]string{"suggest", "-pool", pool, "-algo", "apo", "-answers", bad}, "Atlantis"},
		{[]string{"suggest", "-pool", pool, "-algo", "apo", "-width", "0"}, "width"},
		{[]string{"suggest", "-pool", pool, "-algo", "apo", "stray"}, "stray"},
		{[]string{"export", "-pool", pool, "-algo", "apo"}, "-answers"},
		{[]string{"export", "-pool", pool, "-load", notModel}, "not a model file"},
		{[]string{"export", "-pool", pool, "-load", filepath.Join(dir, "none.json")}, "-load"},
		{[]string{"export", "-pool", pool, "-load", notModel, "-algo", "apo"}, "-algo: not used with -load"},
		{[]string{"export", "-pool", pool, "-load", nullModel}, "theta[0] is null"},
		{[]string{"export", "-pool", pool, "-session", dir, "-algo", "apo"}, "-algo: not used with -session"},
		{[]string{"export", "-pool", pool, "-session", filepath.Join(dir, "sesion-typo")}, "-session: label: " + filepath.Join(dir, "sesion-typo") + " has no answer log answers.jsonl"},
		{[]string{"export", "-pool", pool, "-answers", some, "-model", "-"}, "-model -: the policy goes to stdout too"},
		{[]string{"serve", "-pool", pool}, "-log"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-addr", "0.0.0.0:0"}, "-token"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-token", "short"}, "-token: the token has 5 characters"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-token", "0123456789abcdef", "-token-file", emptyToken}, "-token and -token-file: give one"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-token-file", emptyToken}, "the first line is empty"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-token-file", filepath.Join(dir, "no-token")}, "-token-file"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-instructions", latin1Guide}, "-instructions: " + latin1Guide + " is not valid UTF-8"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-instructions", filepath.Join(dir, "none.txt")}, "-instructions"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-k", "1"}, "-k"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-k", "9"}, "-k 9: the pool has 6 arms"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-rank"}, "-rank"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-recheck", "0.7"}, "-recheck"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-recheck", "0.1", "-k", "3"}, "-recheck"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-client-reservations", "0"}, "-client-reservations"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-addr", "nonsense"}, "-addr"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-budget", "-1"}, "-budget"},
		{[]string{"serve", "-pool", pool, "-log", dir, "-display", bad}, "bad.csv"},
	} {
		_, _, err := nadb(tc.args...)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("nadb %s: error %v; want a usage error naming %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}

// TestLabelDefaultsAndStdout: suggest, export and serve share the default
// learner (label.DefaultLearner); -out - writes to stdout; the token comes
// from NADB_TOKEN too; an export of a session's log with -answers holds the
// file's answers, then the session's.
func TestLabelDefaultsAndStdout(t *testing.T) {
	dir := cemsDir(t, 40)
	pool, some := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv")
	args := append([]string{"suggest", "-pool", pool, "-answers", some, "-n", "3", "-out", "-"}, small...)
	byDefault, _, err := nadb(args...)
	if err != nil {
		t.Fatal(err)
	}
	named, _, err := nadb(append(args, "-algo", label.DefaultLearner)...)
	if err != nil || named != byDefault || strings.Count(byDefault, "\n") != 4 {
		t.Errorf("suggest without -algo:\n%s\nwith -algo %s:\n%s(%v)", byDefault, label.DefaultLearner, named, err)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`-out - made a file named "-"`)
	}

	t.Setenv("NADB_TOKEN", "short")
	if _, _, err := nadb("serve", "-pool", pool, "-log", filepath.Join(dir, "log")); err == nil || !strings.Contains(err.Error(), "NADB_TOKEN: the token has 5 characters") {
		t.Errorf("serve with a short NADB_TOKEN: %v", err)
	}

	// A session log of two answers, exported alone and after the file's.
	sess := filepath.Join(dir, "session")
	if err := os.MkdirAll(sess, 0o755); err != nil {
		t.Fatal(err)
	}
	log := `{"v":2,"seq":1,"kind":"start","time":"2026-01-01T00:00:00Z","epoch":1}` + "\n" +
		`{"v":2,"seq":2,"kind":"answer","time":"2026-01-01T00:00:01Z","id":"1-1","labeller":"ann","context":"s1","arm1":"London","arm2":"Paris","c":0,"a1":0,"a2":1,"y":1}` + "\n" +
		`{"v":2,"seq":3,"kind":"answer","time":"2026-01-01T00:00:02Z","id":"1-2","labeller":"ann","context":"s1","arm1":"London","arm2":"Milano","c":0,"a1":0,"a2":2,"y":0.5,"both_bad":true}` + "\n"
	var b strings.Builder
	for _, line := range strings.SplitAfter(log, "\n") {
		if line == "" {
			continue
		}
		// Sign each line as the server does: CRC-32C of the line up to its
		// last field.
		body := strings.TrimSuffix(strings.TrimSpace(line), "}")
		sum := crc32.Checksum([]byte(body+"}"), crc32.MakeTable(crc32.Castagnoli))
		fmt.Fprintf(&b, "%s,\"crc\":\"%08x\"}\n", body, sum)
	}
	if err := os.WriteFile(filepath.Join(sess, label.LogName), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := nadb("export", "-pool", pool, "-session", sess)
	want := "context,arm1,arm2,y,labeller,both_bad,recheck\ns1,London,Paris,1,ann,0,0\ns1,London,Milano,0.5,ann,1,0\n"
	if err != nil || out != want {
		t.Errorf("export -session: %v %s\n%s\nwant\n%s", err, stderr, out, want)
	}
	all, _, err := nadb("export", "-pool", pool, "-session", sess, "-answers", some)
	if err != nil || !strings.HasSuffix(all, strings.TrimPrefix(want, "context,arm1,arm2,y,labeller,both_bad,recheck\n")) || strings.Count(all, "\n") != 1+40+2 {
		t.Errorf("export -session -answers: %v, %d lines, want the file's 40 answers then the session's 2:\n%s", err, strings.Count(all, "\n"), all)
	}
}

// BenchmarkServeUndo measures a labelling session under the load of the
// hostile-user report, in process over loopback TCP: the CEMS pool with the
// first 400 recorded answers and the default learner, 8 labellers giving
// 2,400 answers, then 600 more while undoing 8% of their answers. It
// reports the throughput of both phases (answers kept per second) and the
// latency percentiles of every request of the undo phase and of the undos
// alone. The README's section on labelling your own data gives its one-off
// measurements, with the rebuild after an undo under the session's lock (as
// before) and in the background. A 503 (the duel chosen for a labeller was meanwhile shown to
// another) is asked again and counted (retries/op).
//
//	go test -run '^$' -bench ServeUndo -benchtime 1x ./cmd/nadb
func BenchmarkServeUndo(b *testing.B) {
	const labellers, warm, undoPhase, undoShare = 8, 2400, 600, 0.08
	var allRetries int64
	for b.Loop() {
		dir := b.TempDir()
		var out bytes.Buffer
		if err := run(context.Background(), &out, &out, []string{"data", "cems", "-out", dir}); err != nil {
			b.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "answers.csv"))
		lines := strings.SplitAfter(string(data), "\n")
		os.WriteFile(filepath.Join(dir, "so-far.csv"), []byte(strings.Join(lines[:401], "")), 0o644)
		in, err := readPoolInput(filepath.Join(dir, "pool.csv"), filepath.Join(dir, "so-far.csv"))
		if err != nil {
			b.Fatal(err)
		}
		var ls learnerSpec
		ls.register(flag.NewFlagSet("bench", flag.ContinueOnError))
		srv, err := label.New(label.PoolCatalogue{File: in.file}, func() (label.Proposer, error) {
			lp, _, err := ls.proposer(context.Background(), in)
			return lp, err
		}, label.Options{LogDir: filepath.Join(dir, "log"), Logger: slog.New(slog.DiscardHandler), ClientReservations: -1, NewLabellersPerHour: -1})
		if err != nil {
			b.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		client := &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: labellers}}
		phase := func(name string, total int, share float64) (perSec float64, lat map[string][]time.Duration) {
			lat = map[string][]time.Duration{}
			var mu sync.Mutex
			var kept, retries atomic.Int64
			record := func(kind string, d time.Duration) {
				mu.Lock()
				lat[kind] = append(lat[kind], d)
				mu.Unlock()
			}
			start := time.Now()
			var wg sync.WaitGroup
			for i := range labellers {
				wg.Go(func() {
					rng := rand.New(rand.NewPCG(uint64(i), uint64(len(name))))
					who := fmt.Sprintf("%s%d", name, i)
					for kept.Load() < int64(total) {
						t0 := time.Now()
						resp, err := client.Get(ts.URL + "/api/next?labeller=" + who)
						if err != nil {
							b.Error(err)
							return
						}
						var q struct{ ID string }
						json.NewDecoder(resp.Body).Decode(&q)
						resp.Body.Close()
						record("next", time.Since(t0))
						if resp.StatusCode == http.StatusServiceUnavailable {
							// The duel chosen was meanwhile shown to another
							// labeller: ask again, as a client must (after a
							// millisecond, not the reply's Retry-After).
							retries.Add(1)
							time.Sleep(time.Millisecond)
							continue
						}
						if q.ID == "" {
							b.Errorf("%s: next: %s", who, resp.Status)
							return
						}
						t0 = time.Now()
						resp, err = client.Post(ts.URL+"/api/answer", "application/json", strings.NewReader(fmt.Sprintf(`{"id":%q,"y":%d}`, q.ID, rng.IntN(2))))
						if err != nil {
							b.Error(err)
							return
						}
						resp.Body.Close()
						record("answer", time.Since(t0))
						kept.Add(1)
						if rng.Float64() < share {
							t0 = time.Now()
							resp, err = client.Post(ts.URL+"/api/undo", "application/json", strings.NewReader(fmt.Sprintf(`{"labeller":%q}`, who)))
							if err != nil {
								b.Error(err)
								return
							}
							resp.Body.Close()
							record("undo", time.Since(t0))
							kept.Add(-1)
						}
					}
				})
			}
			wg.Wait()
			allRetries += retries.Load()
			return float64(kept.Load()) / time.Since(start).Seconds(), lat
		}
		warmRate, warmLat := phase("w", warm, 0)
		var warmAll []time.Duration
		for _, d := range warmLat {
			warmAll = append(warmAll, d...)
		}
		undoRate, lat := phase("u", undoPhase, undoShare)
		var all []time.Duration
		for _, d := range lat {
			all = append(all, d...)
		}
		pct := func(d []time.Duration, q float64) float64 {
			slices.Sort(d)
			return float64(d[int(float64(len(d)-1)*q)]) / 1e6
		}
		b.ReportMetric(warmRate, "warm-answers/s")
		b.ReportMetric(pct(warmAll, 0.99), "warm-p99-ms")
		b.ReportMetric(undoRate, "undo-answers/s")
		b.ReportMetric(pct(all, 0.5), "p50-ms")
		b.ReportMetric(pct(all, 0.99), "p99-ms")
		b.ReportMetric(pct(lat["undo"], 0.99), "undo-p99-ms")
		b.ReportMetric(pct(lat["undo"], 1), "undo-max-ms")
		b.ReportMetric(pct(lat["answer"], 0.99), "answer-p99-ms")
		b.ReportMetric(pct(lat["next"], 0.99), "next-p99-ms")
		ts.Close()
		client.CloseIdleConnections()
		srv.Close()
	}
	b.ReportMetric(float64(allRetries)/float64(b.N), "retries/op")
}

// TestServeBusyPort: serve on a port in use fails naming -addr and leaves
// the log folder without a start line.
func TestServeBusyPort(t *testing.T) {
	dir := cemsDir(t, 20)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	logDir := filepath.Join(dir, "log")
	_, _, err = nadb(append([]string{"serve", "-pool", filepath.Join(dir, "pool.csv"), "-log", logDir, "-addr", ln.Addr().String()}, small...)...)
	if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "-addr") {
		t.Errorf("serve on a busy port: %v; want a usage error naming -addr", err)
	}
	if b, err := os.ReadFile(filepath.Join(logDir, "answers.jsonl")); err == nil {
		t.Errorf("serve on a busy port wrote the log:\n%s", b)
	}
}

// TestSuggestInterrupted: once the context is cancelled (the first SIGINT or
// SIGTERM) suggest stops choosing, writes nothing and returns an error that
// wraps context.Canceled, which mainStatus reports as "stopped by" the
// signal with its exit status.
func TestSuggestInterrupted(t *testing.T) {
	dir := cemsDir(t, 10)
	out := filepath.Join(t.TempDir(), "next.csv")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, &stdout, &stderr, []string{"suggest", "-pool", filepath.Join(dir, "pool.csv"), "-n", "5", "-out", out})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("suggest with a cancelled context: %v, want an error saying nothing was written, wrapping context.Canceled", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("suggest with a cancelled context wrote %s (stat: %v)", out, err)
	}
}
