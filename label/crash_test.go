package label

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// crashChildEnv, when set to a log folder, makes the test binary run a
// server on that log instead of the tests (see TestMain).
const crashChildEnv = "LABEL_TEST_SERVER_LOG"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		os.Exit(serveChild(dir))
	}
	os.Exit(m.Run())
}

// gridCatalogue has contexts ctx0… of arms a0… .
func gridCatalogue(contexts, arms int) *Table {
	ids := make([]string, contexts)
	armIDs := make([][]string, contexts)
	for c := range ids {
		ids[c] = fmt.Sprintf("ctx%d", c)
		for a := range arms {
			armIDs[c] = append(armIDs[c], fmt.Sprintf("a%d", a))
		}
	}
	t, err := NewTable(ids, armIDs)
	if err != nil {
		panic(err)
	}
	return t
}

// serveChild serves a 20×5 catalogue on an ephemeral loopback port, prints
// "listening ADDR" and serves until killed or until its stdin closes (the
// parent died).
func serveChild(dir string) int {
	cat := gridCatalogue(20, 5)
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv, err := New(cat, roundRobin(cat), Options{Addr: "127.0.0.1:0", LogDir: dir, Logger: logger})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := srv.Listen()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("listening %s\n", ln.Addr())
	ctx, cancel := context.WithCancel(context.Background())
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startChild starts the server subprocess on dir and returns it with its
// base URL.
func startChild(t *testing.T, dir string, stderr *bytes.Buffer) (*exec.Cmd, string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir)
	cmd.Stderr = stderr
	if _, err := cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		addr <- strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	}()
	select {
	case a := <-addr:
		if a == "" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the server did not start:\n%s", stderr)
		}
		return cmd, "http://" + a
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the server did not start within 30 s:\n%s", stderr)
	}
	return nil, ""
}

// labelUntilError answers queries as labeller until a request fails,
// calling ack after each acknowledged answer.
func labelUntilError(client *http.Client, base, labeller string, ack func(id string, y float64)) {
	for k := 0; ; k++ {
		resp, err := client.Get(base + "/api/next?labeller=" + labeller)
		if err != nil {
			return
		}
		var q struct{ ID string }
		err = json.NewDecoder(resp.Body).Decode(&q)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || q.ID == "" {
			return
		}
		y := []float64{1, 0, 1, 0, 0.5}[k%5]
		body := fmt.Sprintf(`{"id":%q,"y":%g}`, q.ID, y)
		resp, err = client.Post(base+"/api/answer", "application/json", strings.NewReader(body))
		if err != nil {
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			ack(q.ID, y)
		}
	}
}

// TestCrashKeepsAcknowledgedAnswers runs the server as a subprocess, streams
// answers from four labellers, kills it with SIGKILL after a random number of
// acknowledged answers, and restarts it from the log, three times: every
// acknowledged answer must be in the log.
func TestCrashKeepsAcknowledgedAnswers(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs subprocesses and SIGKILL")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	acked := map[string]float64{}
	var mu sync.Mutex
	for round := range 3 {
		var stderr bytes.Buffer
		cmd, base := startChild(t, dir, &stderr)
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
		target := 20 + rng.IntN(100)
		n := 0
		reached := make(chan struct{})
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				labelUntilError(client, base, fmt.Sprintf("r%dl%d", round, i), func(id string, y float64) {
					mu.Lock()
					defer mu.Unlock()
					acked[id] = y
					if n++; n == target {
						close(reached)
					}
				})
			})
		}
		select {
		case <-reached:
		case <-time.After(60 * time.Second):
			t.Errorf("round %d: %d answers acknowledged in 60 s, want %d", round, n, target)
		}
		cmd.Process.Kill() // SIGKILL
		cmd.Wait()
		wg.Wait()
		client.CloseIdleConnections()

		events, rep, err := ReadLog(dir)
		if err != nil {
			t.Fatalf("round %d: %v\nserver said:\n%s", round, err, stderr.String())
		}
		if rep != nil {
			t.Logf("round %d: %v", round, rep)
		}
		logged := map[string]float64{}
		for _, e := range events {
			if e.Kind == Answer {
				logged[e.ID] = e.Y
			}
		}
		mu.Lock()
		lost := 0
		for id, y := range acked {
			if got, ok := logged[id]; !ok || got != y {
				lost++
				t.Errorf("round %d: acknowledged answer %s = %g is not in the log", round, id, y)
			}
		}
		t.Logf("round %d: killed after %d acknowledged answers; %d acknowledged in all, %d in the log, %d lost",
			round, n, len(acked), len(logged), lost)
		mu.Unlock()
	}
	// The log replays in-process too.
	cat := gridCatalogue(20, 5)
	srv, err := New(cat, roundRobin(cat), Options{LogDir: dir, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if p := srv.sess.progress(""); p.Answered < len(acked) {
		t.Errorf("replayed session has %d answers, fewer than the %d acknowledged", p.Answered, len(acked))
	}
}
