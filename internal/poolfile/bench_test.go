package poolfile

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
)

// BenchmarkReadPoolLarge parses a pool file of 2,000 contexts × 26 arms × 50
// features with a utility column (written by WritePool, about 53 MB) as
// ReadPool streams it and as the whole text read first (readPoolWhole, the
// parser before streaming), reporting the bytes allocated per byte of file.
// The peak memory of "nadb run -problem pool" on such files is measured with
// /usr/bin/time -v (package documentation).
func BenchmarkReadPoolLarge(b *testing.B) {
	const C, K, d = 2000, 26, 50
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, C*K*d)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	p, err := algorithms.NewPool(C, K, d, x)
	if err != nil {
		b.Fatal(err)
	}
	pf := &PoolFile{Pool: p, Utility: make([]float64, C*K)}
	for c := range C {
		pf.Contexts = append(pf.Contexts, fmt.Sprintf("c%d", c))
		for a := range K {
			pf.Arms = append(pf.Arms, fmt.Sprintf("a%d", a))
			pf.Utility[c*K+a] = rng.NormFloat64()
		}
	}
	for i := range d {
		pf.Features = append(pf.Features, fmt.Sprintf("x%d", i))
	}
	var file bytes.Buffer
	if err := WritePool(&file, pf); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		read func(io.Reader, string) (*PoolFile, error)
	}{{"streaming", ReadPool}, {"whole-text", readPoolWhole}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(file.Len()))
			for b.Loop() {
				if _, err := tc.read(bytes.NewReader(file.Bytes()), "p.csv"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
