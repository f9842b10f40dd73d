package label

import (
	"math"
	"net/http"
	"slices"
)

func (s *Server) apiAnswer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID       *string  `json:"id"`
		Labeller string   `json:"labeller"`
		Y        *float64 `json:"y"`
		BothBad  bool     `json:"both_bad"`
		Order    []int    `json:"order"`
	}
	if err := decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := optionalLabeller(req.Labeller); err != nil {
		writeError(w, err)
		return
	}
	rep := reply{labeller: req.Labeller, bothBad: req.BothBad, order: req.Order}
	switch {
	case req.ID == nil || *req.ID == "":
		writeError(w, errorf(http.StatusBadRequest, "id", "field \"id\" is missing: the id of the query from /api/next"))
		return
	case req.Y == nil && req.Order == nil && !req.BothBad:
		writeError(w, errorf(http.StatusBadRequest, "y", "field \"y\" is missing: 1 (arm1 won), 0 (arm2 won) or 0.5 (tie; with \"both_bad\": true, both are bad); for several arms, \"order\""))
		return
	case req.Y != nil && req.Order != nil:
		writeError(w, errorf(http.StatusBadRequest, "order", "give \"y\" (a duel) or \"order\" (several arms), not both"))
		return
	case req.Y != nil && *req.Y != 0 && *req.Y != 0.5 && *req.Y != 1:
		writeError(w, errorf(http.StatusBadRequest, "y", "field \"y\" is %g; it must be 1 (arm1 won), 0 (arm2 won) or 0.5 (tie)", *req.Y))
		return
	case req.Y != nil:
		rep.y = *req.Y
	case req.Order == nil: // both_bad alone: a duel's y is ½
		rep.y = 0.5
	}
	seq, repeated, err := s.sess.answer(*req.ID, rep)
	s.ack(w, seq, repeated, err)
}

func (s *Server) apiSkip(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID       *string `json:"id"`
		Labeller string  `json:"labeller"`
	}
	if err := decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := optionalLabeller(req.Labeller); err != nil {
		writeError(w, err)
		return
	}
	if req.ID == nil || *req.ID == "" {
		writeError(w, errorf(http.StatusBadRequest, "id", "field \"id\" is missing: the id of the query from /api/next"))
		return
	}
	seq, repeated, err := s.sess.skip(*req.ID, req.Labeller)
	s.ack(w, seq, repeated, err)
}

// ack replies once the answer or skip is on disk.
func (s *Server) ack(w http.ResponseWriter, seq int64, repeated bool, err error) {
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		OK       bool  `json:"ok"`
		Seq      int64 `json:"seq"`      // the log line of the answer
		Repeated bool  `json:"repeated"` // the same answer was already recorded
	}{true, seq, repeated})
}

func (s *Server) apiUndo(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Labeller *string `json:"labeller"`
	}
	if err := decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Labeller == nil {
		writeError(w, errorf(http.StatusBadRequest, "labeller", "field \"labeller\" is missing"))
		return
	}
	if err := validLabeller(*req.Labeller); err != nil {
		writeError(w, err)
		return
	}
	u, err := s.sess.undo(*req.Labeller)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		OK     bool       `json:"ok"`
		Undone undoneJSON `json:"undone"`
	}{true, u})
}

