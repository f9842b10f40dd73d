package sweep

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// The figures of neural-adb-plus (ours, algorithms/plus_doc.go). Its
// configuration was set before these figures were first run (its
// development runs are not logged: algorithms/plus_doc.go); their seeds
// 1…PlusSeeds are its evaluation seeds.
//
//	plus-main         Square, Sine, Cosine (fixed pool): neural-adb-plus against
//	                  neural-adb-ucb-randctx, random-nn and the linear learners
//	plus-fresh        the same in the fresh-context reading (M = FreshM)
//	plus-ablation     neural-adb-plus with each ingredient removed
//	                  (Config.PlusAblate), each tested against the full
//	                  learner (ablation.go), PlusSeeds seeds
//	plus-real-cems    held-out CEMSChoice students
//	plus-real-shuttle held-out Statlog Shuttle samples

// PlusAlgorithms are the curves of the neural-adb-plus comparisons: ours,
// the strongest neural comparators (the paper's arm rule on random contexts,
// random selection with the paper's network) and the four linear learners.
var PlusAlgorithms = []string{"neural-adb-plus", "neural-adb-ucb-randctx", "random-nn", "random", "apo", "ae-borda", "ae-dpo"}

// PlusLinear are the linear learners among PlusAlgorithms.
var PlusLinear = []string{"random", "apo", "ae-borda", "ae-dpo"}

// PlusProblems are the synthetic problems of the neural-adb-plus figures,
// one row each.
var PlusProblems = []experiments.Function{experiments.Square, experiments.Sine, experiments.Cosine}

// PlusSeeds is the number of evaluation seeds of the neural-adb-plus
// comparisons at scale sc: at paper scale three times the figures' seeds
// (30), since the differences between the strongest learners are small
// against the seed-to-seed spread; elsewhere half the scale's seeds (at
// least 2). (The claims of package verify set their own number at reduced
// scale: verify's plusSeeds.)
func PlusSeeds(sc Scale) int {
	if sc.Name == Paper.Name {
		return 3 * sc.Seeds
	}
	return max(2, sc.Seeds/2)
}

// plusRows is one comparison row per problem of PlusProblems; edit (may be
// nil) adjusts every run. Every run checks every GridEvery duels, as the
// runs of figures/choice do (ChoiceSpec), so that the two share their runs.
func plusRows(sc Scale, suffix string, edit func(*experiments.Spec)) []Row {
	var rows []Row
	for _, fn := range PlusProblems {
		title := strings.ToUpper(string(fn[:1])) + string(fn[1:]) + suffix
		rows = append(rows, comparison(sc, title, PlusAlgorithms, func(s *experiments.Spec) {
			s.Problem.Name = string(fn)
			s.Every = GridEvery(sc)
			if edit != nil {
				edit(s)
			}
		}))
	}
	return rows
}

func figPlusMain(sc Scale) Figure {
	return Figure{
		Caption: fmt.Sprintf("neural-adb-plus (ours) against the paper's arm rule on random contexts, random-nn and the linear learners on Square, Sine and Cosine (rows), fixed pool; %d seeds", PlusSeeds(sc)),
		Paper:   "ours",
		Metrics: paperMetrics,
		Seeds:   PlusSeeds(sc),
		Dir:     "plus",
		Rows:    plusRows(sc, "", nil),
		Tables:  writePlusTables,
	}
}

func figPlusFresh(sc Scale) Figure {
	m := sc.FreshM()
	return Figure{
		Caption: fmt.Sprintf("neural-adb-plus (ours) and its comparators in the fresh-context reading: every round %d new candidate contexts, the model scored on a fixed evaluation pool of %d contexts; Square, Sine and Cosine (rows); %d seeds", m, sc.Problem.Contexts, PlusSeeds(sc)),
		Paper:   "ours",
		Metrics: []string{"worst_gap", "mean_gap"},
		Seeds:   PlusSeeds(sc),
		Dir:     "plus",
		Rows:    plusRows(sc, fmt.Sprintf(", M = %d fresh contexts per round", m), func(s *experiments.Spec) { *s = sc.Fresh(*s, m) }),
		Tables:  writePlusTables,
	}
}

