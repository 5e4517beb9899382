#!/usr/bin/env bash
# Proves scripts/slurm/ on a real Slurm cluster of one node on this machine: installs Slurm and
# munge from the distribution's packages if they are missing (Debian/Ubuntu, as root), starts
# munged, slurmctld and slurmd in a temporary directory (their own key, socket, ports, state and
# logs; nothing under /etc is changed), submits a 4-task array of `napsim simulate` shards plus
# the merge job with scripts/slurm/submit.sh, waits, and checks that the merged CSV is byte for
# byte the single-process run's, and its manifest the same outside the "run" object. The daemons
# are stopped and the directory removed on every exit; on failure the logs are printed first.
#
#   scripts/test-slurm.sh            (NAPSIM_SLURM_KEEP=1 keeps the temporary directory)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/usr/sbin:/sbin

shards=4
deals=200000
seed=2024
command=(simulate --players 4 --deals "$deals" --seed "$seed")

say() { echo "test-slurm: $*" >&2; }
failure="a command failed"
fail() {
    failure=$*
    exit 1
}

# --- Clean-up on every exit: the daemons (pids, started in this order: munged, slurmctld,
# slurmd) and the temporary directory (work); on failure, the logs first. -------------------------
work=
pids=()
show_logs() {
    local log
    [ -n "$work" ] || return 0
    for log in "$work"/*.log "$work"/cluster.parts/slurm-*.out; do
        [ -f "$log" ] || continue
        echo "----- ${log#"$work"/} (last 40 lines)" >&2
        tail -n 40 "$log" >&2
    done
}
cleanup() {
    local status=$? pid
    trap - EXIT INT TERM
    # Cancel what is left in the queue (after a failure) while slurmctld is there to do it.
    if [ ${#pids[@]} -ge 2 ] && kill -0 "${pids[1]}" 2> /dev/null; then
        scancel --quiet --user="$(id -un)" 2> /dev/null || true
        for _ in $(seq 30); do [ -z "$(squeue --noheader 2> /dev/null)" ] && break; sleep 0.5; done
    fi
    if [ "$status" -ne 0 ]; then
        show_logs
        say "FAIL: $failure (exit $status)"
    fi
    # Stop the daemons in the reverse order: slurmd, slurmctld, munged.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill "$pid" 2> /dev/null || continue
        for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2> /dev/null || true
        wait "$pid" 2> /dev/null || true
    done
    if [ -n "$work" ]; then
        if [ -n "${NAPSIM_SLURM_KEEP:-}" ]; then say "kept $work"; else rm -rf "$work"; fi
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'failure=interrupted; exit 130' INT TERM

# --- Packages -----------------------------------------------------------------------------------
missing=()
for tool in munged:munge slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client jq:jq; do
    command -v "${tool%%:*}" > /dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" -eq 0 ] || fail "needs root to install ${missing[*]}"
    command -v apt-get > /dev/null || fail "no apt-get to install ${missing[*]}"
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # The packages' own services are not used (and a container does not start them anyway).
    apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi
[ "$(id -u)" -eq 0 ] || fail "run it as root (slurmd runs the jobs as root here)"

# --- napsim -------------------------------------------------------------------------------------
cargo build --release --quiet
napsim=$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/release/napsim
[ -x "$napsim" ] || fail "no binary at $napsim"

# --- The cluster --------------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/napsim-slurm.XXXXXX")
chmod 755 "$work" # munged wants its socket's directory searchable by everyone

# Waits up to $1 seconds for the command after it to succeed, checking the daemons are alive.
wait_for() {
    local seconds=$1 pid
    shift
    for _ in $(seq $((seconds * 5))); do
        "$@" > /dev/null 2>&1 && return 0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2> /dev/null || fail "a daemon (pid $pid) died"; done
        sleep 0.2
    done
    fail "timed out after ${seconds}s waiting for: $*"
}

# Two free TCP ports on loopback, for slurmctld and slurmd (not Slurm's defaults, 6817 and 6818,
# so that a real Slurm on this machine is left alone).
port_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
ports=()
for port in $(seq 16817 16917); do
    port_free "$port" && ports+=("$port")
    [ ${#ports[@]} -lt 2 ] || break
done
[ ${#ports[@]} -eq 2 ] || fail "no free ports in 16817-16917"

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" << EOF
# One node on localhost, without cgroups (a container may not delegate them): processes are
# tracked through /proc, tasks are not bound, and no accounting is kept. Daemons run in the
# foreground (-D) and log to stderr, which goes to $work/*.log.
ClusterName=napsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf

mungekey --create --keyfile="$work/munge.key"
munged --foreground --key-file="$work/munge.key" --socket="$work/munge.socket" \
    --pid-file="$work/munged.pid" --seed-file="$work/munged.seed" > "$work/munged.log" 2>&1 &
pids+=($!)
munge_works() { munge --socket="$work/munge.socket" --no-input | unmunge --socket="$work/munge.socket"; }
wait_for 20 munge_works

slurmctld -D > "$work/slurmctld.log" 2>&1 &
pids+=($!)
wait_for 30 scontrol ping
slurmd -D > "$work/slurmd.log" 2>&1 &
pids+=($!)
node_idle() { [ "$(sinfo --noheader --format=%T)" = idle ]; }
wait_for 60 node_idle
say "cluster up: node $host, ports ${ports[*]}, in $work"

# --- The run ------------------------------------------------------------------------------------
say "single-process run: napsim ${command[*]}"
"$napsim" "${command[@]}" --out "$work/single.csv" --quiet

NAPSIM=$napsim scripts/slurm/submit.sh "$shards" "$work/cluster.csv" "${command[@]}" >&2
# The merge job depends on the array with --kill-on-invalid-dep, so a failed shard empties the
# queue too.
queue_empty() { [ -z "$(squeue --noheader)" ]; }
wait_for 300 queue_empty

[ -f "$work/cluster.csv" ] || fail "the merge job wrote no $work/cluster.csv"
[ -f "$work/cluster.csv.meta.json" ] || fail "the merge job wrote no manifest"
parts=("$work"/cluster.parts/part-*.json)
[ ${#parts[@]} -eq "$shards" ] || fail "expected $shards parts, found ${#parts[@]}"
cmp "$work/single.csv" "$work/cluster.csv" || fail "merged CSV differs from the single run's"
# The manifests may differ only in their "run" object (command line, threads, timing).
manifest() { jq --sort-keys 'del(.run)' "$1"; }
diff <(manifest "$work/single.csv.meta.json") <(manifest "$work/cluster.csv.meta.json") >&2 ||
    fail "merged manifest differs from the single run's outside \"run\""
say "PASS: $shards Slurm array shards + merge == single run ($(wc -l < "$work/cluster.csv") CSV lines, byte for byte)"

# --- An optimiser run, a phase per array --------------------------------------------------------
optimize=(optimize --players 3 --play heuristic --deals 30000 --rounds 2 --min-hands 100 --seed "$seed")
say "single-process run: napsim ${optimize[*]}"
mkdir -p "$work/single" "$work/cluster"
"$napsim" "${optimize[@]}" --out "$work/single/strategy.json" --quiet
NAPSIM=$napsim scripts/slurm/optimize.sh "$shards" "$work/cluster/strategy.json" "${optimize[@]}" >&2
# Done when the strategy is written, or when the queue empties without it (a job failed).
optimize_ended() { [ -f "$work/cluster/strategy.json" ] || [ -z "$(squeue --noheader)" ]; }
wait_for 600 optimize_ended
[ -f "$work/cluster/strategy.json" ] || fail "the Slurm jobs ended without writing the strategy"
for file in strategy.json strategy.md; do
    cmp "$work/single/$file" "$work/cluster/$file" || { diff "$work/single/$file" "$work/cluster/$file" >&2; fail "the Slurm $file differs from the single run's"; }
done
diff <(manifest "$work/single/strategy.json.meta.json") <(manifest "$work/cluster/strategy.json.meta.json") >&2 ||
    fail "the Slurm strategy's manifest differs from the single run's outside \"run\""
say "PASS: napsim optimize as Slurm arrays, a phase each, == single run ($(ls -d "$work"/cluster/strategy.phases/phase-* | wc -l) phases)"
