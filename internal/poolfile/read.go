package poolfile

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/csvtab"
)

// ReadPool parses a pool file (format above). file names the input in error
// messages, which are *csvtab.Error values locating the problem.
//
// The file is parsed as it is read, straight into feature rows, so memory
// stays near the size of the numbers rather than of the text: the features,
// the identifiers and a few integers per row. When r is a regular *os.File
// (as for Open), its lines are counted first and the rows are parsed into
// the pool's matrix itself, then moved into context order in place: the
// features are held once. Otherwise (a pipe) they are held in chunks in file
// order and copied once into the matrix: twice at the peak. A problem in the
// content is reported only once the file's CSV shape has been checked to
// the end, so the error is the one reading the whole file first would give.
func ReadPool(r io.Reader, file string) (*PoolFile, error) {
	var h sizeHint
	if f, ok := r.(*os.File); ok {
		var err error
		if h, err = hintOf(f); err != nil {
			return nil, err
		}
	}
	return readPool(r, file, h)
}

// sizeHint is what a regular file tells before it is parsed: its lines and
// bytes (zero when unknown).
type sizeHint struct{ lines, bytes int64 }

// hintOf counts the lines of the regular file f from its start, without
// moving f's offset (ReadAt); it returns no hint for other files.
func hintOf(f *os.File) (sizeHint, error) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return sizeHint{}, nil
	}
	h := sizeHint{bytes: st.Size()}
	buf := make([]byte, 1<<20)
	last := byte('\n')
	for off := int64(0); ; {
		n, err := f.ReadAt(buf, off)
		h.lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		if n > 0 {
			last = buf[n-1]
		}
		off += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return sizeHint{}, err
		}
	}
	if last != '\n' {
		h.lines++
	}
	return h, nil
}

// readPool is ReadPool with the size hint of the input.
func readPool(r io.Reader, file string, hint sizeHint) (*PoolFile, error) {
	rd, err := csvtab.NewReader(r, file)
	if err != nil {
		return nil, err
	}
	pr, first := newPoolReader(rd)
	if first == nil && hint.lines > 0 {
		// Room for every line but the header, each a row of at most one
		// per d + 2 bytes of the file (d + 1 separators and a line end):
		// a file of blank lines does not reserve rows it cannot hold.
		d := int64(pr.x.d)
		rows := min(hint.lines-1, hint.bytes/(d+2))
		if rows > 0 && rows <= math.MaxInt/(8*d) {
			pr.x.flat = make([]float64, 0, rows*d)
			pr.x.sized = true
		}
	}
	for {
		ok, err := rd.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if first == nil {
			first = pr.row(rd)
		}
	}
	if first != nil {
		return nil, first
	}
	return pr.finish(rd)
}

// permuteRows moves row r of x (rows of d values) to row to[r], in place,
// for a permutation to: one cycle at a time, holding two rows aside.
func permuteRows(x []float64, d int, to []int32) {
	done := make([]bool, len(to))
	held, next := make([]float64, d), make([]float64, d)
	for start := range to {
		if done[start] || int(to[start]) == start {
			continue
		}
		copy(held, x[start*d:(start+1)*d])
		for r := start; !done[r]; {
			done[r] = true
			t := int(to[r])
			row := x[t*d : (t+1)*d]
			copy(next, row)
			copy(row, held)
			held, next = next, held
			r = t
		}
	}
}

// poolReader accumulates the rows of a pool file in file order.
type poolReader struct {
	ctxCol, armCol, utilCol int
	featCols                []int

	ctxs []*ctxRows
	byID map[string]int32
	x    rowChunks // features, file order
	util []float64 // utilities, file order
	arms []string  // arm ids, file order
	dest []int32   // context of each row, then (finish) its row in the pool
	pos  []int32   // arm position of each row in its context
}

// rowChunks holds rows of d values: in flat, room reserved for the rows
// expected (sized), else in chunks of about 512 kB, so that growing it
// never copies what it holds.
type rowChunks struct {
	d      int
	chunks [][]float64
	flat   []float64
	sized  bool
}

// next returns room for one more row.
func (rc *rowChunks) next() []float64 {
	if rc.sized {
		n := len(rc.flat)
		rc.flat = slices.Grow(rc.flat, rc.d)[:n+rc.d] // grows only past the hint
		return rc.flat[n:]
	}
	last := len(rc.chunks) - 1
	if last < 0 || len(rc.chunks[last])+rc.d > cap(rc.chunks[last]) {
		rc.chunks = append(rc.chunks, make([]float64, 0, max(1, (1<<16)/rc.d)*rc.d))
		last++
	}
	c := rc.chunks[last]
	rc.chunks[last] = c[:len(c)+rc.d]
	return rc.chunks[last][len(c):]
}

// row returns row r.
func (rc *rowChunks) row(r int) []float64 {
	if rc.sized {
		return rc.flat[r*rc.d : (r+1)*rc.d]
	}
	per := cap(rc.chunks[0]) / rc.d
	c := rc.chunks[r/per]
	return c[(r%per)*rc.d : (r%per+1)*rc.d]
}

// ctxRows is what a context has seen so far: its arms' ids with the line of
// each (a map once there are many).
type ctxRows struct {
	id    string
	line  int // line of its first row
	arms  []string
	lines []int
	ids   map[string]int32 // arm id → position, when len(arms) > ctxMapAt
}

const ctxMapAt = 16

