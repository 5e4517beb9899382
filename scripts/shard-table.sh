#!/usr/bin/env bash
# Runs one bid table of configs/experiments/guide.tsv as SHARDS shards, at most MAX of them this
# time (default all), so that a long run spreads over sessions: each finished shard is a part
# file under results/parts/NAME/ (commit it); a stopped shard resumes from its checkpoint beside
# it. Once every part is there they are merged into results/NAME.csv and .md, the same bytes as
# the single run (scripts/reproduce-results.sh NAME) gives, and the parts are removed.
#
#   scripts/shard-table.sh heather-1875/pimc-classes-4p 8 2
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: $0 NAME SHARDS [MAX]" >&2; exit 2; }
wanted=$1 shards=$2 max=${3:-$2}
# NAPSIM pins a binary (a copy made before editing the sources): every shard and the merge
# must come from one napsim version, which merge checks.
if [[ -z ${NAPSIM:-} ]]; then
    cargo build --release --quiet
fi
napsim=${NAPSIM:-target/release/napsim}
line=$(awk -v n="$wanted" '$1 == n' configs/experiments/guide.tsv)
[[ -n $line ]] || { echo "no run named $wanted in configs/experiments/guide.tsv" >&2; exit 2; }
read -r name command rules players deals play dd by seed classes <<<"$line"
[[ $command == bid-table || $command == bid-table-auction ]] ||
    { echo "$name: only bid tables are sharded" >&2; exit 2; }
auction=()
[[ $command == bid-table-auction ]] && auction=(--auction)
case $deals in
per-class=*) sampling=(--per-class "${deals#per-class=}" --classes "$classes") ;;
*) sampling=(--deals "$deals") ;;
esac
run=(--rules "$rules" bid-table --players "$players" "${sampling[@]}" --play "$play"
    --dd-deals "$dd" --by "$by" --seed "$seed" --quiet "${auction[@]}")
parts=results/parts/$name
mkdir -p "$parts"
ran=0
for ((i = 0; i < shards; i++)); do
    part=$parts/part-$i-of-$shards.json
    [[ -f $part ]] && continue
    ((ran < max)) || break
    checkpoint=$part.checkpoint
    resume=()
    [[ -f $checkpoint ]] && resume=(--resume "$checkpoint")
    echo "== $name shard $i/$shards" >&2
    # The part is written (atomically) only when the shard is done.
    "$napsim" "${run[@]}" --shard "$i/$shards" --out "$part" --checkpoint "$checkpoint" \
        "${resume[@]}"
    rm -f "$checkpoint"
    ran=$((ran + 1))
done
done_parts=("$parts"/part-*-of-"$shards".json)
if [[ ${#done_parts[@]} -eq $shards && -f ${done_parts[0]} ]]; then
    "$napsim" merge "${done_parts[@]}" --out "results/$name.csv" --markdown "results/$name.md"
    rm -r "$parts"
    echo "== $name: merged $shards parts into results/$name.csv" >&2
else
    echo "== $name: $(ls "$parts"/part-*-of-"$shards".json 2>/dev/null | wc -l) of $shards parts done" >&2
fi
