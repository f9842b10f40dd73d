package realdata

import (
	"io/fs"
	"sync"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/experiments/pool"
	"github.com/neural-adb/nadb/experiments/realdata/data"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// CEMS is the CEMSChoice benchmark: real human pairwise preferences, replayed
// (data: experiments/data/README.md).
//
// Contexts are students, arms the six schools in the items file's order
// (London, Paris, Milano, StGallen, Barcelona, Stockholm). Each of the 303
// students answered the 15 school pairs, so a query (student, i, j) is
// answered with that student's recorded answer, the same one every time it is
// asked (pool.Replay with one record per pair). A recorded "no preference"
// (pref = 0, 487 answers) is answered by a fair coin from the feedback stream
// (seed, 102), counted in tie_share. The Paris–Milano comparison was not
// recorded for 91 students (NA): by default (the missing-answer rule "mask")
// it is not offered to learners for those students, so no answer is
// invented; with Missing "coin" it is offered and answered by a fair coin,
// counted in unrecorded_share (the rule of the earlier runs). We do not
// impute NA from the student's other answers: that would invent a
// preference the student never stated, from the same Copeland order the
// evaluation scores against. A pair absent from a user's pairs file (the
// shipped data have none) is treated like NA.
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
// The run seed draws a random split of the students (experiments.Split,
// stream (seed, 101)): Holdout students (default 101, a third) are held out
// and Train of the others (default all 202) form the pool. Seeds 1…10 are
// the 10 random splits. The problem is built by pool.NewProblem, the
// mechanism every data problem shares (held-out columns, references). The
// standard columns score the policy on the training students against each
// student's own Copeland score (Answers.Copeland: 1 per school beaten, ½ per
// tie or NA, so f ∈ [0, 5]). The extra columns score the learner's model
// (algorithms.Scorer), in-sample on the training students' answers
// (answer_accuracy, answer_logloss) and on the held-out students:
//
//	test_accuracy      share of held-out strict answers (pref ±1) whose preferred
//	                   school the model scores higher (an exact tie counts ½)
//	test_logloss       mean −log μ(h(preferred) − h(other)) over the same answers
//	                   (log 2 = 0.693 for a constant model)
//	test_copeland_gap  mean over held-out students of max_i cop(s,i) − cop(s,î),
//	                   î = argmax_i h(x_{s,i}) (exact ties in h: the mean over
//	                   the tied schools, experiments.TiedGaps)
//
// NaN for learners without a Scorer. Borda-based learners score Borda
// estimates, not Bradley–Terry utilities: their test_logloss is not a
// likelihood of their own model.
type CEMS struct {
	Train   int                     // students in the pool; 0 means all not held out
	Holdout float64                 // held-out students, a count or a fraction (experiments.SplitSizes); 0 means 101
	Missing experiments.MissingRule // the rule for unrecorded pairs; "" means mask
	FS      fs.FS                   // the data folder (data.Open); nil means the shipped data
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
	Subjects []string          // subject identifiers
	Z        []float64         // subjects × 8 covariates coded ±1
	Items    []string          // school names: the arms
	ItemCov  []float64         // items × 4: specialisation one-hot, location ±1
	All      *poolfile.Answers // contexts = subjects; NA is not recorded
	NA       int               // pairs recorded as NA
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
	hold, train, err := experiments.SplitSizes(c.Holdout, DefaultCEMSHoldout, c.Train, S, "student")
	if err != nil {
		return nil, err
	}
	trainSubs, testSubs := experiments.Split(S, hold, train, seed)
	tr, err := d.part(trainSubs)
	if err != nil {
		return nil, err
	}
	te, err := d.part(testSubs)
	if err != nil {
		return nil, err
	}
	return pool.NewProblem(pool.Setup{Name: "cems", Train: tr, Test: &te, Missing: c.Missing, Seed: seed})
}

// part returns the students subs as contexts 0…: their feature rows, the
// school names as arm identifiers, and their recorded answers.
func (d *cemsData) part(subs []int) (pool.Part, error) {
	K := len(d.Items)
	pl, err := algorithms.NewPool(len(subs), K, d.Dim(), d.rows(subs))
	if err != nil {
		return pool.Part{}, err
	}
	p := pool.Part{Pool: pl, Answers: d.All.Subset(subs)}
	for _, s := range subs {
		p.Contexts = append(p.Contexts, d.Subjects[s])
		p.IDs = append(p.IDs, d.Items...)
	}
	return p, nil
}
