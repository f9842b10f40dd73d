package algorithms_test

import (
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/experiments/conformance"
)

// TestConformance runs the conformance suite on every registered learner.
func TestConformance(t *testing.T) {
	for _, name := range algorithms.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, name, nil)
		})
	}
}
