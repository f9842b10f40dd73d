package pool

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/internal/memlimit"
	"github.com/neural-adb/nadb/internal/npy"
	"github.com/neural-adb/nadb/internal/poolfile"
	"github.com/neural-adb/nadb/internal/xmath"
)

// Synth describes a generated pool of one's own, for trying the tools and
// measuring them at sizes no shipped data set has (nadb data synth): every
// context's arms r1 … rK, a hidden linear utility f(c,a) = θᵀx_{c,a}, and
// recorded answers drawn from it.
//
// Layout "dense" (embeddings): x_{c,a} has Dim independent N(0, 1/Dim)
// values. Layout "blocks" (a classification data set as duels, like Letter
// or Shuttle): context c has Block values z_c ~ N(0, 1), and x_{c,a} is
// zero except for arm a's block of Block + 1 values, [z_c; 1], so Dim =
// Arms·(Block+1) and all but one block of every row is zero.
//
// θ has N(0, 1) entries scaled to norm Scale. Answers are Bradley–Terry
// draws, y = 1 with probability μ(f(c,a1) − f(c,a2)), for a uniformly
// random context and pair. Everything is drawn from PCG streams of Seed
// (features 1, θ 2, answers 3), so a Synth always writes the same files.
type Synth struct {
	Contexts, Arms int
	Layout         string // "dense" or "blocks"
	Dim            int    // dense: the dimension
	Block          int    // blocks: values per arm block, before the constant 1
	Float32        bool   // features.npy as float32 (else float64)
	Answers        int    // recorded answers to write (0: none)
	Scale          float64
	Seed           uint64
}

// Check reports the first unusable setting, named as the flag of nadb data
// synth.
func (s Synth) Check() error {
	switch {
	case s.Contexts < 1:
		return fmt.Errorf("-contexts: need at least 1, got %d", s.Contexts)
	case s.Arms < 2:
		return fmt.Errorf("-arms: need at least 2, got %d", s.Arms)
	case s.Layout != "dense" && s.Layout != "blocks":
		return fmt.Errorf("-layout: %q is not dense or blocks", s.Layout)
	case s.Layout == "dense" && s.Dim < 1:
		return fmt.Errorf("-dim: need at least 1, got %d", s.Dim)
	case s.Layout == "blocks" && s.Block < 1:
		return fmt.Errorf("-block: need at least 1, got %d", s.Block)
	case s.Answers < 0:
		return fmt.Errorf("-answers: need at least 0, got %d", s.Answers)
	case !(s.Scale > 0) || math.IsInf(s.Scale, 0):
		return fmt.Errorf("-scale: need a positive number, got %v", s.Scale)
	case s.Layout == "blocks" && s.Block >= math.MaxInt/s.Arms:
		return fmt.Errorf("-arms %d × (-block %d + 1) features: more than a dimension can be; fewer arms or a smaller -block", s.Arms, s.Block)
	}
	// The product in float64 cannot overflow; it is exact up to 2^53, and
	// MaxElems is 2^50 or less.
	if n := float64(s.Contexts) * float64(s.Arms) * float64(s.D()); n > npy.MaxElems {
		return fmt.Errorf("%s: %d contexts × %d arms × %d features = %.3g values, more than the %d a pool file may hold; make them fewer", s.sizeFlags(), s.Contexts, s.Arms, s.D(), n, int64(npy.MaxElems))
	}
	return nil
}

// sizeFlags names the flags that set the pool's size.
func (s Synth) sizeFlags() string {
	if s.Layout == "blocks" {
		return "-contexts, -arms, -block"
	}
	return "-contexts, -arms, -dim"
}

// Memory returns the bytes WriteDir holds at once: the utility of every
// row (Contexts·Arms values), one context's features (Arms·D) and θ (D), as
// float64, and the largest of the first two with the flags that set it.
func (s Synth) Memory() (total, largest float64, flags string) {
	util := 8 * float64(s.Contexts) * float64(s.Arms)
	ctx := 8 * float64(s.Arms) * float64(s.D())
	total = util + ctx + 8*float64(s.D())
	if util >= ctx {
		return total, util, "-contexts, -arms (the utility of every row)"
	}
	if s.Layout == "blocks" {
		return total, ctx, "-arms, -block (one context's features)"
	}
	return total, ctx, "-arms, -dim (one context's features)"
}

