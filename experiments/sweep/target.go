package sweep

import (
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
)

// The evaluation of neural-adb-target (ours, algorithms/target_doc.go),
// pre-registered in verify/prereg/target.json before any of these runs:
// the learner against its passive twin (the same model, uniformly random
// duels: Config.Collect passive) and against neural-adb-plus, on seeds
// 1…PlusSeeds.
//
//	target-main        Square, Sine, Cosine, fixed pool (objective policy)
//	target-fresh       the same, fresh contexts (M = FreshM; objective policy)
//	target-real-cems   held-out CEMSChoice students (objective predict)
//	target-real-shuttle held-out Statlog Shuttle samples (objective policy)
//
// The learner is not in ChoiceLearners: these figures are its figures/choice
// rows (the same runs) with the comparators of claim 10c beside them.
//
// The objective of each figure is the loss its metric scores (the policy's
// gap or accuracy: policy; the prediction of answers: predict), declared in
// TargetObjective.

// TargetObjective is the objective neural-adb-target runs with on a
// problem of ChoiceProblems: predict where the figure scores the prediction
// of answers (CEMSChoice's held-out log-loss), policy where it scores a
// policy (the synthetic problems' gaps in both readings, Shuttle's held-out
// mean gap, twice its error rate).
func TargetObjective(p ChoiceProblem) algorithms.Objective {
	if p.Group == "cems" {
		return algorithms.ObjectivePredict
	}
	return algorithms.ObjectivePolicy
}

// TargetSpec is the run of neural-adb-target on problem p at scale sc: the
// run of figures/choice (ChoiceSpec) with the problem's objective (seed 0:
// set it; its passive twin is Twin of it).
func TargetSpec(sc Scale, p ChoiceProblem) experiments.Spec {
	s := ChoiceSpec(sc, "neural-adb-target", p)
	if o := TargetObjective(p); o != algorithms.ObjectivePredict {
		s.Config.Objective = o // predict is the zero value (as the cache stores it)
	}
	return s
}

// targetRow is the row of problem p: neural-adb-target, its passive twin and
// the comparators, each run as figures/choice and the plus-* figures run it
// (the same runs).
func targetRow(sc Scale, p ChoiceProblem, comparators []string) Row {
	own := TargetSpec(sc, p)
	r := Row{Title: p.Title, Curves: []Curve{
		{Label: DisplayName(own.Algorithm), Spec: own},
		{Label: TwinLabel(own.Algorithm), Spec: Twin(own)},
	}}
	for _, a := range comparators {
		r.Curves = append(r.Curves, Curve{Label: DisplayName(a), Spec: ChoiceSpec(sc, a, p)})
	}
	return r
}

// targetRows are the rows of the problems of group "" in one reading.
func targetRows(sc Scale, fresh bool) []Row {
	var rows []Row
	for _, p := range ChoiceProblems {
		if p.Group == "" && p.fresh == fresh {
			rows = append(rows, targetRow(sc, p, []string{"neural-adb-plus"}))
		}
	}
	return rows
}

func figTargetMain(sc Scale) Figure {
	return Figure{
		Caption: fmt.Sprintf("neural-adb-target (ours, objective policy) against its passive twin (the same model, uniformly random duels) and neural-adb-plus on Square, Sine and Cosine (rows), fixed pool; %d seeds", PlusSeeds(sc)),
		Paper:   "ours",
		Metrics: []string{"mean_gap", "worst_gap"},
		Seeds:   PlusSeeds(sc),
		Dir:     "target",
		Rows:    targetRows(sc, false),
		Tables:  writePlusTables,
	}
}

func figTargetFresh(sc Scale) Figure {
	return Figure{
		Caption: fmt.Sprintf("neural-adb-target (ours, objective policy), its passive twin and neural-adb-plus in the fresh-context reading (%d new candidate contexts per round, scored on a fixed evaluation pool of %d contexts); %d seeds", sc.FreshM(), sc.Problem.Contexts, PlusSeeds(sc)),
		Paper:   "ours",
		Metrics: []string{"mean_gap", "worst_gap"},
		Seeds:   PlusSeeds(sc),
		Dir:     "target",
		Rows:    targetRows(sc, true),
		Tables:  writePlusTables,
	}
}

// targetReal is the real-data figure base with one row: neural-adb-target,
// its passive twin and neural-adb-plus (the linear learner with random
// duels, against which claim 10c is also read, is in plus-real-*: same
// runs).
func targetReal(sc Scale, base Figure, caption, id string) Figure {
	p, _ := ChoiceProblemOf(id)
	base.Caption = fmt.Sprintf(caption, TargetObjective(p), PlusSeeds(sc))
	base.Seeds = PlusSeeds(sc)
	base.Rows = []Row{targetRow(sc, p, []string{"neural-adb-plus"})}
	base.ByFamily = false
	base.Dir = "target"
	base.Tables = writePlusTables
	return base
}

func figTargetCEMS(sc Scale) Figure {
	return targetReal(sc, figCEMS(sc), "neural-adb-target (ours, objective %s), its passive twin and neural-adb-plus on CEMSChoice (real answers replayed): held-out log-loss, accuracy and Copeland gap on 101 held-out students, and the training students' mean Copeland gap, vs duels; %d random splits", "cems")
}

func figTargetShuttle(sc Scale) Figure {
	return targetReal(sc, figShuttle(sc), "neural-adb-target (ours, objective %s), its passive twin and neural-adb-plus on Statlog Shuttle as a dueling bandit: pool mean gap, average regret, held-out accuracy and balanced accuracy on 2,000 samples, vs duels; %d random pools", "shuttle")
}
