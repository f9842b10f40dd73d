# Reproducible builds: no FMA fusion (GOAMD64=v1), no VCS stamping (added to
# the caller's GOFLAGS, not replacing them).
export GOAMD64 := v1
export GOFLAGS := $(strip $(GOFLAGS) -buildvcs=false)
GO ?= go
# goimports, pinned: run through the module proxy, never a dependency of go.mod.
GOIMPORTS := $(GO) run golang.org/x/tools/cmd/goimports@v0.52.0

.PHONY: all claims claims-reduced test figure-costs fmt-check imports-check vet fix-check unit test-processor test-readme test-browser test-slurm bench speed target-costs nadb figures figures-quick verify verify-merge paper clean-cache clean

all: test

## test: format and import-grouping checks, vet, modernizer check and every unit test (processor time, user + sys, measured on the project's shared 2-core machine at load 7-15: about 92 s for the tests of every package but verify, with their builds, and about 115 s for the reduced claims of go test ./verify)
test: fmt-check imports-check vet fix-check unit

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## imports-check: imports in three groups (standard library, third party, this module), as goimports -local writes them
imports-check:
	@out=$$($(GOIMPORTS) -local github.com/neural-adb/nadb -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "goimports -local github.com/neural-adb/nadb would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

fix-check:
	@out=$$($(GO) fix -diff ./... 2>&1); \
	if [ -n "$$out" ]; then echo "go fix would change:"; echo "$$out"; exit 1; fi

unit:
	$(GO) test -count=1 ./...

## test-processor: runs on an amd64 processor without FMA, emulated with GODEBUG (math.Exp off its fused path, the matrix kernels' pure-Go twins with math.FMA in software), must be the same bytes as here; and internal/xmath on that path (not part of make test: about 15 s)
test-processor:
	NADB_TEST_PROCESSOR_GODEBUG=cpu.fma=off,cpu.avx2=off,cpu.avx512f=off $(GO) test -count=1 -run '^TestProcessorIndependent$$' ./experiments
	GODEBUG=cpu.fma=off,cpu.avx2=off,cpu.avx512f=off $(GO) test -count=1 ./internal/xmath

## test-readme: every command of README.md's shell blocks that is not a paper-scale sweep, run in a temporary clone with small budgets, checking that git status stays clean (not part of make test)
test-readme:
	NADB_README_COMMANDS=1 $(GO) test -count=1 -timeout 90m -run '^(TestREADMECommands|TestLabelWalkthrough)$$' -v ./cmd/nadb

## test-browser: the headless Chromium test of the labelling page (installs chromium and chromium-driver when missing; screenshots in bin/label-shots/)
test-browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }
	LABEL_SCREENSHOT_DIR=$(CURDIR)/bin/label-shots $(GO) test -count=1 -run '^TestBrowser' -v ./label

## test-slurm: the Slurm recipe .ci/slurm/figures.sbatch on a one-node cluster started on this machine (root; installs slurm-wlm, munge, jq when missing)
test-slurm:
	bash .ci/slurm/test.sh

## bench: every benchmark, one core and two (compare runs with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x -cpu 1,2 ./...

