package verify

import (
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/sweep"
)

// targetPreregRuns are the runs of the evaluation of neural-adb-target
// (verify/prereg/target.json, claims 10a–10d): the figures target-main,
// target-fresh, target-real-cems and target-real-shuttle (the learner, its
// passive twin and neural-adb-plus on seeds 1–30), and the linear learner
// with random duels on CEMSChoice (claim 10c; the runs of plus-real-cems).
func targetPreregRuns(figureRuns func(ids ...string) ([]experiments.Spec, error)) ([]experiments.Spec, error) {
	out, err := figureRuns("target-main", "target-fresh", "target-real-cems", "target-real-shuttle")
	if err != nil {
		return nil, err
	}
	cems, _ := sweep.ChoiceProblemOf("cems")
	s := sweep.ChoiceSpec(sweep.Paper, "random", cems)
	for seed := 1; seed <= sweep.PlusSeeds(sweep.Paper); seed++ {
		s.Seed = uint64(seed)
		out = append(out, s)
	}
	return out, nil
}
