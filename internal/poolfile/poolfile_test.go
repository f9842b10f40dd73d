package poolfile

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
)

const tinyPool = `context,arm,x1,x2,utility
u1,red,0.5,1,2
u1,blue,-1,0,0
u1,green,0,0.25,1
u2,red,1,1,0
u2,blue,2,-1,1
u2,green,0,0,3
`

func mustPool(t testing.TB, s string) *PoolFile {
	t.Helper()
	pf, err := ReadPool(strings.NewReader(s), "pool.csv")
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

func TestReadPool(t *testing.T) {
	pf := mustPool(t, tinyPool)
	want := &PoolFile{
		Pool: poolOf(2, 3, 2, []float64{
			0.5, 1, -1, 0, 0, 0.25,
			1, 1, 2, -1, 0, 0}),
		Contexts: []string{"u1", "u2"},
		Arms:     []string{"red", "blue", "green", "red", "blue", "green"},
		Features: []string{"x1", "x2"},
		Utility:  []float64{2, 0, 1, 0, 1, 3},
	}
	if d := cmp.Diff(want, pf, cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
		t.Errorf("ReadPool (-want +got):\n%s", d)
	}

	// Columns in any order, names ignoring case, rows of a context need not be
	// adjacent, white space and a byte-order mark are tolerated, no utility.
	pf = mustPool(t, "\xef\xbb\xbfX1, Arm ,CONTEXT\n\n1, a, c1\n2,a,c2\n3,b,c1\n 4 ,b,c2\n")
	want = &PoolFile{
		Pool:     poolOf(2, 2, 1, []float64{1, 3, 2, 4}),
		Contexts: []string{"c1", "c2"}, Arms: []string{"a", "b", "a", "b"}, Features: []string{"X1"},
	}
	if d := cmp.Diff(want, pf, cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
		t.Errorf("ReadPool, shuffled columns (-want +got):\n%s", d)
	}

	var b bytes.Buffer
	if err := WritePool(&b, mustPool(t, tinyPool)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(mustPool(t, tinyPool), mustPool(t, b.String()), cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
		t.Errorf("WritePool does not round-trip (-want +got):\n%s", d)
	}
}

// TestReadPoolErrors: every kind of bad input is reported with the file, the
// line and (where it applies) the column, and nothing is dropped silently.
func TestReadPoolErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "pool.csv: empty file"},
		{"header only", "context,arm,x\n", "pool.csv: no data rows"},
		{"no context column", "ctx,arm,x\n1,a,1\n", `pool.csv line 1: missing column "context"`},
		{"no arm column", "context,x\n1,1\n", `pool.csv line 1: missing column "arm"`},
		{"no features", "context,arm,utility\n1,a,1\n1,b,2\n", "pool.csv line 1: no feature columns"},
		{"duplicate column", "context,arm,x,X\n", `pool.csv line 1, column 4 (X): column name repeats column 3 (x)`},
		{"empty column name", "context,arm,,x\n", "pool.csv line 1, column 3: empty column name"},
		{"ragged short", "context,arm,x,y\n1,a,1,2\n1,b,1\n", "pool.csv line 3: 3 fields, but the header has 4 columns"},
		{"ragged long", "context,arm,x\n1,a,1\n1,b,1,5\n", "pool.csv line 3: 4 fields, but the header has 3 columns"},
		{"not a number", "context,arm,x,y\n1,a,1,2\n1,b,1,abc\n", `pool.csv line 3, column 4 (y): "abc" is not a number`},
		{"empty number", "context,arm,x\n1,a,\n1,b,1\n", "pool.csv line 2, column 3 (x): empty value, want a number"},
		{"NaN", "context,arm,x\n1,a,NaN\n1,b,1\n", `pool.csv line 2, column 3 (x): "NaN" is not a finite number`},
		{"Inf", "context,arm,x\n1,a,1\n1,b,-Inf\n", `pool.csv line 3, column 3 (x): "-Inf" is not a finite number`},
		{"overflow", "context,arm,x\n1,a,1e999\n1,b,1\n", `pool.csv line 2, column 3 (x): "1e999" is not a finite number`},
		{"bad utility", "context,arm,x,utility\n1,a,1,2\n1,b,1,?\n", `pool.csv line 3, column 4 (utility): "?" is not a number`},
		{"empty context", "context,arm,x\n,a,1\n", "pool.csv line 2, column 1 (context): empty context"},
		{"empty arm", "context,arm,x\n1, ,1\n", "pool.csv line 2, column 2 (arm): empty arm"},
		{"duplicate arm", "context,arm,x\n1,a,1\n1,b,2\n2,a,1\n1,a,3\n", `pool.csv line 5, column 2 (arm): context "1" has arm "a" twice (first at line 2)`},
		{"one arm", "context,arm,x\n1,a,1\n1,b,2\n2,a,3\n", `pool.csv line 4: context "2" has 1 arm`},
		{"one arm first", "context,arm,x\n1,a,1\n", `pool.csv line 2: context "1" has 1 arm`},
		{"unequal arms", "context,arm,x\n1,a,1\n1,b,2\n2,a,3\n2,b,3\n2,c,3\n", `pool.csv line 4: context "2" has 3 arms, but context "1" (line 2) has 2`},
		{"bare quote", "context,arm,x\n1,a\"b,1\n", "pool.csv line 2: malformed CSV"},
		{"unterminated quote", "context,arm,x\n1,\"a,1\n", "pool.csv line 2: malformed CSV"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPool(strings.NewReader(tc.in), "pool.csv")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant prefix %q", err, tc.want)
			}
			var ie *csvtab.Error
			if err != nil && !errors.As(err, &ie) {
				t.Errorf("error %v is not an *csvtab.Error", err)
			}
		})
	}
}

