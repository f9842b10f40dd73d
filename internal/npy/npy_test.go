package npy

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// want is the array of testdata/gen.py: (arange(24) − 7.5)/2, shape (2, 3, 4).
func want() []float64 {
	x := make([]float64, 24)
	for i := range x {
		x[i] = (float64(i) - 7.5) / 2
	}
	return x
}

// TestOpenNumPyFiles: the files NumPy wrote (every format version, both
// types) open mapped with the values NumPy saved, and Read agrees.
func TestOpenNumPyFiles(t *testing.T) {
	for _, name := range []string{"xf4", "xf4-v2", "xf4-v3", "xf8", "xf8-v2", "xf8-v3"} {
		path := filepath.Join("testdata", name+".npy")
		a, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []float64
		for _, v := range a.F32 {
			got = append(got, float64(v))
		}
		got = append(got, a.F64...)
		wantType := Float32
		if strings.HasPrefix(name, "xf8") {
			wantType = Float64
		}
		if !slices.Equal(a.Shape, []int{2, 3, 4}) || a.DType != wantType || !slices.Equal(got, want()) {
			t.Errorf("%s: shape %v, %s, values %v", name, a.Shape, a.DType, got)
		}
		if a.DataOffset%64 != 0 || a.Major != int(name[len(name)-1]-'0') && strings.Contains(name, "-v") {
			t.Errorf("%s: version %d.%d, data at %d", name, a.Major, a.Minor, a.DataOffset)
		}
		if canMap && !a.Mapped() {
			t.Errorf("%s: not mapped", name)
		}
		b, _ := os.ReadFile(path)
		h, f32, f64, err := Read(bytes.NewReader(b))
		if err != nil || h.DataOffset != a.DataOffset || !slices.Equal(f32, a.F32) || !slices.Equal(f64, a.F64) {
			t.Errorf("%s: Read differs from Open (%v)", name, err)
		}
		if err := a.Close(); err != nil || a.F32 != nil || a.F64 != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
	}
}

// TestWriteAsNumPy: Write produces the bytes np.save wrote.
func TestWriteAsNumPy(t *testing.T) {
	x := want()
	x32 := make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"xf4", func(b *bytes.Buffer) error { return Write(b, []int{2, 3, 4}, x32) }},
		{"xf8", func(b *bytes.Buffer) error { return Write(b, []int{2, 3, 4}, x) }},
		{"utility", func(b *bytes.Buffer) error { return Write(b, []int{2, 3}, []float64{0, 1, 2, 3, 4, 5}) }},
		{"vector", func(b *bytes.Buffer) error { return Write(b, []int{2}, []float32{1.5, -2}) }},
		{"scalar", func(b *bytes.Buffer) error { return Write(b, nil, []float64{3.25}) }},
		{"empty", func(b *bytes.Buffer) error { return Write(b, []int{0, 3, 4}, []float32{}) }},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		ref, err := os.ReadFile(filepath.Join("testdata", tc.file+".npy"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), ref) {
			t.Errorf("%s: Write wrote\n%q\nNumPy wrote\n%q", tc.file, b.Bytes(), ref)
		}
	}
	if err := Write(new(bytes.Buffer), []int{2, 2}, []float32{1}); err == nil {
		t.Error("Write of 1 value for shape (2, 2) succeeded")
	}
}

// TestRefused: what the package does not read is refused with a message
// that says what to do.
func TestRefused(t *testing.T) {
	for file, msg := range map[string]string{
		"fortran":   "np.ascontiguousarray",
		"bigendian": "big-endian >f4: save it little-endian",
		"int64":     "element type <i8 is not float32 or float64",
		"float16":   "element type <f2",
	} {
		_, err := Open(filepath.Join("testdata", file+".npy"))
		if err == nil || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), file+".npy") {
			t.Errorf("%s: %v, want an error naming the file and containing %q", file, err, msg)
		}
	}
	good, _ := os.ReadFile(filepath.Join("testdata", "xf4.npy"))
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"truncated", good[:len(good)-4], "the file is truncated"},
		{"trailing", append(slices.Clone(good), 0), "1 more than its shape (2, 3, 4) of float32 needs"},
		{"csv", []byte("context,arm,x\n"), "not a .npy file"},
		{"short", []byte("\x93NUM"), "not a .npy file"},
		{"version", append([]byte("\x93NUMPY\x04\x00"), good[8:]...), "version 4.0"},
		{"header", []byte("\x93NUMPY\x01\x00\x0a\x00{'a': 1}  \n"), `unknown key "a"`},
		{"nokeys", []byte("\x93NUMPY\x01\x00\x04\x00{} \n"), "needs descr, fortran_order and shape"},
	} {
		path := filepath.Join(dir, tc.name+".npy")
		os.WriteFile(path, tc.data, 0o644)
		if _, err := Open(path); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.msg)
		}
	}
}

