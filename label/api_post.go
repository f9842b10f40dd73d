package label

import (
	"math"
	"net/http"
	"slices"
)

func (s *Server) apiAnswer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID *string  `json:"id"`
		Y  *float64 `json:"y"`
	}
	if err := decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	switch {
	case req.ID == nil || *req.ID == "":
		writeError(w, errorf(http.StatusBadRequest, "id", "field \"id\" is missing: the id of the query from /api/next"))
		return
	case req.Y == nil:
		writeError(w, errorf(http.StatusBadRequest, "y", "field \"y\" is missing: 1 (arm1 won), 0 (arm2 won) or 0.5 (tie)"))
		return
	case *req.Y != 0 && *req.Y != 0.5 && *req.Y != 1:
		writeError(w, errorf(http.StatusBadRequest, "y", "field \"y\" is %g; it must be 1 (arm1 won), 0 (arm2 won) or 0.5 (tie)", *req.Y))
		return
	}
	s.record(w, *req.ID, *req.Y, false)
}

func (s *Server) apiSkip(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID *string `json:"id"`
	}
	if err := decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.ID == nil || *req.ID == "" {
		writeError(w, errorf(http.StatusBadRequest, "id", "field \"id\" is missing: the id of the query from /api/next"))
		return
	}
	s.record(w, *req.ID, 0, true)
}

// record answers or skips and replies once the event is on disk.
func (s *Server) record(w http.ResponseWriter, id string, y float64, skip bool) {
	seq, repeated, err := s.sess.answer(id, y, skip)
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

func (s *Server) apiSummary(w http.ResponseWriter, r *http.Request) {
	s.sess.mu.Lock()
	sum := s.sess.prop.Summary()
	answered := s.sess.kept
	s.sess.mu.Unlock()
	cat := s.sess.cat
	out := struct {
		Answered int           `json:"answered"`
		Contexts []contextJSON `json:"contexts"`
	}{Answered: answered, Contexts: []contextJSON{}}
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

func (s *Server) apiExport(w http.ResponseWriter, r *http.Request) {
	s.sess.mu.Lock()
	events := slices.Clone(s.sess.events)
	s.sess.mu.Unlock()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="answers.csv"`)
	WriteAnswers(w, events)
}
