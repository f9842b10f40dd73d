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
	"os"
	"strings"
	"sync"
	"time"

	"github.com/neural-adb/nadb/internal/csvtab"
	"github.com/neural-adb/nadb/label"
)

// cmdServe runs a labelling session (package label) on a pool file with a
// registered learner proposing the queries.
func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	poolPath := fs.String("pool", "", "pool: a CSV file context,arm,<features...>[,utility] (go doc poolfile.ReadPool) or a directory with features.npy (contexts, arms, d), contexts.txt, arms.txt[, utility.npy] (go doc poolfile.OpenDir)")
	answersPath := fs.String("answers", "", "answers recorded before the session: CSV context,arm1,arm2,y (ties and consistency checks are skipped)")
	display := fs.String("display", "", "display file: CSV context,arm,label[,image] of what to show (an empty arm labels the context)")
	instructions := fs.String("instructions", "", "text file of labelling guidelines shown on the page (UTF-8, at most 64 kB; blank lines separate paragraphs)")
	logDir := fs.String("log", "", "folder of the session's answer log (created if missing; a restart resumes it)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on; a non-loopback address needs a token")
	token := fs.String("token", "", "secret of at least 16 characters every request must carry (?token= or Authorization: Bearer); visible to other users in ps: prefer -token-file or NADB_TOKEN")
	tokenFile := fs.String("token-file", "", "read the token from the first line of this file")
	budget := fs.Int("budget", 0, "stop showing queries after this many answers in the log (0: no limit)")
	timeout := fs.Duration("timeout", 10*time.Minute, "how long a query shown to a labeller stays reserved for them")
	showScores := fs.Bool("show-scores", false, "show labellers the learner's score and σ of each duel (hidden by default: they invite anchoring)")
	arms := fs.Int("k", 2, "arms shown at once: 2 shows duels; more shows a context's arms as a set and the labeller picks the best (recorded as the duels it implies)")
	rank := fs.Bool("rank", false, "with -k > 2: the labeller ranks the arms instead of picking the best")
	recheck := fs.Float64("recheck", 0, "share of each labeller's duels, in [0, 0.5], that repeat a duel they answered (sides swapped) as a consistency check; logged and exported as such, never fed to the learner")
	reservations := fs.Int("client-reservations", label.DefaultClientReservations, "queries the labellers of one client address may hold at once (-1: no limit)")
	newLabellers := fs.Int("new-labellers", label.DefaultNewLabellersPerHour, "new labeller ids one client address may introduce per hour (-1: no limit)")
	var ls learnerSpec
	ls.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: nadb serve -pool F -log DIR [-answers F] [-display F] [-instructions F] [-algo A] [-addr HOST:PORT] [-token-file F] [-budget N] [-k N [-rank]] [-recheck F] [config flags]

Serves a labelling page: people answer the duels the learner chooses (keys:
left/right arrow, t tie, b both bad, s skip, u undo; letters in either case);
every answer is written to the log (answers.jsonl in -log) before it is
acknowledged and fed to the learner. No labeller is shown a duel twice,
unless -recheck asks for consistency checks. The page /summary shows the
current policy and how many answers the learner has used. The default
learner, neural-adb-target, aims its duels at predicting the answers of
new contexts (-objective predict; -objective policy aims at each context's
best arm in this pool). GET /api/export gives the session's
answers as an answers file, /api/export?scope=all those of -answers too.
The token may also come from the environment variable NADB_TOKEN. Stop with
Ctrl-C (or SIGTERM); starting again with the same -log resumes the session.

`+readsHelp()+`

