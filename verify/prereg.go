package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// Pre-registration. Every evaluation decided after pre-registration was
// introduced has a file verify/prereg/ID.json (Prereg), committed before the
// first commit of any of its results (TestPreregistrations checks the order
// in git history, and that the configuration it registered is the one the
// code runs). The format and the rules: verify/prereg/README.md.

// Prereg is a pre-registration: what will be run, on which seeds, and how
// each claim will be decided, fixed before any of its results exist.
type Prereg struct {
	ID         string `json:"id"`         // the file's stem
	Title      string `json:"title"`      // what is evaluated
	Registered string `json:"registered"` // date, YYYY-MM-DD
	Scale      string `json:"scale"`      // the sweep scale of its runs
	// Seeds states the evaluation seeds (for example "1-30"); Runs counts
	// the distinct runs and ConfigHash (ConfigHash) fixes them: every
	// configuration and seed.
	Seeds      string   `json:"seeds"`
	Runs       int      `json:"runs"`
	ConfigHash string   `json:"config_hash"`
	Problems   []string `json:"problems"`
	// Claims are the decisions, each with its test and threshold.
	Claims []PreregClaim `json:"claims"`
	// Tables are descriptive results with a fixed reading rule (such as a
	// table's verdict column), decided like claims but not in the claims
	// table.
	Tables []PreregClaim `json:"tables,omitempty"`
	// Results are the files that hold its results; the first commit of
	// each must come after the commit that added this file.
	Results []string `json:"results"`
	// Notes: anything else fixed in advance (what is reported however it
	// comes out, development runs that preceded it).
	Notes string `json:"notes,omitempty"`
}

// PreregClaim is one pre-registered decision.
type PreregClaim struct {
	ID        string `json:"id"`        // claim id (or table name)
	Statement string `json:"statement"` // what holds if it holds
	Statistic string `json:"statistic"` // what is measured, per seed
	Test      string `json:"test"`      // the test that decides
	AlsoShown string `json:"also_shown,omitempty"`
	Threshold string `json:"threshold"` // the decision rule
}

// ConfigHash is the SHA-256 of a set of runs: of the JSON of every distinct
// Spec (algorithm, problem, every configuration field, T, checkpoint period
// and seed), sorted. It does not depend on experiments.CacheVersion: it
// fixes what is run, not the numerics that run it. Configuration fields
// added later with an omitted zero value leave it unchanged, as they leave
// every cache key.
func ConfigHash(specs []experiments.Spec) (hash string, runs int) {
	var lines []string
	for _, s := range specs {
		b, err := json.Marshal(s)
		if err != nil {
			panic(err) // Spec has only plain fields
		}
		lines = append(lines, string(b))
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), len(lines)
}

// PreregRuns returns the runs of the pre-registered evaluation id, as the
// code defines them now (TestPreregistrations compares their ConfigHash with
// the registered one). A new evaluation adds its entry here and its file in
// verify/prereg.
func PreregRuns(id string) ([]experiments.Spec, error) {
	figureRuns := func(ids ...string) ([]experiments.Spec, error) {
		figs, err := sweep.Figures(sweep.Paper, ids)
		if err != nil {
			return nil, err
		}
		var out []experiments.Spec
		for _, f := range figs {
			for _, j := range f.Jobs() {
				out = append(out, j.Spec)
			}
		}
		return out, nil
	}
	switch id {
	case "choice":
		var ids []string
		for _, algo := range choiceEvaluated {
			l, ok := sweep.ChoiceLearnerOf(algo)
			if !ok {
				return nil, fmt.Errorf("verify: %s is no longer a learner of figures/choice", algo)
			}
			for _, g := range []string{"", "cems", "shuttle"} {
				ids = append(ids, sweep.ChoiceFigureID(l, g))
			}
		}
		return figureRuns(ids...)
	case "plus-ablation-30":
		return figureRuns("plus-ablation")
	case "target":
		return targetPreregRuns(figureRuns)
	case "plus-confirm-31-60":
		return confirmRuns(ConfirmClaims), nil
	case "lockon-confirm-31-60":
		return confirmRuns(LockonConfirmClaims), nil
	}
	return nil, fmt.Errorf("verify: no pre-registered evaluation %q", id)
}

// choiceEvaluated are the learners of the pre-registered evaluation
// "choice" (figures/choice); a learner added to sweep.ChoiceLearners later
// has an evaluation of its own.
var choiceEvaluated = []string{"neural-adb-plus", "neural-adb-ucb", "neural-adb-tsctx-ucb"}

// The confirmations, unchanged, on seeds 31–60 of claims decided on seeds
// 1–30: of claims 9a–9e (verify/prereg/plus-confirm-31-60.json: "nadb
// verify -scale paper -only 9a,9b,9c,9d,9e -first-seed 31") and of the
// lock-on claims 8b and 8c, which were written after their 30-seed runs
// (verify/prereg/lockon-confirm-31-60.json: "nadb verify -scale paper
// -only 8b,8c -first-seed 31").
var (
	ConfirmClaims       = []string{"9a", "9b", "9c", "9d", "9e"}
	LockonConfirmClaims = []string{"8b", "8c"}
	ConfirmFirstSeed    = uint64(31)
)

// confirmRuns returns the paper-scale runs of the claims ids from seed
// ConfirmFirstSeed on.
func confirmRuns(ids []string) []experiments.Spec {
	sc := Paper
	sc.FirstSeed = ConfirmFirstSeed
	var out []experiments.Spec
	for _, c := range Table() {
		if slices.Contains(ids, c.ID) {
			out = append(out, c.Runs(c.ScaleFor(sc))...)
		}
	}
	return out
}

// preregExempt are the claims decided before pre-registration was
// introduced (their recorded verdicts are regression guards written after
// their runs, which the claims table says); every later claim names its
// pre-registration (Claim.Prereg).
var preregExempt = []string{
	"0a", "0b", "1a", "1b", "1c", "1d", "2a", "2b", "2c", "3a", "3b", "4a", "4b", "5a", "5b", "6", "7", "8a", "8b", "8c",
	"1a-fresh", "1b-fresh", "1c-fresh", "1d-fresh", "2a-fresh", "2b-fresh", "2c-fresh", "8a-fresh",
	"9a", "9b", "9c", "9d", "9e",
}
