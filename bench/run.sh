#!/usr/bin/env bash
# make bench: end-to-end numbers for ratelist run on generated archives of 1M, 10M
# and 30M games (200k players, 24 months; generated once and kept in bench/data),
# beside a bare parquet-go decode of the same files measured in the same run.
# Usage: bench/run.sh [SIZES...]   (default: 1000000 10000000 30000000)
# BENCH_OUT=DIR puts the run's output there (default: a temporary folder under
# $TMPDIR, or /tmp); BENCH_OUT=/dev/shm measures without the disk. BENCH_RULES=fide
# (or glicko2, or any rule set of `ratelist run --rules`) runs that rule set (default:
# school). BENCH_JOKER=N adds N Joker games to each archive (`generate --joker-games`,
# kept as bench/data/gSIZE-jN), so that the run rates the Joker lists too. PQFLOOR=BIN also times that bare-decode
# program (it takes the archive folder and prints "ROWS SECONDS") and gives the run's
# ratio to it: the floor the project's targets are stated against.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000 30000000)
mkdir -p bench/data bin
go build -o bin/ratelist ./cmd/ratelist
go build -o bin/decode ./bench/decode
out=$(mktemp -d "${BENCH_OUT:-${TMPDIR:-/tmp}}/ratelist-bench.XXXXXX"); trap 'rm -rf "$out"' EXIT
rules=${BENCH_RULES:-school}; joker=${BENCH_JOKER:-0}
printf '%-8s %6s %-10s %8s %8s %8s %9s %12s %8s %6s %9s %6s\n' rules joker games run_s user_s sys_s decode_s games/s peak_MB ratio floor_s ratio
for n in "${sizes[@]}"; do
  a=bench/data/g$n; jflag=()
  [ "$joker" = 0 ] || { a=bench/data/g$n-j$joker; jflag=(--joker-games "$joker"); }
  [ -f "$a/games.parquet" ] || bin/ratelist generate --players 200000 --games "$n" --months 24 --seed 1 "${jflag[@]}" --archive "$a" >/dev/null
  d=$(bin/decode "$a" | awk '{print $5}')
  f=0; [ -z "${PQFLOOR:-}" ] || f=$("$PQFLOOR" "$a" | awk '{print $2}')
  # On a disk every run writes a new folder (creating files right after deleting
  # as many costs system time on some file systems); on tmpfs the last output goes
  # first, so that the next run reuses memory already touched.
  [ "$(stat -f -c %T "$out")" = tmpfs ] && rm -rf "$out"/o*
  o="$out/o$n-$RANDOM"; sync
  /usr/bin/time -f '%e %M %U %S' -o "$out/t" bin/ratelist run --archive "$a" --out "$o" --rules "$rules" --quiet || true
  read -r wall rss user sys < "$out/t"
  awk -v ru="$rules" -v j="$joker" -v n="$n" -v w="$wall" -v d="$d" -v r="$rss" -v u="$user" -v s="$sys" -v f="$f" 'BEGIN{printf "%-8s %6d %-10d %8.2f %8.2f %8.2f %9.2f %12.0f %8.0f %6.1f", ru, j, n, w, u, s, d, n/w, r/1024, w/d; if (f > 0) printf " %9.2f %6.1f", f, w/f; printf "\n"}'
done
