# Everything here delegates to the go tool.
GO ?= go

.PHONY: build test test-long test-all vet fmt bench demo golden fuzz

build:
	$(GO) build -o bin/ratelist ./cmd/ratelist

# The report's browser test runs when headless Chromium is installed and is
# skipped otherwise; RATELIST_BROWSER=1 (set by .ci/run) makes it required.
# -short runs the LONG_TESTS smaller (fewer cases, smaller archives).
test:
	$(GO) vet ./...
	$(GO) test -race -short -count=1 ./...

# The tests that run smaller under -short (each checks testing.Short), run in
# full without -race by test-long: keep this list in step with those checks.
LONG_TESTS = TestRateTRFEqualsRun|TestRateTRFFilesEqualRun|TestResumeInvariant|TestCrossCheckSchoolElo|TestCrossCheckRandom|TestIncremental|TestJokerIndependent
LONG_PKGS = ./cmd/ratelist ./pipeline ./tiebreak ./report

test-long:
	$(GO) test -count=1 -run '^($(LONG_TESTS))$$' $(LONG_PKGS)

# make test, then the LONG_TESTS in full (CI runs both).
test-all: test test-long

vet:
	$(GO) vet ./...

fmt:
	gofmt -l -w .

# Per-stage Go benchmarks (games/s; compare runs with benchstat), then end-to-end
# jobs on generated 1M/10M/30M-game archives beside a bare parquet-go decode, as
# rows of docs/performance.md's table (bench/run.sh; archives are generated once
# into bench/data). BENCH_SIZES picks the sizes, e.g. make bench BENCH_SIZES="1000000";
# BENCH_JOBS, BENCH_RULES, BENCH_PLAYERS, PQFLOOR: see bench/run.sh.
BENCH_SIZES ?= 1000000 10000000 30000000
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...
	bench/run.sh $(BENCH_SIZES)

demo: build
	./bin/ratelist run --out out

# Rewrites the golden files: the TestGolden* tests of the packages whose tests
# use internal/golden (only their test binaries know -update).
GOLDEN_PKGS = $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | \
	awk '{for (i = 2; i <= NF; i++) if ($$i == "github.com/ratelist/ratelist/internal/golden") {print $$1; break}}'
golden:
	$(GO) test -count=1 -run '^TestGolden' $$($(GOLDEN_PKGS)) -update

# Short fuzz runs (CI). Each target runs a fixed number of inputs, not a time:
# a time limit can fail a clean run when the deadline cuts the fuzz coordinator
# off. FUZZTIME=60s (or 1000000x) runs every target that long instead. New
# corpus entries are not minimized (a crasher is reported as found); a hang
# fails the target after 10 minutes (-timeout).
FUZZTIME ?=
FUZZ = ./archive:FuzzCSVTables:8000x ./archive:FuzzCSVRecords:80000x \
	./archive:FuzzCSVRows:25000x ./archive:FuzzParquetTable:8000x \
	./trf:FuzzRead:400000x ./trf:FuzzCheck:20000x ./importer:FuzzPGN:15000x \
	./importer:FuzzCSVTable:80000x ./importer:FuzzTRFImport:70000x \
	./report:FuzzSplitPlainCSV:50000x ./report:FuzzPageText:20000x \
	./officer:FuzzTRFExport:20000x ./officer:FuzzListTXT:20000x \
	./officer:FuzzListXML:10000x ./officer:FuzzListCSV:20000x \
	./officer:FuzzTables:20000x ./importer:FuzzFideList:30000x

fuzz:
	@set -e; for e in $(FUZZ); do \
		pkg=$${e%%:*}; rest=$${e#*:}; t=$${rest%%:*}; n=$${rest#*:}; n=$(if $(FUZZTIME),$(FUZZTIME),$$n); \
		echo "fuzz $$t ($$n)"; \
		$(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $$n -fuzzminimizetime 0 -parallel 2 -timeout 10m $$pkg; \
	done
