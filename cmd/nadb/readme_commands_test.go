package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// paperScaleCommands are the README commands that are paper-scale sweeps by
// design: the only ones that write into figures/. TestREADMECommands does not
// run them; every other command of the README's shell blocks it runs.
var paperScaleCommands = []string{
	"make figures",
	"make verify",
	"nadb figures -only fig1-main",
	"nadb figures -only fig1-main,fig2-ucb-d-K,fig3-ts-d-K,fig4-compare-d,fig5-compare-K,fig6-network-size",
	"nadb theory",
	"nadb lockon",
	"nadb figures -shard 3/8 -cache cache-3",
	"mkdir -p .cache/runs && cp -r cache-*/* .cache/runs/ && nadb figures",
}

// notRunCommands are README commands that are not run for another reason.
var notRunCommands = map[string]string{
	"make test":           "the test suite itself, which contains this test",
	"make test-readme":    "this test itself: running it here would recurse without end",
	"make test-browser":   "installs Chromium and drives it; .ci/run runs it",
	"make test-slurm":     "starts a Slurm cluster as root; .ci/run runs it",
	"make paper":          "installs TeX Live and builds the PDF; .ci/run runs it",
	"make claims-reduced": "minutes of every reduced-scale claim: go test ./verify, run here, evaluates the same claims, and nadb verify -scale reduced (with -only 5b) the same command",
	"jid=$(sbatch --parsable --array=1-8 .ci/slurm/figures.sbatch)":                                  "needs a Slurm cluster: make test-slurm runs the recipe on a one-node cluster",
	"sbatch --dependency=afterok:$jid --kill-on-invalid-dep=yes .ci/slurm/figures.sbatch":            "needs a Slurm cluster: make test-slurm runs the recipe on a one-node cluster",
	"mkdir -p bin/walk && cd bin/walk":                                                               "the labelling walkthrough: TestLabelWalkthrough runs it",
	"nadb data cems -out cems":                                                                       "the labelling walkthrough: TestLabelWalkthrough runs it",
	"head -n 401 cems/answers.csv > cems/so-far.csv":                                                 "the labelling walkthrough: TestLabelWalkthrough runs it",
	"nadb suggest -pool cems/pool.csv -answers cems/so-far.csv -n 10":                                "the labelling walkthrough: TestLabelWalkthrough runs it",
	"nadb export -pool cems/pool.csv -answers cems/so-far.csv -out policy.csv -model model.json":     "the labelling walkthrough: TestLabelWalkthrough runs it",
	"nadb export -pool cems/pool.csv -load model.json -out again.csv":                                "the labelling walkthrough: TestLabelWalkthrough runs it",
	"nadb serve -pool cems/pool.csv -answers cems/so-far.csv -display cems/display.csv -log session": "a server that runs until interrupted: TestServeCEMS and TestLabelWalkthrough start it on another port",
	"curl -s http://127.0.0.1:8080/api/export > session.csv":                                         "needs the running server: TestLabelWalkthrough fetches the export",
}

// budgets are flags appended to a README command starting with the key when
// the test runs it, to keep it small (a later flag overrides an earlier one).
var budgets = map[string]string{
	"nadb run ":    "-T 40 -every 20 -contexts 30 -width 8",
	"nadb verify ": "-only 5b",
}

// budgetFor returns the budget flags for a command ("" for none).
func budgetFor(cmd string) string {
	for prefix, extra := range budgets {
		if strings.HasPrefix(cmd, prefix) {
			return extra
		}
	}
	return ""
}

// readmeCommands returns the commands of the README's sh code blocks, one per
// line, without comments.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	in := false
	comment := regexp.MustCompile(`\s+#.*$`)
	for line := range strings.SplitSeq(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
		case strings.HasPrefix(line, "```"):
			in = false
		case in:
			if c := strings.TrimSpace(comment.ReplaceAllString(line, "")); c != "" && !strings.HasPrefix(c, "#") {
				cmds = append(cmds, c)
			}
		}
	}
	if len(cmds) == 0 {
		t.Fatal("README.md has no sh code block")
	}
	return cmds
}

// TestREADMECommandsListed keeps the lists above honest (part of make test):
// every listed command is still in the README, and no listed paper-scale
// command runs at another scale.
func TestREADMECommandsListed(t *testing.T) {
	cmds := readmeCommands(t)
	for _, c := range paperScaleCommands {
		if !slices.Contains(cmds, c) {
			t.Errorf("paper-scale command %q is no longer in the README: update paperScaleCommands", c)
		}
		if strings.Contains(c, "-quick") || strings.Contains(c, "-scale reduced") {
			t.Errorf("%q is listed as paper-scale but is not", c)
		}
	}
	for c := range notRunCommands {
		if !slices.Contains(cmds, c) {
			t.Errorf("command %q is no longer in the README: update notRunCommands", c)
		}
	}
}

