package label

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Options configure a Server.
type Options struct {
	// Addr is the address to listen on, host:port; "127.0.0.1:8080" when
	// empty. A host other than localhost or a loopback IP needs a Token.
	Addr string
	// LogDir is the folder of the answer log (created if missing). Required.
	LogDir string
	// DisplayFile is an optional CSV file context,arm,label[,image] of what
	// to show for contexts and arms; without it the identifiers are shown.
	DisplayFile string
	// Token, when set, is required by every page, image and API call, as
	// "Authorization: Bearer TOKEN" or the query parameter token=TOKEN. At
	// least 16 characters.
	Token string
	// Budget is the number of answers to collect (ties count, skips do not);
	// 0 for no limit.
	Budget int
	// LabellerTimeout is how long a query shown to a labeller stays reserved
	// for them; 10 minutes when zero.
	LabellerTimeout time.Duration
	// ShowScores shows labellers the proposer's score and σ of each query.
	// Off by default: a labeller who sees what the model expects is invited
	// to agree with it (anchoring), which labelling tools avoid.
	ShowScores bool
	// Instructions are the labelling guidelines shown on the page (plain
	// text; blank lines separate paragraphs). At most 64 kB of UTF-8.
	Instructions string
	// Arms is the number of arms shown at once: 2 (0 means 2) shows duels;
	// more shows a context's arms as a set, and the labeller chooses the
	// best (or ranks them, with Rank), recorded as the duels it implies
	// (Event.ImpliedPairs). More than 2 needs a SetProposer.
	Arms int
	// Rank asks labellers to rank every arm of a set instead of choosing
	// the best one (Arms > 2).
	Rank bool
	// Recheck is the share of each labeller's queries, in [0, 0.5], that
	// show a duel they answered before (sides swapped) as a consistency
	// check. Such answers are logged with the line of the first answer
	// (Event.Recheck), exported with recheck = 1, counted in the progress
	// (and whether they agree), and never fed to the proposer. 0: never;
	// without it no labeller sees a duel twice.
	Recheck float64
	// Seed seeds which earlier answers are rechecked.
	Seed uint64
	// ClientReservations bounds the queries the labellers of one client
	// address may hold at once, and NewLabellersPerHour the labeller ids it
	// may introduce per hour (0: DefaultClientReservations,
	// DefaultNewLabellersPerHour; negative: no limit). limits.go explains.
	ClientReservations  int
	NewLabellersPerHour int
	// Prior are the answers the proposer was given before the session (the
	// answers file it replays), exported with the session's by
	// /api/export?scope=all.
	Prior []Record
	// Logger receives the server's messages; slog.Default() when nil.
	Logger *slog.Logger
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Server is a labelling session behind an HTTP server.
type Server struct {
	opt     Options
	sess    *session
	disp    *display
	handler http.Handler
	token   [sha256.Size]byte
	repair  *Repair
}

// New opens (or creates) the answer log in opt.LogDir, replays it into a
// proposer made by newProposer and returns the server, which does not
// listen yet. newProposer must return a proposer in its initial state each
// time it is called: it is called again, and fed the kept answers, after an
// undo of a strict answer.
func New(cat Catalogue, newProposer func() (Proposer, error), opt Options) (*Server, error) {
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:8080"
	}
	if opt.LabellerTimeout == 0 {
		opt.LabellerTimeout = 10 * time.Minute
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Arms == 0 {
		opt.Arms = 2
	}
	if opt.ClientReservations == 0 {
		opt.ClientReservations = DefaultClientReservations
	}
	if opt.NewLabellersPerHour == 0 {
		opt.NewLabellersPerHour = DefaultNewLabellersPerHour
	}
	switch loop, err := isLoopback(opt.Addr); {
	case err != nil:
		return nil, fmt.Errorf("label: Options.Addr %q: %v", opt.Addr, err)
	case !loop && opt.Token == "":
		return nil, fmt.Errorf("label: Options.Addr %q is not a loopback address; set Options.Token to listen on it", opt.Addr)
	case opt.Token != "" && len(opt.Token) < 16:
		return nil, fmt.Errorf("label: Options.Token has %d characters; use at least 16", len(opt.Token))
	case opt.Budget < 0:
		return nil, fmt.Errorf("label: Options.Budget %d is negative", opt.Budget)
	case opt.LabellerTimeout < 0:
		return nil, fmt.Errorf("label: Options.LabellerTimeout %v is negative", opt.LabellerTimeout)
	case opt.LogDir == "":
		return nil, errors.New("label: Options.LogDir is empty; name the folder of the answer log")
	case newProposer == nil:
		return nil, errors.New("label: no proposer constructor")
	case opt.Arms < 2:
		return nil, fmt.Errorf("label: Options.Arms %d; show at least 2 arms", opt.Arms)
	case opt.Rank && opt.Arms == 2:
		return nil, errors.New("label: Options.Rank needs Options.Arms > 2 (ranking two arms is a duel)")
	case !(opt.Recheck >= 0 && opt.Recheck <= 0.5):
		return nil, fmt.Errorf("label: Options.Recheck %v; want a share in [0, 0.5]", opt.Recheck)
	case opt.Recheck > 0 && opt.Arms > 2:
		return nil, errors.New("label: Options.Recheck applies to duels only (Options.Arms 2)")
	case len(opt.Instructions) > maxInstructions:
		return nil, fmt.Errorf("label: Options.Instructions has %d bytes; at most %d", len(opt.Instructions), maxInstructions)
	case !utf8.ValidString(opt.Instructions):
		return nil, errors.New("label: Options.Instructions is not valid UTF-8 text")
	}
	ix, err := newIndex(cat)
	if err != nil {
		return nil, err
	}
	disp, err := loadDisplay(opt.DisplayFile, ix)
	if err != nil {
		return nil, err
	}
	log, events, rep, err := openLog(opt.LogDir)
	if err != nil {
		disp.close()
		return nil, err
	}
	if rep != nil {
		opt.Logger.Warn(rep.String())
	}
	s := &session{cat: cat, ix: ix, newProposer: newProposer, log: log, logger: opt.Logger, now: opt.Now, opt: opt,
		tickets: map[string]*ticket{}, bySeq: map[int64]*ticket{}, labellers: map[string]*labeller{}, clients: map[string]*client{},
		done: make(chan struct{})}
	err = s.replay(log.path, events)
	if err == nil && opt.Arms > 2 {
		if _, ok := s.prop.(SetProposer); !ok {
			err = fmt.Errorf("label: Options.Arms %d needs a proposer that shows sets (SetProposer); %T is not one", opt.Arms, s.prop)
		}
	}
	if err == nil {
		err = s.start()
	}
	if err != nil {
		log.close()
		disp.close()
		return nil, err
	}
	srv := &Server{opt: opt, sess: s, disp: disp, repair: rep}
	if opt.Token != "" {
		srv.token = sha256.Sum256([]byte(opt.Token))
	}
	srv.handler = srv.routes()
	opt.Logger.Info("label: session ready", "log", log.path, "answers", s.kept, "epoch", s.epoch)
	return srv, nil
}

// Repair reports the torn or corrupt last line removed from the log when the
// server started, or nil.
func (s *Server) Repair() *Repair { return s.repair }

// Handler returns the server's HTTP handler (pages, images and API).
func (s *Server) Handler() http.Handler { return s.handler }

// Listen opens the listener on Options.Addr.
func (s *Server) Listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", s.opt.Addr)
	if err != nil {
		return nil, fmt.Errorf("label: %v", err)
	}
	return ln, nil
}

