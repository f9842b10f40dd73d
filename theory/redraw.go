package theory

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/neural-adb/nadb/internal/csvtab"
)

// Redraw draws the figures of the outputs that Write wrote into dir again
// from its tables (theorem1.csv, effective_dimension.csv and the δ and p of
// summary.md) and returns the paths written, so that a change to how the
// figures look needs no re-run: RunCached redraws its cached outputs this
// way. Equal tables give equal bytes.
func Redraw(dir string) ([]string, error) {
	r, err := readFigureResults(dir)
	if err != nil {
		return nil, err
	}
	return r.writeFigures(dir)
}

var (
	summaryDelta = regexp.MustCompile(`(?m)^## Theorem 1: .*δ = ([0-9.eE+-]+),`)
	summaryP     = regexp.MustCompile(`(?m)^## Paper scale: .*\(p = (\d+)\)`)
)

// readFigureResults reads back what the figures show: the Theorem 1 points
// of every generator (one report, generators in the file's order) and the
// paper-scale points.
func readFigureResults(dir string) (*Results, error) {
	summary, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		return nil, fmt.Errorf("theory: %w (nadb theory writes it)", err)
	}
	r := &Results{}
	rep, err := readTheorem1CSV(filepath.Join(dir, "theorem1.csv"))
	if err != nil {
		return nil, err
	}
	if rep != nil {
		m := summaryDelta.FindSubmatch(summary)
		if m == nil {
			return nil, fmt.Errorf("theory: %s: no δ in a \"## Theorem 1:\" heading", filepath.Join(dir, "summary.md"))
		}
		if rep.Options.Delta, err = strconv.ParseFloat(string(m[1]), 64); err != nil {
			return nil, fmt.Errorf("theory: %s: δ %q: %w", filepath.Join(dir, "summary.md"), m[1], err)
		}
		r.Synthetic = rep
	}
	pr, err := readPaperCSV(filepath.Join(dir, "effective_dimension.csv"))
	if err != nil {
		return nil, err
	}
	if pr != nil {
		m := summaryP.FindSubmatch(summary)
		if m == nil {
			return nil, fmt.Errorf("theory: %s: no (p = …) in a \"## Paper scale:\" heading", filepath.Join(dir, "summary.md"))
		}
		pr.P, _ = strconv.Atoi(string(m[1]))
		r.Paper = pr
	}
	return r, nil
}

// readTable reads a CSV of dir, or nil if it is missing or empty.
func readTable(path string) (*csvtab.Table, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(bytes.TrimSpace(data)) == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return csvtab.Read(bytes.NewReader(data), path)
}

// readBound reads a Bound as Bound.String wrote it.
func readBound(t *csvtab.Table, row, col int) (Bound, error) {
	if t.Rows[row][col] == "undefined" {
		return Bound{}, nil
	}
	v, err := t.Float(row, col)
	return Bound{Value: v, Defined: err == nil}, err
}

// atoi reads an integer field.
func atoi(t *csvtab.Table, row, col int) (int, error) {
	v, err := strconv.Atoi(t.Rows[row][col])
	if err != nil {
		return 0, t.ErrAt(row, col, "%q is not an integer", t.Rows[row][col])
	}
	return v, nil
}

func readTheorem1CSV(path string) (*Theorem1Report, error) {
	t, err := readTable(path)
	if t == nil || err != nil {
		return nil, err
	}
	names := []string{"generator", "dim", "T", "seeds", "max_norm_mean", "max_norm_ci", "max_norm_ball_mean"}
	for _, c := range Claims {
		names = append(names, c.String()+"_bound", c.String()+"_defined", c.String()+"_violation_freq")
	}
	col, err := t.Require(names...)
	if err != nil {
		return nil, err
	}
	rep := &Theorem1Report{}
	for i := range t.Rows {
		var p Theorem1Point
		var dim int
		errs := make([]error, 0, 8+3*len(Claims))
		var e error
		p.Generator, e = t.ID(i, col[0])
		errs = append(errs, e)
		dim, e = atoi(t, i, col[1])
		errs = append(errs, e)
		p.T, e = atoi(t, i, col[2])
		errs = append(errs, e)
		p.N, e = atoi(t, i, col[3])
		errs = append(errs, e)
		p.MaxNorm, e = t.Float(i, col[4])
		errs = append(errs, e)
		p.MaxNormHalf, e = t.Float(i, col[5])
		errs = append(errs, e)
		p.MaxNormBall, e = t.Float(i, col[6])
		errs = append(errs, e)
		for k, c := range Claims {
			cp := &p.Claims[c]
			cp.Bound, e = readBound(t, i, col[7+3*k])
			errs = append(errs, e)
			cp.Defined, e = atoi(t, i, col[8+3*k])
			errs = append(errs, e)
			cp.Freq, e = t.Float(i, col[9+3*k])
			errs = append(errs, e)
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		if n := len(rep.Generators); n == 0 || rep.Generators[n-1].Name != p.Generator {
			rep.Generators = append(rep.Generators, GeneratorSummary{Name: p.Generator, Dim: dim})
		}
		rep.Points = append(rep.Points, p)
	}
	return rep, nil
}

func readPaperCSV(path string) (*PaperScaleReport, error) {
	t, err := readTable(path)
	if t == nil || err != nil {
		return nil, err
	}
	col, err := t.Require("algorithm", "T", "seeds", "d_tilde", "d_tilde_ci", "brief_bound", "pairs_bound", "max_norm_pool", "max_norm_pool_ci", "literal_bound_L2I")
	if err != nil {
		return nil, err
	}
	pr := &PaperScaleReport{}
	for i := range t.Rows {
		var p PaperScalePoint
		var e [10]error
		p.Algorithm, e[0] = t.ID(i, col[0])
		p.T, e[1] = atoi(t, i, col[1])
		p.N, e[2] = atoi(t, i, col[2])
		p.DTilde, e[3] = t.Float(i, col[3])
		p.DTildeHalf, e[4] = t.Float(i, col[4])
		p.BriefBound, e[5] = t.Float(i, col[5])
		p.PairsBound, e[6] = t.Float(i, col[6])
		p.MaxNorm, e[7] = t.Float(i, col[7])
		p.MaxNormHalf, e[8] = t.Float(i, col[8])
		p.Literal, e[9] = readBound(t, i, col[9])
		if err := errors.Join(e[:]...); err != nil {
			return nil, err
		}
		if !slices.Contains(pr.Options.Algorithms, p.Algorithm) {
			pr.Options.Algorithms = append(pr.Options.Algorithms, p.Algorithm)
		}
		pr.Points = append(pr.Points, p)
	}
	return pr, nil
}
