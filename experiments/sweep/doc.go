// Package sweep runs many experiments and turns them into the figures of
// "nadb figures" and "make figures".
//
// A Figure is data: rows of curves (an experiments.Spec each, run for seeds
// 1..Seeds) and the metrics to plot. FigureSpecs is the literal list of every
// figure (the paper's Figures 1–6 and ours); Scale sets their size (Paper,
// Quick, and the Reduced scale of the claims), and the grids of the paper's
// ablations are fields of Scale, defined once for the figures and the claims
// of package verify alike (GridRuns, NetworkRuns, Base).
//
// A Sweep executes the union of the figures' runs on internal/par's workers:
// every run is cached under Cache.Dir by Spec.Key (a hash of the complete
// configuration and experiments.CacheVersion), written atomically, and
// skipped when present, so an interrupted sweep resumes and a cached figure
// re-plots in seconds. A Shard takes a deterministic part of the runs by key,
// for the tasks of a cluster job array. Aggregate turns the runs into means
// with 95% Student-t intervals per checkpoint; Render writes PNG, SVG, PDF, the
// plotted numbers as CSV and a manifest; a figure's Tables hook adds tables
// (the real-data summaries, SummaryAt).
//
// How things look is decided here, not in the drawing package
// (internal/plotfig): every algorithm's legend name and line style
// (DisplayName, StyleFor) and every metric's panel title and axis label
// (MetricLabel).
package sweep
