package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/neural-adb/nadb/label"
)

// cmdServe runs a labelling session (package label) on a pool
// file with a registered learner proposing the queries.
func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	poolPath := fs.String("pool", "", "pool: a CSV file context,arm,<features...>[,utility] (go doc poolfile.ReadPool) or a directory with features.npy (contexts, arms, d), contexts.txt, arms.txt[, utility.npy] (go doc poolfile.OpenDir)")
	answersPath := fs.String("answers", "", "answers recorded before the session: CSV context,arm1,arm2,y (ties are skipped)")
	display := fs.String("display", "", "display file: CSV context,arm,label[,image] of what to show (an empty arm labels the context)")
	logDir := fs.String("log", "", "folder of the session's answer log (created if missing; a restart resumes it)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on; a non-loopback address needs -token")
	token := fs.String("token", "", "secret of at least 16 characters every request must carry (?token= or Authorization: Bearer)")
	budget := fs.Int("budget", 0, "stop showing queries after this many answers in the log (0: no limit)")
	timeout := fs.Duration("timeout", 10*time.Minute, "how long a query shown to a labeller stays reserved for them")
	// The default is the paper's arm rule with the repaired context rule:
	// Neural-ADB as written (neural-adb-ucb) locks on to one context and, in
	// a session, asks the same duel again and again (README, the lock-on).
	var ls learnerSpec
	ls.register(fs, "neural-adb-tsctx-ucb")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb serve -pool F -log DIR [-answers F] [-display F] [-algo A] [-addr HOST:PORT] [-token T] [-budget N] [config flags]

Serves a labelling page: people answer the duels the learner chooses (keys:
left/right arrow, t tie, s skip, u undo); every answer is written to the log
(answers.jsonl in -log) before it is acknowledged and fed to the learner. The
page /summary shows the current policy. The default learner is Neural-ADB's
UCB arm rule with the repaired context rule (neural-adb-tsctx-ucb): the rule as
written (neural-adb-ucb) locks on to one context and keeps asking one duel. GET /api/export gives the session's
answers as an answers file. Stop with Ctrl-C; starting again with the same
-log resumes the session.

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *logDir == "" {
		return usageError{errors.New("-log: name the folder of the answer log")}
	}
	if *timeout <= 0 {
		return usageError{fmt.Errorf("-timeout: need a positive duration, got %v", *timeout)}
	}
	in, err := readPoolInput(*poolPath, *answersPath)
	if err != nil {
		return err
	}
	switch loop, err := loopback(*addr); {
	case err != nil:
		return usageError{fmt.Errorf("-addr %q: %v (want host:port)", *addr, err)}
	case !loop && *token == "":
		return usageError{fmt.Errorf("-addr %q is not a loopback address: set -token to listen on it", *addr)}
	case *token != "" && len(*token) < 16:
		return usageError{fmt.Errorf("-token has %d characters; use at least 16", len(*token))}
	case *budget < 0:
		return usageError{fmt.Errorf("-budget: need ≥ 0, got %d", *budget)}
	}
	// The learner with the recorded answers is built here, so that bad
	// settings are reported as such, and handed to the session first; the
	// session builds it again only after an undo.
	first, ties, err := ls.proposer(ctx, in)
	if err != nil {
		return err
	}
	reportReplay(stderr, "serve", in, ties)
	newProposer := func() (label.Proposer, error) {
		if first != nil {
			lp := first
			first = nil
			return lp, nil
		}
		lp, _, err := ls.proposer(ctx, in)
		return lp, err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := label.New(label.PoolCatalogue{File: in.file}, newProposer, label.Options{
		Addr: *addr, LogDir: *logDir, DisplayFile: *display, Token: *token,
		Budget: *budget, LabellerTimeout: *timeout, Logger: logger,
	})
	if err != nil {
		return usageError{err}
	}
	defer srv.Close()
	ln, err := srv.Listen()
	if err != nil {
		return usageError{fmt.Errorf("-addr: %w", err)}
	}
	page := url.URL{Scheme: "http", Host: ln.Addr().String(), Path: "/"}
	if *token != "" {
		page.RawQuery = url.Values{"token": {*token}}.Encode()
	}
	summary := page
	summary.Path = "/summary"
	fmt.Fprintf(stdout, "labelling page: %s\nsummary:        %s\n", page.String(), summary.String())
	fmt.Fprintln(stderr, "nadb serve: serving; stop with Ctrl-C")
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "nadb serve: stopped; every acknowledged answer is in", *logDir)
	return nil
}

// loopback reports whether addr's host is localhost or a loopback IP.
func loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	ip := net.ParseIP(host)
	return strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback(), nil
}
