package algorithms

import "math"

// tgKGAdd defers plusKG(mu, b, best, ws) for total j, as kgScratch.add,
// for lines whose gemm.SlopeKeys keys are in ws.keys (n of them pass
// kgPass, n ≥ 2; len(mu) ≤ kgNetArms): kgSortNet's order from those keys,
// then tgEnvelope. The segments are kgSegments', so flush adds the same
// bits.
func tgKGAdd(ws *kgScratch, j int, mu, b []float64, n int) {
	K := len(mu)
	if cap(ws.sb) < K || cap(ws.env) < K {
		ws.sb, ws.sm = make([]float64, K), make([]float64, K)
		ws.env, ws.cut = make([]int, 0, K), make([]float64, 0, K)
	}
	sb, sm, keys := ws.sb[:n], ws.sm[:n], ws.keys
	kgNet10(keys)
	// kgInsertion moves nothing unless a line is below its predecessor
	// in its order (its first comparison, made here during the gather).
	a := keys[0] & 15
	sb[0], sm[0] = b[a], mu[a]
	out := false
	for k := 1; k < len(sb); k++ {
		a := keys[k&15] & 15
		bk, mk := b[a], mu[a]
		sb[k], sm[k] = bk, mk
		out = out || bk < sb[k-1] || (bk == sb[k-1] && mk < sm[k-1])
	}
	if out {
		kgInsertion(sb, sm)
	}
	ws.calls = append(ws.calls, kgCall{j: int32(j), segs: int32(tgEnvelope(sb, sm, ws))})
}

// tgEnvelope is kgSegments' upper envelope of the n ≥ 2 lines
// sm[i] + sb[i]·z (in kgSortNet's order, n = len(sb)): the same cuts and
// tests in the same order, so the segments it appends to ws.db and ws.cs
// are kgSegments' bits. It returns their number.
func tgEnvelope(sb, sm []float64, ws *kgScratch) int {
	n := len(sb)
	env, cut := ws.env[:0], ws.cut[:0]
	for i := range n {
		bi, mi := sb[i], sm[i]
		z := math.Inf(-1)
		for len(env) > 0 {
			top := env[len(env)-1]
			if sb[top] == bi {
				env = env[:len(env)-1]
				cut = cut[:len(cut)-1]
				continue
			}
			z = (sm[top] - mi) / (bi - sb[top])
			if len(env) > 1 && z <= cut[len(cut)-1] {
				env = env[:len(env)-1]
				cut = cut[:len(cut)-1]
				continue
			}
			break
		}
		env = append(env, i)
		cut = append(cut, z)
	}
	L := len(env)
	ws.env, ws.cut = env[:L], cut[:L]
	for k := 1; k < L; k++ {
		ws.db = append(ws.db, sb[env[k]]-sb[env[k-1]])
		ws.cs = append(ws.cs, math.Abs(cut[k]))
	}
	return L - 1
}
