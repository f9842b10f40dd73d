package algorithms

// tgKGAdd defers plusKG(mu, b, best, ws) for total j, as kgScratch.add,
// for lines whose gemm.SlopeKeys keys are in ws.keys (n of them pass
// kgPass, n ≥ 2; len(mu) ≤ kgNetArms): kgSortNet's order from those keys,
// then kgEnvelope. The segments are kgSegments', so flush adds the same
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
	ws.calls = append(ws.calls, kgCall{j: int32(j), segs: int32(kgEnvelope(sb, sm, ws))})
}
