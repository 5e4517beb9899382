#!/usr/bin/env bash
# Submits a napsim run to Slurm as SHARDS array tasks plus a merge job that waits for them all:
#
#   scripts/slurm/submit.sh 64 runs/big.csv simulate --players 4 --deals 1e10 --seed 7
#
# writes runs/big.csv and runs/big.csv.meta.json, as `napsim simulate ... --out runs/big.csv`
# would on one machine. The parts and the jobs' logs go to runs/big.parts/ (which must not hold
# parts of another run). It is the two sbatch commands of the README:
#
#   sbatch --array=0-(SHARDS-1) napsim-shards.sbatch runs/big.parts simulate ...
#   sbatch --dependency=afterok:JOBID --kill-on-invalid-dep=yes napsim-merge.sbatch runs/big.parts runs/big.csv
#
# Set NAPSIM to the napsim binary if it is not on PATH on the compute nodes, and cluster options
# with sbatch's own variables (SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ...).
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 SHARDS FILE.csv NAPSIM-COMMAND [ARG...]" >&2
    echo "   eg: $0 64 runs/big.csv simulate --players 4 --deals 1e10 --seed 7" >&2
    exit 2
fi
shards=$1
out=$2
shift 2
case $shards in
    '' | *[!0-9]* | 0) echo "submit.sh: SHARDS must be a positive whole number, not '$shards'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
parts=${out%.csv}.parts

mkdir -p "$parts"
if compgen -G "$parts/part-*.json" > /dev/null; then
    echo "submit.sh: $parts already holds parts of an earlier run; remove them first" >&2
    exit 2
fi

array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$parts/slurm-%A_%a.out" \
    "$here/napsim-shards.sbatch" "$parts" "$@")
array=${array%%;*} # --parsable prints JOBID or JOBID;CLUSTER
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --output="$parts/slurm-%j-merge.out" "$here/napsim-merge.sbatch" "$parts" "$out")
merge=${merge%%;*}
echo "submitted: shards job $array ($shards tasks), merge job $merge -> $out (logs in $parts/)"
