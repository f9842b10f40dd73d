package label

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

//go:embed static
var staticFiles embed.FS

// maxBody is the largest request body the API reads.
const maxBody = 4 << 10

func (s *Server) routes() http.Handler {
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.Handle("GET /{$}", s.guard(page(static, "index.html")))
	mux.Handle("GET /summary", s.guard(page(static, "summary.html")))
	mux.Handle("GET /image/{c}/{a}", s.guard(s.image))
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errCrossOrigin)
	}))
	api := []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{"GET", "/api/config", s.apiConfig},
		{"GET", "/api/next", sameOrigin(cop, s.apiNext)},
		{"POST", "/api/answer", s.apiAnswer},
		{"POST", "/api/skip", s.apiSkip},
		{"POST", "/api/undo", s.apiUndo},
		{"GET", "/api/progress", s.apiProgress},
		{"GET", "/api/summary", s.apiSummary},
		{"GET", "/api/export", s.apiExport},
	}
	allowed := map[string]string{}
	for _, e := range api {
		mux.Handle(e.method+" "+e.path, s.guard(e.h))
		allowed[e.path] = e.method
	}
	// Other API requests get a JSON error.
	mux.Handle("/api/", s.guard(func(w http.ResponseWriter, r *http.Request) {
		if m, ok := allowed[r.URL.Path]; ok {
			w.Header().Set("Allow", m)
			writeError(w, errorf(http.StatusMethodNotAllowed, "", "%s takes %s, not %s", r.URL.Path, m, r.Method))
			return
		}
		writeError(w, errorf(http.StatusNotFound, "", "no API endpoint %s", r.URL.Path))
	}))
	return s.headers(cop.Handler(mux))
}

var errCrossOrigin = errorf(http.StatusForbidden, "", "cross-origin request refused: the API answers only the pages of this server (Sec-Fetch-Site or Origin names another site)")

// sameOrigin refuses a cross-origin GET or HEAD that changes state (a page
// of another site could send it, e.g. with an image tag) as cop refuses
// cross-origin POSTs.
func sameOrigin(cop *http.CrossOriginProtection, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		unsafe := r.WithContext(r.Context())
		unsafe.Method = http.MethodPost // Check passes safe methods
		if cop.Check(unsafe) != nil {
			writeError(w, errCrossOrigin)
			return
		}
		h(w, r)
	}
}

// headers sets the security headers of every response and, without a
// token, refuses requests whose Host is not the loopback interface.
func (s *Server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		if s.opt.Token == "" && !loopbackHost(r) {
			const msg = "label: this server answers only to a loopback host name without a token"
			if strings.HasPrefix(r.URL.Path, "/api/") {
				writeError(w, errorf(http.StatusMisdirectedRequest, "Host", msg))
			} else {
				http.Error(w, msg, http.StatusMisdirectedRequest)
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// guard requires the token, if any.
func (s *Server) guard(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if !s.authorized(r) {
			writeError(w, errorf(http.StatusUnauthorized, "token", "missing or wrong token: send Authorization: Bearer TOKEN or ?token=TOKEN"))
			return
		}
		h(w, r)
	})
}

func page(static fs.FS, name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := fs.ReadFile(static, name)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	}
}

func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	c, err1 := strconv.Atoi(r.PathValue("c"))
	a, err2 := strconv.Atoi(r.PathValue("a"))
	if r.PathValue("a") == "context" {
		a, err2 = -1, nil
	}
	if err1 != nil || err2 != nil || a < -1 {
		http.NotFound(w, r)
		return
	}
	f, ctype, err := s.disp.open(c, a)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// num is a float64 written as null when NaN or infinite.
type num float64

func (x num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, float64(x), 'g', -1, 64), nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errorf(http.StatusInternalServerError, "", "%v", err)
	}
	if ae.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "2")
	}
	body := struct {
		Error string `json:"error"`
		Field string `json:"field,omitempty"`
	}{ae.msg, ae.field}
	writeJSON(w, ae.status, body)
}

// validLabeller checks a labeller identifier: 1 to 64 letters, digits or
// . _ - @.
func validLabeller(id string) error {
	if id == "" || len(id) > 64 || strings.IndexFunc(id, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("._-@", r))
	}) >= 0 {
		return errorf(http.StatusBadRequest, "labeller", "labeller %q must be 1 to 64 letters, digits or . _ - @", id)
	}
	return nil
}

