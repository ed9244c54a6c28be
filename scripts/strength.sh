#!/usr/bin/env bash
# Issue #23's two strength checks, reproducibly (a benchmark run by hand, never in CI):
#   (1) the new engine against today's engine (othbook built at 7597b92) at equal time per
#       move, 40 XOT games (20 openings x 2 colours);
#   (2) the new engine against NTest at equal time per move, 20 XOT openings x 2 colours.
# Both sides search without an opening book (NTest's is switched off in its parameters.txt),
# one game at a time, under `nice`. Run from the repository root (for ../shared/data/xot).
#
# Usage: scripts/strength.sh NEW_OTHBOOK REF_OTHBOOK NTEST_DIR [options]
#   NEW_OTHBOOK  the othbook binary to measure (it also runs the matches: it needs nboard:)
#   REF_OTHBOOK  othbook built at 7597b92 (e.g. /work/bin/othbook-7597b92)
#   NTEST_DIR    NTest's run directory: the ntest binary, parameters.txt (book off) and
#                coefficients/ (NTest reads them from its working directory)
# Options:
#   --time S          seconds per move for othbook (default 0.5, its default)
#   --ntest-depth D   NTest's depth (default 18): NTest has no time per move in NBoard mode
#                     (its clock mode spends a game clock unevenly), so pick the depth whose
#                     s/move matches othbook's; the summary prints both to check
#   --openings N      XOT openings per check, each played with both colours (default 20)
#   --seed N          shuffle of the XOT list (default 23)
#   --only 1|2        run one check only
#   --out DIR         keep match tables, CSV and games there (default: a temporary folder)
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ $# -ge 3 ] || usage
new=$(realpath "$1") ref=$(realpath "$2") ntest_dir=$(realpath "$3")
shift 3
time=0.5 depth=18 openings=20 seed=23 only="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time=$2; shift 2 ;;
    --ntest-depth) depth=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "strength.sh: unknown option $1" >&2; usage ;;
  esac
done
for bin in "$new" "$ref"; do
  [ -x "$bin" ] || { echo "strength.sh: $bin is not an executable" >&2; exit 2; }
done
if [ "$only" != 1 ]; then
  for f in ntest parameters.txt coefficients; do
    [ -e "$ntest_dir/$f" ] || { echo "strength.sh: $ntest_dir has no $f" >&2; exit 2; }
  done
fi
[ -e ../shared/data/xot/openingslarge.txt ] || {
  echo "strength.sh: run from the repository root (../shared/data/xot/openingslarge.txt)" >&2
  exit 2
}
out=${out:-$(mktemp -d)}
mkdir -p "$out"
games=$((openings * 2))

# NTest must start in its own directory; match commands take no shell, so a wrapper does it.
wrapper="$out/ntest-nboard.sh"
printf '#!/bin/sh\ncd "%s" && exec ./ntest x "$@"\n' "$ntest_dir" > "$wrapper"
chmod +x "$wrapper"

# Points, score% and s/move of player $2 (1: black in the first game, 2: the other) in match
# table $1, counted from the right (names may hold spaces).
row() { awk -v n="$2" 'NR == n + 1 { print $(NF-5), $(NF-4), $(NF-2) }' "$1"; }

# run NAME BLACK WHITE: plays the match, prints its table, appends the summary.
summary=""
run() {
  local name=$1 a=$2 b=$3 table="$out/$1.txt"
  echo "== $name: $a vs $b, $games games, XOT seed $seed" >&2
  nice -n 10 "$new" match --black "$a" --white "$b" --openings xot --seed "$seed" \
    --games "$games" --csv "$out/$name.csv" --save "$out/$name.ggf" > "$table" || true
  cat "$table"
  read -r pa sa ta <<< "$(row "$table" 1)"
  read -r _ _ tb <<< "$(row "$table" 2)"
  summary+="$name: new scores $pa/$games = $sa (s/move new $ta, opponent $tb); "
}

new_spec="engine:time=$time,book=none"
if [ "$only" != 2 ]; then
  run vs-7597b92 "$new_spec" "gtp:$ref gtp --player engine:time=$time,book=none --time $time"
fi
if [ "$only" != 1 ]; then
  run vs-ntest "$new_spec" "nboard:depth=$depth:$wrapper"
fi
echo "strength (time $time s/move, NTest depth $depth): ${summary%; }; goals: >= 70% against 7597b92, >= 50% against NTest; files in $out"
