package label

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/neural-adb/nadb/internal/csvtab"
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
	rd, err := csvtab.NewReader(r, path)
	if err != nil {
		return fmt.Errorf("label: display file: %w", err)
	}
	cols, err := rd.Require("context", "arm", "label")
	if err != nil {
		return fmt.Errorf("label: display file: %w", err)
	}
	imgCol := rd.Column("image")
	if n := len(rd.Header); n > 4 || n == 4 && imgCol < 0 {
		return fmt.Errorf("label: display file %s: header %q; it must be context,arm,label[,image]", path, strings.Join(rd.Header, ","))
	}
	seen := map[[2]int]int{}
	for {
		ok, err := rd.Next()
		if err != nil {
			return fmt.Errorf("label: display file: %w", err)
		}
		if !ok {
			return nil
		}
		line := rd.Line()
		for _, col := range append(cols, imgCol) {
			if col < 0 {
				continue
			}
			if err := csvtab.CheckUTF8(rd.Field(col)); err != nil {
				return fmt.Errorf("label: display file: %w", rd.ErrAt(col, "the %s %v", rd.Header[col], err))
			}
		}
		ctx, arm := rd.Field(cols[0]), rd.Field(cols[1])
		c, ok := ix.context[ctx]
		if !ok {
			return fmt.Errorf("label: display file: %w", rd.ErrAt(cols[0], "context %s is not in the catalogue", csvtab.Quote(ctx)))
		}
		a := -1
		if arm != "" {
			if a, ok = ix.arm[c][arm]; !ok {
				return fmt.Errorf("label: display file: %w", rd.ErrAt(cols[1], "arm %s is not an arm of context %s", csvtab.Quote(arm), csvtab.Quote(ctx)))
			}
		}
		if first, dup := seen[[2]int{c, a}]; dup {
			return fmt.Errorf("label: display file: %w", rd.ErrAt(-1, "context %s arm %s appears twice (first at line %d)", csvtab.Quote(ctx), csvtab.Quote(arm), first))
		}
		seen[[2]int{c, a}] = line
		e := entry{label: strings.Clone(rd.Field(cols[2]))}
		if imgCol >= 0 && rd.Field(imgCol) != "" {
			img := rd.Field(imgCol)
			if err := d.checkImage(img); err != nil {
				return fmt.Errorf("label: display file: %w", rd.ErrAt(imgCol, "image %s: %v", csvtab.Quote(img), err))
			}
			e.image = filepath.Clean(filepath.FromSlash(img))
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