## speed: one paper-scale run of every algorithm on one core, three rounds interleaved: median processor time (user + sys), peak memory, and the arithmetic floor of the run's matrix products at the core's measured fp64 peak (GNU time, gemm BenchmarkPeak) → figures/speed.md
SPEED_ALGOS := neural-adb-ucb neural-adb-ts neural-adb-ucb-randctx neural-adb-tsctx-ucb neural-adb-lookahead-ucb neural-adb-plus neural-adb-target random-nn random apo ae-borda ae-dpo ae-borda-nn neural-adb-apo
SPEED_ROUNDS := 3
speed: nadb
	@test -x /usr/bin/time || { echo "make speed needs GNU time: apt-get install time"; exit 2; }
	@peak=$$(GOMAXPROCS=1 $(GO) test -run '^$$' -bench '^BenchmarkPeak$$' -benchtime 2s -count 3 ./internal/gemm | \
	  awk '/^BenchmarkPeak/ { for (i = 2; i < NF; i++) if ($$(i+1) == "cpu-GFLOP/s") print $$i }' | sort -g | sed -n 2p); \
	test -n "$$peak" || { echo "make speed: BenchmarkPeak gave no rate"; exit 1; }; \
	rm -f bin/speed.runs; \
	for r in $$(seq $(SPEED_ROUNDS)); do for a in $(SPEED_ALGOS); do \
	  NADB_GEMM_FLOPS=1 GOMAXPROCS=1 /usr/bin/time -f '%U %S %M' -o bin/speed.time bin/nadb run -q -algo $$a -problem square -seed 1 -out bin/speed.csv 2> bin/speed.err || { cat bin/speed.err; exit 1; }; \
	  echo "$$a $$(cat bin/speed.time) $$(awk '/^matrix kernels:/ { print $$3 }' bin/speed.err)" >> bin/speed.runs; \
	done; done; \
	{ echo "# Speed (paper scale, one core)"; echo; \
	  echo "One run of \`NADB_GEMM_FLOPS=1 GOMAXPROCS=1 /usr/bin/time -f '%U %S %M' bin/nadb run -q -algo A -problem square -seed 1\` per algorithm (Square, d = 20, K = 10, 300 contexts, width 50, T = 1000), $(SPEED_ROUNDS) rounds over the algorithms in turn; the medians of the rounds. *CPU s* is processor time, user + sys (page faults of the first touch of memory count as sys), *peak MB* the maximum resident set. *Floor s* is the run's arithmetic at the core's fp64 peak: the floating-point operations of its matrix products (counted by package internal/gemm under NADB_GEMM_FLOPS=1; work outside them, such as Neural-ADB+'s knowledge gradient, is not counted) divided by $$peak GFLOP/s, the peak of one core measured by \`go test -bench Peak ./internal/gemm\` (fused multiply–adds on registers); – where a learner does no matrix products (the linear learners). CPU: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $$(bin/nadb version | sed -n 's/^matrix kernels //p') matrix kernels, $$($(GO) env GOVERSION), load average $$(cut -d' ' -f1-3 /proc/loadavg) at the end. Written by \`make speed\`."; echo; \
	  echo "| algorithm | CPU s | peak MB | user s | sys s | floor s | CPU / floor |"; echo "|---|---|---|---|---|---|---|"; \
	  for a in $(SPEED_ALGOS); do \
	    grep "^$$a " bin/speed.runs | awk -v p=$$peak '{ c[NR] = $$2 + $$3; u[NR] = $$2; s[NR] = $$3; m[NR] = $$4; f = $$5; n = NR } \
	      function med(x,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }; return x[int((n + 1) / 2)] } \
	      END { fl = f / (p * 1e9); cm = med(c); printf "| %s | %.2f | %d | %.2f | %.2f | %s | %s |\n", $$1, cm, med(m) / 1024, med(u), med(s), (f > 0 ? sprintf("%.2f", fl) : "–"), (f > 0 ? sprintf("%.1f", cm / fl) : "–") }'; \
	  done; echo; \
	  echo "The README's comparison with PyTorch is quoted, not measured here: a PyTorch program of neural-adb-ucb-randctx written for that comparison (one thread, float64; not part of this repository) took 14.0 s of CPU and 450 MB, 10 s of it training, on a 2-core AMD EPYC machine of this project with AVX-512 (not necessarily the machine above), where this repository's run of the same learner then took about 1.5 s; \`make speed\` cannot re-run it."; \
	} > bin/speed.md && mv bin/speed.md figures/speed.md && cat figures/speed.md

