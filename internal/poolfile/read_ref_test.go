package poolfile

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// TestReadPoolMatchesWhole: the streaming ReadPool returns what parsing the
// whole text first returns (the same pool, or the same located error) on
// the fuzz corpus, on the inputs of the other tests, and on random edits of
// a valid file (deleted, duplicated and altered fields and lines, shuffled
// rows).
func TestReadPoolMatchesWhole(t *testing.T) {
	var inputs [][]byte
	files, err := filepath.Glob("testdata/fuzz/FuzzReadPool/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 2)
		s := strings.TrimSpace(lines[1])
		s = strings.TrimSuffix(strings.TrimPrefix(s, "[]byte("), ")")
		in, err := strconv.Unquote(s)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		inputs = append(inputs, []byte(in))
	}
	if len(inputs) < 10 {
		t.Fatalf("only %d corpus files", len(inputs))
	}
	base := []string{tinyPool, "context,arm,x\n1,a,1\n1,a,2\n", "\xef\xbb\xbfX1, Arm ,CONTEXT\n\n1, a, c1\n2,a,c2\n3,b,c1\n 4 ,b,c2\n"}
	for _, s := range base {
		inputs = append(inputs, []byte(s))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var big strings.Builder
	big.WriteString("context,arm,x,y,utility\n")
	for r := range 63 {
		fmt.Fprintf(&big, "c%d,a%d,%d,%g,%d\n", r%7, r/7, r, float64(r)/3, r%5)
	}
	edits := []func([]string) []string{
		func(l []string) []string { i := rng.IntN(len(l)); return append(l[:i:i], l[i+1:]...) },
		func(l []string) []string { i := rng.IntN(len(l)); return append(l[:i+1:i+1], l[i:]...) },
		func(l []string) []string {
			rng.Shuffle(len(l)-1, func(i, j int) { l[i+1], l[j+1] = l[j+1], l[i+1] })
			return l
		},
		func(l []string) []string {
			i := rng.IntN(len(l))
			f := strings.Split(l[i], ",")
			f[rng.IntN(len(f))] = []string{"", "x", "NaN", "1e999", "\"", "c1", "a1", " 2 "}[rng.IntN(8)]
			l[i] = strings.Join(f, ",")
			return l
		},
		func(l []string) []string { i := rng.IntN(len(l)); l[i] += ",9"; return l },
	}
	for range 400 {
		l := strings.Split(strings.TrimSuffix(big.String(), "\n"), "\n")
		l = edits[2](l) // rows in any order
		for range rng.IntN(3) {
			l = edits[rng.IntN(len(edits))](l)
		}
		inputs = append(inputs, []byte(strings.Join(l, "\n")+"\n"))
	}
	valid, invalid := 0, 0
	for _, in := range inputs {
		want, werr := readPoolWhole(bytes.NewReader(in), "p.csv")
		got, gerr := ReadPool(bytes.NewReader(in), "p.csv")
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("input %q:\nstreaming error %v\nwhole-file error %v", in, gerr, werr)
		}
		if werr != nil {
			invalid++
			continue
		}
		valid++
		if d := cmp.Diff(want, got, cmpopts.IgnoreUnexported(PoolFile{}), cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("input %q (-whole +streaming):\n%s", in, d)
		}
	}
	if valid < 20 || invalid < 100 {
		t.Fatalf("%d valid and %d invalid inputs: the edits exercise too little", valid, invalid)
	}
}

// readPoolWhole is ReadPool as it was before it streamed: the whole file
// read as text first (csvtab.Read), then parsed. The reference the
// streaming parser must agree with, result for result and error for error.
func readPoolWhole(r io.Reader, file string) (*PoolFile, error) {
	t, err := csvtab.Read(r, file)
	if err != nil {
		return nil, err
	}
	cols, err := t.Require("context", "arm")
	if err != nil {
		return nil, err
	}
	ctxCol, armCol, utilCol := cols[0], cols[1], t.Column("utility")
	var featCols []int
	for i := range t.Header {
		if i != ctxCol && i != armCol && i != utilCol {
			featCols = append(featCols, i)
		}
	}
	if len(featCols) == 0 {
		return nil, &csvtab.Error{File: file, Line: t.HeaderLine, Msg: "no feature columns: the header must be context,arm followed by at least one feature column"}
	}
	if len(t.Rows) == 0 {
		return nil, &csvtab.Error{File: file, Msg: "no data rows after the header"}
	}

	type armRow struct {
		id   string
		row  int // index into t.Rows
		x    []float64
		util float64
	}
	type ctxRows struct {
		id   string
		arms []armRow
		ids  map[string]int // arm id → position in arms
	}
	var ctxs []*ctxRows
	byID := map[string]*ctxRows{}
	for r := range t.Rows {
		cid, err := t.ID(r, ctxCol)
		if err != nil {
			return nil, err
		}
		aid, err := t.ID(r, armCol)
		if err != nil {
			return nil, err
		}
		ar := armRow{id: aid, row: r, x: make([]float64, len(featCols))}
		for k, col := range featCols {
			if ar.x[k], err = t.Float(r, col); err != nil {
				return nil, err
			}
		}
		if utilCol >= 0 {
			if ar.util, err = t.Float(r, utilCol); err != nil {
				return nil, err
			}
		}
		c := byID[cid]
		if c == nil {
			c = &ctxRows{id: cid, ids: map[string]int{}}
			byID[cid] = c
			ctxs = append(ctxs, c)
		}
		if j, dup := c.ids[aid]; dup {
			return nil, t.ErrAt(r, armCol, "context %q has arm %q twice (first at line %d)", cid, aid, t.Lines[c.arms[j].row])
		}
		c.ids[aid] = len(c.arms)
		c.arms = append(c.arms, ar)
	}

	K := len(ctxs[0].arms)
	for _, c := range ctxs {
		line := t.Lines[c.arms[0].row]
		switch {
		case len(c.arms) < 2:
			return nil, &csvtab.Error{File: file, Line: line, Msg: fmt.Sprintf("context %q has 1 arm; every context needs at least 2 arms to form a duel", c.id)}
		case len(c.arms) != K:
			return nil, &csvtab.Error{File: file, Line: line, Msg: fmt.Sprintf("context %q has %d arms, but context %q (line %d) has %d; every context needs the same number of arms",
				c.id, len(c.arms), ctxs[0].id, t.Lines[ctxs[0].arms[0].row], K)}
		}
	}

	d := len(featCols)
	pf := &PoolFile{Contexts: make([]string, len(ctxs)), Arms: make([]string, 0, len(ctxs)*K)}
	for _, col := range featCols {
		pf.Features = append(pf.Features, t.Header[col])
	}
	if utilCol >= 0 {
		pf.Utility = make([]float64, 0, len(ctxs)*K)
	}
	x := make([]float64, 0, len(ctxs)*K*d)
	for c, cr := range ctxs {
		pf.Contexts[c] = cr.id
		for _, ar := range cr.arms {
			pf.Arms = append(pf.Arms, ar.id)
			x = append(x, ar.x...)
			if utilCol >= 0 {
				pf.Utility = append(pf.Utility, ar.util)
			}
		}
	}
	if pf.Pool, err = algorithms.NewPool(len(ctxs), K, d, x); err != nil {
		return nil, &csvtab.Error{File: file, Msg: err.Error()}
	}
	return pf, nil
}
