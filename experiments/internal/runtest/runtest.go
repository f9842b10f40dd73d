// Package runtest holds test helpers shared by the experiments packages.
package runtest

import (
	"bytes"
	"context"
	"testing"

	"github.com/neural-adb/nadb/experiments"
)

// CSV runs spec and returns its CSV with the elapsed_s column zeroed, so that
// two runs can be compared byte for byte.
func CSV(t testing.TB, spec experiments.Spec) string {
	t.Helper()
	res, err := experiments.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ResultCSV(t, res)
}

// ResultCSV returns the CSV of res with the elapsed_s column zeroed (in res
// too).
func ResultCSV(t testing.TB, res *experiments.Result) string {
	t.Helper()
	for i := range res.Checkpoints {
		res.Checkpoints[i].Elapsed = 0
	}
	var b bytes.Buffer
	if err := experiments.WriteCSV(&b, res); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
