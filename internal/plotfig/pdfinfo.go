package plotfig

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"gonum.org/v1/plot/vg"
)

// PDFInfo is what a one-page PDF written by Render sets: its page size and
// the size of every run of text it sets as text (mathematics and non-ASCII
// text are outlines in PDF, their sizes those of the text around them).
type PDFInfo struct {
	Width, Height vg.Length
	FontSizes     []float64 // points, in order of appearance
}

var (
	pdfMediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)
	pdfContents = regexp.MustCompile(`/Contents (\d+) 0 R`)
	pdfLength   = regexp.MustCompile(`/Length (\d+)`)
	pdfFontSize = regexp.MustCompile(`/[^\s/]+ ([0-9.]+) Tf`)
)

// ReadPDFInfo reads the page size and the text sizes of a PDF that Render
// wrote (one page, its content stream compressed or not). It is not a
// general PDF reader: it is how tests check what a printed figure sets.
func ReadPDFInfo(data []byte) (PDFInfo, error) {
	var info PDFInfo
	m := pdfMediaBox.FindSubmatch(data)
	if m == nil {
		return info, fmt.Errorf("plotfig: PDF has no /MediaBox")
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	h, _ := strconv.ParseFloat(string(m[2]), 64)
	info.Width, info.Height = vg.Points(w), vg.Points(h)
	for _, c := range pdfContents.FindAllSubmatch(data, -1) {
		head := []byte("\n" + string(c[1]) + " 0 obj\n")
		_, obj, ok := bytes.Cut(data, head)
		if !ok {
			return info, fmt.Errorf("plotfig: PDF has no object %s", c[1])
		}
		s := bytes.Index(obj, []byte("stream\n"))
		if s < 0 {
			return info, fmt.Errorf("plotfig: PDF object %s has no stream", c[1])
		}
		dict := obj[:s]
		lm := pdfLength.FindSubmatch(dict)
		if lm == nil {
			return info, fmt.Errorf("plotfig: PDF object %s has no /Length", c[1])
		}
		n, _ := strconv.Atoi(string(lm[1]))
		if s+len("stream\n")+n > len(obj) {
			return info, fmt.Errorf("plotfig: PDF object %s is truncated", c[1])
		}
		stream := obj[s+len("stream\n") : s+len("stream\n")+n]
		if bytes.Contains(dict, []byte("/FlateDecode")) {
			r, err := zlib.NewReader(bytes.NewReader(stream))
			if err != nil {
				return info, fmt.Errorf("plotfig: PDF object %s: %w", c[1], err)
			}
			if stream, err = io.ReadAll(r); err != nil {
				return info, fmt.Errorf("plotfig: PDF object %s: %w", c[1], err)
			}
		}
		for _, f := range pdfFontSize.FindAllSubmatch(stream, -1) {
			v, err := strconv.ParseFloat(string(f[1]), 64)
			if err != nil {
				return info, err
			}
			info.FontSizes = append(info.FontSizes, v)
		}
	}
	return info, nil
}
