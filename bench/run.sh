#!/usr/bin/env bash
# make bench: end-to-end numbers for ratelist's jobs on generated archives of 1M, 10M
# and 30M games (200k players, 24 months; 60 months from 100M games on; generated
# once and kept in bench/data), each beside a bare decode of the same archive's games
# measured just before it. It prints a line naming the machine, then the rows of
# docs/performance.md's table "Every job against the floor" (markdown).
# Usage: bench/run.sh [SIZES...]   (default: 1000000 10000000 30000000)
# BENCH_JOBS picks the jobs (default: "run validate"; also import-csv and import-pgn,
# which import that many games, PGN at most 1M, beside the floor of as many). BENCH_PLAYERS=P
# (default 200000) sizes the registry (kept as bench/data/gSIZE-pP). BENCH_OUT=DIR
# puts the outputs there (default: a temporary folder under $TMPDIR, or /tmp);
# BENCH_OUT=/dev/shm measures without the disk. BENCH_RULES=fide (or glicko2, or any
# rule set of `ratelist run --rules`) runs that rule set (default: school).
# BENCH_JOKER=N adds N Joker games to each archive (`generate --joker-games`, kept as
# bench/data/gSIZE-jN), so that the run rates the Joker lists too. PQFLOOR=BIN is the
# floor (a program that takes the archive folder and prints "ROWS SECONDS": the
# reference the project's targets are stated against); without it, bench/decode is.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000 30000000)
mkdir -p bench/data bin
go build -o bin/ratelist ./cmd/ratelist
go build -o bin/decode ./bench/decode
out=$(mktemp -d "${BENCH_OUT:-${TMPDIR:-/tmp}}/ratelist-bench.XXXXXX"); trap 'rm -rf "$out"' EXIT
rules=${BENCH_RULES:-school}; joker=${BENCH_JOKER:-0}; players=${BENCH_PLAYERS:-200000}
floor=${PQFLOOR:-bin/decode}

# timed LOG CMD...: runs CMD under /usr/bin/time; LOG gets "wall rss user sys".
# A job that fails stops the script: its figures would be a failure's.
timed() { local log=$1; shift; /usr/bin/time -q -f '%e %M %U %S' -o "$log" "$@" >/dev/null 2>"$log.err" || { echo "bench/run.sh: failed: $*" >&2; cat "$log.err" >&2; exit 1; }; }
# short N: 1000000 as 1M, 200000 as 200k.
short() { awk -v n="$1" 'BEGIN{if (n>=1e6 && n%1e6==0) printf "%dM", n/1e6; else if (n>=1e3 && n%1e3==0) printf "%dk", n/1e3; else printf "%d", n}'; }
# archive N [FORMAT]: the generated archive of N games (generated once), its folder.
archive() {
  local n=$1 format=${2:-parquet} a=bench/data/g$1 months=24 flags=()
  [ "$n" -lt 100000000 ] || months=60
  [ "$players" = 200000 ] || { a=$a-p$players; }
  [ "$joker" = 0 ] || { a=$a-j$joker; flags+=(--joker-games "$joker"); }
  [ "$format" = parquet ] || { a=$a-$format; flags+=(--format "$format"); }
  [ -f "$a/players.$format" ] || bin/ratelist generate --players "$players" --games "$n" --months "$months" --seed 1 "${flags[@]}" --archive "$a" >/dev/null 2>&1
  echo "$a"
}
# row JOB COMMAND ARCHIVE-DESCRIPTION FLOOR-ARCHIVE GAMES CMD...: times the floor
# on FLOOR-ARCHIVE (of GAMES games), then CMD, and prints the table's row.
row() {
  local job=$1 command=$2 what=$3 fa=$4 fg=$5; shift 5
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  # A small archive's floor is a few hundredths of a second: it is timed over
  # enough repeats (about 10M games in all) that the timer's 10 ms do not matter.
  local reps; reps=$(( (10000000 + fg - 1) / fg )); [ "$reps" -le 10 ] || reps=10
  timed "$out/f" bash -c 'for ((i = 0; i < $1; i++)); do "$2" "$3"; done' _ "$reps" "$floor" "$fa/"
  sync
  timed "$out/t" "$@"
  read -r fw _ fu fs < "$out/f"; read -r wall rss user sys < "$out/t"
  awk -v j="$job" -v c="$command" -v a="$what" -v l="$load" -v w="$wall" -v r="$rss" -v u="$user" -v s="$sys" -v k="$reps" -v fw0="$fw" -v fc0="$(awk -v u="$fu" -v s="$fs" 'BEGIN{print u+s}')" \
    'BEGIN{fw=fw0/k; fc=fc0/k; c2=u+s; printf "| %s | %s | `%s` | %s | %.2f | %.2f | %.0f | %.2f | %.2f | %.1f× | %.1f× |\n", j, a, c, l, w, c2, r/1024, fw, fc, w/fw, c2/fc}'
}
# pgn N FILE: N moveless games in events of 500 (importer's BenchmarkPGNImportLarge).
pgn() {
  awk -v games="$1" 'BEGIN{n=2000; per=n/2; split("1-0 0-1 1/2-1/2", res, " ")
    for (g=0; g<games; g++) { r=int(g/per); i=g%per; c=r%(n-1); a=(c+i)%(n-1); b=(c+n-1-i)%(n-1); if (i==0) b=n-1
      printf "[Event \"Open %d\"]\n[Site \"Hall %d\"]\n[Date \"2025.%02d.%02d\"]\n[Round \"%d.%d\"]\n[White \"Player %d\"]\n[Black \"Player %d\"]\n[Result \"%s\"]\n[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n[TimeControl \"5400+30\"]\n\n",
        int(g/500), i%2, 1+int(r/100)%12, 1+r%28, int((g%500)/per)+1, i+1, a, b, res[(r+i)%3+1], 1500+a%1000, 1500+b%1000 } }' > "$2"
}

echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(go env GOVERSION); $(date -u +%F); floor: $(basename "$floor"); output in $(stat -f -c %T "$out")"
echo
echo '| job | archive | command | load | wall (s) | CPU user + sys (s) | max RSS (MiB) | floor wall (s) | floor CPU (s) | wall / floor | CPU / floor CPU |'
echo '|---|---|---|---|---|---|---|---|---|---|---|'
ruleflag=(); [ "$rules" = school ] || ruleflag=(--rules "$rules")
desc() { local d; d="$(short "$1") games, $(short "$players") players"; [ "$joker" = 0 ] || d="$d, $(short "$joker") Joker games"; echo "$d"; }
for n in "${sizes[@]}"; do
  for job in ${BENCH_JOBS:-run validate}; do
    # On a disk every run writes a new folder (creating files right after deleting
    # as many costs system time on some file systems); on tmpfs the last output goes
    # first, so that the next run reuses memory already touched.
    [ "$(stat -f -c %T "$out")" = tmpfs ] && rm -rf "$out"/o*
    o="$out/o$n-$RANDOM"
    case $job in
    run)
      a=$(archive "$n")
      row "run, $rules rules" "ratelist run ${ruleflag[*]:+${ruleflag[*]} }--archive A --out O --quiet" "$(desc "$n")" "$a" "$n" \
        bin/ratelist run --archive "$a" --out "$o" "${ruleflag[@]}" --quiet ;;
    validate)
      a=$(archive "$n")
      # validate checks the archive, whatever the rule set: it has no --rules.
      row "validate" "ratelist validate --archive A" "$(desc "$n")" "$a" "$n" \
        bin/ratelist validate --archive "$a" ;;
    import-csv)
      c=$(archive "$n" csv)
      row "import CSV" "ratelist import csv A --archive O --quiet" "$(desc "$n"), CSV" "$(archive "$n")" "$n" \
        bin/ratelist import csv "$c" --archive "$o" --quiet ;;
    import-pgn)
      g=$((n < 1000000 ? n : 1000000))
      [ -f "bench/data/pgn$g.pgn" ] || pgn "$g" "bench/data/pgn$g.pgn"
      row "import PGN" "ratelist import pgn FILE --archive O --quiet" "$(short "$g") moveless games, 2k players, events of 500" "$(archive "$g")" "$g" \
        bin/ratelist import pgn "bench/data/pgn$g.pgn" --archive "$o" --quiet ;;
    *) echo "bench/run.sh: unknown job $job (want run, validate, import-csv or import-pgn)" >&2; exit 2 ;;
    esac
  done
done
