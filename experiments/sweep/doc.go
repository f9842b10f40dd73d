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
// re-plots in seconds. Runs of one trajectory (experiments.Spec.TrajectoryKey:
// the same run with two checkpoint periods, one a multiple of the other, or
// the passive twins of two learners with one model) are run once, the
// others read off it (experiments.Thin). A Shard takes a deterministic part of the runs
// by trajectory key, for the tasks of a cluster job array. The cache also records the
// processor time of every run (its thread's user + sys time); the cost table
// costs.csv (Costs, CostKey), written from those times by nadb figures
// -costs, gives the expected processor time of every configuration: nadb
// figures -list prints it per figure, a sweep starts the most expensive runs
// of each group (figure) first, and the progress display's ETA weighs the
// runs by it. Aggregate turns the runs into means with 95% Student-t
// intervals per checkpoint; Render writes PNG, SVG, PDF, the plotted numbers
// as CSV and a manifest; a figure's Tables hook adds tables (the real-data
// summaries, SummaryAt). The runs go figure by figure in the order of the
// list (RunOrder: the paper's figures first), and a Drawer draws each figure
// as soon as its runs are done (Sweep.OnGroup), so the first figures can be
// read long before the sweep ends and an interrupted sweep keeps them.
//
// How things look is decided here, not in the drawing package
// (internal/plotfig): every algorithm's legend name and style, a colour,
// dash pattern and marker fixed across figures (DisplayName, StyleFor), the
// algorithm families that split crowded rows into rows of panels (Families,
// Figure.ByFamily), every metric's panel title, axis label and tick kind
// (MetricLabel, IsCount), and reference levels per metric
// (Figure.References). Table.Plot marks figures built at any scale but
// Paper with a title and a watermark; ReadCSV re-plots a figure from its
// committed CSV without its runs.
package sweep
