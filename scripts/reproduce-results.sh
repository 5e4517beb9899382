#!/usr/bin/env bash
# Regenerates the committed tables in results/ from their recorded commands: the README's
# example, then every run of configs/experiments/guide.tsv. With arguments, only the runs whose
# name contains one of them (`scripts/reproduce-results.sh heuristic-4p pub-guide/pimc`).
# The CSV, Markdown and SVG files come back byte for byte (the manifests record timings).
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

while read -r name command rules players deals play dd by seed; do
    case $name in '#'* | '') continue ;; esac
    wanted "$name" "$@" || continue
    mkdir -p "results/$(dirname "$name")"
    echo "== $name" >&2
    case $command in
    bid-table)
        "$napsim" --rules "$rules" bid-table --players "$players" --deals "$deals" \
            --play "$play" --dd-deals "$dd" --by "$by" --seed "$seed" --quiet \
            --out "results/$name.csv" --markdown "results/$name.md" --plot "results/$name.svg"
        ;;
    thresholds)
        "$napsim" --rules "$rules" thresholds --players "$players" --deals "$deals" \
            --play "$play" --seed "$seed" --quiet --out "results/$name.csv" \
            >"results/$name.txt"
        ;;
    *)
        echo "unknown command '$command' in configs/experiments/guide.tsv" >&2
        exit 2
        ;;
    esac
done <configs/experiments/guide.tsv
