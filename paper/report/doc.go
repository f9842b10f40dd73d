// Package report generates the LaTeX of the reproduction report
// (paper/report.tex) from the committed results, so that no number of the
// report is typed by hand: "nadb paper" writes paper/generated/*.tex and
// "make paper" builds paper/report.pdf with latexmk.
//
// # Inputs and outputs
//
//	the CSV of every figure of sweep.FigureSpecs    figure-<id>.tex (the figure and its caption),
//	  (figures/<id>.csv or figures/<dir>/<id>.csv)    print-<id>-<k>.pdf (its print layout, print.go),
//	                                                 final-<id>.tex (final values per row of panels)
//	the claims CSV that make verify writes beside    verdict.tex (page 1), claims.tex, claims-full.tex
//	  figures/claims.md (verify.WriteCSV)
//	algorithms.Fields                                config.tex (every open reading, default, source)
//	figures/lockon/main.csv, figures/lockon/seeds30,  lockon-main.tex, lockon-seeds30.tex,
//	  sensitivity.csv and mechanism.csv                lockon-sensitivity.tex
//	figures/realdata/*-summary.{md,csv}              realdata-cems.tex, realdata-shuttle.tex
//	figures/theory/*.csv, counterexample.txt         theory-verdicts.tex, theory-counterexample.tex
//	sweep.FigureSpecs                                reproduce.tex (one command per figure)
//	figures/speed.md (make speed)                    runtime.tex
//	experiments/sweep/costs.csv (make figure-costs)  the costs/ macros
//	all of the above                                 macros.tex, pending.tex
//
// An input that does not exist yet (a figure whose runs have not been made,
// the claims CSV before make verify) is not an error: the files that need it
// hold \nadbplaceholder{…} naming the file and the command that makes it,
// and pending.tex lists it for the title page. A malformed input, or text
// with a character that has no LaTeX spelling (Escape), is an error that
// names the file.
//
// # Numbers in the prose
//
// The prose cites every number through \nadb{key}; macros.tex defines the
// keys with \nadbdef, and an undefined key prints a visible placeholder
// (the preamble of paper/report.tex), so that a number whose input is
// missing shows as such instead of stopping the build. Keys:
//
//	\nadb{fig/ID/ROW/CURVE/METRIC}      final mean ± 95% half-width (its /mean, and /t0 the first checkpoint's mean)
//	\nadb{fig/ID/T}, \nadb{fig/ID/seeds} the final checkpoint and the number of seeds
//	\nadb{claim/ID/verdict}, \nadb{claim/ID/result}
//	\nadb{config/FIELD/default}
//	\nadb{scale/NAME/X}                 NAME paper or reduced; X one of seeds, T, d, K, contexts,
//	                                    width, depth, p, freshM, candidates
//	\nadb{lockon/TABLE/PROBLEM/ALGO/COLUMN}   TABLE main or seeds30: mean ± CI where the CSV has
//	                                    COLUMN_ci (and /mean); p-values also as /rel ("= 0.031", "< 10^{-4}")
//	\nadb{lockon/TABLE/calibration/COLUMN/min} (and /max) over the rule as written
//	\nadb{lockon/mechanism/runs}, \nadb{lockon/mechanism/never_queried}, \nadb{lockon/mechanism/COLUMN/min} (/max)
//	\nadb{lockon/sensitivity/READING/PROBLEM/COLUMN}   READING = Slug of the reading (nu=100 → nu-100)
//	\nadb{real/NAME/ALGO/METRIC}, \nadb{real/NAME/T}, \nadb{real/NAME/ref/REFERENCE/COLUMN}
//	\nadb{theory/effdim/ALGO/COLUMN}, \nadb{theory/kappa/PROBLEM/COLUMN}, \nadb{theory/theorem1/GENERATOR/CLAIM}
//	\nadb{theory/figure/theorem1/seeds}, \nadb{theory/figure/effdim/seeds}   the seeds behind the theory figures
//	\nadb{theory/counterexample/BLOCK/X}  X one of d, T, bound, maxnorm, all-from, sequences, mstar,
//	                                    mstar-T; and .../T=N/mstar; lambda, L and delta of the checks
//	\nadb{speed/ALGO/cpu}, \nadb{speed/ALGO/mb}   a row of figures/speed.md; /per-randctx its CPU time
//	                                    over neural-adb-ucb-randctx's (one decimal), and
//	                                    \nadb{speed/neural-adb-plus/bar} "within" or "more than" our bar of 3×
//	\nadb{costs/FIGURE/ALGO/PROBLEM/mM/cpu}  seconds of CPU of seed 1 of that configuration
//	                                    (M candidates per round, 0: the fixed pool), from
//	                                    experiments/sweep/costs.csv where one row describes it
//
// ROW is Slug of the row title ("Square" → square), CURVE the algorithm a
// curve label names (sweep.DisplayName) or Slug of the label ("d=5" → d-5),
// METRIC and COLUMN as in the CSV. Numbers are formatted by Num (three
// significant digits), PM (the half-width to two significant digits, the
// mean to the same decimal place) and P (p-values).
//
// # Reproducibility
//
// Generate depends only on the committed files and the code (maps are
// written in sorted order), so equal inputs give equal bytes; the test of
// this package fails when paper/generated differs from what Generate makes
// of the committed inputs (go test ./paper/report -update rewrites it).
package report
