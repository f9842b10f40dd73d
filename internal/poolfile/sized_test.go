package poolfile

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// shuffledPool returns the text of a pool file of contexts × arms rows with
// its rows in random order (contexts interleaved, so that moving the rows
// into context order follows long cycles).
func shuffledPool(contexts, arms, d int) string {
	rng := rand.New(rand.NewPCG(9, 9))
	var rows []string
	for c := range contexts {
		for a := range arms {
			var b strings.Builder
			fmt.Fprintf(&b, "c%d,a%d", c, a)
			for range d {
				fmt.Fprintf(&b, ",%g", rng.NormFloat64())
			}
			fmt.Fprintf(&b, ",%g", rng.NormFloat64())
			rows = append(rows, b.String())
		}
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var head strings.Builder
	head.WriteString("context,arm")
	for i := range d {
		fmt.Fprintf(&head, ",x%d", i)
	}
	return head.String() + ",utility\n" + strings.Join(rows, "\n") + "\n"
}

// TestReadPoolFromFile: a regular file is parsed into the pool's matrix
// itself (its lines counted first) and gives the pool, or the error, that
// the streamed text gives; so does a hint that undercounts the rows.
func TestReadPoolFromFile(t *testing.T) {
	inputs := map[string]string{
		"tiny":             tinyPool,
		"no final newline": strings.TrimSuffix(tinyPool, "\n"),
		"crlf":             strings.ReplaceAll(tinyPool, "\n", "\r\n"),
		"blank lines":      "\xef\xbb\xbfX1, Arm ,CONTEXT\n\n1, a, c1\n2,a,c2\n\n3,b,c1\n 4 ,b,c2\n\n",
		"shuffled":         shuffledPool(40, 5, 3),
		"duplicate arm":    "context,arm,x\n1,a,1\n1,b,2\n2,a,1\n1,a,3\n",
		"not a number":     "context,arm,x,y\n1,a,1,2\n1,b,1,abc\n",
		"header only":      "context,arm,x\n",
	}
	dir := t.TempDir()
	for name, text := range inputs {
		t.Run(name, func(t *testing.T) {
			want, wantErr := ReadPool(strings.NewReader(text), "pool.csv")
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".csv")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			same := func(how string, got *PoolFile, err error) {
				t.Helper()
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("%s: error %v, streamed %v", how, err, wantErr)
				}
				if d := cmp.Diff(want, got, cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
					t.Fatalf("%s (-streamed +got):\n%s", how, d)
				}
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := ReadPool(f, "pool.csv")
			same("ReadPool of the file", got, err)
			got, err = readPool(strings.NewReader(text), "pool.csv", sizeHint{lines: 3, bytes: int64(len(text))})
			same("too small a hint", got, err)
			if wantErr == nil {
				got, _, err := Open(path, "")
				if err != nil {
					t.Fatal(err)
				}
				same("Open", got, nil)
			}
		})
	}
}

func TestPermuteRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{1, 2, 7, 50} {
		const d = 3
		perm := rng.Perm(n)
		to := make([]int32, n)
		x := make([]float64, n*d)
		want := make([]float64, n*d)
		for r := range n {
			to[r] = int32(perm[r])
			for j := range d {
				x[r*d+j] = float64(r*d + j)
				want[perm[r]*d+j] = float64(r*d + j)
			}
		}
		permuteRows(x, d, to)
		if !cmp.Equal(x, want) {
			t.Errorf("n = %d: %v, want %v", n, x, want)
		}
	}
}