// find returns the position of arm id in the context, or −1.
func (c *ctxRows) find(id string) int {
	if c.ids != nil {
		if a, ok := c.ids[id]; ok {
			return int(a)
		}
		return -1
	}
	for a, s := range c.arms {
		if s == id {
			return a
		}
	}
	return -1
}

func (c *ctxRows) add(id string, line int) {
	c.arms = append(c.arms, id)
	c.lines = append(c.lines, line)
	switch {
	case c.ids != nil:
		c.ids[id] = int32(len(c.arms) - 1)
	case len(c.arms) > ctxMapAt:
		c.ids = make(map[string]int32, 2*len(c.arms))
		for a, s := range c.arms {
			c.ids[s] = int32(a)
		}
	}
}

// newPoolReader checks the header; the error is the first problem with it.
func newPoolReader(rd *csvtab.Reader) (*poolReader, error) {
	pr := &poolReader{byID: map[string]int32{}}
	cols, err := rd.Require("context", "arm")
	if err != nil {
		return pr, err
	}
	pr.ctxCol, pr.armCol, pr.utilCol = cols[0], cols[1], rd.Column("utility")
	for i := range rd.Header {
		if i != pr.ctxCol && i != pr.armCol && i != pr.utilCol {
			pr.featCols = append(pr.featCols, i)
		}
	}
	if len(pr.featCols) == 0 {
		return pr, &csvtab.Error{File: rd.File, Line: rd.HeaderLine, Msg: "no feature columns: the header must be context,arm followed by at least one feature column"}
	}
	pr.x.d = len(pr.featCols)
	return pr, nil
}

// row adds the reader's current row.
func (pr *poolReader) row(rd *csvtab.Reader) error {
	cid, err := rd.ID(pr.ctxCol)
	if err != nil {
		return err
	}
	aid, err := rd.ID(pr.armCol)
	if err != nil {
		return err
	}
	x := pr.x.next() // a failed row leaves garbage: the file is refused
	for k, col := range pr.featCols {
		if x[k], err = rd.Float(col); err != nil {
			return err
		}
	}
	if pr.utilCol >= 0 {
		u, err := rd.Float(pr.utilCol)
		if err != nil {
			return err
		}
		if err := checkUtility(rd, pr.utilCol, u); err != nil {
			return err
		}
		pr.util = append(pr.util, u)
	}
	ci, ok := pr.byID[cid]
	if !ok {
		ci = int32(len(pr.ctxs))
		cid = strings.Clone(cid)
		pr.byID[cid] = ci
		pr.ctxs = append(pr.ctxs, &ctxRows{id: cid, line: rd.Line()})
	}
	c := pr.ctxs[ci]
	if j := c.find(aid); j >= 0 {
		return rd.ErrAt(pr.armCol, "context %s has arm %s twice (first at line %d)", csvtab.Quote(cid), csvtab.Quote(aid), c.lines[j])
	}
	aid = strings.Clone(aid)
	pr.dest = append(pr.dest, ci)
	pr.pos = append(pr.pos, int32(len(c.arms)))
	pr.arms = append(pr.arms, aid)
	c.add(aid, rd.Line())
	return nil
}

// finish checks the contexts' arms and moves the rows into context order.
func (pr *poolReader) finish(rd *csvtab.Reader) (*PoolFile, error) {
	file := rd.File
	if len(pr.arms) == 0 {
		return nil, &csvtab.Error{File: file, Msg: "no data rows after the header"}
	}
	K := len(pr.ctxs[0].arms)
	for _, c := range pr.ctxs {
		switch {
		case len(c.arms) < 2:
			return nil, &csvtab.Error{File: file, Line: c.line, Msg: fmt.Sprintf("context %s has 1 arm; every context needs at least 2 arms to form a duel", csvtab.Quote(c.id))}
		case len(c.arms) != K:
			return nil, &csvtab.Error{File: file, Line: c.line, Msg: fmt.Sprintf("context %s has %d arms, but context %s (line %d) has %d; every context needs the same number of arms",
				csvtab.Quote(c.id), len(c.arms), csvtab.Quote(pr.ctxs[0].id), pr.ctxs[0].line, K)}
		}
	}
	d := len(pr.featCols)
	n := len(pr.arms)
	arms := make([]string, n)
	var util []float64
	if pr.util != nil {
		util = make([]float64, n)
	}
	for r, c := range pr.dest {
		to := int(c)*K + int(pr.pos[r])
		pr.dest[r] = int32(to)
		arms[to] = pr.arms[r]
		if util != nil {
			util[to] = pr.util[r]
		}
	}
	var x []float64
	if pr.x.sized {
		x = pr.x.flat[: n*d : n*d]
		permuteRows(x, d, pr.dest)
	} else {
		x = make([]float64, n*d)
		for r, to := range pr.dest {
			copy(x[int(to)*d:(int(to)+1)*d], pr.x.row(r))
		}
	}
	pr.x, pr.dest, pr.pos = rowChunks{}, nil, nil
	pf := &PoolFile{Contexts: make([]string, len(pr.ctxs)), Arms: arms, Utility: util}
	for c, cr := range pr.ctxs {
		pf.Contexts[c] = cr.id
	}
	for _, col := range pr.featCols {
		pf.Features = append(pf.Features, rd.Header[col])
	}
	var err error
	if pf.Pool, err = algorithms.NewPool(len(pr.ctxs), K, d, x); err != nil {
		return nil, &csvtab.Error{File: file, Msg: err.Error()}
	}
	return pf, nil
}
