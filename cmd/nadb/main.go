// Command nadb runs the Neural-ADB reproduction: single experiments, the
// paper's figures, the theory checks and the claims table; and labels a pool
// of one's own: the next queries, the learned policy, a labelling page.
//
// Usage:
//
//	nadb run     [flags] one experiment, a table on stdout and optionally a CSV
//	nadb figures [flags] every figure of the paper (cached, resumable, shardable)
//	nadb verify  [flags] the paper's claims as statistical tests, a Markdown table
//	nadb theory  [flags] numerical checks of Theorem 1 and the effective dimension
//	nadb lockon  [flags] the lock-on study of the paper's context rule (tables)
//	nadb paper   [flags] the generated parts of the report (paper/generated/*.tex)
//	nadb list            every registered algorithm with a one-line description
//	nadb config          every configuration field, its default and its source
//	nadb suggest [flags] the next queries to label on a pool of one's own
//	nadb export  [flags] the learned policy (and the model) from recorded answers
//	nadb serve   [flags] a labelling page whose queries a learner chooses
//	nadb data cems -out DIR  the shipped CEMSChoice data as pool, answers and display files
//	nadb version         the module version, the commit when known, the cache version
//
// Run "nadb <command> -h" (or "nadb help <command>") for the flags of a command.
//
// Only paper-scale runs write into figures/ by default (the committed
// results); a run at another scale prints its results or writes them where
// -out says, and refuses to overwrite a paper-scale result.
//
// Exit status: 0 success, 1 a failure of the computation (or computed
// verdicts that differ from the recorded ones), 2 bad command-line input,
// 3 an internal error (a bug: a panic, reported without a stack trace unless
// NADB_TRACEBACK=1), 130 interrupted by SIGINT (Ctrl-C) and 143 by SIGTERM
// (what batch schedulers send): both stop the command the same way, keeping
// what was finished; a second signal ends the process at once.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sync/atomic"
	"syscall"

	"github.com/neural-adb/nadb/internal/enum"
)

// usageError marks errors caused by bad command-line input (exit status 2).
type usageError struct{ error }

// Exit statuses.
const (
	exitFailure     = 1
	exitUsage       = 2
	exitInternal    = 3
	exitInterrupted = 130 // 128 + SIGINT
	exitTerminated  = 143 // 128 + SIGTERM
)

// signalStatus returns the exit status of a process stopped by sig.
func signalStatus(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// notifyContext returns a context cancelled by the first SIGINT or SIGTERM
// (the signal is reported by got), and stop, which ends the watch. A second
// signal exits the process at once with the signal's status.
func notifyContext(stderr io.Writer) (ctx context.Context, got func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var first atomic.Value
	go func() {
		select {
		case s := <-sigs:
			first.Store(s)
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "nadb: %v again: exiting at once\n", s)
			os.Exit(signalStatus(s))
		case <-done:
		}
	}()
	got = func() os.Signal {
		s, _ := first.Load().(os.Signal)
		return s
	}
	return ctx, got, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

func main() {
	os.Exit(mainStatus(os.Args[1:], os.Stdout, os.Stderr))
}

// mainStatus runs the command line and returns the exit status; a panic
// becomes status 3 with a one-line message.
func mainStatus(args []string, stdout, stderr io.Writer) (status int) {
	ctx, got, stop := notifyContext(stderr)
	defer stop()
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "nadb: internal error: %v\nThis is a bug in nadb, not a problem with the input; please report it with the command line (NADB_TRACEBACK=1 prints the stack).\n", v)
			if os.Getenv("NADB_TRACEBACK") == "1" {
				stderr.Write(debug.Stack())
			}
			status = exitInternal
		}
	}()
	err := run(ctx, stdout, stderr, args)
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "nadb:", err)
		return exitUsage
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		if s := got(); s != nil {
			fmt.Fprintf(stderr, "nadb: stopped by %v: %v\n", s, err)
			return signalStatus(s)
		}
		fmt.Fprintln(stderr, "nadb:", err)
		return exitInterrupted
	}
	fmt.Fprintln(stderr, "nadb:", err)
	return exitFailure
}

var commands = []struct {
	name, help string
	run        func(ctx context.Context, stdout, stderr io.Writer, args []string) error
}{
	{"run", "run one experiment and print its metrics at checkpoints", cmdRun},
	{"figures", "regenerate the paper's figures (cached, resumable, shardable)", cmdFigures},
	{"verify", "test the paper's claims statistically and print the claims table (-from: a recorded one)", cmdVerify},
	{"theory", "check Theorem 1 and the effective dimension numerically", cmdTheory},
	{"lockon", "run the lock-on study of the paper's context rule and write its tables", cmdLockon},
	{"paper", "write the report's generated LaTeX (tables, numbers) from the committed results", cmdPaper},
	{"list", "list every registered algorithm", cmdList},
	{"config", "list every configuration field with its default and source", cmdConfig},
	{"suggest", "write the next queries to label on a pool of your own", cmdSuggest},
	{"export", "write the learned policy from recorded answers (and save or load the model)", cmdExport},
	{"serve", "serve a labelling page whose queries a learner chooses", cmdServe},
	{"data", "write a shipped data set as pool, answers and display files", cmdData},
	{"version", "print the module version, the commit when known and the cache version", cmdVersion},
	{"help", "print the usage of a command (nadb help run = nadb run -h)", nil},
}

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) >= 2 && args[0] == "help" {
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, "usage: nadb <command> [flags]\n\ncommands:")
		for _, c := range commands {
			fmt.Fprintf(stderr, "  %-8s %s\n", c.name, c.help)
		}
		if len(args) == 0 {
			return usageError{errors.New("no command given")}
		}
		return nil
	}
	for _, c := range commands {
		if c.name == args[0] && c.run != nil {
			return c.run(ctx, stdout, stderr, args[1:])
		}
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return usageError{fmt.Errorf("%w; run nadb -h", enum.Unknown("command", args[0], names))}
}
