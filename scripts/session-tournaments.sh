#!/usr/bin/env bash
# The tournaments behind "Bidding to win the session" (issue 37): at four players under the
# default profile, the lookahead bidder that calls for the chance of winning the session
# (objective=wins) against the same bidder calling for units (objective=units), half the seats
# each, 4,000 card sets from seed 3737 (used by no table or strategy), for each play policy P in
# expert and heuristic. Writes results/heather-1875/tournament-wins-units-P-4p.csv, .pairs.csv,
# .md and the manifest; a stopped run resumes from its checkpoint. With arguments, only the
# play policies named (`scripts/session-tournaments.sh heuristic`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${NAPSIM:-} ]]; then
    cargo build --release --quiet
fi
napsim=${NAPSIM:-target/release/napsim}
plays=("$@")
[ ${#plays[@]} -gt 0 ] || plays=(expert heuristic)

for play in "${plays[@]}"; do
    stem=results/heather-1875/tournament-wins-units-${play}-4p
    checkpoint=${TMPDIR:-/tmp}/napsim-$(echo "$stem" | tr / -).checkpoint
    resume=()
    [ -f "$checkpoint" ] && resume=(--resume "$checkpoint")
    echo "== $stem" >&2
    "$napsim" --rules heather-1875 tournament --players 4 --sessions 4000 --seed 3737 \
        --entrant "wins=(lookahead:worlds=64,play=$play,objective=wins)/$play" \
        --entrant "units=(lookahead:worlds=64,play=$play,objective=units)/$play" \
        --out "$stem.csv" --pairs "$stem.pairs.csv" --markdown "$stem.md" \
        --checkpoint "$checkpoint" "${resume[@]}" --quiet
    rm -f "$checkpoint"
done
