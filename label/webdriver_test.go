package label

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// webDriver is a minimal client of the W3C WebDriver protocol (plain HTTP
// and JSON) for chromedriver.
type webDriver struct {
	t       *testing.T
	base    string // chromedriver's URL
	session string // the session's URL
	client  *http.Client
}

// startWebDriver starts chromedriver and a headless Chromium session with a
// fresh profile. Both are stopped when the test ends.
func startWebDriver(t *testing.T, chromium, chromedriver string) *webDriver {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	var logs bytes.Buffer
	cmd := exec.Command(chromedriver, "--port="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	w := &webDriver{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port), client: &http.Client{Timeout: 60 * time.Second}}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := w.client.Get(w.base + "/status"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chromedriver did not start:\n%s", logs.String())
		}
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName": "chrome",
		"goog:chromeOptions": map[string]any{
			"binary": chromium,
			"args": []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--window-size=1100,760", "--user-data-dir=" + t.TempDir()},
		},
	}}}
	var s struct{ SessionID string }
	w.do("POST", w.base+"/session", caps, &s)
	w.session = w.base + "/session/" + s.SessionID
	t.Cleanup(func() { w.do("DELETE", w.session, nil, nil) })
	return w
}

// do sends a WebDriver command and decodes its "value" into out.
func (w *webDriver) do(method, url string, body, out any) {
	w.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.client.Do(req)
	if err != nil {
		w.t.Fatalf("webdriver %s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var reply struct{ Value json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		w.t.Fatalf("webdriver %s %s: %v", method, url, err)
	}
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("webdriver %s %s: status %d: %s", method, url, resp.StatusCode, reply.Value)
	}
	if out != nil {
		if err := json.Unmarshal(reply.Value, out); err != nil {
			w.t.Fatalf("webdriver %s %s: value %s: %v", method, url, reply.Value, err)
		}
	}
}

func (w *webDriver) open(url string) { w.do("POST", w.session+"/url", map[string]any{"url": url}, nil) }

// eval runs a script's body in the page and decodes its return value.
func (w *webDriver) eval(script string, out any) {
	w.do("POST", w.session+"/execute/sync", map[string]any{"script": script, "args": []any{}}, out)
}

// evalString returns the string a script returns.
func (w *webDriver) evalString(script string) string {
	var s string
	w.eval(script, &s)
	return s
}

// key presses and releases one key; "\uE012" is ←, "\uE014" is →.
func (w *webDriver) key(k string) {
	w.do("POST", w.session+"/actions", map[string]any{"actions": []any{map[string]any{
		"type": "key", "id": "keyboard", "actions": []any{
			map[string]any{"type": "keyDown", "value": k}, map[string]any{"type": "keyUp", "value": k}},
	}}}, nil)
}

// waitFor polls a script until it returns true.
func (w *webDriver) waitFor(what, script string) {
	w.t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var ok bool
		w.eval(script, &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the page did not get to %s within 15 s; it says %q", what,
				w.evalString("return document.getElementById('message').textContent"))
		}
	}
}

// screenshot saves a PNG of the page to path.
func (w *webDriver) screenshot(path string) {
	var b64 string
	w.do("GET", w.session+"/screenshot", nil, &b64)
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		w.t.Fatal(err)
	}
	w.t.Logf("screenshot: %s", path)
}

// holdKey presses ← and holds it: a keydown, then repeats keydowns marked
// as auto-repeat (as a held key gives), then the keyup; sent through the
// DevTools protocol, since WebDriver actions cannot mark a repeat.
func (w *webDriver) holdKey(repeats int, every time.Duration) {
	key := func(typ string, repeat bool) {
		w.do("POST", w.session+"/goog/cdp/execute", map[string]any{"cmd": "Input.dispatchKeyEvent", "params": map[string]any{
			"type": typ, "key": "ArrowLeft", "code": "ArrowLeft", "windowsVirtualKeyCode": 37,
			"nativeVirtualKeyCode": 37, "autoRepeat": repeat}}, nil)
	}
	key("rawKeyDown", false)
	for range repeats {
		time.Sleep(every)
		key("rawKeyDown", true)
	}
	key("keyUp", false)
}
