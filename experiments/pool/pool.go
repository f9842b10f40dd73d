package pool

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// Bring your own pool: the file formats of "nadb run -problem pool".
//
// # Pool file
//
// A CSV file with a header and one row per (context, arm):
//
//	context,arm,<feature columns…>[,utility]
//	u1,red,0.3,1.2,0.7
//	u1,blue,-0.1,0.4,0.2
//	u2,red,0.9,-1.0,1.5
//	u2,blue,0.0,0.5,-0.3
//
//   - context and arm are identifiers (any non-empty text); columns may come in
//     any order, and the reserved names context, arm and utility are matched
//     ignoring case. Every other column is a feature; there must be at least one.
//   - Features (and utility) are finite numbers in Go's strconv.ParseFloat
//     syntax. Features are used as given: scale them yourself if needed.
//   - Contexts are numbered in order of first appearance, and each context's
//     arms in order of first appearance within it; a context's rows need not be
//     adjacent. Every context must have the same number of arms K ≥ 2 (the
//     learners assume a fixed K), and an arm may appear once per context. The
//     same arm identifier in two contexts names two unrelated rows for the
//     learners: only the features connect contexts (only the reference rows
//     of a held-out evaluation compare arms by identifier).
//   - utility (optional) is the latent utility f(c,a) of the row. It is never
//     shown to the learner. Without an answers file, duels are answered by
//     Bradley–Terry draws, P(a1 beats a2) = μ(f(c,a1) − f(c,a2)) from the
//     stream (seed, 102), and the gaps and regret of the standard columns
//     are computed from it.
//
// # Answers file
//
// Recorded answers, replayed by the oracle instead of simulating:
//
//	context,arm1,arm2,y
//	u1,red,blue,1
//	u1,red,blue,0.5
//
// with exactly these four columns (any order, names ignoring case); context and
// arms are identifiers of the pool file; y = 1 when arm1 won, 0 when arm2 won,
// and 0.5 for a recorded tie. A query (c, a, b) is answered from the records of
// the unordered pair {a, b} in context c, oriented to the query:
//
//   - by default (-missing mask) learners are offered only the pairs with at
//     least one record, in the contexts that have one (experiments.Problem's
//     Offer; every learner honours it), so no answer is invented. A context
//     without any record is never asked about, but stays in the pool and in
//     the policy's metrics;
//   - -missing coin offers every pair and answers a pair with no record by a
//     fair coin; -missing error requires a record for every arm pair of every
//     context and reports the first gap when the problem is built;
//   - several records of a pair are used in turn, in an order drawn once per
//     pair from the feedback stream (seed, 102), cycling when they run out:
//     the k-th answer to a pair is fixed by the seed whatever was asked
//     before, and a pair answered once always gets the same answer;
//   - a tie is answered by a fair coin from the feedback stream.
//
// Invented answers are never silent: the columns tie_share and
// unrecorded_share report the share of rounds answered by a coin for each
// reason (unrecorded_share is 0 under the default rule).
//
// # Held-out contexts
//
// -holdout F holds contexts out of the learner's pool: F in (0, 1) is a
// fraction of the contexts (rounded to the nearest count), a whole F ≥ 1 a
// count. The seed draws which ones (stream (seed, 101)), so seeds 1, 2, …
// are independent splits; the learner never sees the held-out contexts'
// features, and their answers are never replayed. Their rows are scored with
// the learner's model (algorithms.Scorer) after every checkpoint.
//
// # Metrics
//
// With a utility column the standard columns (worst_gap, mean_gap, …) use the
// utilities of the training contexts. Without one, they use each context's
// empirical Copeland score from the recorded answers: an arm scores 1 for
// every other arm it beat in the majority of their recorded duels (ties
// counted ½) and ½ for every arm it ties with or was never recorded against,
// so that f(c,a) ∈ [0, K−1]. The extra columns (NaN for learners without a
// Scorer) are, where they apply:
//
//	answer_accuracy, answer_logloss  in-sample, on the recorded strict answers
//	                  of the training contexts (the learner may have been
//	                  shown them): the share whose winner the model scores
//	                  higher (an exact tie counts ½), and the mean
//	                  Bradley–Terry negative log-likelihood −log μ(h(winner) −
//	                  h(loser))
//	test_accuracy, test_logloss      the same on the held-out contexts' answers
//	test_mean_gap, test_worst_gap    with utilities: mean and max over the
//	                  held-out contexts of max_a f(c,a) − f(c,â), â the arm the
//	                  model scores highest (exact ties: averaged over the tied
//	                  arms, experiments.TiedGaps)
//	test_copeland_gap                without utilities: the mean gap against the
//	                  held-out contexts' Copeland scores, over those with a record
//	tie_share, unrecorded_share      the coins above
//
// nadb run prints, after a run with held-out contexts, the same held-out
// columns for four references fitted to the training contexts only
// (references.go): a linear Bradley–Terry model fitted to every training
// answer at once, the best single global ranking of arm identifiers, the
// majority arm, and a constant model (every pair 50/50, log-loss ln 2). The
// two identifier references are meaningful when arm identifiers name the
// same item across contexts (schools, products); otherwise they score like
// the constant model.

// PoolFile is a parsed pool file.
type PoolFile struct {
	Pool     *algorithms.Pool
	Contexts []string  // context identifiers, by context index c
	Arms     []string  // arm identifiers, by pool row n = c·K + a
	Features []string  // feature column names, in file order
	Utility  []float64 // latent utility of every pool row; nil without a utility column
}

// WritePool writes pf in the pool file format; ReadPool reads it back equal.
// Numbers are written in the shortest form that round-trips.
func WritePool(w io.Writer, pf *PoolFile) error {
	cw := csv.NewWriter(w)
	head := append([]string{"context", "arm"}, pf.Features...)
	if pf.Utility != nil {
		head = append(head, "utility")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	p := pf.Pool
	rec := make([]string, len(head))
	for n := range p.Rows() {
		rec[0], rec[1] = pf.Contexts[n/p.Arms], pf.Arms[n]
		for k, v := range p.X[n*p.Dim : (n+1)*p.Dim] {
			rec[2+k] = formatFloat(v)
		}
		if pf.Utility != nil {
			rec[len(rec)-1] = formatFloat(pf.Utility[n])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// armIndex returns the index of arm id in context c, or −1.
func (pf *PoolFile) armIndex(c int, id string) int {
	K := pf.Pool.Arms
	for a, s := range pf.Arms[c*K : (c+1)*K] {
		if s == id {
			return a
		}
	}
	return -1
}

// contextIndex returns a map from context identifier to index.
func (pf *PoolFile) contextIndex() map[string]int {
	m := make(map[string]int, len(pf.Contexts))
	for c, id := range pf.Contexts {
		m[id] = c
	}
	return m
}

// describe returns "context "u1", arms "red" and "blue"" for messages.
func (pf *PoolFile) describe(c, a, b int) string {
	K := pf.Pool.Arms
	return fmt.Sprintf("context %q, arms %q and %q", pf.Contexts[c], pf.Arms[c*K+a], pf.Arms[c*K+b])
}

// InputError locates a problem in a user's file: file, line, column and
// column name (errors.As finds it in the errors of ReadPool and ReadAnswers).
type InputError = csvtab.Error