## target-costs: claim 10d, neural-adb-target's cost (verify/prereg/target.json): the Letter-like pool (10,000 contexts × 26 arms × 442 features, float32, bin/letter32) under GNU time, neural-adb-target with both objectives at -every 1000 (deciding) and 50 and neural-adb-plus at -every 1000 (shown), with the processor times the cache recorded for the target-* figures' runs → figures/target/target-costs.md
TARGET_POOL := bin/letter32
target-costs: nadb
	@test -x /usr/bin/time || { echo "make target-costs needs GNU time: apt-get install time"; exit 2; }
	test -d $(TARGET_POOL) || bin/nadb data synth -out $(TARGET_POOL) -contexts 10000 -arms 26 -layout blocks -block 16 -float32
	rm -rf bin/target-costs && mkdir -p bin/target-costs
	for e in 1000 50; do for o in predict policy; do \
	  GOMAXPROCS=1 /usr/bin/time -v -o bin/target-costs/target-$$o-$$e.time bin/nadb run -algo neural-adb-target -objective $$o -problem pool -pool $(TARGET_POOL) -T 1000 -every $$e -seed 1 -q || exit 1; \
	done; done
	GOMAXPROCS=1 /usr/bin/time -v -o bin/target-costs/plus-1000.time bin/nadb run -algo neural-adb-plus -problem pool -pool $(TARGET_POOL) -T 1000 -every 1000 -seed 1 -q
	bin/nadb verify -scale paper -target-costs bin/target-costs -out figures/target/target-costs.md

## nadb: build the command into bin/
nadb:
	$(GO) build -o bin/nadb ./cmd/nadb

## figures: every figure of the paper (and ours) at paper scale into figures/, each drawn as soon as its runs are done, the paper's Figures 1-6 first (runs cached in .cache/runs; interrupted, it keeps what it finished and resumes)
figures: nadb
	bin/nadb figures -out figures
	bin/nadb theory -out figures/theory

## figure-costs: the expected processor time and the counted arithmetic of every figure's runs (experiments/sweep/costs.csv, read by nadb figures -list, whose -peak prints the floor, and the progress ETA) from what the cache recorded, after running one seed of every configuration without a time, one run at a time so that the operations are counted (use an empty cache, CACHE=DIR: one run in ten of a 10-seed figure, one in thirty of a 30-seed one)
CACHE ?= .cache/runs
figure-costs: nadb
	NADB_GEMM_FLOPS=1 bin/nadb figures -costs experiments/sweep/costs.csv -workers 1 -cache $(CACHE)

## figures-quick: the same figures at reduced scale into figures/quick/ (a smoke check; nadb figures -quick -list estimates its processor time)
figures-quick: nadb
	bin/nadb figures -quick -out figures/quick
	bin/nadb theory -quick -out figures/quick/theory

## claims: the claims table with each verdict at paper scale, as committed in figures/claims.csv by make verify, printed for a terminal: reads the file, runs nothing
claims: nadb
	bin/nadb verify -from figures/claims.csv -brief

## claims-reduced: every claim recomputed at reduced scale (what go test ./verify checks: a pipeline check, whose verdicts may differ from paper scale), printed for a terminal
claims-reduced: nadb
	bin/nadb verify -scale reduced -brief

## verify: the paper's claims as statistical tests at paper scale (reuses the figure cache) into figures/claims.md
verify: nadb
	bin/nadb verify -scale paper -out figures/claims.md

## verify-merge: the claims named by ONLY (comma-separated ids, e.g. make verify-merge ONLY=9f,9g) at paper scale, merged into figures/claims.md, claims.csv and claims-seeds.csv with every other claim's rows kept: for claims whose runs finished after the last make verify
verify-merge: nadb
	@test -n "$(ONLY)" || { echo "make verify-merge: name the claims, e.g. ONLY=9f,9g"; exit 2; }
	bin/nadb verify -scale paper -only $(ONLY) -merge -out figures/claims.md

## paper: the report paper/report.pdf: nadb paper writes paper/generated/*.tex from the committed results, latexmk builds (installs Debian's LaTeX packages when missing; the PDF's bytes do not depend on the date)
PAPER_DEBS := latexmk texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended lmodern
paper: nadb
	@command -v latexmk >/dev/null && kpsewhich xltabular.sty tcolorbox.sty lmodern.sty >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(PAPER_DEBS); }
	bin/nadb paper
	cd paper && SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1 latexmk -pdf -interaction=nonstopmode -halt-on-error -outdir=build report.tex
	cp paper/build/report.pdf paper/report.pdf

## clean-cache: forget every cached run
clean-cache:
	rm -rf .cache/runs

clean:
	rm -rf bin
