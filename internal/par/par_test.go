package par

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestForEach(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 50} {
		out := make([]int, 20)
		calls := 0
		err := ForEach(context.Background(), len(out), workers, func(i int) error {
			out[i] = i * i
			if i == 7 || i == 12 {
				return fmt.Errorf("job %d", i)
			}
			return nil
		}, func(done, i int) { calls++ })
		if err == nil || err.Error() != "job 7" {
			t.Errorf("workers %d: err = %v, want the lowest failing job's", workers, err)
		}
		for i, v := range out {
			if v != i*i {
				t.Fatalf("workers %d: out[%d] = %d", workers, i, v)
			}
		}
		if calls != len(out) {
			t.Errorf("workers %d: progress called %d times", workers, calls)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ForEach(ctx, 5, 2, func(int) error { return nil }, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if err := ForEach(context.Background(), 0, 2, func(int) error { return errors.New("x") }, nil); err != nil {
		t.Errorf("no jobs: err = %v", err)
	}
}
