# Everything here delegates to the go tool.
GO ?= go

.PHONY: build test deps race vet fmt bench demo golden fuzz

build:
	$(GO) build -o bin/ratelist ./cmd/ratelist

# The report's browser test needs headless Chromium (Debian's chromium package);
# `make test` installs it when it is missing (apt-get, with sudo when not root).
test: deps
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

deps:
	@command -v chromium >/dev/null || { S=; [ "$$(id -u)" = 0 ] || S=sudo; \
		$$S apt-get update -qq && $$S apt-get install -y -qq chromium; }

vet:
	$(GO) vet ./...

fmt:
	gofmt -l -w .

# Per-stage Go benchmarks (games/s; compare runs with benchstat), then end-to-end
# runs on generated 1M/10M/30M-game archives beside a bare parquet-go decode
# (bench/run.sh; archives are generated once into bench/data). BENCH_SIZES
# picks the sizes, e.g. make bench BENCH_SIZES="1000000".
BENCH_SIZES ?= 1000000 10000000 30000000
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...
	bench/run.sh $(BENCH_SIZES)

demo: build
	./bin/ratelist run --out out

golden:
	$(GO) test ./... -run Golden -update

# Short fuzz runs (CI); run one target longer with FUZZTIME=60s. Minimizing new
# corpus entries is off: here it stalled the short runs until their deadline
# ("context deadline exceeded"); a crasher is still reported, unminimized.
FUZZTIME ?= 10s
FUZZ = ./pipeline:FuzzCSVTables ./pipeline:FuzzParquetTable ./pipeline/trf:FuzzRead \
	./pipeline/importer:FuzzPGN ./pipeline/importer:FuzzCSVTable ./pipeline/importer:FuzzTRFImport

fuzz:
	@set -e; for t in $(FUZZ); do \
		echo "fuzz $${t#*:} ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 0 -parallel 2 $${t%%:*}; \
	done
