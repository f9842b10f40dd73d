package algorithms

import "math"

// Replaying a log of answers (nadb suggest, export, serve): a learner fed
// thousands of recorded answers through Observe would retrain on the online
// schedule, Config.RetrainEvery answers at a time — 1,000 retrains for
// 20,000 answers, each over all answers so far, a cost quadratic in the log.
// Between BeginReplay and EndReplay a Replayer coalesces them instead:
//
//   - the neural model (NeuralModel: neural-adb-*, random-nn, ae-borda-nn)
//     retrains when the observations reach RetrainEvery·2^k (20, 40, 80, …)
//     and once more at EndReplay if answers came after the last retrain: a
//     warm-started model trained as the log grows, at about twice the cost of
//     one retrain on the whole log;
//   - the linear Bradley–Terry MLE (random, apo, ae-dpo) is fitted once at
//     EndReplay, warm-started as always: it has one minimiser, which the
//     online schedule's last fit also converges to;
//   - AE-Borda's ridge regression is solved once at EndReplay: the exact
//     solution on every answer, as after the online schedule.
//
// Everything else Observe does (the confidence state V, pending queries,
// prequential records) happens answer by answer as online. A replayed
// learner therefore differs from one that saw the same answers online only
// in how often its network was retrained (the linear learners only by
// rounding); a run of the experiments never replays, so paper-scale runs are
// unchanged. Learners that are not Replayers replay on their online schedule.
type Replayer interface {
	BeginReplay()
	EndReplay()
}

// BeginReplay starts a replay on l when l is a Replayer (else nothing).
func BeginReplay(l Learner) {
	if r, ok := l.(Replayer); ok {
		r.BeginReplay()
	}
}

// EndReplay ends a replay on l when l is a Replayer, doing the retraining
// that was deferred (else nothing).
func EndReplay(l Learner) {
	if r, ok := l.(Replayer); ok {
		r.EndReplay()
	}
}

// replaySchedule is a NeuralModel's retraining schedule during a replay.
type replaySchedule struct {
	on   bool
	next int // observations at the next retrain
	from int // observations at BeginReplay
}

// begin starts a replay after n observations, the first retrain at every.
func (r *replaySchedule) begin(every, n int) {
	*r = replaySchedule{on: true, next: every, from: n}
}

// due reports whether the model retrains at an online retrain point after
// n observations: always outside a replay, at RetrainEvery·2^k within.
func (r *replaySchedule) due(n int) bool {
	if !r.on {
		return true
	}
	if n >= r.next {
		r.next *= 2
		for r.next <= n {
			r.next *= 2
		}
		return true
	}
	return false
}

// end ends the replay after n observations, the model's last retrain
// having been after trained of them, and reports whether the model retrains
// now: whether observations of the replay came after its last retrain.
func (r *replaySchedule) end(n, trained int) bool {
	from, on := r.from, r.on
	*r = replaySchedule{}
	return on && n > from && n > trained
}

// BeginReplay implements Replayer.
func (m *NeuralModel) BeginReplay() {
	m.replay.begin(m.Cfg.RetrainEvery, m.duels+m.targets)
}

// EndReplay implements Replayer: a retrain if observations of the replay
// came after the last one.
func (m *NeuralModel) EndReplay() {
	if m.replay.end(m.duels+m.targets, m.trainedAt) {
		m.Retrain()
	}
}

// BeginReplay implements Replayer: no fit until EndReplay.
func (m *LinearBT) BeginReplay() {
	if m.replayEvery == 0 {
		m.replayEvery, m.every = m.every, math.MaxInt
		m.replayFrom = m.Duels()
	}
}

// EndReplay implements Replayer: one fit on every duel, if any came.
func (m *LinearBT) EndReplay() {
	if m.replayEvery == 0 {
		return
	}
	m.every, m.replayEvery = m.replayEvery, 0
	if m.Duels() > m.replayFrom {
		m.Fit()
	}
}

// BeginReplay implements Replayer: no solve until EndReplay.
func (r *ridge) BeginReplay() { r.replaying = true }

// EndReplay implements Replayer: the exact solution on every target.
func (r *ridge) EndReplay() {
	if r.replaying {
		r.replaying = false
		r.solve()
	}
}

// The learners that hold a model forward the replay to it.

// BeginReplay implements Replayer.
func (l *RandomDuels) BeginReplay() { beginModelReplay(l.model) }

// EndReplay implements Replayer.
func (l *RandomDuels) EndReplay() { endModelReplay(l.model) }

// BeginReplay implements Replayer.
func (l *APO) BeginReplay() { beginModelReplay(l.model) }

// EndReplay implements Replayer.
func (l *APO) EndReplay() { endModelReplay(l.model) }

// BeginReplay implements Replayer.
func (l *AEDPO) BeginReplay() { l.model.BeginReplay() }

// EndReplay implements Replayer.
func (l *AEDPO) EndReplay() { l.model.EndReplay() }

// BeginReplay implements Replayer.
func (l *AEBorda) BeginReplay() { beginModelReplay(l.model) }

// EndReplay implements Replayer.
func (l *AEBorda) EndReplay() { endModelReplay(l.model) }

func beginModelReplay(m any) {
	if r, ok := m.(Replayer); ok {
		r.BeginReplay()
	}
}

func endModelReplay(m any) {
	if r, ok := m.(Replayer); ok {
		r.EndReplay()
	}
}

// EndReplay implements Replayer: after the deferred retrain, the rule's
// posterior is rebuilt at the retrained network, as after an online one.
func (l *NeuralADBTSCtx) EndReplay() {
	trains := l.Retrains()
	l.NeuralModel.EndReplay()
	if l.Retrains() > trains {
		l.post.rebuild(l.NeuralModel)
		l.nu2 = fitNu2(l.recM, l.recV)
	}
}

// BeginReplay implements Replayer: neural-adb-plus retrains its family on
// the replay schedule of NeuralModel; the prequential records are kept
// answer by answer, scored by the members as they are (less trained than
// online between the deferred retrains).
func (l *NeuralADBPlus) BeginReplay() {
	l.replay.begin(l.cfg.RetrainEvery, len(l.model.duels))
}

// EndReplay implements Replayer: a retrain if answers of the replay came
// after the last one.
func (l *NeuralADBPlus) EndReplay() {
	if l.replay.end(len(l.model.duels), l.trainedAt) {
		l.retrain()
	}
}
