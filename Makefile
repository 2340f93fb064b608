# Everything here delegates to the go tool.
GO ?= go

.PHONY: build test race vet fmt bench demo golden fuzz

build:
	$(GO) build -o bin/ratelist ./cmd/ratelist

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

fmt:
	gofmt -l -w .

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

demo: build
	./bin/ratelist run --out out

golden:
	$(GO) test ./... -run Golden -update
