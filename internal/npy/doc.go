// Package npy reads and writes NumPy's .npy files of float32 and float64
// arrays, mapping the data of a file read-only into memory instead of
// copying it, so that an array larger than the machine's memory can be
// read.
//
// # Format
//
// A .npy file (NumPy's numpy.lib.format, versions 1.0, 2.0 and 3.0) is the
// magic string "\x93NUMPY", the major and minor version bytes, the header's
// length (2 bytes little-endian in version 1.0, 4 bytes in 2.0 and 3.0), the
// header — a Python dictionary literal such as
//
//	{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 8, 1024), }
//
// padded with spaces and a newline so that the data starts at a multiple of
// 64 bytes (16 in files older NumPy versions wrote) — and then the array's
// values, row-major when fortran_order is False. Version 3.0 differs from
// 2.0 only in allowing UTF-8 in the header.
//
// This package accepts descr '<f4' and '<f8' (little-endian float32 and
// float64, what np.save writes on every common machine) in C order, and
// refuses everything else with an error that says how to convert the array
// in NumPy (x.astype('<f4'), np.ascontiguousarray).
//
// # Mapping
//
// Open maps the file read-only (golang.org/x/sys/unix.Mmap on Linux, macOS
// and the BSDs) and returns the values as a []float32 or []float64 that
// aliases the mapping: the operating system reads pages on first use and
// may drop them again under memory pressure, so the array costs address
// space rather than memory. Writing to the slices faults. Where mapping is
// not available, where the data's offset is not aligned for its type, or on
// a big-endian machine, Open reads the values into memory instead
// (Array.Mapped reports which). golang.org/x/exp/mmap is not used: its
// ReaderAt copies on every read and never exposes the mapped bytes as a
// slice, which is what lets a pool be used in place.
//
// The pages of a mapping a process has touched count in its resident set
// size until the kernel takes them back, and on Linux 6.18 with ext4 one
// touched page maps the whole large page-cache folio around it (up to
// megabytes), so that reading a few thousand random rows of a large file
// put most of it there. Two methods keep a mapped array out of the resident
// set: Array.Release hands back the pages of a range once a pass has read
// it (madvise MADV_DONTNEED: the page cache keeps them, the values stay
// valid and are mapped again when read), and Array.ReadValues reads a
// range with pread into a float64 slice, which touches no page of the
// mapping.
//
// # Writing
//
// Write writes a float32 or float64 array exactly as NumPy 1.24's np.save
// does (version 1.0 when the header fits, else 2.0), so tests and tools can
// make .npy files in Go; the tests compare its bytes with files NumPy wrote
// (testdata/gen.py).
package npy
