package label

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkLoad8x200 has 8 labellers give 200 answers each over loopback
// TCP (each answer appended and fsynced before its reply), checks that the
// log holds all 1600, and reports the latency percentiles of the answer
// round trips (answer-p50-ms …) and of the next-query round trips. The
// catalogue (40 contexts × 5 arms, 400 duels) leaves every labeller duels it
// has not answered that no other labeller holds; a 503 (the proposer's choice
// was meanwhile shown to another labeller, or every remaining duel is held)
// is asked again after a millisecond, as a client must (the reply's
// Retry-After of 2 s would time the wait, not the server), and counted
// (retries/op).
//
//	go test -run '^$' -bench Load8x200 -benchtime 3x ./label
func BenchmarkLoad8x200(b *testing.B) {
	const labellers, answers = 8, 200
	cat := gridCatalogue(40, 5)
	var nextLat, answerLat []time.Duration
	var retries int
	var mu sync.Mutex
	for b.Loop() {
		dir := b.TempDir()
		srv, err := New(cat, roundRobin(cat), Options{LogDir: dir, Logger: quiet()})
		if err != nil {
			b.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: labellers}}
		var wg sync.WaitGroup
		for i := range labellers {
			wg.Go(func() {
				var nl, al []time.Duration
				again := 0
				for k := 0; k < answers; {
					start := time.Now()
					resp, err := client.Get(fmt.Sprintf("%s/api/next?labeller=l%d", ts.URL, i))
					if err != nil {
						b.Error(err)
						return
					}
					var q struct{ ID string }
					json.NewDecoder(resp.Body).Decode(&q)
					resp.Body.Close()
					nl = append(nl, time.Since(start))
					if resp.StatusCode == http.StatusServiceUnavailable && again < 1000 {
						again++
						time.Sleep(time.Millisecond)
						continue
					}
					if resp.StatusCode != http.StatusOK || q.ID == "" {
						b.Errorf("labeller %d: next: status %d", i, resp.StatusCode)
						return
					}
					start = time.Now()
					resp, err = client.Post(ts.URL+"/api/answer", "application/json",
						strings.NewReader(fmt.Sprintf(`{"id":%q,"y":%d}`, q.ID, k%2)))
					if err != nil {
						b.Error(err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					al = append(al, time.Since(start))
					if resp.StatusCode != http.StatusOK {
						b.Errorf("labeller %d: answer: status %d", i, resp.StatusCode)
						return
					}
					k++
				}
				mu.Lock()
				nextLat, answerLat = append(nextLat, nl...), append(answerLat, al...)
				retries += again
				mu.Unlock()
			})
		}
		wg.Wait()
		ts.Close()
		client.CloseIdleConnections()
		if err := srv.Close(); err != nil {
			b.Fatal(err)
		}
		events, rep, err := ReadLog(dir)
		if err != nil || rep != nil {
			b.Fatalf("reading the log: %v, repair %v", err, rep)
		}
		if n := countKind(events, Answer); n != labellers*answers {
			b.Fatalf("the log holds %d answers, want %d", n, labellers*answers)
		}
	}
	report := func(name string, d []time.Duration) {
		slices.Sort(d)
		for _, p := range []int{50, 95, 99} {
			b.ReportMetric(float64(d[(len(d)-1)*p/100])/1e6, fmt.Sprintf("%s-p%d-ms", name, p))
		}
	}
	report("answer", answerLat)
	report("next", nextLat)
	b.ReportMetric(float64(labellers*answers*b.N)/b.Elapsed().Seconds(), "answers/s")
	b.ReportMetric(float64(retries)/float64(b.N), "retries/op")
}
