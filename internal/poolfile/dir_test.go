package poolfile

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/neural-adb/nadb/internal/npy"
)

// TestOpenNumPyDir: the pool directory NumPy wrote (testdata/numpy_pool.py,
// as the README's snippet writes one) reads as the pool it holds, its
// float32 features mapped and kept float32.
func TestOpenNumPyDir(t *testing.T) {
	pf, err := OpenDir(filepath.Join("testdata", "numpy-pool"))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	x := make([]float64, 3*2*4)
	for i := range x {
		x[i] = float64(i) / 4
	}
	want := &PoolFile{
		Pool:     poolOf(3, 2, 4, x),
		Contexts: []string{"p1", "p2", "p3"},
		Arms:     []string{"r1", "r2", "r1", "r2", "r1", "r2"},
		Features: []string{"x0", "x1", "x2", "x3"},
		Utility:  []float64{0, -1, 1, 0, 2, 1},
	}
	if d := cmp.Diff(want, pf, cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
		t.Errorf("OpenDir (-want +got):\n%s", d)
	}
	if !pf.Pool.Float32() || pf.Mapped() != 3*2*4*4 {
		t.Errorf("features float32 %v, %d bytes mapped; want float32, 96 mapped", pf.Pool.Float32(), pf.Mapped())
	}
	// The CSV of the same pool reads as the same pool.
	var b bytes.Buffer
	if err := WritePool(&b, pf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPool(&b, "pool.csv")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(pf, back, cmpopts.IgnoreUnexported(PoolFile{})); d != "" {
		t.Errorf("CSV of the directory (-dir +csv):\n%s", d)
	}
}

// TestWriteDirRoundTrip: WriteDir then OpenDir gives the pool back, float64
// exactly and float32 rounded; HashDir follows every file.
func TestWriteDirRoundTrip(t *testing.T) {
	pf := mustPool(t, "context,arm,x,y,utility\nu1,a,0.1,2,1\nu1,b,-3,0.5,0\nu2,a,1e-3,7,2\nu2,b,4,-1,5\n")
	for _, f32 := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "pool")
		if err := WriteDir(dir, pf, f32); err != nil {
			t.Fatal(err)
		}
		back, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		want := pf.Pool
		if f32 {
			x := pf.Pool.RowsTo(nil, 0, pf.Pool.Rows())
			r := make([]float64, len(x))
			for i, v := range x {
				r[i] = float64(float32(v))
			}
			want = poolOf(2, 2, 2, r)
		}
		if !back.Pool.Equal(want) || back.Pool.Float32() != f32 || !slices.Equal(back.Arms, pf.Arms) || !slices.Equal(back.Contexts, pf.Contexts) || !slices.Equal(back.Utility, pf.Utility) {
			t.Errorf("float32 %v: read back %+v", f32, back)
		}
		h1, err := HashDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		back.Close()
		os.WriteFile(filepath.Join(dir, DirContexts), []byte("u1\nu3\n"), 0o644)
		if h2, _ := HashDir(dir); h2 == h1 {
			t.Error("HashDir ignores contexts.txt")
		}
		if _, _, err := Open(dir, h1); err == nil || !strings.Contains(err.Error(), "has changed") {
			t.Errorf("Open with the old sha256: %v", err)
		}
		pf2, sha, err := Open(dir, "")
		if err != nil || pf2.Contexts[1] != "u3" || sha != "" { // a directory is hashed only when asked to
			t.Errorf("Open: %v", err)
		}
		pf2.Close()
	}
	// Arms are slots shared by every context.
	ragged := mustPool(t, "context,arm,x\nu1,a,1\nu1,b,2\nu2,b,3\nu2,a,4\n")
	if err := WriteDir(t.TempDir(), ragged, false); err == nil || !strings.Contains(err.Error(), "same arm identifiers in the same order") {
		t.Errorf("WriteDir of contexts with other arm orders: %v", err)
	}
}

