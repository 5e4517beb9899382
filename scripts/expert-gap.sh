#!/usr/bin/env bash
# The expert's gap to PIMC per coarse class at four players, for declarer and for defence apart:
# results/play-policies/expert-gap-4p.md, from three bid tables of the same deals
# (scripts/expert_gap.py explains the columns). A stopped run resumes from its checkpoints; the
# tables already finished are kept (delete results/play-policies/gap-*.csv to start over).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
napsim=${NAPSIM:-target/release/napsim}
out=results/play-policies
deals=${DEALS:-20000}
mkdir -p "$out"
gap=()
for play in "pimc:worlds=16" "split:declarer=(expert),defence=(pimc:worlds=16)" \
    "split:declarer=(pimc:worlds=16),defence=(expert)"; do
    csv="$out/gap-${#gap[@]}.csv"
    # A stopped run resumes from its checkpoint; a finished table is kept.
    checkpoint="$csv.checkpoint"
    resume=()
    [[ -f "$checkpoint" ]] && resume=(--resume "$checkpoint")
    if [[ ! -f "$csv" || -f "$checkpoint" ]]; then
        "$napsim" bid-table --by coarse --play "$play" --deals "$deals" --seed 21 --min-hands 200 \
            --quiet --out "$csv" --checkpoint "$checkpoint" "${resume[@]}"
        rm -f "$checkpoint"
    fi
    gap+=("$csv")
done
{
    echo "# The expert's gap to PIMC by coarse class (four players, heather-1875)"
    echo
    echo "Made by \`scripts/expert-gap.sh\`: three \`napsim bid-table --by coarse --deals $deals"
    echo "--seed 21\` runs of the same deals (gap-0.csv: every seat \`pimc:worlds=16\`; gap-1.csv:"
    echo "the declarer \`expert\` against PIMC defenders; gap-2.csv: PIMC declarers against \`expert\`"
    echo "defenders), seats pooled. A positive declarer gap: the expert declarer makes the bid that"
    echo "many points less often than PIMC; a positive defence gap: PIMC declarers make it that many"
    echo "points more often against the expert's defence. Each gap has the half-width of its 95%"
    echo "interval (the runs' errors combined as if independent; they share their deals, so the true"
    echo "intervals are narrower). Classes with fewer than 200 hands at a seat are left out."
    echo
    scripts/expert_gap.py "${gap[@]}"
} >"$out/expert-gap-4p.md"
