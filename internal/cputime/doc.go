// Package cputime reads the processor time the process has used so far, for
// benchmarks that report it beside the wall clock: on a machine shared with
// other work the processor time of a single-threaded benchmark
// (go test -cpu 1) varies much less than its elapsed time.
//
//	cpu0 := cputime.Process()
//	for b.Loop() { … }
//	b.ReportMetric(cputime.Since(cpu0).Seconds()/float64(b.N), "cpu-s/op")
//
// Process returns 0 where the operating system offers no such count (every
// system but the Unix family), and benchmarks then report 0. Thread reads
// the count of the calling thread alone (Linux; 0 elsewhere): the sweep of
// package experiments/sweep records with it the processor time of each run
// while other runs execute beside it.
package cputime