// decode reads a JSON object of at most maxBody bytes into dst, rejecting
// unknown fields; errors name the field.
func decode(w http.ResponseWriter, r *http.Request, dst any) error {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/json" {
		return errorf(http.StatusUnsupportedMediaType, "Content-Type", "the body must be JSON with Content-Type: application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return errorf(http.StatusRequestEntityTooLarge, "body", "the body is larger than %d bytes", maxBody)
	}
	if err != nil {
		return errorf(http.StatusBadRequest, "body", "reading the body: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err = dec.Decode(dst)
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field == "":
		return errorf(http.StatusBadRequest, "body", "body: want a JSON object, not %s", te.Value)
	case errors.As(err, &te):
		return errorf(http.StatusBadRequest, te.Field, "field %q must be a JSON %s, not %s", te.Field, te.Type, te.Value)
	case err != nil && strings.HasPrefix(err.Error(), "json: unknown field "):
		f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return errorf(http.StatusBadRequest, f, "unknown field %q", f)
	case err != nil:
		return errorf(http.StatusBadRequest, "body", "the body is not a JSON object: %v", err)
	case dec.More():
		return errorf(http.StatusBadRequest, "body", "the body has data after its JSON object")
	}
	return nil
}

// clientOf returns the client a request comes from, for the per-client
// limits: its IPv4 address, the /64 network of its IPv6 address (one
// host's share), or "loopback" for every loopback address (any of
// 127.0.0.0/8 reaches a local server), so that a client cannot escape the
// limits by changing the address it sends from.
func clientOf(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		h = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(h)
	if err != nil {
		return h
	}
	switch ip = ip.Unmap(); {
	case ip.IsLoopback():
		return "loopback"
	case ip.Is6():
		p, err := ip.WithZone("").Prefix(64)
		if err == nil {
			return p.String()
		}
	}
	return ip.String()
}

func (s *Server) apiNext(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("labeller")
	if err := validLabeller(id); err != nil {
		writeError(w, err)
		return
	}
	t, msg, err := s.sess.next(id, clientOf(r))
	if err != nil {
		writeError(w, err)
		return
	}
	prog := s.sess.progress(id)
	if t == nil {
		writeJSON(w, http.StatusOK, struct {
			Done     bool         `json:"done"`
			Message  string       `json:"message"`
			Progress progressJSON `json:"progress"`
		}{true, msg, prog})
		return
	}
	writeJSON(w, http.StatusOK, s.queryJSON(t, prog))
}

// shownArm is one arm of a query as the page shows it.
type shownArm struct {
	Arm   string `json:"arm"`
	Index int    `json:"index"`
	Label string `json:"label"`
	Image string `json:"image"` // URL path, or empty
}

type queryJSON struct {
	ID           string       `json:"id"`
	Context      string       `json:"context"`
	Arm1         string       `json:"arm1"` // the first two arms shown (a duel's)
	Arm2         string       `json:"arm2"`
	ContextIndex int          `json:"context_index"`
	Arm1Index    int          `json:"arm1_index"`
	Arm2Index    int          `json:"arm2_index"`
	ContextLabel string       `json:"context_label"`
	Arm1Label    string       `json:"arm1_label"`
	Arm2Label    string       `json:"arm2_label"`
	ContextImage string       `json:"context_image"` // URL path, or empty
	Arm1Image    string       `json:"arm1_image"`
	Arm2Image    string       `json:"arm2_image"`
	Set          bool         `json:"set"`   // several arms: choose the best, or rank them (Rank)
	Rank         bool         `json:"rank"`  // rank every arm of the set
	Arms         []shownArm   `json:"arms"`  // every arm shown, in order
	Score        num          `json:"score"` // the proposer's reason; null when none, or hidden (Options.ShowScores)
	Sigma        num          `json:"sigma"`
	Expires      time.Time    `json:"expires"`
	Progress     progressJSON `json:"progress"`
}

func (s *Server) queryJSON(t *ticket, prog progressJSON) queryJSON {
	c := t.c
	arms := s.sess.cat.Arms(c)
	img := func(e entry, a string) string {
		if e.image == "" {
			return ""
		}
		return fmt.Sprintf("/image/%d/%s", c, a)
	}
	d := s.disp
	shown := make([]shownArm, len(t.arms))
	for i, a := range t.arms {
		shown[i] = shownArm{Arm: arms[a], Index: a, Label: d.arms[c][a].label, Image: img(d.arms[c][a], strconv.Itoa(a))}
	}
	q := queryJSON{ID: t.id, Context: s.sess.cat.Context(c), ContextIndex: c,
		ContextLabel: d.context[c].label, ContextImage: img(d.context[c], "context"),
		Arm1: shown[0].Arm, Arm2: shown[1].Arm, Arm1Index: shown[0].Index, Arm2Index: shown[1].Index,
		Arm1Label: shown[0].Label, Arm2Label: shown[1].Label, Arm1Image: shown[0].Image, Arm2Image: shown[1].Image,
		Set: t.isSet(), Rank: t.isSet() && s.opt.Rank, Arms: shown,
		Score: nan(), Sigma: nan(),
		Expires: t.issued.Add(s.opt.LabellerTimeout).UTC(), Progress: prog}
	if s.opt.ShowScores {
		q.Score, q.Sigma = num(t.reason.Score), num(t.reason.Sigma)
	}
	return q
}

// configJSON is what the page needs to know about the session.
type configJSON struct {
	ShowScores   bool   `json:"show_scores"`
	Instructions string `json:"instructions"`
	Arms         int    `json:"arms"`
	Rank         bool   `json:"rank"`
	Budget       int    `json:"budget"`
}

func (s *Server) apiConfig(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, configJSON{ShowScores: s.opt.ShowScores, Instructions: s.opt.Instructions,
		Arms: s.opt.Arms, Rank: s.opt.Rank, Budget: s.opt.Budget})
}
