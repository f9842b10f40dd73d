package label_test

import (
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/neural-adb/nadb/label"
)

// A session with the RoundRobin fake proposer: one labeller answers three
// queries through the JSON API, ties one and undoes it, then the current
// policy is read and the log exported as an answers CSV.
func ExampleServer() {
	dir, err := os.MkdirTemp("", "label-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	drinks := []string{"tea", "coffee", "juice"}
	cat, err := label.NewTable([]string{"alice", "bob"}, [][]string{drinks, drinks})
	if err != nil {
		log.Fatal(err)
	}
	newProposer := func() (label.Proposer, error) { return label.NewRoundRobin(cat, 1), nil }
	srv, err := label.New(cat, newProposer, label.Options{LogDir: dir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	call := func(method, path, body string, reply any) {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			log.Fatalf("%s %s: %s", method, path, resp.Status)
		}
		json.NewDecoder(resp.Body).Decode(reply)
	}
	type query struct{ ID, Context, Arm1, Arm2 string }
	for i, y := range []float64{1, 0, 0.5} {
		var q query
		call("GET", "/api/next?labeller=ann", "", &q)
		fmt.Printf("query %d: %s, %s or %s? y = %g\n", i+1, q.Context, q.Arm1, q.Arm2, y)
		call("POST", "/api/answer", fmt.Sprintf(`{"id":%q,"y":%g}`, q.ID, y), &struct{}{})
	}
	var undo struct {
		Undone struct{ Context, Arm1, Arm2 string }
	}
	call("POST", "/api/undo", `{"labeller":"ann"}`, &undo)
	fmt.Printf("undone: %s, %s or %s\n", undo.Undone.Context, undo.Undone.Arm1, undo.Undone.Arm2)

	var sum struct {
		Contexts []struct {
			Context string
			Policy  *string
			Queries int
		}
	}
	call("GET", "/api/summary", "", &sum)
	for _, c := range sum.Contexts {
		policy := "none yet"
		if c.Policy != nil {
			policy = *c.Policy
		}
		fmt.Printf("policy for %s: %s (%d answers)\n", c.Context, policy, c.Queries)
	}
	if _, err := label.ExportLog(dir, cat, nil, os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// query 1: bob, tea or coffee? y = 1
	// query 2: alice, tea or juice? y = 0
	// query 3: alice, juice or coffee? y = 0.5
	// undone: alice, juice or coffee
	// policy for alice: juice (1 answers)
	// policy for bob: tea (1 answers)
	// context,arm1,arm2,y,labeller,both_bad,recheck
	// bob,tea,coffee,1,ann,0,0
	// alice,tea,juice,0,ann,0,0
}
