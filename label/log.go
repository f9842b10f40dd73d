package label

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// LogName is the answer log's file name inside the log directory.
const LogName = "answers.jsonl"

// TornName is the file, next to the log, that keeps the bytes of torn last
// lines removed from the log.
const TornName = "answers.jsonl.torn"

// Repair reports a torn or corrupt last line of a log.
type Repair struct {
	File   string // the log's path
	Line   int    // its line number, from 1
	Bytes  int    // its length, newline included if any
	Reason string // what is wrong with it
	Kept   string // the file its bytes were saved to; empty when not removed
}

func (r *Repair) String() string {
	s := fmt.Sprintf("label: %s line %d: torn or corrupt last line (%s), %d bytes ignored", r.File, r.Line, r.Reason, r.Bytes)
	if r.Kept != "" {
		s += "; removed from the log and saved to " + r.Kept
	}
	return s
}

// ReadLog reads the events of the answer log in dir without changing it. A
// torn or corrupt last line is left out and reported by a non-nil Repair; a
// bad line anywhere else is an error naming the file and line. A missing log
// has no events.
func ReadLog(dir string) ([]Event, *Repair, error) {
	path := filepath.Join(dir, LogName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("label: %v", err)
	}
	events, _, rep, err := parseLog(path, data)
	return events, rep, err
}

// parseLog parses the log's bytes. It returns the events of the good lines,
// their length in bytes, and a Repair when the last line is bad.
func parseLog(path string, data []byte) ([]Event, int64, *Repair, error) {
	var events []Event
	var off int64
	for line := 1; len(data) > 0; line++ {
		end := bytes.IndexByte(data, '\n')
		last := end < 0 || end == len(data)-1
		var text []byte
		var err error
		if end < 0 {
			text, err = data, errors.New("no newline at its end")
		} else {
			text = data[:end]
		}
		var e Event
		if err == nil {
			e, err = unmarshal(text)
		}
		if err == nil && e.Seq != int64(line) {
			err = fmt.Errorf("sequence number %d; expected %d (a line is missing or repeated)", e.Seq, line)
		}
		if err != nil {
			if last {
				return events, off, &Repair{File: path, Line: line, Bytes: len(data), Reason: err.Error()}, nil
			}
			return nil, 0, nil, fmt.Errorf("label: %s line %d: %v; the log is corrupt before its end (repair or remove the line by hand)", path, line, err)
		}
		events = append(events, e)
		off += int64(end + 1)
		data = data[end+1:]
	}
	return events, off, nil, nil
}

// Log is an append-only answer log open for writing. It is not safe for
// concurrent use.
type Log struct {
	path   string
	f      *os.File
	size   int64
	seq    int64
	broken error
}

// openLog opens or creates the log in dir, locks it against other
// processes, reads its events and removes a torn or corrupt last line
// (saving its bytes to TornName).
func openLog(dir string) (*Log, []Event, *Repair, error) {
	if dir == "" {
		return nil, nil, nil, errors.New("label: no log directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, nil, fmt.Errorf("label: log directory: %v", err)
	}
	path := filepath.Join(dir, LogName)
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("label: %v", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("label: %s is in use by another process: %v", path, err)
	}
	if errors.Is(statErr, os.ErrNotExist) {
		if err := syncDir(dir); err != nil {
			f.Close()
			return nil, nil, nil, err
		}
	}
	fail := func(err error) (*Log, []Event, *Repair, error) {
		f.Close()
		return nil, nil, nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail(fmt.Errorf("label: %v", err))
	}
	events, good, rep, err := parseLog(path, data)
	if err != nil {
		return fail(err)
	}
	if rep != nil {
		rep.Kept = filepath.Join(dir, TornName)
		if err := saveTorn(rep.Kept, data[good:]); err != nil {
			return fail(err)
		}
		if err := f.Truncate(good); err != nil {
			return fail(fmt.Errorf("label: removing the torn last line of %s: %v", path, err))
		}
		if err := f.Sync(); err != nil {
			return fail(fmt.Errorf("label: %v", err))
		}
	}
	if _, err := f.Seek(good, 0); err != nil {
		return fail(fmt.Errorf("label: %v", err))
	}
	return &Log{path: path, f: f, size: good, seq: int64(len(events))}, events, rep, nil
}

// saveTorn appends b and a newline to the file path and syncs it.
func saveTorn(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("label: saving the torn last line: %v", err)
	}
	_, err = f.Write(append(bytes.TrimRight(b, "\n"), '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("label: saving the torn last line: %v", err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("label: %v", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("label: syncing %s: %v", dir, err)
	}
	return nil
}

// append numbers e as the next line, writes it and syncs the file to disk.
// After a failed write the log truncates the partial line; if that fails
// too, every later append fails.
func (l *Log) append(e *Event) error {
	if l.broken != nil {
		return l.broken
	}
	e.Seq = l.seq + 1
	line := e.marshal()
	_, err := l.f.Write(line)
	if err == nil {
		err = l.f.Sync()
	}
	if err != nil {
		err = fmt.Errorf("label: appending to %s: %v", l.path, err)
		if terr := l.f.Truncate(l.size); terr != nil {
			l.broken = fmt.Errorf("%v; the log may end with a partial line and takes no more answers", err)
			return l.broken
		}
		if _, serr := l.f.Seek(l.size, 0); serr != nil {
			l.broken = fmt.Errorf("%v; the log takes no more answers", err)
			return l.broken
		}
		return err
	}
	l.size += int64(len(line))
	l.seq++
	return nil
}

// close releases the log.
func (l *Log) close() error { return l.f.Close() }
