#!/usr/bin/env bash
# Regenerates the committed tables in results/ from their recorded commands: the README's
# example, then every run of configs/experiments/guide.tsv (scripts/shard-table.sh runs a long
# one as shards over several sessions; the merged tables are the same bytes). With arguments, only the runs whose
# name contains one of them (`scripts/reproduce-results.sh heuristic-4p pub-guide/pimc`).
# The CSV, Markdown, SVG and strategy files come back byte for byte (the manifests record
# timings).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
napsim=target/release/napsim

wanted() {
    [ $# -eq 1 ] && return 0
    local name=$1; shift
    for pattern in "$@"; do
        case $name in *"$pattern"*) return 0 ;; esac
    done
    return 1
}

if wanted example "$@"; then
    # results/example.csv: the README's worked example.
    "$napsim" simulate --deals 1000000 --seed 7 --out results/example.csv --quiet
fi

# The sampling flags of a run: `--deals D`, or `--per-class N --classes FILE` for a deals
# column `per-class=N` (FILE from the classes column).
sampling_args() {
    case $1 in
    per-class=*) echo "--per-class ${1#per-class=} --classes $2" ;;
    *) echo "--deals $1" ;;
    esac
}

while read -r name command rules players deals play dd by seed classes; do
    case $name in '#'* | '') continue ;; esac
    wanted "$name" "$@" || continue
    mkdir -p "results/$(dirname "$name")"
    echo "== $name" >&2
    auction=()
    [ "$command" = bid-table-auction ] && auction=(--auction)
    case $command in
    bid-table | bid-table-auction)
        # shellcheck disable=SC2207
        sampling=($(sampling_args "$deals" "$classes"))
        plot=(--plot "results/$name.svg")
        # Class-targeted runs draw no chart (it would pool classes as if equally common).
        [[ $deals == per-class=* ]] && plot=()
        "$napsim" --rules "$rules" bid-table --players "$players" "${sampling[@]}" \
            --play "$play" --dd-deals "$dd" --by "$by" --seed "$seed" --quiet \
            --out "results/$name.csv" --markdown "results/$name.md" "${plot[@]}" "${auction[@]}"
        ;;
    thresholds)
        "$napsim" --rules "$rules" thresholds --players "$players" --deals "$deals" \
            --play "$play" --seed "$seed" --quiet --out "results/$name.csv" \
            >"results/$name.txt"
        ;;
    optimize)
        # A stopped run resumes from its checkpoint (kept outside results/ until it is done).
        checkpoint=${TMPDIR:-/tmp}/napsim-$(echo "$name" | tr / -).checkpoint
        resume=()
        [ -f "$checkpoint" ] && resume=(--resume "$checkpoint")
        # `by` is SCHEME or SCHEME:HISTORY.
        history=calls
        [[ $by == *:* ]] && history=${by#*:} by=${by%%:*}
        "$napsim" --rules "$rules" optimize --players "$players" --deals "$deals" \
            --play "$play" --by "$by" --history "$history" --seed "$seed" --quiet \
            --out "results/$name.json" \
            --checkpoint "$checkpoint" "${resume[@]}"
        rm -f "$checkpoint"
        ;;
    equity)
        "$napsim" --rules "$rules" equity --players "$players" --deals "$deals" \
            --bid "$by" --play "$play" --seed "$seed" --quiet \
            --out "results/$name.csv" --markdown "results/$name.md" --plot "results/$name.svg" \
            --outcomes "results/$name.outcomes.csv" --breakeven "results/$name.breakeven.csv"
        ;;
    *)
        echo "unknown command '$command' in configs/experiments/guide.tsv" >&2
        exit 2
        ;;
    esac
done <configs/experiments/guide.tsv

# The tournaments of the tuned strategies (results/PROFILE/tournament-tuned-*), once the
# strategies above are there.
if wanted tournament-tuned "$@"; then
    NAPSIM=$napsim scripts/tuned-tournaments.sh
fi