// CheckMemory reports, naming the flags to change, sizes whose generation
// would need more memory than lim allows (nothing when lim is unknown).
func (s Synth) CheckMemory(lim memlimit.Limit) error {
	total, largest, flags := s.Memory()
	if !lim.Known() || total <= lim.Bytes {
		return nil
	}
	return fmt.Errorf("%s: generating the pool would need about %s of memory (largest part: %s), more than the %s available (%s; %s overrides it, 0 turns the check off): make it smaller",
		flags, memlimit.Format(total), memlimit.Format(largest), memlimit.Format(lim.Bytes), lim.Source, memlimit.Env)
}

// D returns the feature dimension.
func (s Synth) D() int {
	if s.Layout == "blocks" {
		return s.Arms * (s.Block + 1)
	}
	return s.Dim
}

// WriteDir writes the pool directory dir (poolfile.OpenDir) and, when
// s.Answers > 0, the answers file answers (CSV context,arm1,arm2,y). The
// features are generated and written a context at a time, so memory is
// that of one context's features and of the utility of every row (Memory),
// not of the features of every context.
func (s Synth) WriteDir(dir, answers string) error {
	if err := s.Check(); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	C, K, d := s.Contexts, s.Arms, s.D()
	theta := s.theta()
	util := make([]float64, C*K)
	dt := npy.Float64
	if s.Float32 {
		dt = npy.Float32
	}
	err := fsutil.WriteBuffered(filepath.Join(dir, poolfile.DirFeatures), func(w io.Writer) error {
		return npy.WriteBlocks(w, []int{C, K, d}, dt, func(yield func([]float64) bool) {
			rng := rand.New(rand.NewPCG(s.Seed, 1))
			x := make([]float64, K*d)
			for c := range C {
				s.context(x, rng)
				for a := range K {
					row := x[a*d : (a+1)*d]
					if s.Float32 {
						for j, v := range row {
							row[j] = float64(float32(v)) // the utility of the stored values
						}
					}
					u := 0.0
					for j, v := range row {
						u += theta[j] * v
					}
					util[c*K+a] = u
				}
				if !yield(x) {
					return
				}
			}
		})
	})
	if err != nil {
		return err
	}
	err = fsutil.WriteBuffered(filepath.Join(dir, poolfile.DirContexts), func(w io.Writer) error {
		for c := range C {
			if _, err := fmt.Fprintf(w, "c%d\n", c+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	err = fsutil.WriteBuffered(filepath.Join(dir, poolfile.DirArms), func(w io.Writer) error {
		for a := range K {
			if _, err := fmt.Fprintf(w, "r%d\n", a+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := fsutil.WriteBuffered(filepath.Join(dir, poolfile.DirUtility), func(w io.Writer) error { return npy.Write(w, []int{C, K}, util) }); err != nil {
		return err
	}
	if s.Answers == 0 {
		return nil
	}
	return fsutil.WriteBuffered(answers, func(w io.Writer) error {
		rng := rand.New(rand.NewPCG(s.Seed, 3))
		if _, err := io.WriteString(w, "context,arm1,arm2,y\n"); err != nil {
			return err
		}
		for range s.Answers {
			c, a := rng.IntN(C), rng.IntN(K)
			b := rng.IntN(K - 1)
			if b >= a {
				b++
			}
			y := 0
			if rng.Float64() < 1/(1+xmath.Exp(util[c*K+b]-util[c*K+a])) {
				y = 1
			}
			if _, err := io.WriteString(w, "c"+strconv.Itoa(c+1)+",r"+strconv.Itoa(a+1)+",r"+strconv.Itoa(b+1)+","+strconv.Itoa(y)+"\n"); err != nil {
				return err
			}
		}
		return nil
	})
}

// theta draws θ.
func (s Synth) theta() []float64 {
	rng := rand.New(rand.NewPCG(s.Seed, 2))
	theta := make([]float64, s.D())
	norm := 0.0
	for j := range theta {
		theta[j] = rng.NormFloat64()
		norm += theta[j] * theta[j]
	}
	for j := range theta {
		theta[j] *= s.Scale / math.Sqrt(norm)
	}
	return theta
}

// context writes the K rows of the next context into x.
func (s Synth) context(x []float64, rng *rand.Rand) {
	if s.Layout == "dense" {
		sd := 1 / math.Sqrt(float64(s.Dim))
		for i := range x {
			x[i] = sd * rng.NormFloat64()
		}
		return
	}
	clear(x)
	d, b := s.D(), s.Block+1
	z := x[:s.Block] // drawn into arm 0's block, then copied
	for j := range z {
		z[j] = rng.NormFloat64()
	}
	x[s.Block] = 1
	for a := 1; a < s.Arms; a++ {
		copy(x[a*d+a*b:a*d+(a+1)*b], x[:b])
	}
}