func figPlusAblation(sc Scale) Figure {
	var rows []Row
	for _, fn := range PlusProblems {
		r := Row{Title: strings.ToUpper(string(fn[:1])) + string(fn[1:])}
		for _, a := range algorithms.PlusAblations {
			s := Base(sc, "neural-adb-plus")
			s.Problem.Name = string(fn)
			s.Every = GridEvery(sc) // the full learner's runs are plus-main's
			label := "neural-adb-plus"
			if a != algorithms.PlusNone {
				s.Config.PlusAblate = a
				label += ", " + string(a)
			}
			r.Curves = append(r.Curves, Curve{Label: label, Spec: s})
		}
		rows = append(rows, r)
	}
	return Figure{
		Caption:    fmt.Sprintf("neural-adb-plus (ours) with one ingredient removed at a time (plus-ablate), Square, Sine and Cosine (rows), fixed pool; each ablation tested against the full learner; %d seeds", PlusSeeds(sc)),
		Paper:      "ours",
		Metrics:    []string{"worst_gap", "mean_gap"},
		Seeds:      PlusSeeds(sc),
		Dir:        "plus",
		Rows:       rows,
		Sequential: true,
		Tables:     writeAblationTables,
	}
}

// PlusRealSpec is the run of algo on the real-data problem ("cems",
// "shuttle") at scale sc, as the plus-real-* figures and figures/choice run
// it (seed 0: set it): sc.RealT duels where set, else sc.T at paper scale and
// half as many elsewhere (the real-data problems keep their size at every
// scale, so this keeps the smaller scales short), checkpoints every
// GridEvery duels.
func PlusRealSpec(sc Scale, algo, problem string) experiments.Spec {
	t := sc.T
	switch {
	case sc.RealT > 0:
		t = sc.RealT
	case sc.Name != Paper.Name:
		t = sc.T / 2 / sc.Every * sc.Every
	}
	s := experiments.Spec{Algorithm: algo, Problem: experiments.ProblemSpec{Name: problem}, Config: algorithms.Default(), T: t}
	s.Every = GridEvery(Scale{T: t, Every: sc.Every})
	return s
}

// plusRealRow is a real-data row with the curves of PlusAlgorithms.
func plusRealRow(sc Scale, title, problem string) Row {
	r := Row{Title: title}
	for _, a := range PlusAlgorithms {
		r.Curves = append(r.Curves, Curve{Label: DisplayName(a), Spec: PlusRealSpec(sc, a, problem)})
	}
	return r
}

func figPlusCEMS(sc Scale) Figure {
	return plusReal(sc, figCEMS(sc), "neural-adb-plus (ours) on CEMSChoice (real human answers replayed; K = 6, d = 58): held-out pairwise accuracy, log-loss and Copeland gap on 101 held-out students, and the training students' mean Copeland gap, vs duels; %d random splits", "CEMSChoice", "cems")
}

func figPlusShuttle(sc Scale) Figure {
	return plusReal(sc, figShuttle(sc), "neural-adb-plus (ours) on Statlog Shuttle as a dueling bandit (300 contexts, K = 7, d = 70): pool mean gap, average regret, held-out accuracy and balanced accuracy on 2,000 samples, vs duels; %d random pools", "Statlog Shuttle", "shuttle")
}

// plusReal is the real-data figure base with one row of PlusAlgorithms on
// PlusSeeds seeds, in figures/plus; caption takes the number of seeds.
func plusReal(sc Scale, base Figure, caption, title, problem string) Figure {
	base.Caption = fmt.Sprintf(caption, PlusSeeds(sc))
	base.Seeds = PlusSeeds(sc)
	base.Rows = []Row{plusRealRow(sc, title, problem)}
	base.ByFamily = false
	base.Dir = "plus"
	return base
}

// writePlusTables writes dir/ID-summary.md and dir/ID-summary.csv: per row,
// every curve's mean ± 95% t-interval at the last checkpoint and the paired
// test against the row's best (Summary).
func writePlusTables(f Figure, c *Cache, out string) ([]string, error) {
	load := CacheLoader(c)
	var md strings.Builder
	md.WriteString("# " + f.ID + "\n\n" + f.Caption + "\n\n")
	var all bytes.Buffer
	w := csv.NewWriter(&all)
	w.Write([]string{"row", "algorithm", "t", "metric", "mean", "ci95_half", "n", "p_vs_best"})
	for i, r := range f.Rows {
		one := f
		one.Rows = f.Rows[i : i+1]
		s, err := SummaryAt(one, load, -1)
		if err != nil {
			return nil, err
		}
		md.WriteString("## " + r.Title + "\n\n" + s.Markdown() + "\n")
		var b bytes.Buffer
		if err := s.WriteCSV(&b); err != nil {
			return nil, err
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			return nil, err
		}
		for _, rec := range recs[1:] {
			w.Write(append([]string{r.Title}, rec...))
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	md.WriteString("Mean ± half-width of the 95% t-interval over seeds; bold: the best mean; ≈: a paired t-test (same seeds) cannot tell the row from the best at the 5% level (two-sided, uncorrected for the number of rows).\n")
	return writeSummaryFiles(f, load, out, md.String(), all.Bytes(), lastCheckpoint)
}