func TestReadAnswers(t *testing.T) {
	pf := mustPool(t, tinyPool)
	ans, err := pf.ReadAnswers(strings.NewReader("y,arm2,context,arm1\n1,blue,u1,red\n0.5,red,u2,green\n0,red,u1,blue\n"), "ans.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Answer{{0, 0, 1, 1}, {1, 2, 0, 0.5}, {0, 1, 0, 0}}
	if d := cmp.Diff(want, ans.List); d != "" {
		t.Errorf("answers (-want +got):\n%s", d)
	}
	if ans.Recorded(0, 1, 0) != 2 || ans.Recorded(1, 0, 2) != 1 || ans.Recorded(1, 0, 1) != 0 {
		t.Errorf("Recorded counts wrong: %d %d %d", ans.Recorded(0, 1, 0), ans.Recorded(1, 0, 2), ans.Recorded(1, 0, 1))
	}
	var b bytes.Buffer
	if err := WriteAnswers(&b, pf, ans); err != nil {
		t.Fatal(err)
	}
	again, err := pf.ReadAnswers(&b, "again.csv")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(ans.List, again.List); d != "" {
		t.Errorf("WriteAnswers does not round-trip (-want +got):\n%s", d)
	}

	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "ans.csv: empty file"},
		{"no rows", "context,arm1,arm2,y\n", "ans.csv: no answers"},
		{"missing y", "context,arm1,arm2\nu1,red,blue\n", `ans.csv line 1: missing column "y"`},
		{"extra column", "context,arm1,arm2,y,who\nu1,red,blue,1,me\n", "ans.csv line 1, column 5 (who): unknown column"},
		{"unknown context", "context,arm1,arm2,y\nu1,red,blue,1\nu9,red,blue,1\n", `ans.csv line 3, column 1 (context): unknown context "u9"`},
		{"unknown arm1", "context,arm1,arm2,y\nu1,pink,blue,1\n", `ans.csv line 2, column 2 (arm1): context "u1" has no arm "pink"`},
		{"unknown arm2", "context,arm1,arm2,y\nu1,red,pink,1\n", `ans.csv line 2, column 3 (arm2): context "u1" has no arm "pink"`},
		{"same arm", "context,arm1,arm2,y\nu1,red,red,1\n", `ans.csv line 2, column 3 (arm2): arm2 is arm1 ("red")`},
		{"bad y", "context,arm1,arm2,y\nu1,red,blue,2\n", `ans.csv line 2, column 4 (y): y = "2"; want 1 (arm1 won), 0 (arm2 won) or 0.5 (tie)`},
		{"y text", "context,arm1,arm2,y\nu1,red,blue,yes\n", `ans.csv line 2, column 4 (y): "yes" is not a number`},
		{"ragged", "context,arm1,arm2,y\nu1,red,blue\n", "ans.csv line 2: 3 fields"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pf.ReadAnswers(strings.NewReader(tc.in), "ans.csv")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant prefix %q", err, tc.want)
			}
		})
	}
}

func TestCopelandAndMissing(t *testing.T) {
	ans := NewAnswers(1, 4)
	ans.Add(Answer{0, 0, 1, 1})
	ans.Add(Answer{0, 0, 1, 0}) // 0 vs 1: one win each → ½ each
	ans.Add(Answer{0, 0, 2, 1})
	ans.Add(Answer{0, 2, 0, 0.5}) // 0 vs 2: 1.5 of 2 for arm 0 → arm 0
	ans.Add(Answer{0, 3, 1, 1})   // 3 beats 1
	// {0,3}, {1,2}, {2,3} unrecorded → ½ each
	want := []float64{0.5 + 1 + 0.5, 0.5 + 0 + 0.5, 0 + 0.5 + 0.5, 1 + 0.5 + 0.5}
	if d := cmp.Diff(want, ans.Copeland()); d != "" {
		t.Errorf("Copeland (-want +got):\n%s", d)
	}
	n, first := ans.Missing()
	if n != 3 || first != (Answer{Context: 0, Arm1: 0, Arm2: 3}) {
		t.Errorf("Missing = %d, %+v; want 3, {0 0 3}", n, first)
	}
	if got := len(ans.Strict()); got != 4 {
		t.Errorf("Strict has %d answers, want 4", got)
	}
}

