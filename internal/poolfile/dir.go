package poolfile

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
	"github.com/neural-adb/nadb/internal/fsutil"
	"github.com/neural-adb/nadb/internal/npy"
)

// Pool directory: the format for pools as large as embeddings of prompts and
// responses, written from NumPy.
//
// # Pool directory
//
// A directory holding
//
//	features.npy   float32 or float64, C order, shape (contexts, arms, d):
//	               features[c, a] is x_{c,a}
//	contexts.txt   one context identifier per line, in the first axis's order
//	arms.txt       one arm identifier per line, the second axis: arm slots
//	               shared by every context (r1 … r8 for eight responses)
//	utility.npy    optional, float32 or float64, shape (contexts, arms): the
//	               latent utility f(c,a), as the CSV's utility column
//
// is the same pool as the CSV pool file with a row "contexts[c], arms[a],
// features[c, a, :], utility[c, a]" for every (c, a). Identifiers are
// non-empty UTF-8 text without tabs (lines end with \n or \r\n; a last line
// without \n counts), distinct within their file, and trimmed of spaces at
// either end as the CSV pool's fields are (so that the identifiers an
// answers file gives, also trimmed, match). Every context has the same
// arms, so an answers file names arms by these identifiers in every
// context. features.npy is mapped read-only, not read (internal/npy): its
// values stay in their precision (float32 stays float32) and are converted
// to float64 block by block as the learner reads them, so a pool larger than
// the memory works. OpenDir checks them in one pass (finite values, and
// the columns' scales CheckScale reads), handing back each block's pages,
// and rows are then converted from the file with pread (npy.Array.Release,
// npy.Array.ReadValues): the file's pages stay out of the process's
// resident set (on Linux 6.18 reading 20,000 random contexts through the
// mapping of a 3.3 GB pool had put 2.96 GB of it there). The features are named x0 … x(d−1) where a name is
// needed (WritePool, messages). Recorded answers stay the CSV answers file.
//
// The sha256 of a pool directory (HashDir), which a saved model records, is
// that of its files in the order above, each preceded by its name and size.

// The files of a pool directory.
const (
	DirFeatures = "features.npy"
	DirContexts = "contexts.txt"
	DirArms     = "arms.txt"
	DirUtility  = "utility.npy"
)

// IsDir reports whether path names a directory (a pool directory, as
// opposed to a CSV pool file).
func IsDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// Close releases what pf maps (the features of a pool directory); pf's pool
// must not be used afterwards. It does nothing for a CSV pool file.
func (pf *PoolFile) Close() error {
	if pf.close == nil {
		return nil
	}
	err := pf.close()
	pf.close = nil
	return err
}

// Mapped returns the bytes of pf's features that are mapped from a file
// rather than held in memory (0 for a CSV pool file).
func (pf *PoolFile) Mapped() int64 { return pf.mapped }

