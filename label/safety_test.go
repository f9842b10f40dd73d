package label

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// displayFolder makes a folder with a display file (rows as given, after a
// header context,arm,label,image), an image ok.png, a symbolic link
// alias.png to it, and a symbolic link leak.png to secret.png outside the
// folder. It returns the display file's path and ok.png's bytes.
func displayFolder(t *testing.T, rows string) (string, []byte) {
	t.Helper()
	top := t.TempDir()
	dir := filepath.Join(top, "display")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	var img bytes.Buffer
	png.Encode(&img, image.NewGray(image.Rect(0, 0, 3, 2)))
	for name, data := range map[string][]byte{
		filepath.Join(dir, "ok.png"):         img.Bytes(),
		filepath.Join(dir, "sub", "two.jpg"): img.Bytes(),
		filepath.Join(top, "secret.png"):     []byte("secret"),
		filepath.Join(dir, "display.csv"):    []byte("context,arm,label,image\n" + rows),
	} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("ok.png", filepath.Join(dir, "alias.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "secret.png"), filepath.Join(dir, "leak.png")); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "display.csv"), img.Bytes()
}

func TestDisplayFileErrors(t *testing.T) {
	secret := "/" // replaced by the absolute path of secret.png below
	tests := []struct {
		name, rows, want string
	}{
		{"dot-dot", "u1,red,Red,../secret.png\n", `line 2, column 4 (image): image "../secret.png"`},
		{"absolute", "u1,red,Red,ABS\n", `line 2, column 4 (image): image "` + secret},
		{"symlink out", "u1,,U,ok.png\nu1,red,Red,leak.png\n", `line 3, column 4 (image): image "leak.png"`},
		{"svg", "u1,red,Red,x.svg\n", `line 2, column 4 (image): image "x.svg": must end in`},
		{"missing", "u1,red,Red,none.png\n", `line 2, column 4 (image): image "none.png"`},
		{"unknown context", "u1,red,Red,\nu9,red,Red,\n", `line 3, column 1 (context): context "u9"`},
		{"unknown arm", "u1,pink,Pink,\n", `line 2, column 2 (arm): arm "pink"`},
		{"twice", "u1,red,A,\nu1,red,B,\n", `line 3: context "u1" arm "red" appears twice (first at line 2)`},
		{"short row", "u1,red\n", "line 2: 2 fields, but the header has 4"},
		{"Latin-1 label", "u1,red,R\xf6d,\n", `line 2, column 3 (label): the label is not valid UTF-8`},
		{"huge label", "u1,red," + strings.Repeat("x", 70000) + ",\n", `line 2, column 3 (label): a field of 70000 bytes`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path, _ := displayFolder(t, "")
			abs := filepath.Join(filepath.Dir(filepath.Dir(path)), "secret.png")
			rows := strings.ReplaceAll(tc.rows, "ABS", abs)
			os.WriteFile(path, []byte("context,arm,label,image\n"+rows), 0o644)
			cat := testCatalogue(t)
			_, err := New(cat, roundRobin(cat), Options{LogDir: t.TempDir(), DisplayFile: path, Logger: quiet()})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v; want an error naming %s and %q", err, path, tc.want)
			}
		})
	}
}

func TestImagesConfined(t *testing.T) {
	path, okPNG := displayFolder(t, "u1,,Which colour?,alias.png\nu1,red,<b>Red</b>,ok.png\nu1,green,Green,sub/two.jpg\n")
	f := newFixture(t, nil, "", Options{DisplayFile: path})
	get := func(p string) (int, string, []byte) {
		resp, err := f.ts.Client().Get(f.ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), b
	}
	for _, tc := range []struct {
		path, ctype string
	}{{"/image/0/0", "image/png"}, {"/image/0/context", "image/png"}, {"/image/0/1", "image/jpeg"}} {
		if st, ct, b := get(tc.path); st != http.StatusOK || ct != tc.ctype || !bytes.Equal(b, okPNG) {
			t.Errorf("GET %s: status %d, type %q, %d bytes; want the image as %s", tc.path, st, ct, len(b), tc.ctype)
		}
	}
	for _, p := range []string{"/image/0/2", "/image/1/0", "/image/9/0", "/image/0/9", "/image/-1/0", "/image/0/..%2f..%2fsecret.png", "/image/0/-2"} {
		if st, _, b := get(p); st != http.StatusNotFound || bytes.Contains(b, []byte("secret")) {
			t.Errorf("GET %s: status %d; want 404", p, st)
		}
	}
	// Swapping an image for a link out of the folder after the start does
	// not leak the file either.
	img := filepath.Join(filepath.Dir(path), "ok.png")
	os.Remove(img)
	if err := os.Symlink(filepath.Join("..", "secret.png"), img); err != nil {
		t.Fatal(err)
	}
	if st, _, b := get("/image/0/0"); st == http.StatusOK || bytes.Contains(b, []byte("secret")) {
		t.Errorf("GET of an image replaced by a link out of the folder: status %d, body %q", st, b)
	}
	// Labels reach the page unchanged (the page shows them as text).
	for range 20 {
		q := f.next("ann")
		if q["arm1"] == "red" || q["arm2"] == "red" {
			if q["arm1_label"] != "<b>Red</b>" && q["arm2_label"] != "<b>Red</b>" {
				t.Errorf("label of red is not the display file's text: %v", q)
			}
			break
		}
		f.do("POST", "/api/skip", map[string]any{"id": q["id"]})
	}
}

