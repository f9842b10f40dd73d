package sweep

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Shard selects a deterministic part of a sweep: run i of n (1 ≤ I ≤ N) takes
// the runs whose trajectory key (experiments.Spec.TrajectoryKey, the same
// for every checkpoint period of a run), read as a number, is I−1 modulo N.
// The split depends only on the runs themselves, so n machines (a cluster
// job array) running shards 1/n … n/n share the work without coordination;
// copying their cache directories together and running again without a
// shard plots everything.
type Shard struct{ I, N int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if s == "" {
		return Shard{1, 1}, nil
	}
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.I, &sh.N); err != nil || sh.N < 1 || sh.I < 1 || sh.I > sh.N {
		return sh, fmt.Errorf("shard: %q is not i/n with 1 ≤ i ≤ n", s)
	}
	return sh, nil
}

// Has reports whether the run with this key belongs to the shard.
func (s Shard) Has(key string) bool {
	if s.N <= 1 {
		return true
	}
	b, err := hex.DecodeString(key[:16])
	if err != nil {
		panic(err)
	}
	return int(binary.BigEndian.Uint64(b)%uint64(s.N)) == s.I-1
}
