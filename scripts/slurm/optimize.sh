#!/usr/bin/env bash
# Runs `napsim optimize` on Slurm, one phase (a round, then the exploitability) per array:
#
#   scripts/slurm/optimize.sh 16 runs/4p.json --players 4 --play expert --deals 1e6 --seed 35
#
# writes runs/4p.json, runs/4p.json.meta.json and runs/4p.md, the same bytes as
# `napsim optimize ... --out runs/4p.json` on one machine. Each phase is SHARDS array tasks
# (napsim-shards.sbatch, each `napsim optimize ... --start FILE --shard I/SHARDS`) and a job
# that merges them into the strategy file after that phase (runs/4p.phases/phase-K/4p.json) and
# submits the next phase, until the file is finished; the parts and logs stay in runs/4p.phases/.
# Run it again with the same arguments to go on from the last finished phase (after a failure).
# A --start in the arguments is where the run begins (default threshold).
# Environment: NAPSIM (the napsim binary), SBATCH_* for cluster options, as submit.sh.
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 SHARDS FILE.json NAPSIM-OPTIMIZE-ARG..." >&2
    echo "   eg: $0 16 runs/4p.json --players 4 --play expert --deals 1e6 --seed 35" >&2
    exit 2
fi
shards=$1
out=$2
shift 2
case $shards in
    '' | *[!0-9]* | 0) echo "optimize.sh: SHARDS must be a positive whole number, not '$shards'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
# Slurm runs copies of the batch scripts: the next-phase job finds optimize.sh through this.
export NAPSIM_SLURM_SCRIPTS=$here
phases=${out%.json}.phases
mkdir -p "$phases"

# The arguments without --start (and without a leading `optimize`), and where the run starts.
[ "${1:-}" = optimize ] && shift
start=threshold
args=()
while [ $# -gt 0 ]; do
    case $1 in
        --start) start=$2; shift 2 ;;
        --start=*) start=${1#--start=}; shift ;;
        *) args+=("$1"); shift ;;
    esac
done

# The last finished phase's file, if any, is where this phase starts. (Each phase's file has
# the name of FILE, so that the command it records to reproduce it names FILE.)
name=$(basename "$out")
k=1
while [ -f "$phases/phase-$k/$name" ]; do
    start=$phases/phase-$k/$name
    k=$((k + 1))
done
if [ "$start" != threshold ] && grep -q '"exploitability"' "$start"; then
    for suffix in "" .meta.json; do cp "$start$suffix" "$out$suffix"; done
    cp "${start%.json}.md" "${out%.json}.md"
    echo "optimize.sh: finished: $out" >&2
    exit 0
fi
dir=$phases/phase-$k
if compgen -G "$dir/part-*.json" > /dev/null; then
    echo "optimize.sh: $dir already holds parts; remove them to run phase $k again" >&2
    exit 2
fi
mkdir -p "$dir"
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$dir/slurm-%A_%a.out" \
    "$here/napsim-shards.sbatch" "$dir" optimize "${args[@]}" --start "$start")
array=${array%%;*}
next=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$dir/slurm-%j-next.out" "$here/napsim-optimize-next.sbatch" \
    "$shards" "$out" "$k" "${args[@]}" --start "$start")
next=${next%%;*}
echo "submitted phase $k: shards job $array ($shards tasks), then job $next merges and goes on (logs in $dir/)"
