package npy

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"sync"
	"unsafe"
)

// Array is an opened .npy file: its header and its values, which alias the
// file's read-only mapping when Mapped (do not write to them, and do not use
// them after Close).
type Array struct {
	Header
	F32 []float32 // the values when DType is Float32, else nil
	F64 []float64 // the values when DType is Float64, else nil

	mapped []byte   // the whole mapping; nil when the values were read
	file   *os.File // the mapped file, open for ReadValues; nil when the values were read
}

// Mapped reports whether the values alias a mapping of the file (else they
// were read into memory).
func (a *Array) Mapped() bool { return a.mapped != nil }

// Close releases the mapping. The values must not be used afterwards.
func (a *Array) Close() error {
	if a.mapped == nil {
		return nil
	}
	m, f := a.mapped, a.file
	a.mapped, a.file, a.F32, a.F64 = nil, nil, nil, nil
	err := unmap(m)
	if f != nil {
		f.Close()
	}
	return err
}

// readChunk is the bytes ReadValues reads at a time, into a buffer of
// readBufs.
const readChunk = 256 << 10

var readBufs = sync.Pool{New: func() any { b := make([]byte, readChunk); return &b }}

// ReadValues reads the values lo … hi−1 (indices into F32 or F64) from the
// mapped file with pread rather than through the mapping, converted to
// float64 (exactly) into dst (hi − lo values), and reports whether it could;
// false when the values were read into memory, the range is invalid or the
// read failed (the caller then reads F32 or F64). Values read this way put
// no page into the process's resident set (only into the page cache), and
// ReadValues may be called concurrently.
func (a *Array) ReadValues(dst []float64, lo, hi int) bool {
	if a.file == nil || lo < 0 || hi > a.Len() || lo > hi || len(dst) < hi-lo {
		return false
	}
	size := a.DType.Size()
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	per := len(buf) / size
	for i := lo; i < hi; i += per {
		n := min(per, hi-i)
		b := buf[:n*size]
		if _, err := a.file.ReadAt(b, a.DataOffset+int64(i)*int64(size)); err != nil {
			return false
		}
		out := dst[i-lo : i-lo+n]
		if a.DType == Float32 {
			for k := range out {
				out[k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
			}
		} else {
			for k := range out {
				out[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
			}
		}
	}
	return true
}

// Release lets the operating system drop the pages of the mapped values
// lo … hi−1 (indices into F32 or F64) from the process's memory: the
// whole pages inside that range leave the resident set at once, and
// reading them again maps them again from the page cache or the file, with
// the same values. A pass over the whole array (checking its values)
// releases each block it has read, so that the pages it touched do not
// count as the process's memory for the rest of the run. It does nothing
// when the values were read into memory, and it is only advice: the values
// stay valid.
func (a *Array) Release(lo, hi int) error {
	lo = max(lo, 0)
	if a.mapped == nil || lo >= hi {
		return nil
	}
	size := int64(a.DType.Size())
	page := int64(os.Getpagesize())
	start := a.DataOffset + int64(lo)*size
	end := a.DataOffset + int64(hi)*size
	start = (start + page - 1) / page * page // pages wholly inside the range only:
	end = end / page * page                  // a neighbour's page stays
	if end > int64(len(a.mapped)) {
		end = int64(len(a.mapped)) / page * page
	}
	if start >= end {
		return nil
	}
	return release(a.mapped[start:end])
}

// littleEndian reports whether this machine stores numbers little-endian,
// as the data of the files this package reads is.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Open opens the .npy file at path: it reads the header and maps the data
// read-only (see the package documentation), or reads it into memory where
// mapping is not possible. Errors name the file.
func Open(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	keep := false // the file stays open with its mapping (ReadValues)
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	fail := func(err error) (*Array, error) { return nil, fmt.Errorf("%s: %w", path, err) }
	h, err := ReadHeader(f)
	if err != nil {
		return fail(err)
	}
	st, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	switch size, want := st.Size(), h.DataOffset+h.DataBytes(); {
	case size < want:
		return fail(fmt.Errorf("the file has %d bytes, but its shape %s of %s needs %d: the file is truncated", size, ShapeString(h.Shape), h.DType, want))
	case size > want:
		return fail(fmt.Errorf("the file has %d bytes, %d more than its shape %s of %s needs: it is not a single .npy array (np.savez writes .npz archives; save each array with np.save)", size, size-want, ShapeString(h.Shape), h.DType))
	}
	a := &Array{Header: h}
	n := h.Len()
	if n == 0 {
		if h.DType == Float32 {
			a.F32 = []float32{}
		} else {
			a.F64 = []float64{}
		}
		return a, nil
	}
	aligned := h.DataOffset%int64(h.DType.Size()) == 0
	if canMap && aligned && littleEndian {
		m, err := mapFile(f, h.DataOffset+h.DataBytes())
		if err != nil {
			return fail(fmt.Errorf("mapping the file: %w", err))
		}
		a.mapped, a.file, keep = m, f, true
		p := unsafe.Pointer(&m[h.DataOffset])
		if h.DType == Float32 {
			a.F32 = unsafe.Slice((*float32)(p), n)
		} else {
			a.F64 = unsafe.Slice((*float64)(p), n)
		}
		return a, nil
	}
	data := make([]byte, h.DataBytes())
	if _, err := f.ReadAt(data, h.DataOffset); err != nil {
		return fail(err)
	}
	a.F32, a.F64 = decode(h, data)
	return a, nil
}
