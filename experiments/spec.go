package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/neural-adb/nadb/algorithms"
)

// Spec is one complete, deterministic run: the same Spec gives the same
// result bytes (apart from elapsed time).
type Spec struct {
	Algorithm string            `json:"algorithm"`
	Problem   ProblemSpec       `json:"problem"`
	Config    algorithms.Config `json:"config"`
	T         int               `json:"T"`     // rounds (duels)
	Every     int               `json:"every"` // checkpoint period
	Seed      uint64            `json:"seed"`
}

// Validate reports the first invalid field by its name.
func (s Spec) Validate() error {
	if _, err := algorithms.Lookup(s.Algorithm); err != nil {
		return err
	}
	if err := s.Problem.Validate(); err != nil {
		return err
	}
	if s.T <= 0 {
		return fmt.Errorf("experiments: T (rounds) must be positive, got %d", s.T)
	}
	if s.Every <= 0 {
		return fmt.Errorf("experiments: every (checkpoint period) must be positive, got %d", s.Every)
	}
	return s.Config.Validate()
}

// CacheVersion is part of every cache key. Bump it whenever a change to the
// code changes the numbers a Spec produces (an algorithm, a problem, a metric),
// so that stale results are never reused; "make clean-cache" also clears them.
const CacheVersion = 3

// Key returns the cache key of a run: the SHA-256 of the cache version and the
// complete Spec in JSON (every config field, the problem, T, Every, Seed).
func (s Spec) Key() string {
	b, err := json.Marshal(struct {
		Version int  `json:"v"`
		Spec    Spec `json:"spec"`
	}{CacheVersion, s})
	if err != nil {
		panic(err) // Spec has only plain fields
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
