#!/usr/bin/env bash
# `napsim hand` with two binaries over hands, profiles, play policies and formats; every stdout
# compared byte for byte. For changes to the evaluator that must not change a fixed run's output:
# scripts/compare-hand.sh OLD_BINARY NEW_BINARY [WORLDS]
set -uo pipefail
old=$1; new=$2; worlds=${3:-256}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# Timings differ from run to run: masked.
mask() { sed -E 's/[0-9]+\.[0-9]+ s\b/T s/g; s/\([0-9]+ deals\/s\)/(R deals\/s)/g'; }
n=0; bad=0
run() {
  n=$((n + 1))
  for side in old new; do
    "${!side}" "$@" 2>"$work/$side.err" | mask >"$work/$side"; echo "exit ${PIPESTATUS[0]}" >>"$work/$side"
    mask <"$work/$side.err" >>"$work/$side"
  done
  if ! cmp -s "$work/old" "$work/new"; then
    echo "DIFFERS: napsim $*"; diff "$work/old" "$work/new" | head -8; bad=$((bad + 1))
  fi
}
hands=("AS KS 7S AH 3D" "AH KH 9H 7D 2C" "AS KS QS JS 2C" "TS 8S 5S 3S AH" "2S 3H 4D 5C 7H" "AD KD QD 2S 3C")
for hand in "${hands[@]}"; do
  for play in heuristic pimc:worlds=4; do
    for format in "" --json --csv; do
      run hand "$hand" --play "$play" --worlds "$worlds" --seed 3 --quiet $format
      run --rules pub-guide hand "$hand" --play "$play" --worlds "$worlds" --seed 5 --quiet $format
    done
    run hand "$hand" --play "$play" --worlds "$worlds" --seed 4 --quiet --no-dd
    run --rules pub-guide hand "$hand" --play "$play" --worlds "$worlds" --seed 4 --quiet --players 6 --no-dd
    run --rules pub-guide hand "$hand" --play "$play" --worlds "$worlds" --seed 4 --quiet --players 5 --seat 1 --after pass
  done
  for rules in peep-nap peep-nap-aylesbury sir-garnet encyclopedia rulebook; do
    run --rules "$rules" hand "$hand" --play heuristic --worlds "$worlds" --seed 6 --quiet --json
  done
  run hand "$hand" --play dd --worlds 64 --seed 3 --quiet --json
  run --rules pub-guide hand "$hand" --play random --worlds "$worlds" --seed 3 --quiet --json
  run --rules pub-guide hand "$hand" --play ismcts:iterations=50 --worlds 64 --seed 3 --quiet --json
done
run --rules pub-guide bid-table --players 4 --deals 3000 --seed 3 --min-hands 10 --out -
run --rules pub-guide simulate --deals 300 --seed 3 --bid lookahead:worlds=16 --out - --quiet
echo "$n commands, $bad differ"
[ "$bad" -eq 0 ]
