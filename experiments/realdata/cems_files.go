package realdata

import (
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// CEMSFiles is the CEMSChoice data as the files of a pool of your own
// (package internal/poolfile): "nadb data cems" writes them so that the
// labelling walkthrough of the README needs nothing else.
//
//   - Pool: every student is a context ("s1" … "s303"), the six schools are
//     its arms (London, Paris, Milano, StGallen, Barcelona, Stockholm), and a
//     row's features are the feature map of CEMS (d = 58): the school
//     indicator school_<S>, the student covariates coded ±1 in the school's
//     block <S>_<covariate>_<first level> (+1 for the first level), the
//     school's specialisation spec_<s> and loc_latin (±1). No utility column.
//   - Answers: every recorded answer, in the order of the pairs file; "no
//     preference" is a tie (y = 0.5) and the unrecorded comparisons (NA) are
//     left out.
//   - Display: context,arm,label rows with the question and the student's
//     covariates in words for each context, and the school's name and
//     specialisation for each arm.
type CEMSFiles struct {
	Pool    *poolfile.PoolFile
	Answers *poolfile.Answers
	Display [][3]string // context, arm ("" for the context itself), label
}

// NewCEMSFiles converts the CEMSChoice data in fsys (nil: the shipped copy).
func NewCEMSFiles(fsys fs.FS) (*CEMSFiles, error) {
	d, err := loadData(fsys, shippedCEMS, readCEMS)
	if err != nil {
		return nil, err
	}
	S, K := len(d.Subjects), len(d.Items)
	subs := make([]int, S)
	for s := range subs {
		subs[s] = s
	}
	pf := &poolfile.PoolFile{Contexts: make([]string, S), Arms: make([]string, 0, S*K)}
	for _, item := range d.Items {
		pf.Features = append(pf.Features, "school_"+item)
	}
	for _, item := range d.Items {
		for _, cv := range cemsSubjectCovariates {
			pf.Features = append(pf.Features, item+"_"+cv.name+"_"+cv.plus)
		}
	}
	for _, spec := range cemsSpecializations {
		pf.Features = append(pf.Features, "spec_"+strings.ReplaceAll(spec, " ", "_"))
	}
	pf.Features = append(pf.Features, "loc_"+cemsLocations[0])
	if len(pf.Features) != d.Dim() {
		panic("realdata: CEMS feature names do not match the feature map")
	}
	f := &CEMSFiles{Pool: pf, Answers: poolfile.NewAnswers(S, K)}
	for _, a := range d.All.List { // a copy: d may be the shared shipped data
		f.Answers.Add(a)
	}
	for s, id := range d.Subjects {
		cid := "s" + id
		pf.Contexts[s] = cid
		f.Display = append(f.Display, [3]string{cid, "", d.describeSubject(s)})
		for i, item := range d.Items {
			pf.Arms = append(pf.Arms, item)
			f.Display = append(f.Display, [3]string{cid, item, d.describeItem(i)})
		}
	}
	p, err := algorithms.NewPool(S, K, d.Dim(), d.rows(subs))
	if err != nil {
		return nil, err
	}
	pf.Pool = p
	return f, nil
}

// describeSubject returns the question shown for student s, with the
// student's covariates in words.
func (d *cemsData) describeSubject(s int) string {
	nz := len(cemsSubjectCovariates)
	z := d.Z[s*nz : (s+1)*nz]
	plus := func(k int) bool { return z[k] > 0 }
	level := func(k int) string {
		if plus(k) {
			return cemsSubjectCovariates[k].plus
		}
		return cemsSubjectCovariates[k].minus
	}
	study := "studies commerce"
	if !plus(0) {
		study = "studies another subject than commerce"
	}
	langs := fmt.Sprintf("English %s, French %s, Spanish %s, Italian %s", level(1), level(2), level(3), level(4))
	work := "has a full-time job"
	if !plus(5) {
		work = "no full-time job"
	}
	degree := "intends an international degree"
	if !plus(7) {
		degree = "does not intend an international degree"
	}
	return fmt.Sprintf("Which school would student %s prefer? (%s; %s; %s; %s; %s)",
		d.Subjects[s], study, langs, work, level(6), degree)
}

// describeItem returns the school's name and specialisation.
func (d *cemsData) describeItem(i int) string {
	name := d.Items[i]
	if name == "StGallen" {
		name = "St. Gallen"
	}
	cov := d.ItemCov[i*4 : (i+1)*4]
	for k, spec := range cemsSpecializations {
		if cov[k] == 1 {
			return fmt.Sprintf("%s (%s)", name, spec)
		}
	}
	return name
}

// WritePool writes the pool file.
func (f *CEMSFiles) WritePool(w io.Writer) error { return poolfile.WritePool(w, f.Pool) }

// WriteAnswers writes the answers file.
func (f *CEMSFiles) WriteAnswers(w io.Writer) error {
	return poolfile.WriteAnswers(w, f.Pool, f.Answers)
}

// WriteDisplay writes the display file, context,arm,label.
func (f *CEMSFiles) WriteDisplay(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"context", "arm", "label"})
	for _, r := range f.Display {
		cw.Write(r[:])
	}
	cw.Flush()
	return cw.Error()
}
