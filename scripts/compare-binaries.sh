#!/usr/bin/env bash
# Runs a battery of napsim commands with two binaries and compares everything they print and
# write (stdout, stderr, exit status, output files), timings masked. For refactors that must not
# change a byte: scripts/compare-binaries.sh OLD_BINARY NEW_BINARY
set -uo pipefail
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# Both binaries under the same name, so that usage lines and manifests name the same program.
mkdir -p "$work/bin-old" "$work/bin-new"
cp "$1" "$work/bin-old/napsim"; cp "$2" "$work/bin-new/napsim"
old="$work/bin-old/napsim"; new="$work/bin-new/napsim"
# Timings differ from run to run, and napsim_version carries the source revision: masked (and
# the digest that closes a partial file, which covers both; the rest of the file is compared).
mask() { sed -E 's#'"$work"'/bin-(old|new)#BIN#g; s#'"$work"'/(old|new)/#DIR/#g; s/[0-9]+\.[0-9]+ ?(s|ms|µs)\b/T s/g; s/"elapsed_seconds": ?[0-9.e+-]+/"elapsed_seconds": T/g; s/"cpu_seconds": ?[0-9.e+-]+/"cpu_seconds": T/g; s/"time_us": ?\{[^}]*\}/"time_us": T/g; s/"napsim_version": ?"[^"]*"/"napsim_version": V/g; s/"digest": ?"[0-9a-f]{16}"\}$/"digest": D}/; s/\([0-9]+ deals\/s\)/(R deals\/s)/g; s/(mean|median|p99|max|p90)[ =:]+[0-9.]+/\1 T/g'; }
n=0; bad=0
run() {
  n=$((n + 1))
  for side in old new; do
    mkdir -p "$work/$side/$n"; cd "$work/$side/$n"
    bin=${!side}
    "$bin" "$@" >stdout 2>stderr; echo "exit $?" >status
    for f in $(find . -type f | sort); do [ "$f" = ./stdout ] || [ "$f" = ./stderr ] || [ "$f" = ./status ] || { echo "== $f"; mask <"$f"; } >>files; done
    mask <stdout >stdout.m; mask <stderr >stderr.m; touch files
  done
  for f in stdout.m stderr.m status files; do
    if ! cmp -s "$work/old/$n/$f" "$work/new/$n/$f"; then
      echo "DIFFERS ($f): napsim $*"; diff "$work/old/$n/$f" "$work/new/$n/$f" | head -8; bad=$((bad + 1))
    fi
  done
}
run simulate --deals 200000 --seed 7
run simulate --deals 100000 --seed 7 --out -
run simulate --deals 100000 --seed 7 --out sim.csv --threads 1
run --rules pub-guide simulate --players 5 --deals 100000 --seed 3 --out sim.csv
run --rules pub-guide simulate --players 3 --deals 20000 --seed 3 --play pimc:worlds=2 --bid always:bid=three
for p in $("$new" rules list | awk '{print $1}'); do
  run --rules "$p" deal --json --count 40 --seed 4
  run --rules "$p" deal --count 3 --seed 5
  run --rules "$p" simulate --deals 30000 --seed 11 --out -
  run --rules "$p" tournament --entrant a=threshold/heuristic --entrant b=pass/random --sessions 40 --seed 9 --out t.csv --pairs p.csv --markdown t.md
done
run rules show pub-guide
run solve "AS KS QS JS 2H/3H 4H 5H 6H 7H/8C 9C TC JC QC/2D 3D 4D 5D 6D"
run solve --random 300 --seed 5 --json
run solve --random 300 --seed 5 --misere
run hand "AS KS QS 7D 2C" --play heuristic --worlds 3000 --seed 3
run hand "AS KS QS 7D 2C" --play heuristic --worlds 3000 --seed 3 --json
run hand "AS KS 7D 2C 3H" --play heuristic --worlds 2000 --seed 3 --seat 2 --after pass,three --csv --out h.csv
run hand "AS KS QS 7D 2C" --play dd --worlds 300 --seed 3
run --rules pub-guide hand "TS 8S 5S 3S AH" --play heuristic --worlds 2000 --seed 1 --players 5
run bid-table --deals 20000 --seed 3 --min-hands 50 --out b.csv --markdown b.md --plot b.svg
run bid-table --deals 20000 --seed 3 --min-hands 50 --by exact --dd-deals 500
run --rules pub-guide bid-table --players 3 --deals 10000 --seed 3 --min-hands 20 --by coarse --out b.csv
run thresholds --deals 20000 --seed 3 --out -
run thresholds --deals 20000 --seed 3 --seat 1 --out th.csv
run tournament --entrant a=threshold/heuristic --entrant b=lookahead:worlds=4/heuristic --sessions 30 --seed 2 --no-duplicate
run simulate --deals 150000 --seed 8 --shard 1/3 --out part1
run hand "AS KS QS 7D 2C" --play heuristic --worlds 1000 --seed 3 --shard 0/2 --out hpart
# refusals
run simulate --players 9
run hand "AS KS QS 7D 7D"
run hand "AS KS QS 7D 2C" --seat 7
run simulate --bid nosuch
run bid-table --by nosuch
run tournament --entrant a=threshold/heuristic --sessions 10
run simulate --shard 0/2
run simulate --out /dev/null/x.csv --deals 10
run merge nosuch.part
run deal --calls pass --hands "AS KS QS JS TS/2H 3H 4H 5H 6H/2C 3C 4C 5C 6C/2D 3D 4D 5D 6D"
echo "$n commands, $bad differences"
[ "$bad" -eq 0 ]