// OpenDir opens the pool directory dir (format above). Errors are
// *csvtab.Error values naming the file (and the line of an identifier).
func OpenDir(dir string) (*PoolFile, error) {
	path := func(name string) string { return filepath.Join(dir, name) }
	if !IsDir(dir) {
		return nil, &csvtab.Error{File: dir, Msg: "not a directory (a pool directory holds features.npy, contexts.txt and arms.txt)"}
	}
	for i, name := range []string{DirFeatures, DirContexts, DirArms, DirUtility} {
		fi, err := os.Stat(path(name))
		switch {
		case err != nil && i == 3:
		case err != nil:
			return nil, &csvtab.Error{File: path(name), Msg: fmt.Sprintf("missing: a pool directory holds %s, %s and %s (and optionally %s)", DirFeatures, DirContexts, DirArms, DirUtility)}
		case fi.IsDir():
			return nil, &csvtab.Error{File: path(name), Msg: "a directory, not a file"}
		}
	}
	feat, err := npy.Open(path(DirFeatures))
	if err != nil {
		return nil, &csvtab.Error{File: path(DirFeatures), Msg: strings.TrimPrefix(err.Error(), path(DirFeatures)+": ")}
	}
	ok := false
	defer func() {
		if !ok {
			feat.Close()
		}
	}()
	if len(feat.Shape) != 3 {
		return nil, &csvtab.Error{File: path(DirFeatures), Msg: fmt.Sprintf("shape %s: want 3 axes (contexts, arms, d); for one arm slot per row use x.reshape(contexts, arms, d)", npy.ShapeString(feat.Shape))}
	}
	C, K, d := feat.Shape[0], feat.Shape[1], feat.Shape[2]
	ctxs, err := readIDs(path(DirContexts), "context")
	if err != nil {
		return nil, err
	}
	arms, err := readIDs(path(DirArms), "arm")
	if err != nil {
		return nil, err
	}
	switch {
	case K < 2:
		return nil, &csvtab.Error{File: path(DirFeatures), Msg: fmt.Sprintf("%s per context (shape %s); every context needs at least 2 arms to form a duel", plural(K, "arm"), npy.ShapeString(feat.Shape))}
	case len(ctxs) != C:
		return nil, &csvtab.Error{File: path(DirContexts), Msg: fmt.Sprintf("%d context identifiers, but %s has %d contexts (shape %s)", len(ctxs), DirFeatures, C, npy.ShapeString(feat.Shape))}
	case len(arms) != K:
		return nil, &csvtab.Error{File: path(DirArms), Msg: fmt.Sprintf("%d arm identifiers, but %s has %d arms per context (shape %s)", len(arms), DirFeatures, K, npy.ShapeString(feat.Shape))}
	case d < 1:
		return nil, &csvtab.Error{File: path(DirFeatures), Msg: fmt.Sprintf("no features (shape %s)", npy.ShapeString(feat.Shape))}
	}
	pf := &PoolFile{Contexts: ctxs, Arms: make([]string, C*K), Features: make([]string, d)}
	for c := range C {
		copy(pf.Arms[c*K:(c+1)*K], arms)
	}
	for j := range pf.Features {
		pf.Features[j] = "x" + strconv.Itoa(j)
	}
	// One pass over the features checks them and finds the columns' scales
	// (CheckScale), releasing the pages of each block once it is read, and
	// converted rows are read from the file (pread) rather than through
	// the mapping: neither leaves the file's pages in the process's
	// resident set (algorithms.PoolOptions).
	o := algorithms.PoolOptions{ColumnMax: make([]float64, d)}
	if feat.Mapped() {
		o.Checked = func(lo, hi int) { feat.Release(lo, hi) }
		o.Read = feat.ReadValues
	}
	if feat.F32 != nil {
		pf.Pool, err = algorithms.NewPoolFloat32With(C, K, d, feat.F32, o)
	} else {
		pf.Pool, err = algorithms.NewPoolWith(C, K, d, feat.F64, o)
	}
	pf.colMax, pf.colMaxOf = o.ColumnMax, pf.Pool
	if err != nil {
		return nil, &csvtab.Error{File: path(DirFeatures), Msg: strings.TrimPrefix(err.Error(), "pool: ")}
	}
	if _, err := os.Stat(path(DirUtility)); err == nil {
		if pf.Utility, err = readUtility(path(DirUtility), C, K); err != nil {
			return nil, err
		}
	}
	if feat.Mapped() {
		pf.mapped = feat.DataBytes()
	}
	pf.close = feat.Close
	ok = true
	return pf, nil
}

// readIDs reads one identifier per line of file, trimmed of white space at
// either end as csvtab trims a CSV field; what names them in messages
// ("context", "arm").
func readIDs(file, what string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, &csvtab.Error{File: file, Msg: err.Error()}
	}
	defer f.Close()
	var ids []string
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		id := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			id = strings.TrimPrefix(id, "\ufeff")
		}
		switch {
		case !utf8.ValidString(id):
			return nil, &csvtab.Error{File: file, Line: line, Msg: fmt.Sprintf("%s identifier is not UTF-8 text", what)}
		case strings.ContainsAny(id, "\t\x00"):
			return nil, &csvtab.Error{File: file, Line: line, Msg: fmt.Sprintf("%s identifier %q holds a tab or NUL", what, id)}
		}
		if id = strings.TrimSpace(id); id == "" {
			return nil, &csvtab.Error{File: file, Line: line, Msg: fmt.Sprintf("empty %s identifier (one non-empty identifier per line)", what)}
		}
		if prev, dup := seen[id]; dup {
			return nil, &csvtab.Error{File: file, Line: line, Msg: fmt.Sprintf("%s identifier %q repeats line %d; identifiers must be distinct", what, id, prev)}
		}
		seen[id] = line
		ids = append(ids, id)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, &csvtab.Error{File: file, Msg: fmt.Sprintf("%v (an identifier longer than 1 MB?)", err)}
	} else if err != nil {
		return nil, &csvtab.Error{File: file, Msg: err.Error()}
	}
	if len(ids) == 0 {
		return nil, &csvtab.Error{File: file, Msg: fmt.Sprintf("no %s identifiers", what)}
	}
	return ids, nil
}

// readUtility reads utility.npy of shape (C, K) into memory as float64.
func readUtility(file string, C, K int) ([]float64, error) {
	a, err := npy.Open(file)
	if err != nil {
		return nil, &csvtab.Error{File: file, Msg: strings.TrimPrefix(err.Error(), file+": ")}
	}
	defer a.Close()
	if len(a.Shape) != 2 || a.Shape[0] != C || a.Shape[1] != K {
		return nil, &csvtab.Error{File: file, Msg: fmt.Sprintf("shape %s, want (%d, %d): one utility per context and arm of %s", npy.ShapeString(a.Shape), C, K, DirFeatures)}
	}
	u := make([]float64, C*K)
	for i := range u {
		if a.F32 != nil {
			u[i] = float64(a.F32[i])
		} else {
			u[i] = a.F64[i]
		}
		if u[i]-u[i] != 0 { // NaN or ±Inf
			return nil, &csvtab.Error{File: file, Msg: fmt.Sprintf("utility of context %d arm %d is %v", i/K, i%K, u[i])}
		}
	}
	return u, nil
}

