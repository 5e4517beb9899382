#!/usr/bin/env bash
# The tournaments that test the committed strategies (results/PROFILE/optimize-expert-Np.json)
# on card sets none of their rounds used (seed 3535), every entrant playing expert: the tuned
# bidder against the threshold bidder it started from, and against the lookahead bidder that
# evaluates its own hand in the whole auction at every call (half the seats each). Writes
# results/PROFILE/tournament-tuned-RIVAL-Np.csv, .pairs.csv, .md and the manifest; a stopped run
# resumes from its checkpoint. With arguments, only the runs whose name contains one of them
# (`scripts/tuned-tournaments.sh pub-guide/tournament-tuned-lookahead-4p`).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${NAPSIM:-} ]]; then
    cargo build --release --quiet
fi
napsim=${NAPSIM:-target/release/napsim}

for run in heather-1875/4p heather-1875/6p pub-guide/4p pub-guide/6p; do
    rules=${run%/*} players=${run#*/}
    players=${players%p}
    strategy=results/$rules/optimize-expert-${players}p.json
    for rival in threshold lookahead; do
        stem=results/$rules/tournament-tuned-${rival}-${players}p
        if [ $# -gt 0 ]; then
            keep=0
            for pattern in "$@"; do [[ $stem == *"$pattern"* ]] && keep=1; done
            [ $keep -eq 1 ] || continue
        fi
        case $rival in
            threshold) entrant=threshold=threshold/expert ;;
            lookahead) entrant="lookahead=(lookahead:worlds=64,play=expert,auction=on)/expert" ;;
        esac
        checkpoint=${TMPDIR:-/tmp}/napsim-$(echo "$stem" | tr / -).checkpoint
        resume=()
        [ -f "$checkpoint" ] && resume=(--resume "$checkpoint")
        echo "== $stem" >&2
        "$napsim" --rules "$rules" tournament --players "$players" --sessions 4000 --seed 3535 \
            --entrant "tuned=(tuned:file=($strategy))/expert" --entrant "$entrant" \
            --out "$stem.csv" --pairs "$stem.pairs.csv" --markdown "$stem.md" \
            --checkpoint "$checkpoint" "${resume[@]}" --quiet
        rm -f "$checkpoint"
    done
done
