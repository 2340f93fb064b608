#!/usr/bin/env bash
# Side by side, in one run, on one generated archive (CSV, so the peer can read it):
# ratelist run end to end, ratelist validate (read + validate + rate, no outputs),
# and the npm package @echecs/elo driven by bench/peer/peer.mjs.
# Usage: bench/peer.sh [GAMES]   (default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
a=bench/data/csv$n
mkdir -p bench/data bin
go build -o bin/ratelist ./cmd/ratelist
[ -f "$a/games.csv" ] || bin/ratelist generate --players 200000 --games "$n" --months 24 --seed 1 --format csv --archive "$a" >/dev/null
(cd bench/peer && [ -d node_modules/@echecs/elo ] || npm install --silent --no-audit --no-fund)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
t() { local s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; echo "$(date +%s.%N) - $s" | bc; }
run=$(t bin/ratelist run --archive "$a" --out "$out/o" --quiet)
val=$(t bin/ratelist validate --archive "$a")
peer=$(node bench/peer/peer.mjs "$a/games.csv")
echo "games rows: $n (CSV archive $a)"
awk -v n="$n" -v r="$run" -v v="$val" 'BEGIN{printf "ratelist run (all outputs):        %6.2f s  %9.0f games/s\nratelist validate (read+rate):     %6.2f s  %9.0f games/s\n", r, n/r, v, n/v}'
echo "@echecs/elo (node, game by game): $peer"