flags:`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := checkReads(fs, ls.algo, ls.cfg); err != nil {
		return err
	}
	if *logDir == "" {
		return usageError{errors.New("-log: name the folder of the answer log")}
	}
	switch {
	case *timeout <= 0:
		return usageError{fmt.Errorf("-timeout: need a positive duration, got %v", *timeout)}
	case *arms < 2:
		return usageError{fmt.Errorf("-k: show at least 2 arms, got %d", *arms)}
	case *rank && *arms == 2:
		return usageError{errors.New("-rank: needs -k 3 or more (ranking two arms is a duel)")}
	case !(*recheck >= 0 && *recheck <= 0.5):
		return usageError{fmt.Errorf("-recheck: want a share in [0, 0.5], got %v", *recheck)}
	case *recheck > 0 && *arms > 2:
		return usageError{errors.New("-recheck: consistency checks repeat duels; they need -k 2")}
	case *reservations == 0 || *reservations < -1:
		return usageError{fmt.Errorf("-client-reservations: want a positive count or -1, got %d", *reservations)}
	case *newLabellers == 0 || *newLabellers < -1:
		return usageError{fmt.Errorf("-new-labellers: want a positive count or -1, got %d", *newLabellers)}
	}
	tok, tokFrom, err := serveToken(stderr, *token, *tokenFile)
	if err != nil {
		return err
	}
	guide, err := readInstructions(*instructions)
	if err != nil {
		return err
	}
	in, err := readPoolInput(*poolPath, *answersPath)
	if err != nil {
		return err
	}
	if *arms > in.file.Pool.Arms {
		return usageError{fmt.Errorf("-k %d: the pool has %d arms per context", *arms, in.file.Pool.Arms)}
	}
	switch loop, err := loopback(*addr); {
	case err != nil:
		return usageError{fmt.Errorf("-addr %q: %v (want host:port)", *addr, err)}
	case !loop && tok == "":
		return usageError{fmt.Errorf("-addr %q is not a loopback address: set a token (-token-file, NADB_TOKEN or -token) to listen on it", *addr)}
	case tok != "" && len(tok) < 16:
		return usageError{fmt.Errorf("%s: the token has %d characters; use at least 16", tokFrom, len(tok))}
	case *budget < 0:
		return usageError{fmt.Errorf("-budget: need ≥ 0, got %d", *budget)}
	}
	// The learner with the recorded answers is built here, so that bad
	// settings are reported as such, and handed to the session first; the
	// session builds it again (in the background) only after an undo.
	first, skipped, err := ls.proposer(ctx, in)
	if err != nil {
		return err
	}
	reportReplay(stderr, "serve", in, skipped)
	var mu sync.Mutex
	newProposer := func() (label.Proposer, error) {
		mu.Lock()
		lp := first
		first = nil
		mu.Unlock()
		if lp != nil {
			return lp, nil
		}
		lp, _, err := ls.proposer(ctx, in)
		return lp, err
	}
	// Listen before the session opens its log and writes its start line
	// there, so that a busy port leaves the log as it was.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return usageError{fmt.Errorf("-addr: %w", err)}
	}
	defer ln.Close() // (Serve closes it too)
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := label.New(label.PoolCatalogue{File: in.file}, newProposer, label.Options{
		Addr: *addr, LogDir: *logDir, DisplayFile: *display, Token: tok,
		Budget: *budget, LabellerTimeout: *timeout, Logger: logger,
		ShowScores: *showScores, Instructions: guide, Arms: *arms, Rank: *rank,
		Recheck: *recheck, Seed: ls.seed, ClientReservations: *reservations, NewLabellersPerHour: *newLabellers,
		Prior: priorRecords(in),
	})
	if err != nil {
		return usageError{err}
	}
	defer srv.Close()
	page := url.URL{Scheme: "http", Host: ln.Addr().String(), Path: "/"}
	summary := page
	summary.Path = "/summary"
	fmt.Fprintf(stdout, "labelling page: %s\nsummary:        %s\n", page.String(), summary.String())
	if tok != "" {
		fmt.Fprintln(stdout, "(add ?token=TOKEN to these addresses, or send Authorization: Bearer TOKEN)")
	}
	fmt.Fprintln(stderr, "nadb serve: serving; stop with Ctrl-C")
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "nadb serve: stopped; every acknowledged answer is in", *logDir)
	return nil
}

// serveToken returns the token of -token, -token-file or the environment
// variable NADB_TOKEN (in that order; -token and -token-file together are
// an error) and where it came from, warning when it came from the command
// line, where other users of the machine can read it (ps).
func serveToken(stderr io.Writer, flagTok, file string) (tok, from string, err error) {
	switch {
	case flagTok != "" && file != "":
		return "", "", usageError{errors.New("-token and -token-file: give one")}
	case flagTok != "":
		fmt.Fprintln(stderr, "nadb serve: warning: a -token on the command line is visible to every user of this machine (ps); prefer -token-file or NADB_TOKEN")
		return flagTok, "-token", nil
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", "", usageError{fmt.Errorf("-token-file: %w", err)}
		}
		line, _, _ := strings.Cut(string(b), "\n")
		if tok = strings.TrimSpace(line); tok == "" {
			return "", "", usageError{fmt.Errorf("-token-file: %s: the first line is empty; write the token there", file)}
		}
		if fi, err := os.Stat(file); err == nil && fi.Mode().Perm()&0o077 != 0 {
			fmt.Fprintf(stderr, "nadb serve: warning: %s can be read by other users (mode %v); chmod 600 it\n", file, fi.Mode().Perm())
		}
		return tok, "-token-file " + file, nil
	}
	return strings.TrimSpace(os.Getenv("NADB_TOKEN")), "NADB_TOKEN", nil
}

// readInstructions reads the guidelines file of -instructions ("" for none).
func readInstructions(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", usageError{fmt.Errorf("-instructions: %w", err)}
	}
	defer f.Close()
	const most = 64 << 10
	b, err := io.ReadAll(io.LimitReader(f, most+1))
	if err != nil {
		return "", usageError{fmt.Errorf("-instructions: %w", err)}
	}
	if len(b) > most {
		return "", usageError{fmt.Errorf("-instructions: %s is longer than 64 kB; shorten the guidelines", path)}
	}
	if err := csvtab.CheckUTF8(string(b)); err != nil {
		return "", usageError{fmt.Errorf("-instructions: %s %v", path, err)}
	}
	return string(b), nil
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
