#!/usr/bin/env bash
# Regenerates the committed tables in results/ from their recorded commands.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
napsim=target/release/napsim
# results/example.csv: the README's worked example.
"$napsim" simulate --deals 1000000 --seed 7 --out results/example.csv --quiet