// TestHeaderVariants: the dictionary may come in any key order, with double
// quotes, Python 2 long integers and without the trailing comma.
func TestHeaderVariants(t *testing.T) {
	for _, head := range []string{
		`{'shape': (3, 2), 'fortran_order': False, 'descr': '<f8'}`,
		`{"descr": "<f8", "fortran_order": False, "shape": (3L, 2L), }`,
		`{'descr':'<f8','fortran_order':False,'shape':(3,2)}`,
	} {
		var b bytes.Buffer
		b.WriteString(Magic + "\x01\x00")
		b.Write([]byte{byte(len(head) + 1), 0})
		b.WriteString(head + "\n")
		h, err := ReadHeader(&b)
		if err != nil || h.DType != Float64 || !slices.Equal(h.Shape, []int{3, 2}) || h.DataOffset != int64(11+len(head)) {
			t.Errorf("%s: %+v, %v", head, h, err)
		}
	}
}

func FuzzReadHeader(f *testing.F) {
	for _, name := range []string{"xf4", "xf8-v2", "xf8-v3", "scalar", "fortran", "int64"} {
		b, _ := os.ReadFile(filepath.Join("testdata", name+".npy"))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, f32, f64, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(f32)+len(f64) != h.Len() || int64(len(b)) != h.DataOffset+h.DataBytes() {
			t.Fatalf("read %d values for shape %v from %d bytes", len(f32)+len(f64), h.Shape, len(b))
		}
	})
}

// TestReadValuesRelease: a mapped array's values read with pread equal the
// mapped ones over any range, also after Release dropped their pages;
// ranges ReadValues cannot read are refused.
func TestReadValuesRelease(t *testing.T) {
	for _, name := range []string{"xf4", "xf8"} {
		a, err := Open(filepath.Join("testdata", name+".npy"))
		if err != nil {
			t.Fatal(err)
		}
		mapped := func(lo, hi int) []float64 {
			var x []float64
			for _, v := range a.F32[min(lo, len(a.F32)):min(hi, len(a.F32))] {
				x = append(x, float64(v))
			}
			return append(x, a.F64[min(lo, len(a.F64)):min(hi, len(a.F64))]...)
		}
		for _, release := range []bool{false, true} {
			if release {
				if err := a.Release(0, a.Len()); err != nil {
					t.Errorf("%s: Release: %v", name, err)
				}
			}
			for lo := 0; lo <= a.Len(); lo += 5 {
				for hi := lo; hi <= a.Len(); hi += 7 {
					dst := make([]float64, hi-lo)
					if ok := a.ReadValues(dst, lo, hi); ok != canMap || ok && !slices.Equal(dst, mapped(lo, hi)) || !slices.Equal(mapped(lo, hi), want()[lo:hi]) {
						t.Errorf("%s (released %v): values %d…%d: %v %v", name, release, lo, hi, ok, dst)
					}
				}
			}
		}
		dst := make([]float64, a.Len()+1)
		if a.ReadValues(dst, -1, 2) || a.ReadValues(dst, 0, a.Len()+1) || a.ReadValues(dst[:1], 0, 2) || a.ReadValues(dst, 3, 2) {
			t.Errorf("%s: an invalid range was read", name)
		}
		a.Close()
		if a.ReadValues(dst, 0, 1) {
			t.Errorf("%s: read after Close", name)
		}
	}
}

// TestReadValuesChunks: ranges longer than one read chunk.
func TestReadValuesChunks(t *testing.T) {
	x := make([]float32, 3*readChunk/4+5)
	for i := range x {
		x[i] = float32(i)*0.25 - 1e4
	}
	var b bytes.Buffer
	if err := Write(&b, []int{len(x)}, x); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if !canMap {
		t.Skip("no mapping on this system")
	}
	for _, r := range [][2]int{{0, len(x)}, {1, len(x) - 1}, {readChunk / 4, readChunk/2 + 3}} {
		dst := make([]float64, r[1]-r[0])
		if !a.ReadValues(dst, r[0], r[1]) {
			t.Fatalf("values %v not read", r)
		}
		for i, v := range dst {
			if v != float64(x[r[0]+i]) {
				t.Fatalf("values %v: value %d is %v, want %v", r, r[0]+i, v, x[r[0]+i])
			}
		}
	}
}
