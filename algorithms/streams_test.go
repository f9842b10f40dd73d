package algorithms

import "testing"

// TestReservedStreams: a learner cannot obtain the experimenter's streams.
func TestReservedStreams(t *testing.T) {
	for _, id := range []uint64{ReservedStreams, 101, 102, 200, FirstExternalStream - 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewStream(1, %d) did not panic", id)
				}
			}()
			NewStream(1, id)
		}()
	}
	NewStream(1, 4)
	NewStream(1, FirstExternalStream)
}
