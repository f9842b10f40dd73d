package realdata

import (
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/experiments/realdata/data"
)

// CEMS is the CEMSChoice benchmark: real human pairwise preferences, replayed
// (data: experiments/data/README.md).
//
// Contexts are students, arms the six schools in the items file's order
// (London, Paris, Milano, StGallen, Barcelona, Stockholm). Each of the 303
// students answered all 15 school pairs, so a query (student, i, j) is
// answered with that student's recorded answer, the same one every time it is
// asked (Replay with one record per pair). A recorded "no preference"
// (pref = 0, 487 answers) is answered by a fair coin from the feedback stream
// (seed, 102); the unrecorded Paris–Milano comparisons (NA, 91 students) are
// answered by a fair coin too. We do not impute NA from the student's other
// answers: that would invent a preference the student never stated, from the
// same Copeland order the evaluation scores against. A pair absent from a
// user's pairs file (the shipped data have none) is treated like NA. The
// columns tie_share and unrecorded_share count both kinds of coin.
//
// # Feature map (d = 9K + 4 = 58)
//
// Each student covariate is coded ±1 (z_s ∈ {±1}⁸: study commerce/other,
// english, french, spanish, italian good/poor, work yes/no, gender
// female/male, intdegree yes/no; the first level is +1). The row of
// (student s, school i) is
//
//	[ e_i (K) | z_s ⊗ e_i (8K: block i holds z_s, others 0) | spec_i (3) | loc_i (1) ]
//
// with e_i the school indicator, spec_i the one-hot specialisation (economics,
// management science, finance) and loc_i = +1 for a latin location, −1
// otherwise. Why: a utility model sees only differences of rows within a
// student, where student main effects cancel; what predicts answers is
// covariate × school interaction (the data README: held-out log-loss 0.617 →
// 0.587 when Bradley–Terry gets covariate × item terms), which z_s ⊗ e_i makes
// linear, so linear and neural learners are compared on the same information.
// It is the disjoint encoding of the neural-bandit literature applied to the
// student covariates. The school covariates are linear in e_i and add no
// expressiveness; under the ridge penalty they let schools of one kind share
// strength, and they keep the features of the data set in the encoding.
//
// # Split and metrics
//
// The run seed draws a random split of the students (stream (seed, 101)):
// Holdout students (default 101, a third) are held out and Train of the
// others (default all 202) form the pool. Seeds 1…10 are the 10 random splits.
// The standard columns score the policy on the training students against
// each student's own Copeland score (Answers.Copeland: 1 per school beaten, ½
// per tie or NA, so f ∈ [0, 5]). The extra columns score the learner's model
// (algorithms.Scorer) on the held-out students:
//
//	test_accuracy      share of held-out strict answers (pref ±1) whose preferred
//	                   school the model scores higher (an exact tie counts ½)
//	test_logloss       mean −log μ(h(preferred) − h(other)) over the same answers
//	                   (log 2 = 0.693 for a constant model)
//	test_copeland_gap  mean over held-out students of max_i cop(s,i) − cop(s,î),
//	                   î = argmax_i h(x_{s,i}) (exact ties in h: the mean over
//	                   the tied schools)
//
// NaN for learners without a Scorer. Borda-based learners score Borda
// estimates, not Bradley–Terry utilities: their test_logloss is not a
// likelihood of their own model.
type CEMS struct {
	Train   int   // students in the pool; 0 means all not held out
	Holdout int   // held-out students; 0 means 101
	FS      fs.FS // the data folder (data.Open); nil means the shipped data
}

// DefaultCEMSHoldout is the default number of held-out students (a third).
const DefaultCEMSHoldout = 101

// cemsSubjectCovariates are the student covariates and their +1 and −1 levels.
var cemsSubjectCovariates = []struct{ name, plus, minus string }{
	{"study", "commerce", "other"},
	{"english", "good", "poor"},
	{"french", "good", "poor"},
	{"spanish", "good", "poor"},
	{"italian", "good", "poor"},
	{"work", "yes", "no"},
	{"gender", "female", "male"},
	{"intdegree", "yes", "no"},
}

var (
	cemsSpecializations = []string{"economics", "management science", "finance"}
	cemsLocations       = []string{"latin", "other"} // +1, −1
)

// cemsData is the parsed data set.
type cemsData struct {
	Subjects []string      // subject identifiers
	Z        []float64     // subjects × 8 covariates coded ±1
	Items    []string      // school names: the arms
	ItemCov  []float64     // items × 4: specialisation one-hot, location ±1
	All      *pool.Answers // contexts = subjects; NA is not recorded
	NA       int           // pairs recorded as NA
}

// Dim returns the feature dimension 9K + 4.
func (d *cemsData) Dim() int { return 9*len(d.Items) + 4 }

// features writes the row of (subject s, item i) into dst.
func (d *cemsData) features(dst []float64, s, i int) {
	K, nz := len(d.Items), len(cemsSubjectCovariates)
	clear(dst)
	dst[i] = 1
	copy(dst[K+i*nz:K+(i+1)*nz], d.Z[s*nz:(s+1)*nz])
	copy(dst[K+K*nz:], d.ItemCov[i*4:(i+1)*4])
}

