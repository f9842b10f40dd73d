package algorithms

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/internal/memlimit"
)

// Shape is the size of the pool a learner is built on: Contexts contexts of
// Arms arms with Dim features, of which Fresh are replaced every round (the
// fresh-context reading; 0 on a fixed pool). Converted is set when the
// pool's rows are not one contiguous float64 matrix (float32 or mapped
// storage, or a view; Pool.Contiguous), so that a learner that needs every
// row as one float64 matrix holds a converted copy.
type Shape struct {
	Contexts, Arms, Dim, Fresh int
	Converted                  bool
}

// ShapeOf returns the shape of p.
func ShapeOf(p *Pool) Shape {
	return Shape{Contexts: p.Contexts, Arms: p.Arms, Dim: p.Dim, Fresh: p.Fresh(), Converted: !p.Contiguous(0, p.Rows())}
}

func (s Shape) rows() float64 { return float64(s.Contexts) * float64(s.Arms) }

// MemoryPart is one term of a memory estimate: what it holds, its size in
// bytes, and the size that makes it grow, named as a Config field (width,
// depth) or one of contexts, arms, dim (the pool's shape) and rounds (T).
type MemoryPart struct {
	What  string
	Bytes float64
	Field string
}

// EstimateMemory estimates, from sizes alone, the memory the named learner
// allocates on a pool of shape s with cfg over a run of rounds duels (0: what
// New allocates). It counts the large allocations: network and optimiser
// state, per-row scores, training batches and the confidence state the
// learner will build (gram.Confidence with a dense kernel, lazyConfidence, or
// the fresh-context stream), and a float64 copy of the features where a
// learner needs them as one matrix and the pool does not hold them so
// (Shape.Converted); the pool's own features are the caller's (a mapped pool
// directory's cost no memory but page cache). Sizes are float64 so that
// absurd sizes cannot overflow.
func EstimateMemory(name string, s Shape, cfg Config, rounds int) []MemoryPart {
	var parts []MemoryPart
	add := func(what, field string, floats float64) {
		parts = append(parts, MemoryPart{What: what, Bytes: 8 * floats, Field: field})
	}
	rows, T := s.rows(), float64(rounds)
	C, K := float64(s.Contexts), float64(s.Arms)
	add("per-row scores and tie-break priorities", "contexts", 1.5*rows)
	neural := strings.HasPrefix(name, "neural-adb") || strings.HasSuffix(name, "-nn")
	if !neural {
		add("duel differences of the linear model", "rounds", T*float64(s.Dim))
		if !slices.Contains([]string{"apo", "ae-borda", "ae-dpo"}, name) {
			return parts
		}
		if s.Fresh > 0 {
			add("V⁻¹ of the raw features", "dim", float64(s.Dim)*float64(s.Dim))
			return parts
		}
		add("confidence blocks Q_c (K×K per context)", "arms", C*K*K)
		add("confidence update vectors r̃ (rows × T)", "rounds", rows*T)
		add("kernel columns of queried rows", "rounds", 2*T*rows)
		if s.Converted {
			add("a float64 copy of the features (the kernel of the raw features reads them as one matrix)", "dim", rows*float64(s.Dim))
		}
		return parts
	}
	w, L, d := float64(cfg.Width), float64(cfg.Depth), float64(s.Dim)
	p := d*w + (L-1)*w*w + w
	sig := d + 2*L*w + 1 // one row's activations and back-propagated signals
	add("network parameters, θ0 copies and Adam moments", "width", 8*p)
	train := 2 * T // every queried row, full batch
	if name == "neural-adb-target" {
		// Full batch up to MaxBatch duels, then mini-batches of MaxBatch.
		train = 2 * math.Min(T, float64(DefaultTargetOptions().MaxBatch))
	}
	add("training batch of the queried rows", "rounds", train*sig)
	add("prediction batches", "width", 1024*sig)
	if name == "random-nn" {
		return parts
	}
	if name == "neural-adb-target" {
		m := d + w
		tr := math.Min(C, 256) * K // target sample rows (TargetContexts)
		add("the other λ members' parameters and Adam moments", "width", 3*3*p)
		add("rows the duels touch, sparse differences, prequential records", "rounds", 2*T*(d+8)+T*(2*d+12))
		add("dense copies of the duels' differences and their transpose (kept while a quarter is non-zero and T·d ≤ tgDenseZMax)", "rounds", 2*math.Min(T*d, tgDenseZMax))
		add("target sample: z, Z·Σ, S = Σ·Zᵀ, blocks, scores", "width", 3*tr*m+tr*(K+4))
		add("candidates' state and products", "width", 32*K*(3*m+K)+32*(m+tr))
		// The rebuild streams ψ 512 duels at a time and the linear part's
		// offsets 1,024 rows at a time (tgChunk), keeping one output per row.
		add("posterior covariance and precision, ψ of 512 duels at a time", "width", 4*m*m+512*m)
		add("offsets: every touched row's output, 1,024 rows' activations at a time", "rounds", 2*T+float64(tgChunk)*sig)
		add("policy of the committed contexts", "contexts", C)
		return parts
	}
	if name == "neural-adb-plus" {
		m := d + w
		add("the other λ members' parameters and Adam moments", "width", 3*3*p)
		add("members' scores g and h of every row, and their average", "contexts", 9*rows)
		add("posterior features z = [x; e(x)] of every row", "contexts", rows*m)
		add("posterior blocks Q_c (K×K per context)", "arms", C*K*K)
		add("posterior covariance and precision", "width", 3*m*m)
		add("knowledge-gradient products: Σψ of every candidate duel, one context's β at a time, per-candidate sums", "contexts", C*(m+K+4))
		// The pruned knowledge gradient keeps the slopes of every term of a
		// round (each context's K × candidates block) and two values per term
		// while contexts × candidates × (K+2) ≤ kgPruneMax, and sums without
		// pruning (keeping none) above it.
		M := C
		if s.Fresh > 0 {
			M = float64(s.Fresh)
		}
		if kept := C * M * (K + 2); kept <= kgPruneMax {
			add("knowledge-gradient pruning: the slopes of a round's terms (at most 8 MB)", "contexts", kept)
		}
		add("duel differences and prequential records", "rounds", T*(d+12))
		return parts
	}
	if strings.HasPrefix(name, "neural-adb-tsctx") {
		add("last-layer embedding of every row", "contexts", rows*w)
	}
	switch {
	case s.Fresh > 0:
		add("Cholesky factor of a·I + ΨᵀΨ (T×T)", "rounds", 3.25*T*T)
		add("NTK signals of the committed rows", "rounds", 3*T*K*sig)
		add("fresh rows' signals and solves", "rounds", float64(s.Fresh)*K*(sig+T+K))
	case rows <= float64(lazyMinRows):
		add("dense NTK kernel (rows × rows) and signals", "contexts", rows*rows+rows*sig)
		if s.Converted {
			add("a float64 copy of the features", "dim", rows*d)
		}
		add("confidence blocks Q_c (K×K per context)", "arms", C*K*K)
		add("confidence update vectors r̃ (rows × T)", "rounds", rows*T+T*T)
		if strings.HasPrefix(name, "neural-adb-lookahead") {
			add("lookahead rows of Φ V⁻¹ Φᵀ", "contexts", math.Min(rows, 2*C)*rows)
		}
	default:
		batch := math.Max(1, math.Floor(float64(lazyBatchRows)/K))
		add("Cholesky factor of a·I + ΨᵀΨ (T×T)", "rounds", 3.25*T*T)
		add("NTK signals of the rows updates name", "rounds", 6*T*sig)
		add("norm bounds of every context and row", "contexts", C+rows+2*C)
		add("confidence blocks Q_c kept (K×K each)", "arms", math.Max(math.Min(C*K*K, lazyBlockBudget/8), 2*batch*K*K))
		add("batch of blocks being solved", "rounds", batch*K*(T+K+sig))
	}
	return parts
}

