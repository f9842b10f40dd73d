package npy

import (
	"encoding/binary"
	"fmt"
	"os"
	"unsafe"
)

// Array is an opened .npy file: its header and its values, which alias the
// file's read-only mapping when Mapped (do not write to them, and do not use
// them after Close).
type Array struct {
	Header
	F32 []float32 // the values when DType is Float32, else nil
	F64 []float64 // the values when DType is Float64, else nil

	mapped []byte // the whole mapping; nil when the values were read
}

// Mapped reports whether the values alias a mapping of the file (else they
// were read into memory).
func (a *Array) Mapped() bool { return a.mapped != nil }

// Close releases the mapping. The values must not be used afterwards.
func (a *Array) Close() error {
	if a.mapped == nil {
		return nil
	}
	m := a.mapped
	a.mapped, a.F32, a.F64 = nil, nil, nil
	return unmap(m)
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
	defer f.Close()
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
		a.mapped = m
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