// Serve serves on ln until ctx is done, then shuts down gracefully (waiting
// up to 5 s for requests in flight). It closes ln; it does not close the
// log (call Close).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(s.opt.Logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("label: %v", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("label: shutting down: %v", err)
	}
	return nil
}

// ListenAndServe listens on Options.Addr and serves until ctx is done.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := s.Listen()
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Close stops a rebuild in progress and closes the answer log and the
// display folder. Every acknowledged answer is already on disk.
func (s *Server) Close() error {
	if !s.sess.closing.Swap(true) {
		close(s.sess.done)
	}
	s.sess.wg.Wait()
	s.sess.mu.Lock()
	defer s.sess.mu.Unlock()
	return errors.Join(s.sess.log.close(), s.disp.close())
}

// maxInstructions bounds Options.Instructions.
const maxInstructions = 64 << 10

// isLoopback reports whether addr's host is localhost or a loopback IP.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// authorized reports whether r carries the token (always, without one).
func (s *Server) authorized(r *http.Request) bool {
	if s.opt.Token == "" {
		return true
	}
	tok := r.URL.Query().Get("token")
	// The scheme is case-insensitive (RFC 9110, section 11.1).
	if scheme, h, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		tok = strings.TrimSpace(h)
	}
	sum := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(sum[:], s.token[:]) == 1
}

// loopbackHost reports whether the request's Host names the loopback
// interface, which stops DNS-rebinding pages from reading a server without
// a token.
func loopbackHost(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
