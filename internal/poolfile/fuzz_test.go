package poolfile

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/neural-adb/nadb/internal/csvtab"
)

// The parsers are fuzzed with "go test -fuzz FuzzReadPool ./internal/poolfile" (and
// FuzzReadAnswers); inputs the fuzzer found interesting are kept under
// testdata/fuzz/ and run as ordinary test cases by "go test".

// FuzzReadPool: ReadPool never panics; it returns what parsing the whole text
// first returns (readPoolWhole), and either an *csvtab.Error or a valid pool
// that WritePool and ReadPool round-trip exactly.
func FuzzReadPool(f *testing.F) {
	for _, s := range []string{
		tinyPool,
		"context,arm,x\n1,a,1\n1,b,2\n",
		"X1, Arm ,CONTEXT\n1, a, c1\n2,a,c2\n3,b,c1\n4,b,c2\n",
		"context,arm,x,utility\n\"a,b\",\"q\"\"x\",1e-3,2\n\"a,b\",y,-0,3\n",
		"context,arm,x\n1,a,1\n1,a,2\n",
		"context,arm,x\n1,a,NaN\n",
		"\xef\xbb\xbfcontext,arm,x\r\n1,a,1\r\n1,b,0x1p-2\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		pf, err := ReadPool(bytes.NewReader(in), "fuzz.csv")
		whole, werr := readPoolWhole(bytes.NewReader(in), "fuzz.csv")
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
			t.Fatalf("streaming error %v, whole-file error %v", err, werr)
		}
		if err == nil {
			if d := cmp.Diff(whole, pf, cmpopts.IgnoreUnexported(PoolFile{}), cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("streaming and whole-file pools differ (-whole +streaming):\n%s", d)
			}
		}
		if err != nil {
			var ie *csvtab.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *csvtab.Error", err)
			}
			return
		}
		p := pf.Pool
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid pool: %v", err)
		}
		if len(pf.Contexts) != p.Contexts || len(pf.Arms) != p.Rows() || len(pf.Features) != p.Dim ||
			(pf.Utility != nil && len(pf.Utility) != p.Rows()) || p.Arms < 2 {
			t.Fatalf("inconsistent shape: %d contexts, %d arm ids, %d features, %d utilities for %+v",
				len(pf.Contexts), len(pf.Arms), len(pf.Features), len(pf.Utility), *p)
		}
		for c := range p.Contexts {
			seen := map[string]bool{}
			for _, id := range pf.Arms[c*p.Arms : (c+1)*p.Arms] {
				if id == "" || seen[id] {
					t.Fatalf("context %q: empty or repeated arm id %q", pf.Contexts[c], id)
				}
				seen[id] = true
			}
		}
		var b bytes.Buffer
		if err := WritePool(&b, pf); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPool(&b, "again.csv")
		if err != nil {
			t.Fatalf("WritePool output does not parse: %v\n%q", err, b.String())
		}
		if d := cmp.Diff(pf, again, cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
			t.Fatalf("round trip differs (-first +second):\n%s", d)
		}
	})
}

// FuzzReadAnswers: ReadAnswers never panics; an accepted file holds only valid
// answers of the pool, and WriteAnswers round-trips it.
func FuzzReadAnswers(f *testing.F) {
	pf := mustPool(f, tinyPool)
	for _, s := range []string{
		"context,arm1,arm2,y\nu1,red,blue,1\nu2,green,red,0.5\n",
		"y,arm2,context,arm1\n0,red,u1,blue\n",
		"context,arm1,arm2,y\nu1,red,red,1\n",
		"context,arm1,arm2,y\nu3,red,blue,1\n",
		"context,arm1,arm2,y\nu1,red,blue,2\n",
		"context,arm1,arm2,y,labeller,both_bad,recheck\nu1,red,blue,0.5,ann,1,0\nu2,green,red,1,,,1\n",
		"context,arm1,arm2,y,both_bad\nu1,red,blue,1,1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		ans, err := pf.ReadAnswers(bytes.NewReader(in), "fuzz.csv")
		if err != nil {
			var ie *csvtab.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *csvtab.Error", err)
			}
			return
		}
		if len(ans.List) == 0 {
			t.Fatal("accepted a file without answers")
		}
		for _, a := range ans.List {
			if a.Context < 0 || a.Context >= 2 || a.Arm1 == a.Arm2 || a.Arm1 < 0 || a.Arm1 > 2 || a.Arm2 < 0 || a.Arm2 > 2 ||
				(a.Y != 0 && a.Y != 0.5 && a.Y != 1) {
				t.Fatalf("accepted an invalid answer %+v", a)
			}
		}
		var b bytes.Buffer
		if err := WriteAnswers(&b, pf, ans); err != nil {
			t.Fatal(err)
		}
		again, err := pf.ReadAnswers(strings.NewReader(b.String()), "again.csv")
		if err != nil {
			t.Fatalf("WriteAnswers output does not parse: %v", err)
		}
		if d := cmp.Diff(ans.List, again.List); d != "" {
			t.Fatalf("round trip differs (-first +second):\n%s", d)
		}
		if d := cmp.Diff(ans.Info, again.Info); d != "" {
			t.Fatalf("round trip of the optional columns differs (-first +second):\n%s", d)
		}
	})
}