// MemoryTotal returns the estimated peak resident memory of parts: their sum
// with the garbage collector's headroom (under GOGC=100 the heap grows to
// twice what is live before a collection) and the runtime.
func MemoryTotal(parts []MemoryPart) float64 {
	sum := 0.0
	for _, p := range parts {
		sum += p.Bytes
	}
	return 2*sum + 48e6
}

// Largest returns the part with the most bytes.
func Largest(parts []MemoryPart) MemoryPart {
	var best MemoryPart
	for _, p := range parts {
		if p.Bytes > best.Bytes {
			best = p
		}
	}
	return best
}

// MemoryError reports that a learner or a run would need more memory than
// the limit allows.
type MemoryError struct {
	Need    float64 // estimated bytes
	Limit   memlimit.Limit
	Largest MemoryPart // its Field is the size to reduce
}

// Msg says what is needed, what is available and what to do, without naming
// the field (callers name it in their own terms).
func (e *MemoryError) Msg() string {
	src := fmt.Sprintf("%s; %s overrides it, 0 turns the check off", e.Limit.Source, memlimit.Env)
	if e.Limit.Source == memlimit.Env {
		src = fmt.Sprintf("set by %s; 0 turns the check off", memlimit.Env)
	}
	return fmt.Sprintf("would need about %s of memory (largest part: %s, %s), more than the %s available (%s): make it smaller",
		memlimit.Format(e.Need), e.Largest.What, memlimit.Format(e.Largest.Bytes),
		memlimit.Format(e.Limit.Bytes), src)
}

func (e *MemoryError) Error() string {
	return "algorithms: " + e.Largest.Field + ": the learner " + e.Msg()
}

// CheckMemory returns a *MemoryError when the estimated total of parts
// exceeds the limit (nothing when the limit is unknown).
func CheckMemory(parts []MemoryPart, lim memlimit.Limit) error {
	need := MemoryTotal(parts)
	if !lim.Known() || need <= lim.Bytes {
		return nil
	}
	return &MemoryError{Need: need, Limit: lim, Largest: Largest(parts)}
}

// checkMemory refuses to build the named learner when what New would
// allocate exceeds the memory limit (memlimit.Current), so that sizes the
// machine cannot hold give an error instead of a crash.
func checkMemory(name string, env Env) error {
	lim, err := memlimit.Current()
	if err != nil {
		return fmt.Errorf("algorithms: %w", err)
	}
	return CheckMemory(EstimateMemory(name, ShapeOf(env.Pool), env.Config, 0), lim)
}
