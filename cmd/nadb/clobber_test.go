package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputsDoNotClobberInputs: -out, -model and -references naming an
// input (-pool, -answers, -load, the log of -session; directly, by another
// spelling or through a symbolic link) or each other, or a file inside a
// pool directory, are refused as usage errors naming both, and the input is
// left as it was.
func TestOutputsDoNotClobberInputs(t *testing.T) {
	dir := cemsDir(t, 40)
	pool, some := filepath.Join(dir, "pool.csv"), filepath.Join(dir, "some.csv")
	syn := filepath.Join(dir, "syn")
	if _, _, err := nadb("data", "synth", "-out", syn, "-contexts", "20", "-arms", "4", "-dim", "3", "-answers", "30"); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.json")
	if _, _, err := nadb("export", "-pool", pool, "-answers", some, "-algo", "random", "-out", os.DevNull, "-model", model); err != nil {
		t.Fatal(err)
	}
	sess := filepath.Join(dir, "sess")
	if err := os.MkdirAll(sess, 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(sess, "answers.jsonl")
	if err := os.WriteFile(logPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(some, link); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "out.csv")
	for _, c := range []struct {
		args  []string
		want  []string // in the error
		input string   // unchanged
	}{
		{[]string{"suggest", "-pool", pool, "-answers", some, "-algo", "random", "-out", some}, []string{"-out", "-answers"}, some},
		{[]string{"suggest", "-pool", pool, "-algo", "random", "-out", filepath.Join(dir, ".", "pool.csv")}, []string{"-out", "-pool"}, pool},
		{[]string{"suggest", "-pool", pool, "-answers", some, "-algo", "random", "-out", link}, []string{"-out", "-answers"}, some},
		{[]string{"export", "-pool", pool, "-answers", some, "-algo", "random", "-out", other, "-model", other}, []string{"-model", "-out"}, ""},
		{[]string{"export", "-pool", pool, "-answers", some, "-algo", "random", "-out", other, "-model", some}, []string{"-model", "-answers"}, some},
		{[]string{"export", "-pool", pool, "-load", model, "-out", model}, []string{"-out", "-load"}, model},
		{[]string{"export", "-pool", pool, "-session", sess, "-out", logPath}, []string{"-out", "-session"}, logPath},
		{[]string{"suggest", "-pool", syn, "-algo", "random", "-out", filepath.Join(syn, "x.csv")}, []string{"-out", "-pool", "pool directory"}, ""},
		{[]string{"export", "-pool", syn, "-answers", filepath.Join(syn, "answers.csv"), "-algo", "random", "-out", other, "-model", filepath.Join(syn, "new", "utility.npy")}, []string{"-model", "-pool", "pool directory"}, ""},
		{[]string{"run", "-q", "-problem", "pool", "-pool", pool, "-answers", some, "-algo", "random", "-T", "5", "-out", some}, []string{"-out", "-answers"}, some},
		{[]string{"run", "-q", "-problem", "pool", "-pool", pool, "-algo", "random", "-T", "5", "-out", other, "-references", other}, []string{"-references", "-out"}, ""},
		{[]string{"run", "-q", "-problem", "pool", "-pool", syn, "-algo", "random", "-T", "5", "-out", filepath.Join(syn, "run.csv")}, []string{"-out", "pool directory"}, ""},
	} {
		var before []byte
		if c.input != "" {
			var err error
			if before, err = os.ReadFile(c.input); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err := nadb(c.args...)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: got %v, want a usage error", c.args, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not name %s", c.args, err, w)
			}
		}
		if c.input != "" {
			if after, err := os.ReadFile(c.input); err != nil || string(after) != string(before) {
				t.Errorf("%v: %s changed", c.args, c.input)
			}
		}
	}
	// Outputs beside the inputs, and both to the null device, are written.
	for _, args := range [][]string{
		{"export", "-pool", syn, "-answers", filepath.Join(syn, "answers.csv"), "-algo", "random", "-out", other, "-model", filepath.Join(dir, "m2.json")},
		{"export", "-pool", pool, "-answers", some, "-algo", "random", "-out", os.DevNull, "-model", os.DevNull},
	} {
		if _, _, err := nadb(args...); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}
