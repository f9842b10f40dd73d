package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Magic starts every .npy file.
const Magic = "\x93NUMPY"

// DType is the element type of an array this package reads.
type DType int

// The element types.
const (
	Float32 DType = iota + 1
	Float64
)

// Size returns the bytes of one element.
func (t DType) Size() int {
	if t == Float32 {
		return 4
	}
	return 8
}

// Descr returns NumPy's descr of t ('<f4' or '<f8').
func (t DType) Descr() string {
	if t == Float32 {
		return "<f4"
	}
	return "<f8"
}

func (t DType) String() string {
	switch t {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	}
	return "DType(" + strconv.Itoa(int(t)) + ")"
}

// Header is the header of a .npy file.
type Header struct {
	Major, Minor int   // format version: 1.0, 2.0 or 3.0
	DType        DType // element type
	Shape        []int // dimensions, row-major (C order); () is a scalar
	DataOffset   int64 // bytes before the data: magic, version, length and header
}

// Len returns the number of elements, the product of Shape.
func (h Header) Len() int {
	n := 1
	for _, s := range h.Shape {
		n *= s
	}
	return n
}

// DataBytes returns the size of the data in bytes.
func (h Header) DataBytes() int64 { return int64(h.Len()) * int64(h.DType.Size()) }

// ShapeString writes the shape as NumPy prints it: (2, 3, 4), (5,), ().
func ShapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, s := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(s))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// maxHeader bounds the header length this package reads (NumPy itself
// refuses headers above 10,000 bytes unless told otherwise).
const maxHeader = 1 << 20

// MaxElems bounds the number of elements (and so the product of the shape,
// which must not overflow an int, of 32 bits on a 32-bit platform).
const MaxElems = min(1<<50, math.MaxInt)

// ReadHeader reads the header of a .npy file from r, leaving r at the
// first byte of the data. Errors say what is wrong and what to do.
func ReadHeader(r io.Reader) (Header, error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:8]); err != nil {
		return Header{}, errors.New("not a .npy file: shorter than its magic string and version")
	}
	if string(pre[:6]) != Magic {
		return Header{}, errors.New("not a .npy file (it does not start with \\x93NUMPY): save the array with numpy.save")
	}
	h := Header{Major: int(pre[6]), Minor: int(pre[7])}
	var hlen int
	switch h.Major {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			return Header{}, errors.New("truncated .npy header")
		}
		hlen = int(binary.LittleEndian.Uint16(pre[8:10]))
		h.DataOffset = 10
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return Header{}, errors.New("truncated .npy header")
		}
		hlen = int(binary.LittleEndian.Uint32(l[:]))
		h.DataOffset = 12
	default:
		return Header{}, fmt.Errorf(".npy format version %d.%d is not one of 1.0, 2.0, 3.0: save the array with a NumPy of version 1.x or 2.x", h.Major, h.Minor)
	}
	if h.Minor != 0 {
		return Header{}, fmt.Errorf(".npy format version %d.%d is not one of 1.0, 2.0, 3.0", h.Major, h.Minor)
	}
	if hlen > maxHeader {
		return Header{}, fmt.Errorf(".npy header of %d bytes is too long (at most %d)", hlen, maxHeader)
	}
	text := make([]byte, hlen)
	if _, err := io.ReadFull(r, text); err != nil {
		return Header{}, errors.New("truncated .npy header")
	}
	h.DataOffset += int64(hlen)
	if err := h.parse(string(text), h.Major >= 3); err != nil {
		return Header{}, fmt.Errorf(".npy header %q: %w", strings.TrimRight(string(text), " \n"), err)
	}
	return h, nil
}

// parse reads the header dictionary into h.
func (h *Header) parse(text string, utf8OK bool) error {
	if !utf8OK {
		for _, c := range text {
			if c > unicode.MaxASCII {
				return errors.New("non-ASCII header in format version 1.0 or 2.0")
			}
		}
	}
	p := &lit{s: strings.TrimRight(text, " \n\x00")}
	if !p.eat('{') {
		return errors.New("not a dictionary")
	}
	var descr string
	var fortran, haveD, haveF, haveS bool
	for {
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		if !p.eat(':') {
			return fmt.Errorf("no ':' after key %q", key)
		}
		switch key {
		case "descr":
			descr, err = p.str()
			haveD = true
		case "fortran_order":
			fortran, err = p.boolean()
			haveF = true
		case "shape":
			h.Shape, err = p.tuple()
			haveS = true
		default:
			return fmt.Errorf("unknown key %q (a .npy header has descr, fortran_order and shape)", key)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if !p.eat(',') {
			if !p.eat('}') {
				return errors.New("no ',' or '}' after a value")
			}
			break
		}
	}
	if p.skip(); p.i != len(p.s) {
		return errors.New("text after the dictionary")
	}
	if !haveD || !haveF || !haveS {
		return errors.New("a .npy header needs descr, fortran_order and shape")
	}
	switch descr {
	case "<f4":
		h.DType = Float32
	case "<f8":
		h.DType = Float64
	case ">f4", ">f8":
		return fmt.Errorf("big-endian %s: save it little-endian, for example np.save(path, x.astype('<%s'))", descr, descr[1:])
	default:
		return fmt.Errorf("element type %s is not float32 or float64 ('<f4' or '<f8'): convert it, for example np.save(path, x.astype('<f4'))", descr)
	}
	if fortran {
		return errors.New("the array is in Fortran (column-major) order: save it in C order, for example np.save(path, np.ascontiguousarray(x))")
	}
	n := 1
	for _, s := range h.Shape {
		if s < 0 {
			return fmt.Errorf("negative dimension %d", s)
		}
		if s > 0 && n > MaxElems/s {
			return fmt.Errorf("shape %s has more than %d elements", ShapeString(h.Shape), MaxElems)
		}
		n *= s
	}
	return nil
}

// lit parses the few Python literals of a .npy header.
type lit struct {
	s string
	i int
}

func (p *lit) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *lit) eat(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *lit) str() (string, error) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", errors.New("expected a quoted string")
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", errors.New("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *lit) boolean() (bool, error) {
	p.skip()
	for _, w := range []string{"True", "False"} {
		if strings.HasPrefix(p.s[p.i:], w) {
			p.i += len(w)
			return w == "True", nil
		}
	}
	return false, errors.New("expected True or False")
}