// outFlag finds the file a command names with -out, if any.
var outFlag = regexp.MustCompile(`(?:^|\s)-out\s+(\S+)`)

// TestREADMECommands runs, in a temporary clone of the repository (its
// committed state), every command of the README's shell blocks that is not a
// paper-scale sweep, with small budgets where the command allows, and checks
// after each that "git status --porcelain" is empty: nothing a reader is told
// to run changes a committed file or leaves one behind (a file the command
// names with -out is checked and removed first). It takes minutes (make
// figures-quick, go test ./verify, make bench), so it runs only with
// NADB_README_COMMANDS=1: "make test-readme".
func TestREADMECommands(t *testing.T) {
	if os.Getenv("NADB_README_COMMANDS") != "1" {
		t.Skip("set NADB_README_COMMANDS=1 (make test-readme) to run the README's commands in a clone")
	}
	if os.Getenv("NADB_README_NESTED") == "1" {
		t.Skip("run by a README command inside TestREADMECommands: not again")
	}
	dir := filepath.Join(t.TempDir(), "clone")
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "clone", "-q", abs, dir).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "nadb"), "./cmd/nadb")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NADB_") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "NADB_README_NESTED=1")
	for _, c := range readmeCommands(t) {
		if slices.Contains(paperScaleCommands, c) {
			t.Logf("not run (paper scale): %s", c)
			continue
		}
		if why, ok := notRunCommands[c]; ok {
			t.Logf("not run (%s): %s", why, c)
			continue
		}
		line := c
		if extra := budgetFor(c); extra != "" {
			line += " " + extra
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
		cmd := exec.CommandContext(ctx, "sh", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("%s: %v\n%s", line, err, tail(out, 40))
			continue
		}
		t.Logf("ran in %s: %s", time.Since(start).Round(time.Second), line)
		if m := outFlag.FindStringSubmatch(c); m != nil {
			p := filepath.Join(dir, m[1])
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s: wrote no %s: %v", line, m[1], err)
			}
			os.RemoveAll(p)
		}
		if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("%s changed the clone:\n%s", line, st)
			git("checkout", "--", ".")
			git("clean", "-fdq")
		}
	}
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestLabelWalkthrough runs the README's labelling walkthrough (the shell
// block that starts with "nadb data cems") as the script it is, in a
// temporary folder with a freshly built nadb on the PATH: the server is
// started in the background on a free port, the export fetched from it, and
// every file the walkthrough names must exist afterwards. It runs with
// NADB_README_COMMANDS=1 (make test-readme).
func TestLabelWalkthrough(t *testing.T) {
	if os.Getenv("NADB_README_COMMANDS") != "1" {
		t.Skip("set NADB_README_COMMANDS=1 (make test-readme) to run the README's labelling walkthrough")
	}
	var script []string
	var serve, curl string
	for _, c := range readmeCommands(t) {
		switch {
		case strings.HasPrefix(c, "make nadb &&"), strings.HasPrefix(c, "mkdir -p bin/walk"):
		case strings.HasPrefix(c, "nadb serve "):
			serve = c
		case strings.HasPrefix(c, "curl "):
			curl = c
		case strings.HasPrefix(c, "nadb data cems"), strings.HasPrefix(c, "head -n"), strings.HasPrefix(c, "nadb suggest"), strings.HasPrefix(c, "nadb export"):
			script = append(script, c)
		}
	}
	if len(script) != 5 || serve == "" || curl == "" {
		t.Fatalf("walkthrough not found in the README: %d commands, serve %q, curl %q", len(script), serve, curl)
	}
	bin, dir := t.TempDir(), t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "nadb"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	sh := func(ctx context.Context, line string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, "sh", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		return cmd
	}
	for _, line := range script {
		if out, err := sh(context.Background(), line).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", line, err, tail(out, 20))
		}
	}
	const port = "18473"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := sh(ctx, "exec "+serve+" -addr 127.0.0.1:"+port) // exec: cancelling kills the server itself
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Wait()
	fetch := strings.Replace(curl, "127.0.0.1:8080", "127.0.0.1:"+port, 1)
	var err error
	for range 100 { // the server replays 400 answers before it listens
		if err = sh(context.Background(), "curl -sf http://127.0.0.1:"+port+"/api/progress > /dev/null").Run(); err == nil {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("the server did not answer: %v", err)
	}
	if out, err := sh(context.Background(), fetch).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", fetch, err, out)
	}
	cancel()
	for _, f := range []string{"cems/pool.csv", "cems/answers.csv", "cems/display.csv", "cems/so-far.csv", "policy.csv", "model.json", "again.csv", "session.csv", "session"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the walkthrough left no %s: %v", f, err)
		}
	}
}
