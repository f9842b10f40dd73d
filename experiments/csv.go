package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// WriteCSV writes the result's checkpoints under the Columns header followed by
// its extra columns. Numbers use the shortest representation that round-trips,
// so equal results give equal bytes (elapsed_s aside).
func WriteCSV(w io.Writer, res *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append(slices.Clone(Columns), res.ExtraColumns...)); err != nil {
		return err
	}
	cps := res.Checkpoints
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, cp := range cps {
		rec := []string{strconv.Itoa(cp.T), f(cp.WorstGap), f(cp.MeanGap), f(cp.QueriedGap), f(cp.AvgRegret),
			strconv.Itoa(cp.Distinct), strconv.FormatFloat(cp.Elapsed, 'f', 3, 64), f(cp.TopShare)}
		for _, x := range cp.Extra {
			rec = append(rec, f(x))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV parses the output of WriteCSV: the standard columns in order,
// then any extra columns, whose names it returns.
func ReadCSV(r io.Reader) ([]Checkpoint, []string, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("reading header: %w", err)
	}
	if len(header) < len(Columns) {
		return nil, nil, fmt.Errorf("header has %d columns, want at least %d (%s)", len(header), len(Columns), strings.Join(Columns, ","))
	}
	for i, c := range Columns {
		if header[i] != c {
			return nil, nil, fmt.Errorf("column %d is %q, want %q", i+1, header[i], c)
		}
	}
	var extra []string
	if len(header) > len(Columns) {
		extra = header[len(Columns):]
	}
	var cps []Checkpoint
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		num := func(col int) float64 {
			if err != nil {
				return math.NaN()
			}
			var v float64
			v, err = strconv.ParseFloat(rec[col], 64)
			if err != nil {
				err = fmt.Errorf("line %d, column %s: %q is not a number", line, header[col], rec[col])
			}
			return v
		}
		cp := Checkpoint{T: int(num(0)), WorstGap: num(1), MeanGap: num(2), QueriedGap: num(3), AvgRegret: num(4),
			Distinct: int(num(5)), Elapsed: num(6), TopShare: num(7)}
		for k := range extra {
			cp.Extra = append(cp.Extra, num(len(Columns)+k))
		}
		if err != nil {
			return nil, nil, err
		}
		cps = append(cps, cp)
	}
	return cps, extra, nil
}
