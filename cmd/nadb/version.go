package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/neural-adb/nadb/experiments"
	"github.com/neural-adb/nadb/internal/gemm"
)

// cmdVersion prints what identifies this build: the module path and version,
// the commit (from the build's VCS stamp, or else from git when run inside a
// checkout), the Go version and experiments.CacheVersion, which names the
// numbers cached runs hold, and the matrix kernels this machine runs
// (gemm.Active: the results are the same on every path, the speed is not).
func cmdVersion(_ context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("nadb version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: nadb version\n\nPrints the module version, the commit when known, the cache version and the matrix kernels in use.")
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	module, version, commit := "github.com/neural-adb/nadb", "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		module, version = bi.Main.Path, bi.Main.Version
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = " (modified)"
				}
			}
		}
		if rev != "" {
			commit = rev + dirty
		}
	}
	if commit == "" {
		commit = gitCommit(module)
	}
	if commit == "" {
		commit = "unknown (built without VCS stamping, outside a git checkout)"
	}
	fmt.Fprintf(stdout, "nadb %s %s\ncommit %s\n%s %s/%s\ncache version %d\nmatrix kernels %s\n", module, version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH, experiments.CacheVersion, gemm.Active())
	return nil
}

// gitCommit returns the checked-out commit of the git repository around the
// working directory when that repository is module's (its go.mod declares
// it), marked "(modified)" when tracked files differ; "" otherwise.
func gitCommit(module string) string {
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return ""
	}
	mod, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(top)), "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module "+module+"\n") {
		return ""
	}
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		return c + " (modified; read from git in the working directory)"
	}
	return c + " (read from git in the working directory)"
}