// TestOpenDirErrors: each problem names the file (and line) and what to do.
func TestOpenDirErrors(t *testing.T) {
	x := make([]float32, 2*3*2)
	good := map[string][]byte{
		DirFeatures: npyBytes(t, []int{2, 3, 2}, x),
		DirContexts: []byte("c1\nc2\n"),
		DirArms:     []byte("a\nb\nc\n"),
	}
	for _, tc := range []struct {
		name, file string
		data       []byte // nil: remove the file
		want       string
	}{
		{"no features", DirFeatures, nil, "features.npy: missing"},
		{"no contexts", DirContexts, nil, "contexts.txt: missing"},
		{"2-D", DirFeatures, npyBytes(t, []int{6, 2}, x), "shape (6, 2): want 3 axes (contexts, arms, d)"},
		{"one arm", DirFeatures, npyBytes(t, []int{2, 1, 6}, x), "1 arm per context (shape (2, 1, 6)); every context needs at least 2 arms"},
		{"too few contexts", DirContexts, []byte("c1\n"), "contexts.txt: 1 context identifiers, but features.npy has 2 contexts"},
		{"empty line", DirContexts, []byte("c1\n\nc2\n"), "contexts.txt line 2: empty context identifier"},
		{"duplicate arm", DirArms, []byte("a\nb\na\n"), `arms.txt line 3: arm identifier "a" repeats line 1`},
		{"blank line", DirContexts, []byte("c1\n \t\n"), "contexts.txt line 2: context identifier \" \\t\" holds a tab"},
		{"spaces only", DirContexts, []byte("c1\n  \n"), "contexts.txt line 2: empty context identifier"},
		{"duplicate once trimmed", DirContexts, []byte("c1 \n c1\n"), `contexts.txt line 2: context identifier "c1" repeats line 1`},
		{"no arm", DirFeatures, npyBytes(t, []int{2, 0, 6}, x), "0 arms per context (shape (2, 0, 6))"},
		{"not finite", DirFeatures, npyBytes(t, []int{2, 3, 2}, []float32{0, 0, 0, 0, 0, 0, 0, float32(inf())}), "features.npy: feature 1 of context 1 arm 0 is +Inf"},
		{"utility shape", DirUtility, npyBytes(t, []int{3, 2}, make([]float64, 6)), "utility.npy: shape (3, 2), want (2, 3)"},
		{"int features", DirFeatures, append([]byte("\x93NUMPY\x01\x00\x76\x00{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3, 2), }"+strings.Repeat(" ", 58)+"\n"), make([]byte, 96)...), "element type <i8 is not float32 or float64"},
	} {
		dir := t.TempDir()
		for name, data := range good {
			os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
		if tc.data == nil {
			os.Remove(filepath.Join(dir, tc.file))
		} else {
			os.WriteFile(filepath.Join(dir, tc.file), tc.data, 0o644)
		}
		_, err := OpenDir(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestOpenDirIDsTrimmed: identifiers are trimmed of spaces at either end,
// as the CSV pool's fields are, so the directory and the CSV of the same
// pool have the same identifiers (and an answers file, also trimmed, names
// them); a directory in place of a file is named as such.
func TestOpenDirIDsTrimmed(t *testing.T) {
	x := make([]float32, 2*3*2)
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		DirFeatures: npyBytes(t, []int{2, 3, 2}, x),
		DirContexts: []byte(" c1\nc2 \n"),
		DirArms:     []byte("a\n b \nc\n"),
	} {
		os.WriteFile(filepath.Join(dir, name), data, 0o644)
	}
	pf, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	csvPool := mustPool(t, "context,arm,x,y\n c1,a,0,0\n c1, b ,0,0\nc1,c,0,0\nc2 ,a,0,0\nc2 , b,0,0\nc2,c,0,0\n")
	if !slices.Equal(pf.Contexts, csvPool.Contexts) || !slices.Equal(pf.Arms, csvPool.Arms) || pf.Contexts[0] != "c1" || pf.Arms[1] != "b" {
		t.Errorf("directory ids %q %q, CSV ids %q %q", pf.Contexts, pf.Arms, csvPool.Contexts, csvPool.Arms)
	}
	for _, name := range []string{DirFeatures, DirContexts, DirArms, DirUtility} {
		d := t.TempDir()
		os.WriteFile(filepath.Join(d, DirFeatures), npyBytes(t, []int{2, 3, 2}, x), 0o644)
		os.WriteFile(filepath.Join(d, DirContexts), []byte("c1\nc2\n"), 0o644)
		os.WriteFile(filepath.Join(d, DirArms), []byte("a\nb\nc\n"), 0o644)
		os.Remove(filepath.Join(d, name))
		os.Mkdir(filepath.Join(d, name), 0o755)
		if _, err := OpenDir(d); err == nil || !strings.Contains(err.Error(), name+": a directory, not a file") {
			t.Errorf("%s as a directory: %v", name, err)
		}
	}
}

// TestOpenNpyFile: a .npy file given as the pool is refused as such,
// naming the directory to give instead (not read as a CSV that is not
// UTF-8).
func TestOpenNpyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, DirFeatures)
	os.WriteFile(path, npyBytes(t, []int{2, 3, 2}, make([]float32, 12)), 0o644)
	if _, _, err := Open(path, ""); err == nil || !strings.Contains(err.Error(), "a .npy file, not a CSV pool file: name the pool directory that holds it, "+dir) {
		t.Errorf("Open of a .npy file: %v", err)
	}
}

func inf() float64 { return math.Inf(1) }

// npyBytes returns x written as a .npy file of the given shape, or of the
// values alone when the shape does not hold them (a broken file on purpose).
func npyBytes[T float32 | float64](t *testing.T, shape []int, x []T) []byte {
	t.Helper()
	var b bytes.Buffer
	n := 1
	for _, s := range shape {
		n *= s
	}
	if n > len(x) {
		x = append(x, make([]T, n-len(x))...)
	}
	if err := npy.Write(&b, shape, x[:n]); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestOpenDirScale: the scale check of a pool directory reads the column
// scales its opening found (one pass over the features) and reports what
// the CSV of the same pool reports; a pool put in its place is checked
// afresh.
func TestOpenDirScale(t *testing.T) {
	for _, tc := range []struct {
		csv    string
		colMax []float64
		want   string
	}{
		{"context,arm,x0,x1\nc,a,1,1e-3\nc,b,-2,-2e9\n", []float64{2, 2e9}, `the features span 2 (column "x0") to 2e+09 (column "x1")`},
		{"context,arm,x0,x1\nc,a,1,1e-3\nc,b,-2,0\n", []float64{2, 1e-3}, ""},
	} {
		pf := mustPool(t, tc.csv)
		dir := filepath.Join(t.TempDir(), "pool")
		if err := WriteDir(dir, pf, false); err != nil {
			t.Fatal(err)
		}
		back, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.colMax, tc.colMax) {
			t.Errorf("column maxima %v, want %v", back.colMax, tc.colMax)
		}
		for i, f := range []*PoolFile{pf, back} {
			err := CheckScale(f)
			if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
				t.Errorf("%d: CheckScale = %v, want %q", i, err, tc.want)
			}
		}
		back.Pool = poolOf(1, 2, 2, []float64{1, 1, 1, 1})
		if err := CheckScale(back); err != nil {
			t.Errorf("another pool: CheckScale = %v", err)
		}
		back.Close()
	}
}