func (s *Server) apiProgress(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("labeller")
	if id != "" {
		if err := validLabeller(id); err != nil {
			writeError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, s.sess.progress(id))
}

type armJSON struct {
	Arm   string `json:"arm"`
	Index int    `json:"index"`
	Label string `json:"label"`
	Score num    `json:"score"` // null when unavailable
	Sigma num    `json:"sigma"`
}

type contextJSON struct {
	Context     string    `json:"context"`
	Index       int       `json:"index"`
	Label       string    `json:"label"`
	Policy      *string   `json:"policy"` // the policy's arm; null when none yet
	PolicyIndex int       `json:"policy_index"`
	Queries     int       `json:"queries"`
	Arms        []armJSON `json:"arms"`
}

// learnerJSON says which answers the proposer's model holds.
type learnerJSON struct {
	// Used is every strict duel outcome the model was fed: Prior ones
	// given before the session (the answers file) and Session ones (a
	// ranking counts its implied duels). Null when the proposer does not
	// count (Counter).
	Used    *int `json:"used"`
	Prior   *int `json:"prior"`
	Session int  `json:"session"`
	// Stale counts undone answers the model still holds until the rebuild
	// in progress (Rebuilding) replaces it.
	Stale      int    `json:"stale"`
	Rebuilding bool   `json:"rebuilding"`
	Rebuilds   int    `json:"rebuilds"`
	Error      string `json:"error,omitempty"` // the last failed rebuild
}

func (s *Server) apiSummary(w http.ResponseWriter, r *http.Request) {
	ss := s.sess
	ss.pmu.Lock()
	ss.mu.Lock()
	prop, todo := ss.prop, ss.takeFeed()
	answered := ss.kept
	lj := learnerJSON{Session: ss.fedPairs, Stale: ss.stale, Rebuilding: ss.rebuilding, Rebuilds: ss.rebuilds}
	if err := ss.rebuildErr; err != nil {
		lj.Error = err.Error()
	}
	ss.mu.Unlock()
	for i := range todo {
		feed(prop, &todo[i])
	}
	sum := prop.Summary()
	if c, ok := prop.(Counter); ok {
		used := c.Observed()
		prior := used - lj.Session
		lj.Used, lj.Prior = &used, &prior
	}
	ss.pmu.Unlock()
	cat := s.sess.cat
	out := struct {
		Answered int           `json:"answered"` // the session's answers (as /api/progress)
		Learner  learnerJSON   `json:"learner"`
		Contexts []contextJSON `json:"contexts"`
	}{Answered: answered, Learner: lj, Contexts: []contextJSON{}}
	for c, cs := range sum.Contexts {
		if c >= cat.Contexts() {
			break
		}
		arms := cat.Arms(c)
		cj := contextJSON{Context: cat.Context(c), Index: c, Label: s.disp.context[c].label,
			PolicyIndex: -1, Queries: cs.Queries, Arms: make([]armJSON, len(arms))}
		if cs.Arm >= 0 && cs.Arm < len(arms) {
			cj.Policy, cj.PolicyIndex = &arms[cs.Arm], cs.Arm
		}
		for a, id := range arms {
			cj.Arms[a] = armJSON{Arm: id, Index: a, Label: s.disp.arms[c][a].label, Score: nan(), Sigma: nan()}
			if a < len(cs.Scores) {
				cj.Arms[a].Score = num(cs.Scores[a])
			}
			if a < len(cs.Sigmas) {
				cj.Arms[a].Sigma = num(cs.Sigmas[a])
			}
		}
		out.Contexts = append(out.Contexts, cj)
	}
	writeJSON(w, http.StatusOK, out)
}

func nan() num { return num(math.NaN()) }

// apiExport writes the session's answers (scope=session, the default) or,
// with scope=all, the answers given before the session followed by the
// session's: every answer the proposer was given.
func (s *Server) apiExport(w http.ResponseWriter, r *http.Request) {
	var prior []Record
	name := "session-answers.csv"
	switch scope := r.URL.Query().Get("scope"); scope {
	case "", "session":
	case "all":
		prior, name = s.opt.Prior, "all-answers.csv"
	default:
		writeError(w, errorf(http.StatusBadRequest, "scope", "scope %q: want session (this session's answers) or all (the answers given before it too)", scope))
		return
	}
	s.sess.mu.Lock()
	events := s.sess.events[:len(s.sess.events):len(s.sess.events)]
	s.sess.mu.Unlock()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	WriteRecords(w, append(slices.Clone(prior), Records(events)...))
}

// optionalLabeller checks the labeller an answer or a skip may name: none
// ("") passes, a name must be valid (validLabeller).
func optionalLabeller(name string) error {
	if name == "" {
		return nil
	}
	return validLabeller(name)
}