// rows returns the feature rows of the subjects subs, all items each.
func (d *cemsData) rows(subs []int) []float64 {
	K, dim := len(d.Items), d.Dim()
	x := make([]float64, len(subs)*K*dim)
	for c, s := range subs {
		for i := range K {
			n := c*K + i
			d.features(x[n*dim:(n+1)*dim], s, i)
		}
	}
	return x
}

// answers returns the records of subjects subs, renumbered as contexts 0….
func (d *cemsData) answers(subs []int) *pool.Answers {
	K := len(d.Items)
	out := pool.NewAnswers(len(subs), K)
	for c, s := range subs {
		for i := range K {
			for j := i + 1; j < K; j++ {
				for _, a := range d.All.Records(s, i, j) {
					a.Context = c
					out.Add(a)
				}
			}
		}
	}
	return out
}

var shippedCEMS = sync.OnceValues(func() (*cemsData, error) { return readCEMS(data.Shipped()) })

// loadData reads a data set from fsys, or the shipped copy (parsed once per
// process) when fsys is nil.
func loadData[T any](fsys fs.FS, shipped func() (T, error), read func(fs.FS) (T, error)) (T, error) {
	if fsys == nil {
		return shipped()
	}
	return read(fsys)
}

// New builds the benchmark for seed: the split from the stream (seed, 101),
// coins from (seed, 102).
func (c CEMS) New(seed uint64) (*experiments.Problem, error) {
	d, err := loadData(c.FS, shippedCEMS, readCEMS)
	if err != nil {
		return nil, err
	}
	S := len(d.Subjects)
	hold := c.Holdout
	if hold == 0 {
		hold = DefaultCEMSHoldout
	}
	train := c.Train
	if train == 0 {
		if hold >= S {
			return nil, fmt.Errorf("realdata: cems: %d held-out (holdout) students leave none of the %d for training (contexts): need at least 1 of each and at most %d in all", hold, S, S)
		}
		train = S - hold
	}
	if hold < 1 || train < 1 || hold+train > S {
		return nil, fmt.Errorf("realdata: cems: %d training (contexts) + %d held-out (holdout) students: need at least 1 of each and at most %d in all", train, hold, S)
	}
	perm := rand.New(rand.NewPCG(seed, experiments.StreamProblem)).Perm(S)
	testSubs, trainSubs := perm[:hold], perm[hold:hold+train]
	slices.Sort(testSubs)
	slices.Sort(trainSubs)

	K := len(d.Items)
	pl, err := algorithms.NewPool(train, K, d.Dim(), d.rows(trainSubs))
	if err != nil {
		return nil, err
	}
	trainAns, testAns := d.answers(trainSubs), d.answers(testSubs)
	replay := pool.NewReplay(trainAns, rand.New(rand.NewPCG(seed, experiments.StreamFeedback)))
	return &experiments.Problem{
		Name:   "cems",
		Pool:   pl,
		Oracle: replay,
		Evaluator: &cemsEvaluator{
			Latent: &experiments.Latent{Arms: K, F: trainAns.Copeland()},
			replay: replay,
			testX:  d.rows(testSubs), arms: K,
			testStrict: testAns.Strict(), testCop: testAns.Copeland(),
		},
	}, nil
}

// cemsEvaluator scores the policy on the training students (Latent: their
// Copeland scores) and the model on the held-out students.
type cemsEvaluator struct {
	*experiments.Latent
	replay     *pool.Replay
	testX      []float64
	arms       int
	testStrict []pool.Answer
	testCop    []float64
	buf        []float64
}

// ExtraColumns implements experiments.ExtraEvaluator.
func (e *cemsEvaluator) ExtraColumns() []string {
	return []string{"test_accuracy", "test_logloss", "test_copeland_gap", "tie_share", "unrecorded_share"}
}

// Extra implements experiments.ExtraEvaluator.
func (e *cemsEvaluator) Extra(dst []float64, l algorithms.Learner) []float64 {
	acc, nll, gap := math.NaN(), math.NaN(), math.NaN()
	var ok bool
	if e.buf, ok = experiments.Scores(e.buf, l, e.testX); ok {
		acc, nll = pool.PairMetrics(e.buf, e.arms, e.testStrict)
		gap = argmaxGap(e.buf, e.testCop, e.arms)
	}
	tie, unrec := e.replay.Shares()
	return append(dst[:0], acc, nll, gap, tie, unrec)
}

// argmaxGap returns the mean over contexts of max_a f(c,a) − f(c,â) for
// â = argmax_a h(c,a), averaging over exact ties in h.
func argmaxGap(h, f []float64, K int) float64 {
	contexts := len(h) / K
	total := 0.0
	for c := range contexts {
		hc, fc := h[c*K:(c+1)*K], f[c*K:(c+1)*K]
		best, top := slices.Max(hc), slices.Max(fc)
		sum, n := 0.0, 0
		for a, v := range hc {
			if v == best {
				sum += top - fc[a]
				n++
			}
		}
		if n == 0 { // h has a NaN: count the worst case
			sum, n = top-slices.Min(fc), 1
		}
		total += sum / float64(n)
	}
	return total / float64(contexts)
}
