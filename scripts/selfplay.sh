#!/usr/bin/env bash
# Self-play training games for the pattern evaluation (books/README.md, "eval.bin"): the
# first 24,000 openings of scripts/selfplay_openings.py (XOT + 2-4 random plies), each played
# twice with colours swapped by the engine at depth 9 against itself at depth 10 (by default),
# no book, saved as Logistello .gam files for `othbook train`. Six parts of 8,000 games, two at
# a time (at depth 9, about 12 minutes a part on one core of an AMD EPYC Zen 4; 36 minutes on
# 2 cores; depth 11 costs 2.2 times as much, depth 13 7 times). One game at a time per part,
# so the games are the same on every run with the same binary.
# Run from the repository root (for ../shared/data/xot).
#
# Usage: scripts/selfplay.sh OTHBOOK OUT_DIR [SEED [DEPTH [PARTS]]]
#   OTHBOOK  the othbook binary that plays (its embedded weights decide the games)
#   OUT_DIR  where openings.txt, o0..o5.txt, sp0..sp5.gam and the match tables go
#   SEED     the openings' seed (default 2026; each round of self-play takes a new one, so
#            that its games start from other positions)
#   DEPTH    the shallower player's depth; the other searches one ply deeper (default 9)
#   PARTS    how many parts of 8,000 games to play, 1-6 (default 6: 48,000 games)
set -euo pipefail

[ $# -ge 2 ] && [ $# -le 5 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
[ -x "$1" ] || { echo "selfplay.sh: $1 is not an executable othbook binary" >&2; exit 2; }
[ -f ../shared/data/xot/openingslarge.txt ] || { echo "selfplay.sh: run from the repository root (../shared/data/xot/openingslarge.txt is missing)" >&2; exit 2; }
[[ "${3:-2026}" =~ ^[0-9]+$ ]] || { echo "selfplay.sh: the seed must be a whole number, not '$3'" >&2; exit 2; }
[[ "${4:-9}" =~ ^[0-9]+$ ]] && [ "${4:-9}" -ge 1 ] && [ "${4:-9}" -le 40 ] || { echo "selfplay.sh: the depth must be 1-40, not '$4'" >&2; exit 2; }
[[ "${5:-6}" =~ ^[1-6]$ ]] || { echo "selfplay.sh: the parts must be 1-6, not '$5'" >&2; exit 2; }
depth=${4:-9}
parts=${5:-6}
bin=$(realpath "$1")
mkdir -p "$2"
out=$(realpath "$2")
here=$(dirname "$0")
python3 "$here/selfplay_openings.py" ../shared/data/xot/openingslarge.txt "$out/openings.txt" "${3:-2026}"
for k in 0 1 2 3 4 5; do
  sed -n "$((k * 4000 + 1)),$((k * 4000 + 4000))p" "$out/openings.txt" >"$out/o$k.txt"
done

part() {
  "$bin" match --black "engine:depth=$depth,book=none" --white "engine:depth=$((depth + 1)),book=none" \
    --openings "$out/o$1.txt" --games 8000 --jobs 1 --save "$out/sp$1.gam" >"$out/m$1.out"
  echo "part $1 done: $(tail -1 "$out/m$1.out")"
}
lane() { for k in "$@"; do part "$k"; done; }
lane $(seq 0 2 $((parts - 1))) &
first=$!
lane $(seq 1 2 $((parts - 1))) &
wait "$first"
wait $!
ls -l "$out"/sp?.gam
