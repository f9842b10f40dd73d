package verify

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readPreregs reads every verify/prereg/*.json.
func readPreregs(t *testing.T) map[string]Prereg {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("prereg", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no pre-registrations in verify/prereg")
	}
	out := map[string]Prereg{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var pr Prereg
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&pr); err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = pr
	}
	return out
}

// TestPreregistrations checks every pre-registration: complete, its
// configuration hash that of the runs the code defines for it, every claim
// registered or exempt, and (with git history) registered before its
// results were first committed.
func TestPreregistrations(t *testing.T) {
	preregs := readPreregs(t)
	for id, pr := range preregs {
		if pr.ID != id {
			t.Errorf("prereg/%s.json: id %q, want the file's stem", id, pr.ID)
		}
		if pr.Title == "" || pr.Registered == "" || pr.Scale == "" || pr.Seeds == "" || len(pr.Problems) == 0 || len(pr.Results) == 0 || len(pr.Claims)+len(pr.Tables) == 0 {
			t.Errorf("prereg/%s.json: incomplete (title, registered, scale, seeds, problems, results, claims or tables)", id)
		}
		for _, c := range slices.Concat(pr.Claims, pr.Tables) {
			if c.ID == "" || c.Statement == "" || c.Statistic == "" || c.Test == "" || c.Threshold == "" {
				t.Errorf("prereg/%s.json: claim %q incomplete (statement, statistic, test, threshold)", id, c.ID)
			}
		}
		runs, err := PreregRuns(id)
		if err != nil {
			t.Errorf("prereg/%s.json: %v", id, err)
			continue
		}
		hash, n := ConfigHash(runs)
		if hash != pr.ConfigHash || n != pr.Runs {
			t.Errorf("prereg/%s.json: registered %d runs with config_hash %q; the code now defines %d runs hashing to %q (a registered evaluation's runs must not change: register a new evaluation instead)", id, pr.Runs, pr.ConfigHash, n, hash)
		}
	}
	for _, c := range Table() {
		if c.Prereg == "" {
			if !slices.Contains(preregExempt, c.ID) {
				t.Errorf("claim %s has no pre-registration (Claim.Prereg) and was not decided before pre-registration existed", c.ID)
			}
			continue
		}
		pr, ok := preregs[c.Prereg]
		if !ok {
			t.Errorf("claim %s: pre-registration verify/prereg/%s.json does not exist", c.ID, c.Prereg)
			continue
		}
		if !slices.ContainsFunc(pr.Claims, func(p PreregClaim) bool { return p.ID == c.ID }) {
			t.Errorf("claim %s: verify/prereg/%s.json does not register it", c.ID, c.Prereg)
		}
	}
}

// TestPreregistrationsPrecedeResults checks, in git history, that each
// pre-registration was committed before the first commit of each of its
// results files. It skips without git or in a shallow clone (no history to
// check); a result never committed yet is pending and passes.
func TestPreregistrationsPrecedeResults(t *testing.T) {
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", args...).Output()
		return strings.TrimSpace(string(out)), err
	}
	root, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		t.Skipf("no git repository: %v", err)
	}
	if shallow, _ := git("rev-parse", "--is-shallow-repository"); shallow == "true" {
		t.Skip("shallow clone: the order of commits cannot be checked (fetch with full history to check it)")
	}
	// firstAdded returns the oldest commit that added path ("" if none).
	firstAdded := func(path string) string {
		out, err := git("-C", root, "log", "--format=%H", "--diff-filter=A", "--", path)
		if err != nil || out == "" {
			return ""
		}
		lines := strings.Split(out, "\n")
		return lines[len(lines)-1]
	}
	checked := 0
	for id, pr := range readPreregs(t) {
		reg := firstAdded("verify/prereg/" + id + ".json")
		for _, r := range pr.Results {
			res := firstAdded(r)
			switch {
			case res == "":
				t.Logf("%s: %s not committed yet", id, r)
			case reg == "":
				t.Errorf("%s: result %s is committed (%s) but the pre-registration is not", id, r, res[:12])
			case reg == res:
				t.Errorf("%s: result %s was committed together with its pre-registration (%s); the registration must come first", id, r, res[:12])
			default:
				if _, err := git("-C", root, "merge-base", "--is-ancestor", reg, res); err != nil {
					t.Errorf("%s: result %s (first committed in %s) does not come after the pre-registration (%s)", id, r, res[:12], reg[:12])
				}
				checked++
			}
		}
	}
	t.Logf("%d committed results checked against their pre-registrations", checked)
}
