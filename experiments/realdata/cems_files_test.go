package realdata

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"testing"

	"github.com/neural-adb/nadb/algorithms"
	"github.com/neural-adb/nadb/internal/poolfile"
)

// TestCEMSFiles writes the CEMSChoice files, reads them back with the pool
// file readers and checks their shapes, the answers (ties kept, NA left
// out), the display rows, and that every student of the benchmark's pool has
// the same feature rows in the pool file.
func TestCEMSFiles(t *testing.T) {
	f, err := NewCEMSFiles(nil)
	if err != nil {
		t.Fatal(err)
	}
	var pb, ab, db bytes.Buffer
	if err := f.WritePool(&pb); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteAnswers(&ab); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteDisplay(&db); err != nil {
		t.Fatal(err)
	}
	pf, err := poolfile.ReadPool(&pb, "pool.csv")
	if err != nil {
		t.Fatal(err)
	}
	p := pf.Pool
	if p.Contexts != 303 || p.Arms != 6 || p.Dim != 58 || len(pf.Features) != 58 {
		t.Fatalf("pool has %d contexts × %d arms × %d features (%d names), want 303 × 6 × 58", p.Contexts, p.Arms, p.Dim, len(pf.Features))
	}
	if !p.Equal(f.Pool.Pool) || !slices.Equal(pf.Arms[:6], []string{"London", "Paris", "Milano", "StGallen", "Barcelona", "Stockholm"}) {
		t.Errorf("pool read back differs; arms of the first student %v", pf.Arms[:6])
	}
	ans, err := pf.ReadAnswers(&ab, "answers.csv")
	if err != nil {
		t.Fatal(err)
	}
	ties := len(ans.List) - len(ans.Strict())
	if len(ans.List) != 4545-91 || ties != 487 {
		t.Errorf("%d answers with %d ties, want %d with 487 (the pairs file less its 91 NA)", len(ans.List), ties, 4545-91)
	}
	rows, err := csv.NewReader(&db).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+303*7 || !slices.Equal(rows[0], []string{"context", "arm", "label"}) {
		t.Fatalf("display has %d rows, header %v; want 1 + 303 × 7 and context,arm,label", len(rows), rows[0])
	}
	if got := rows[1+1+3]; got[0] != "s1" || got[1] != "StGallen" || got[2] != "St. Gallen (finance)" {
		t.Errorf("display row %v, want s1,StGallen,St. Gallen (finance)", got)
	}

	// The benchmark's pool (a random split) is made of the same rows.
	prob, err := CEMS{}.New(1)
	if err != nil {
		t.Fatal(err)
	}
	block := func(p *algorithms.Pool, c int) string { return fmt.Sprint(p.RowsTo(nil, p.Row(c, 0), p.Row(c+1, 0))) }
	have := map[string]bool{}
	for c := range p.Contexts {
		have[block(p, c)] = true
	}
	for c := range prob.Pool.Contexts {
		if !have[block(prob.Pool, c)] {
			t.Fatalf("context %d of the cems benchmark has rows that are not in the pool file", c)
		}
	}
}
