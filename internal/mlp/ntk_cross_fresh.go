package mlp

// FreshFeatures returns the features of the rows of x (rows × In, at least
// one row) at the network's θ with the given scale, the same values as
// NewFeatures, computed in the storage of prev (features of this
// architecture from an earlier call or NewEmptyFeatures; nil for none),
// which it returns and which then no longer holds its old rows: the fresh
// rows of every round of the fresh-context setting replace the last round's
// without allocating a new batch. Every signal is overwritten by Forward and
// Backward, so nothing of the old rows remains in the new ones.
func (n *Net) FreshFeatures(prev *Features, x []float64, scale float64) *Features {
	a := n.Arch
	rows := len(x) / a.In
	if len(x) != rows*a.In || rows == 0 {
		panic("mlp: FreshFeatures input is not a positive whole number of rows")
	}
	if prev == nil || prev.b == nil || prev.Arch != a {
		return n.NewFeatures(x, scale)
	}
	b := prev.b
	b.Resize(a, rows)
	n.signals(b, x, rows)
	*prev = Features{Arch: a, Scale: scale, rows: rows, b: b, halves: mirroredHalves(a, b)}
	return prev
}
