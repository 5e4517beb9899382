#!/usr/bin/env bash
# The play policies side by side (README, "Play policies side by side"): strength from a duplicate
# tournament at four players (heather-1875, threshold bidding), cost per deal from `simulate` on
# one thread, the policies timed in turn, five rounds, medians kept. Writes results/play-policies/
# (tournament.csv, pairs.csv, timings.csv), then re-renders the README's table from them; the
# test tests/docs/play_policies_doc.rs fails when the two disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
napsim=${NAPSIM:-target/release/napsim}
out=results/play-policies
mkdir -p "$out"

"$napsim" tournament --entrant heuristic=threshold/heuristic --entrant expert=threshold/expert \
    --entrant pimc=threshold/pimc:worlds=16 --sessions 10000 --seed 2026 --quiet \
    --out "$out/tournament.csv" --pairs "$out/pairs.csv" --checkpoint "$out/tournament.checkpoint"
rm -f "$out/tournament.checkpoint"

# Deals per timed run: each run takes a second or two.
policies=("heuristic 2000000" "expert 200000" "pimc:worlds=16 5000")
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for round in 1 2 3 4 5; do
    for entry in "${policies[@]}"; do
        read -r play deals <<<"$entry"
        # The summary's second line: "N deals in S s (...)".
        seconds=$("$napsim" simulate --play "$play" --deals "$deals" --seed "$round" \
            --threads 1 --quiet | sed -n '2s/.* deals in \([0-9.]*\) s.*/\1/p')
        echo "$play $deals $seconds" >>"$times"
    done
done
{
    echo "play_policy,deals,runs,median_seconds,median_us_per_deal"
    for entry in "${policies[@]}"; do
        read -r play deals <<<"$entry"
        median=$(awk -v p="$play" '$1 == p { print $3 }' "$times" | sort -g | sed -n 3p)
        awk -v p="$play" -v d="$deals" -v m="$median" \
            'BEGIN { printf "%s,%d,5,%s,%.4f\n", p, d, m, m * 1e6 / d }'
    done
} >"$out/timings.csv"
BLESS=1 cargo test --profile suite --quiet --test docs -- play_policies_doc::