// HashDir returns the sha256 of the pool directory dir: of its files in the
// order DirFeatures, DirContexts, DirArms, DirUtility (when present), each
// preceded by "name size\n".
func HashDir(dir string) (string, error) {
	h := sha256.New()
	for i, name := range []string{DirFeatures, DirContexts, DirArms, DirUtility} {
		f, err := os.Open(filepath.Join(dir, name))
		if errors.Is(err, os.ErrNotExist) && i == 3 {
			break
		}
		if err != nil {
			return "", err
		}
		st, err := f.Stat()
		if err == nil {
			fmt.Fprintf(h, "%s %d\n", name, st.Size())
			_, err = io.Copy(h, f)
		}
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Open reads the pool at path, a pool directory or a CSV pool file, and
// returns it with its sha256: of the file, computed as it is parsed, or for
// a directory HashDir — only when want is not empty (hashing gigabytes of
// features costs seconds; call HashDir when the sha256 is needed), and ""
// otherwise. When want is not empty and the pool's sha256 differs, the
// error says the pool has changed. Errors in the pool's content are
// *csvtab.Error values.
func Open(path, want string) (*PoolFile, string, error) {
	changed := func(got string) error {
		if want != "" && got != want {
			return fmt.Errorf("%s has changed since the run was specified (sha256 %s, spec records %s)", path, got, want)
		}
		return nil
	}
	if IsDir(path) {
		sha := ""
		if want != "" {
			var err error
			if sha, err = HashDir(path); err != nil {
				return nil, "", err
			}
			if err := changed(sha); err != nil {
				return nil, "", err
			}
		}
		pf, err := OpenDir(path)
		return pf, sha, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	magic := make([]byte, 6)
	if n, _ := f.ReadAt(magic, 0); n == len(magic) && string(magic) == "\x93NUMPY" {
		return nil, "", &csvtab.Error{File: path, Msg: fmt.Sprintf("a .npy file, not a CSV pool file: name the pool directory that holds it, %s", filepath.Dir(path))}
	}
	hint, err := hintOf(f)
	if err != nil {
		return nil, "", err
	}
	h := sha256.New()
	tee := io.TeeReader(f, h)
	pf, err := readPool(tee, path, hint)
	if err != nil {
		// Refused: stop reading (the rest of a file that is not CSV, such as
		// an endless device, would be hashed for nothing).
		return nil, "", err
	}
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return nil, "", err
	}
	sha := hex.EncodeToString(h.Sum(nil))
	if err := changed(sha); err != nil {
		return nil, "", err
	}
	return pf, sha, nil
}

// WriteDir writes pf as the pool directory dir (created if missing; its
// pool files replaced), features as float32 when f32 (rounded to nearest)
// or float64 (exactly), and utility.npy when pf has utilities. Every
// context must have the same arm identifiers in the same order (a pool
// directory's arms are shared slots). It writes the features row block by
// row block, so the pool is never converted whole.
func WriteDir(dir string, pf *PoolFile, f32 bool) error {
	p := pf.Pool
	K := p.Arms
	for c := 1; c < p.Contexts; c++ {
		for a := range K {
			if pf.Arms[c*K+a] != pf.Arms[a] {
				return fmt.Errorf("poolfile: context %q has arm %q where context %q has %q: a pool directory needs the same arm identifiers in the same order in every context",
					pf.Contexts[c], pf.Arms[c*K+a], pf.Contexts[0], pf.Arms[a])
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	writeFile := func(name string, write func(w io.Writer) error) error {
		return fsutil.WriteBuffered(filepath.Join(dir, name), write)
	}
	shape := []int{p.Contexts, K, p.Dim}
	err := writeFile(DirFeatures, func(w io.Writer) error {
		if f32 {
			return npy.WriteBlocks(w, shape, npy.Float32, func(yield func([]float64) bool) {
				for _, x := range p.Blocks(0, p.Rows(), nil) {
					if !yield(x) {
						return
					}
				}
			})
		}
		return npy.WriteBlocks(w, shape, npy.Float64, func(yield func([]float64) bool) {
			for _, x := range p.Blocks(0, p.Rows(), nil) {
				if !yield(x) {
					return
				}
			}
		})
	})
	if err != nil {
		return err
	}
	lines := func(ids []string) func(io.Writer) error {
		return func(w io.Writer) error {
			for _, id := range ids {
				if _, err := io.WriteString(w, id+"\n"); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if err := writeFile(DirContexts, lines(pf.Contexts)); err != nil {
		return err
	}
	if err := writeFile(DirArms, lines(pf.Arms[:K])); err != nil {
		return err
	}
	if pf.Utility == nil {
		if err := os.Remove(filepath.Join(dir, DirUtility)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	return writeFile(DirUtility, func(w io.Writer) error { return npy.Write(w, []int{p.Contexts, K}, pf.Utility) })
}

// plural returns "n noun", with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