// BenchmarkReadPool measures parsing a pool file of 1,000 contexts × 10 arms
// × 20 features (10,000 rows, ~2 MB).
func BenchmarkReadPool(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var s strings.Builder
	s.WriteString("context,arm")
	for k := range 20 {
		s.WriteString(",x" + formatFloat(float64(k)))
	}
	s.WriteString("\n")
	for c := range 1000 {
		for a := range 10 {
			s.WriteString("c" + formatFloat(float64(c)) + ",a" + formatFloat(float64(a)))
			for range 20 {
				s.WriteString("," + formatFloat(rng.Float64()))
			}
			s.WriteString("\n")
		}
	}
	in := s.String()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := ReadPool(strings.NewReader(in), "bench.csv"); err != nil {
			b.Fatal(err)
		}
	}
}

// poolOf returns the float64 pool of x, which must be valid.
func poolOf(contexts, arms, dim int, x []float64) *algorithms.Pool {
	p, err := algorithms.NewPool(contexts, arms, dim, x)
	if err != nil {
		panic(err)
	}
	return p
}

// TestAnswersInfo: the optional columns are read, checked and written back.
func TestAnswersInfo(t *testing.T) {
	pf := mustPool(t, tinyPool)
	in := "context,arm1,arm2,y,labeller,both_bad,recheck\nu1,red,blue,1,ann,0,\nu1,red,blue,0.5,bob,1,0\nu2,green,red,0,ann,,1\n"
	ans, err := pf.ReadAnswers(strings.NewReader(in), "ans.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []Info{{Labeller: "ann"}, {Labeller: "bob", BothBad: true}, {Labeller: "ann", Recheck: true}}
	if d := cmp.Diff(want, ans.Info); d != "" {
		t.Errorf("Info (-want +got):\n%s", d)
	}
	var b bytes.Buffer
	if err := WriteAnswers(&b, pf, ans); err != nil {
		t.Fatal(err)
	}
	again, err := pf.ReadAnswers(&b, "again.csv")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(ans.Info, again.Info); d != "" || !cmp.Equal(ans.List, again.List) {
		t.Errorf("WriteAnswers does not round-trip the optional columns:\n%s", d)
	}
	if sub := ans.Subset([]int{1}); len(sub.Info) != 1 || sub.Info[0] != want[2] {
		t.Errorf("Subset keeps Info %v, want [%v]", sub.Info, want[2])
	}
	for _, tc := range []struct{ in, want string }{
		{"context,arm1,arm2,y,both_bad\nu1,red,blue,1,1\n", `ans.csv line 2, column 5 (both_bad): both_bad = 1 with y = 1`},
		{"context,arm1,arm2,y,recheck\nu1,red,blue,1,yes\n", `ans.csv line 2, column 5 (recheck): recheck = "yes"; want 1, 0 or empty`},
		{"context,arm1,arm2,y,labeller\nu1,red,blue,1,J\xf6rg\n", `ans.csv line 2, column 5 (labeller): the labeller is not valid UTF-8`},
	} {
		if _, err := pf.ReadAnswers(strings.NewReader(tc.in), "ans.csv"); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error %v, want prefix %q", err, tc.want)
		}
	}
}

// TestHostilePools: a Latin-1 pool, an absurd utility and a huge identifier
// are refused by file, line and column, with short messages.
func TestHostilePools(t *testing.T) {
	huge := strings.Repeat("z", 50000)
	for _, tc := range []struct{ name, in, want string }{
		{"Latin-1 context", "context,arm,x\nZ\xfcrich,a,1\nZ\xfcrich,b,2\n", `pool.csv line 2, column 1 (context): the context is not valid UTF-8 (byte 0xfc at byte 2 of "Z\xfcrich")`},
		{"Latin-1 arm", "context,arm,x\nc,a,1\nc,M\xfcnchen,2\n", `pool.csv line 3, column 2 (arm): the arm is not valid UTF-8`},
		{"utility 1e308", "context,arm,x,utility\nc,a,1,1e308\nc,b,2,-1e308\n", `pool.csv line 2, column 4 (utility): utility "1e308" is beyond ±1e+15`},
		{"duplicate huge arm", "context,arm,x\nc," + huge + ",1\nc," + huge + ",2\n", `pool.csv line 3, column 2 (arm): context "c" has arm "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"… (50000 bytes) twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPool(strings.NewReader(tc.in), "pool.csv")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || len(err.Error()) > 300 {
				t.Errorf("error %v\nwant a short one starting %q", err, tc.want)
			}
		})
	}
	pf := mustPool(t, "context,arm,x,y\nc,a,1,1e-3\nc,b,2,2e9\n")
	if err := CheckScale(pf); err == nil || err.Error() != `the features span 2 (column "x") to 2e+09 (column "y")` {
		t.Errorf("CheckScale = %v", err)
	}
}