// TestPagesBuildTextOnly checks that the embedded scripts never turn data
// into HTML; the browser test checks the rendered page.
func TestPagesBuildTextOnly(t *testing.T) {
	risky := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function`)
	err := fs.WalkDir(staticFiles, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := staticFiles.ReadFile(p)
		if m := risky.Find(b); m != nil {
			t.Errorf("%s uses %s", p, m)
		}
		if strings.HasSuffix(p, ".html") && bytes.Contains(b, []byte("<script>")) {
			t.Errorf("%s has an inline script; the CSP allows only script files", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestToken(t *testing.T) {
	const token = "0123456789abcdef-secret"
	f := newFixture(t, nil, "", Options{Token: token})
	for _, p := range []string{"/", "/summary", "/api/next?labeller=ann", "/api/progress", "/api/summary", "/api/export", "/image/0/0"} {
		for _, tc := range []struct {
			query  string
			header []string
			want   int
		}{
			{"", nil, http.StatusUnauthorized},
			{"token=wrong", nil, http.StatusUnauthorized},
			{"", []string{"Authorization", "Bearer wrong"}, http.StatusUnauthorized},
			{"token=" + token, nil, http.StatusOK},
			{"", []string{"Authorization", "Bearer " + token}, http.StatusOK},
			{"", []string{"Authorization", "bearer " + token}, http.StatusOK}, // the scheme ignores case
			{"", []string{"Authorization", "BEARER  " + token}, http.StatusOK},
			{"", []string{"Authorization", "Basic " + token}, http.StatusUnauthorized},
			{"", []string{"Authorization", token}, http.StatusUnauthorized},
		} {
			u := p
			if tc.query != "" {
				u += map[bool]string{true: "&", false: "?"}[strings.Contains(p, "?")] + tc.query
			}
			st, _ := f.do("GET", u, nil, tc.header...)
			want := tc.want
			if want == http.StatusOK && strings.HasPrefix(p, "/image/") {
				want = http.StatusNotFound // authorized, but no display file
			}
			if st != want {
				t.Errorf("GET %s %v: status %d, want %d", u, tc.header, st, want)
			}
		}
	}
	if st, _ := f.do("POST", "/api/answer", map[string]any{"id": "1-1", "y": 1}); st != http.StatusUnauthorized {
		t.Errorf("POST without token: status %d, want 401", st)
	}
	if st, _ := f.do("GET", "/static/app.js", nil); st != http.StatusOK {
		t.Errorf("static script without token: status %d, want 200 (it holds no data)", st)
	}
	// With a token any Host is accepted; without one only loopback names.
	if st, _ := f.do("GET", "/api/progress?token="+token, nil, "Host", "labels.example.org"); st != http.StatusOK {
		t.Errorf("token and a public host name: status %d, want 200", st)
	}
	g := newFixture(t, nil, "", Options{})
	for host, want := range map[string]int{"evil.example:80": 421, "localhost:1": 200, "127.0.0.1:1": 200, "[::1]:1": 200} {
		if st, r := g.do("GET", "/api/progress", nil, "Host", host); st != want || want == 421 && r["error"] == nil {
			t.Errorf("no token, Host %s: status %d, reply %v; want %d (with a JSON error)", host, st, r, want)
		}
	}
	if st, r := g.do("POST", "/api/undo", map[string]any{"labeller": "ann"}, "Sec-Fetch-Site", "cross-site"); st != http.StatusForbidden || r["error"] == nil {
		t.Errorf("cross-site POST: status %d, reply %v; want 403 with a JSON error", st, r)
	}
}

func TestListenPolicy(t *testing.T) {
	cat := testCatalogue(t)
	for _, tc := range []struct {
		addr, token, want string
	}{
		{"0.0.0.0:0", "", "not a loopback address"},
		{":0", "", "not a loopback address"},
		{"[::]:0", "", "not a loopback address"},
		{"example.org:80", "", "not a loopback address"},
		{"127.0.0.1", "", "Options.Addr"},
		{"0.0.0.0:0", "short", "at least 16"},
		{"localhost:0", "", ""},
		{"127.0.0.2:0", "", ""},
		{"[::1]:0", "", ""},
		{"0.0.0.0:0", "0123456789abcdef", ""},
	} {
		srv, err := New(cat, roundRobin(cat), Options{Addr: tc.addr, Token: tc.token, LogDir: t.TempDir(), Logger: quiet()})
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Addr %q token %q: %v; want %q", tc.addr, tc.token, err, tc.want)
		}
		if srv != nil {
			srv.Close()
		}
	}
}

// TestCrossSiteNext: GET /api/next changes state (it reserves a query and
// may introduce a labeller id), so a cross-site page must not call it, e.g.
// with an image tag; the refusal is JSON and uses no per-client slot.
func TestCrossSiteNext(t *testing.T) {
	f := newFixture(t, bigCatalogue(t), "", Options{ClientReservations: 5, NewLabellersPerHour: 3})
	for _, h := range [][]string{
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", "http://evil.example"},
	} {
		st, r := f.do("GET", "/api/next?labeller=evil", nil, h...)
		if st != http.StatusForbidden || !strings.Contains(fmt.Sprint(r["error"]), "cross-origin") {
			t.Errorf("GET /api/next with %v: %d %v, want 403 with a JSON error", h, st, r)
		}
		req, err := http.NewRequest("HEAD", f.ts.URL+"/api/next?labeller=evil", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(h[0], h[1])
		if resp, err := f.ts.Client().Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("HEAD /api/next with %v: %v %v, want 403", h, resp.Status, err)
		}
	}
	f.srv.sess.mu.Lock()
	n := len(f.srv.sess.labellers)
	f.srv.sess.mu.Unlock()
	if n != 0 {
		t.Errorf("refused cross-site requests made %d labellers, want 0", n)
	}
	// The page's own requests, and clients that are no browser, pass.
	for i, h := range [][]string{nil, {"Sec-Fetch-Site", "same-origin"}, {"Origin", f.ts.URL}} {
		if st, r := f.do("GET", fmt.Sprintf("/api/next?labeller=ann%d", i), nil, h...); st != http.StatusOK {
			t.Errorf("GET /api/next with %v: %d %v, want 200", h, st, r)
		}
	}
	// Read-only GETs stay open (a cross-site page cannot read the reply).
	if st, _ := f.do("GET", "/api/progress", nil, "Sec-Fetch-Site", "cross-site"); st != http.StatusOK {
		t.Errorf("cross-site GET /api/progress: %d, want 200", st)
	}
}

// TestRefusedUsesNoNewID: a new labeller id refused by the reservation
// limit does not count towards the new ids of its client.
func TestRefusedUsesNoNewID(t *testing.T) {
	f := newFixture(t, bigCatalogue(t), "", Options{ClientReservations: 2, NewLabellersPerHour: 3})
	q := f.next("ann")
	f.next("bob")
	for i := range 5 {
		st, r := f.do("GET", fmt.Sprintf("/api/next?labeller=bot%d", i), nil)
		if st != http.StatusTooManyRequests || !strings.Contains(fmt.Sprint(r["error"]), "hold 2 queries") {
			t.Errorf("bot%d past the reservations: %d %v, want 429 (reservations)", i, st, r)
		}
	}
	if st, r := f.answer(q["id"], 1); st != http.StatusOK {
		t.Fatalf("answer: %d %v", st, r)
	}
	f.next("carl") // the third new id of the client
	f.srv.sess.mu.Lock()
	n := len(f.srv.sess.labellers)
	f.srv.sess.mu.Unlock()
	if n != 3 {
		t.Errorf("%d labellers remembered, want 3 (the refused ids are not)", n)
	}
}

// TestClientOf: the per-client limits see every loopback address as one
// client and an IPv6 /64 as one client, so that changing the source
// address does not escape them.
func TestClientOf(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:5":               "loopback",
		"127.0.0.2:5":               "loopback",
		"127.9.8.7:5":               "loopback",
		"[::1]:5":                   "loopback",
		"[::ffff:127.0.0.3]:5":      "loopback",
		"192.0.2.7:4242":            "192.0.2.7",
		"[::ffff:192.0.2.7]:1":      "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:80": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:80": "2001:db8:1:2::/64",
		"[fe80::1%eth0]:80":         "fe80::/64",
		"not an address":            "not an address",
		"[2001:db8:1:3::1]:80":      "2001:db8:1:3::/64",
	} {
		r := httptest.NewRequest("GET", "/api/next", nil)
		r.RemoteAddr = addr
		if got := clientOf(r); got != want {
			t.Errorf("clientOf(%q) = %q, want %q", addr, got, want)
		}
	}
	// A second loopback address shares the first one's limit.
	f := newFixture(t, bigCatalogue(t), "", Options{NewLabellersPerHour: 1})
	f.next("ann")
	req := httptest.NewRequest("GET", "/api/next?labeller=bob", nil)
	req.RemoteAddr, req.Host = "127.0.0.2:4242", "127.0.0.1"
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, req)
	if w.Code != http.StatusTooManyRequests {
		t.Errorf("a new id from 127.0.0.2 after one from 127.0.0.1 with a limit of 1: %d %s, want 429", w.Code, w.Body)
	}
}
