package poolfile

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// The file formats of a pool of one's own.
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
//   - context and arm are identifiers (any non-empty UTF-8 text; a file in
//     another encoding is refused at the first identifier that is not UTF-8,
//     by line and column); columns may come in any order, and the reserved
//     names context, arm and utility are matched ignoring case. Every other
//     column is a feature; there must be at least one.
//   - Features (and utility) are finite numbers in Go's strconv.ParseFloat
//     syntax. Features are used as given: scale them yourself if needed.
//   - Contexts are numbered in order of first appearance, and each context's
//     arms in order of first appearance within it; a context's rows need not be
//     adjacent. Every context must have the same number of arms K ≥ 2 (the
//     learners assume a fixed K), and an arm may appear once per context. The
//     same arm identifier in two contexts names two unrelated rows for the
//     learners: only the features connect contexts.
//   - utility (optional) is the latent utility f(c,a) of the row, for
//     simulated answers and metrics; it is never shown to a learner. It is on
//     the Bradley–Terry log-odds scale and at most MaxUtility in absolute
//     value.
//   - A record may hold at most 16 MB and a field 64 kB (csvtab.MaxRecord,
//     MaxField): a file that is not CSV is refused before it fills the
//     memory.
//
// # Answers file
//
// Recorded answers:
//
//	context,arm1,arm2,y
//	u1,red,blue,1
//	u1,red,blue,0.5
//
// with these four columns (any order, names ignoring case); context and arms
// are identifiers of the pool file; y = 1 when arm1 won, 0 when arm2 won,
// and 0.5 for a recorded tie. Three optional columns say more about an
// answer (Info; the labelling server writes them, nothing else depends on
// them):
//
//	labeller   who answered (any text; empty: unknown)
//	both_bad   1 when y = 0.5 means "both are bad" rather than "equally good"
//	recheck    1 when the duel was shown again to a labeller who had answered
//	           it before, as a consistency check
//
// both_bad and recheck are 1, 0 or empty (0).

// PoolFile is a parsed pool file.
type PoolFile struct {
	Pool     *algorithms.Pool
	Contexts []string  // context identifiers, by context index c
	Arms     []string  // arm identifiers, by pool row n = c·K + a
	Features []string  // feature column names, in file order
	Utility  []float64 // latent utility of every pool row; nil without a utility column

	close  func() error // releases the mapped features of a pool directory (Close)
	mapped int64        // bytes of features mapped from a file (Mapped)
	// colMax holds the largest |x| of every feature of colMaxOf, found by
	// the pass that checked its values (OpenDir), for CheckScale.
	colMax   []float64
	colMaxOf *algorithms.Pool
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
	var row []float64
	for n := range p.Rows() {
		rec[0], rec[1] = pf.Contexts[n/p.Arms], pf.Arms[n]
		row = p.RowTo(row, n)
		for k, v := range row {
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

// ArmIndex returns the index of arm id in context c, or −1.
func (pf *PoolFile) ArmIndex(c int, id string) int {
	K := pf.Pool.Arms
	for a, s := range pf.Arms[c*K : (c+1)*K] {
		if s == id {
			return a
		}
	}
	return -1
}

// ContextIndex returns a map from context identifier to index.
func (pf *PoolFile) ContextIndex() map[string]int {
	m := make(map[string]int, len(pf.Contexts))
	for c, id := range pf.Contexts {
		m[id] = c
	}
	return m
}

// Describe returns `context "u1", arms "red" and "blue"` for messages.
func (pf *PoolFile) Describe(c, a, b int) string {
	K := pf.Pool.Arms
	return fmt.Sprintf("context %q, arms %q and %q", pf.Contexts[c], pf.Arms[c*K+a], pf.Arms[c*K+b])
}

// InputError locates a problem in a user's file: file, line, column and
// column name (errors.As finds it in the errors of ReadPool and ReadAnswers).
type InputError = csvtab.Error