func (p *lit) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, errors.New("expected a tuple")
	}
	shape := []int{}
	for {
		if p.eat(')') {
			return shape, nil
		}
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		// Python 2 wrote long integers with an L suffix.
		v, err := strconv.Atoi(p.s[p.i:j])
		if err != nil {
			return nil, errors.New("expected a dimension")
		}
		p.i = j
		if p.i < len(p.s) && p.s[p.i] == 'L' {
			p.i++
		}
		shape = append(shape, v)
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, errors.New("no ',' or ')' in the shape")
			}
			return shape, nil
		}
	}
}

// Write writes x with the given shape as a .npy file, byte for byte as
// NumPy 1.24's np.save writes it: version 1.0 (2.0 when the header needs
// more than 65,535 bytes), descr '<f4' or '<f8', C order, the header padded
// with spaces to a multiple of 64 bytes.
func Write[T float32 | float64](w io.Writer, shape []int, x []T) error {
	dt := Float64
	var zero T
	if _, ok := any(zero).(float32); ok {
		dt = Float32
	}
	if n := (Header{Shape: shape}).Len(); n != len(x) {
		return fmt.Errorf("npy: %d values for shape %s", len(x), ShapeString(shape))
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	writeHeader(bw, dt, shape)
	writeValues(bw, dt, x)
	return bw.Flush()
}

// WriteBlocks is Write for values that come in float64 blocks (their
// lengths summing to the product of shape), stored as dt: float32 values are
// rounded to nearest.
func WriteBlocks(w io.Writer, shape []int, dt DType, blocks iter.Seq[[]float64]) error {
	want := (Header{Shape: shape}).Len()
	bw := bufio.NewWriterSize(w, 1<<16)
	writeHeader(bw, dt, shape)
	n := 0
	for x := range blocks {
		n += len(x)
		if n > want {
			break
		}
		writeValues(bw, dt, x)
	}
	if n != want {
		return fmt.Errorf("npy: %d values or more for shape %s", n, ShapeString(shape))
	}
	return bw.Flush()
}

// writeHeader writes the magic string, the version, the header's length and
// the header as np.save does.
func writeHeader(bw *bufio.Writer, dt DType, shape []int) {
	head := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", dt.Descr(), ShapeString(shape))
	pre := 10
	if len(head)+1+pre > math.MaxUint16 {
		pre = 12
	}
	pad := (64 - (pre+len(head)+1)%64) % 64
	head += strings.Repeat(" ", pad) + "\n"
	bw.WriteString(Magic)
	if pre == 10 {
		bw.Write([]byte{1, 0})
		binary.Write(bw, binary.LittleEndian, uint16(len(head)))
	} else {
		bw.Write([]byte{2, 0})
		binary.Write(bw, binary.LittleEndian, uint32(len(head)))
	}
	bw.WriteString(head)
}

// writeValues writes x little-endian as dt.
func writeValues[T float32 | float64](bw *bufio.Writer, dt DType, x []T) {
	var buf [8]byte
	for _, v := range x {
		if dt == Float32 {
			binary.LittleEndian.PutUint32(buf[:4], math.Float32bits(float32(v)))
			bw.Write(buf[:4])
		} else {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(float64(v)))
			bw.Write(buf[:])
		}
	}
}

// decode converts little-endian data into a new slice of the header's type.
func decode(h Header, data []byte) (f32 []float32, f64 []float64) {
	n := h.Len()
	if h.DType == Float32 {
		f32 = make([]float32, n)
		for i := range f32 {
			f32[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		return f32, nil
	}
	f64 = make([]float64, n)
	for i := range f64 {
		f64[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return nil, f64
}

// Read reads a whole .npy file from r into memory (no mapping): its header
// and its values as float32 or float64 (the other slice is nil).
func Read(r io.Reader) (Header, []float32, []float64, error) {
	h, err := ReadHeader(r)
	if err != nil {
		return h, nil, nil, err
	}
	var data bytes.Buffer
	if _, err := io.CopyN(&data, r, h.DataBytes()); err != nil {
		return h, nil, nil, fmt.Errorf("the data is shorter than shape %s of %s needs (%d bytes)", ShapeString(h.Shape), h.DType, h.DataBytes())
	}
	if n, _ := io.CopyN(io.Discard, r, 1); n > 0 {
		return h, nil, nil, fmt.Errorf("bytes after the %d of shape %s of %s", h.DataBytes(), ShapeString(h.Shape), h.DType)
	}
	f32, f64 := decode(h, data.Bytes())
	return h, f32, f64, nil
}
