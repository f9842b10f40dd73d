package label

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// imageTypes are the image extensions a display file may name, with their
// content types. SVG is left out: it can carry scripts.
var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp",
}

// entry is what is shown for a context or an arm.
type entry struct {
	label string
	image string // relative to the display file's folder; empty for none
}

// display holds the labels and images of a display file.
type display struct {
	root    *os.Root // the display file's folder; nil without a display file
	context []entry  // per context
	arms    [][]entry
}

// loadDisplay reads the display file at path, a CSV file with a header
//
//	context,arm,label[,image]
//
// (columns in any order, names ignoring case). A row with an empty arm
// labels the context itself. Without a path, every label is its identifier.
func loadDisplay(path string, ix *index) (*display, error) {
	cat := ix.cat
	d := &display{context: make([]entry, cat.Contexts()), arms: make([][]entry, cat.Contexts())}
	for c := range d.arms {
		d.context[c].label = cat.Context(c)
		arms := cat.Arms(c)
		d.arms[c] = make([]entry, len(arms))
		for a, id := range arms {
			d.arms[c][a].label = id
		}
	}
	if path == "" {
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("label: display file: %v", err)
	}
	defer f.Close()
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("label: display file folder: %v", err)
	}
	d.root = root
	if err := d.read(path, f, ix); err != nil {
		root.Close()
		return nil, err
	}
	return d, nil
}

func (d *display) read(path string, r io.Reader, ix *index) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("label: display file %s: header: %v", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, dup := col[h]; dup {
			return fmt.Errorf("label: display file %s: column %q appears twice", path, h)
		}
		col[h] = i
	}
	for _, need := range []string{"context", "arm", "label"} {
		if _, ok := col[need]; !ok {
			return fmt.Errorf("label: display file %s: no column %q; the header must be context,arm,label[,image]", path, need)
		}
	}
	if len(col) > 4 || len(col) == 4 && !hasKey(col, "image") {
		return fmt.Errorf("label: display file %s: header %q; it must be context,arm,label[,image]", path, strings.Join(header, ","))
	}
	seen := map[[2]int]bool{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("label: display file %s: %v", path, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return fmt.Errorf("label: display file %s line %d: %d fields; the header has %d", path, line, len(rec), len(header))
		}
		ctx, arm := rec[col["context"]], rec[col["arm"]]
		c, ok := ix.context[ctx]
		if !ok {
			return fmt.Errorf("label: display file %s line %d: context %q is not in the catalogue", path, line, ctx)
		}
		a := -1
		if arm != "" {
			if a, ok = ix.arm[c][arm]; !ok {
				return fmt.Errorf("label: display file %s line %d: arm %q is not an arm of context %q", path, line, arm, ctx)
			}
		}
		if seen[[2]int{c, a}] {
			return fmt.Errorf("label: display file %s line %d: context %q arm %q appears twice", path, line, ctx, arm)
		}
		seen[[2]int{c, a}] = true
		e := entry{label: rec[col["label"]]}
		if i, ok := col["image"]; ok && rec[i] != "" {
			if err := d.checkImage(rec[i]); err != nil {
				return fmt.Errorf("label: display file %s line %d: image %q: %v", path, line, rec[i], err)
			}
			e.image = filepath.Clean(filepath.FromSlash(rec[i]))
		}
		if a < 0 {
			d.context[c] = e
		} else {
			d.arms[c][a] = e
		}
	}
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

// checkImage reports whether name is an image file inside the display
// file's folder: a relative path without "..", with an image extension,
// that exists and does not leave the folder through a symbolic link.
func (d *display) checkImage(name string) error {
	p := filepath.FromSlash(name)
	if !filepath.IsLocal(p) {
		return errors.New("must be a path relative to the display file's folder, without \"..\"")
	}
	if _, ok := imageTypes[strings.ToLower(filepath.Ext(p))]; !ok {
		return errors.New("must end in .png, .jpg, .jpeg, .gif or .webp")
	}
	fi, err := d.root.Stat(p)
	if err != nil {
		return fmt.Errorf("not readable inside the display file's folder (a symbolic link must stay inside it): %v", err)
	}
	if !fi.Mode().IsRegular() {
		return errors.New("is not a regular file")
	}
	return nil
}

// open opens the image of context c (a < 0) or of its arm a, confined to
// the display file's folder.
func (d *display) open(c, a int) (*os.File, string, error) {
	if d.root == nil || c < 0 || c >= len(d.arms) || a >= len(d.arms[c]) {
		return nil, "", os.ErrNotExist
	}
	e := d.context[c]
	if a >= 0 {
		e = d.arms[c][a]
	}
	if e.image == "" {
		return nil, "", os.ErrNotExist
	}
	f, err := d.root.Open(e.image)
	return f, imageTypes[strings.ToLower(filepath.Ext(e.image))], err
}

func (d *display) close() error {
	if d.root == nil {
		return nil
	}
	return d.root.Close()
}
