# Reproducible builds: no FMA fusion (GOAMD64=v1), no VCS stamping (added to
# the caller's GOFLAGS, not replacing them).
export GOAMD64 := v1
export GOFLAGS := $(strip $(GOFLAGS) -buildvcs=false)
GO ?= go
# goimports, pinned: run through the module proxy, never a dependency of go.mod.
GOIMPORTS := $(GO) run golang.org/x/tools/cmd/goimports@v0.52.0

.PHONY: all claims test fmt-check imports-check vet fix-check unit test-readme test-browser test-slurm bench speed nadb figures figures-quick verify paper clean-cache clean

all: test

## test: format and import-grouping checks, vet, modernizer check and every unit test (under 10 minutes on 2 cores)
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

## test-readme: every command of README.md's shell blocks that is not a paper-scale sweep, run in a temporary clone with small budgets, checking that git status stays clean (minutes; not part of make test)
test-readme:
	NADB_README_COMMANDS=1 $(GO) test -count=1 -timeout 90m -run '^(TestREADMECommands|TestLabelWalkthrough)$$' -v ./cmd/nadb

## test-browser: the headless Chromium test of the labelling page (installs chromium and chromium-driver when missing; screenshots in bin/label-shots/)
test-browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update && $$SUDO apt-get install -y chromium chromium-driver; }
	LABEL_SCREENSHOT_DIR=$(CURDIR)/bin/label-shots $(GO) test -count=1 -run '^TestBrowser' -v ./label

## test-slurm: the Slurm recipe .ci/slurm/figures.sbatch on a one-node cluster started on this machine (root; installs slurm-wlm, munge, jq when missing; about 1 minute, 2 with the install)
test-slurm:
	bash .ci/slurm/test.sh

## bench: every benchmark, one core and two (compare runs with benchstat)
bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x -cpu 1,2 ./...

## speed: one paper-scale run of every algorithm on one core, user CPU time and peak memory (GNU time) → figures/speed.md
SPEED_ALGOS := neural-adb-ucb neural-adb-ts neural-adb-ucb-randctx neural-adb-tsctx-ucb neural-adb-lookahead-ucb neural-adb-plus random-nn random apo ae-borda ae-dpo ae-borda-nn neural-adb-apo
speed: nadb
	@test -x /usr/bin/time || { echo "make speed needs GNU time: apt-get install time"; exit 2; }
	@{ echo "# Speed (paper scale, one core)"; echo; \
	  echo "One run of \`GOMAXPROCS=1 /usr/bin/time -f '%U %M' bin/nadb run -algo A -problem square -seed 1\` per algorithm (Square, d = 20, K = 10, 300 contexts, width 50, T = 1000): user CPU seconds and peak resident memory. CPU: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'). Written by \`make speed\`."; echo; \
	  echo "| algorithm | CPU s | peak MB |"; echo "|---|---|---|"; \
	  for a in $(SPEED_ALGOS); do \
	    GOMAXPROCS=1 /usr/bin/time -f '%U %M' -o bin/speed.time bin/nadb run -algo $$a -problem square -seed 1 -out bin/speed.csv >/dev/null || exit 1; \
	    read u m < bin/speed.time; echo "| $$a | $$u | $$((m / 1024)) |"; \
	  done; } > bin/speed.md && mv bin/speed.md figures/speed.md && cat figures/speed.md

## nadb: build the command into bin/
nadb:
	$(GO) build -o bin/nadb ./cmd/nadb

## figures: every figure of the paper at paper scale into figures/ (runs cached in .cache/runs)
figures: nadb
	bin/nadb figures -out figures
	bin/nadb theory -out figures/theory

## figure-costs: the expected processor time of every figure's runs (experiments/sweep/costs.csv, read by nadb figures -list and the progress ETA) from the times the cache recorded: run after a cold make figures
figure-costs: nadb
	bin/nadb figures -costs experiments/sweep/costs.csv

## figures-quick: the same figures at reduced scale into figures/quick/ (a smoke check, < 5 minutes)
figures-quick: nadb
	bin/nadb figures -quick -out figures/quick
	bin/nadb theory -quick -out figures/quick/theory

## claims: the claims table with each verdict, at reduced scale (what go test ./verify checks), printed for a terminal
claims: nadb
	bin/nadb verify -scale reduced -brief

## verify: the paper's claims as statistical tests at paper scale (reuses the figure cache) into figures/claims.md
verify: nadb
	bin/nadb verify -scale paper -out figures/claims.md

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
