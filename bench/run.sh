#!/usr/bin/env bash
# make bench: end-to-end numbers for ratelist run on generated archives of 1M, 10M
# and 30M games (200k players, 24 months; generated once and kept in bench/data),
# beside a bare parquet-go decode of the same files measured in the same run.
# Usage: bench/run.sh [SIZES...]   (default: 1000000 10000000 30000000)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000 30000000)
mkdir -p bench/data bin
go build -o bin/ratelist ./cmd/ratelist
go build -o bin/decode ./bench/decode
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
printf '%-10s %10s %10s %12s %10s %8s\n' games run_s decode_s games/s peak_MB ratio
for n in "${sizes[@]}"; do
  a=bench/data/g$n
  [ -f "$a/games.parquet" ] || bin/ratelist generate --players 200000 --games "$n" --months 24 --seed 1 --archive "$a" >/dev/null
  d=$(bin/decode "$a" | awk '{print $5}')
  rm -rf "$out/o"
  /usr/bin/time -f '%e %M' -o "$out/t" bin/ratelist run --archive "$a" --out "$out/o" --quiet || true
  read -r wall rss < "$out/t"
  awk -v n="$n" -v w="$wall" -v d="$d" -v r="$rss" 'BEGIN{printf "%-10d %10.2f %10.2f %12.0f %10.0f %8.1f\n", n, w, d, n/w, r/1024, w/d}'
done
