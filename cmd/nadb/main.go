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
//	nadb list            every registered algorithm with a one-line description
//	nadb config          every configuration field, its default and its source
//	nadb suggest [flags] the next queries to label on a pool of one's own
//	nadb export  [flags] the learned policy (and the model) from recorded answers
//	nadb serve   [flags] a labelling page whose queries a learner chooses
//	nadb data cems -out DIR  the shipped CEMSChoice data as pool, answers and display files
//
// Run "nadb <command> -h" for the flags of a command.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// usageError marks errors caused by bad command-line input (exit status 2).
type usageError struct{ error }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	var ue usageError
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "nadb:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "nadb:", err)
		os.Exit(1)
	}
}

var commands = []struct {
	name, help string
	run        func(ctx context.Context, stdout, stderr io.Writer, args []string) error
}{
	{"run", "run one experiment and print its metrics at checkpoints", cmdRun},
	{"figures", "regenerate the paper's figures (cached, resumable, shardable)", cmdFigures},
	{"verify", "test the paper's claims statistically and print the claims table", cmdVerify},
	{"theory", "check Theorem 1 and the effective dimension numerically", cmdTheory},
	{"lockon", "run the lock-on study of the paper's context rule and write its tables", cmdLockon},
	{"list", "list every registered algorithm", cmdList},
	{"config", "list every configuration field with its default and source", cmdConfig},
	{"suggest", "write the next queries to label on a pool of your own", cmdSuggest},
	{"export", "write the learned policy from recorded answers (and save or load the model)", cmdExport},
	{"serve", "serve a labelling page whose queries a learner chooses", cmdServe},
	{"data", "write a shipped data set as pool, answers and display files", cmdData},
}

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
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
		if c.name == args[0] {
			return c.run(ctx, stdout, stderr, args[1:])
		}
	}
	return usageError{fmt.Errorf("unknown command %q (run nadb -h)", args[0])}
}
