#!/usr/bin/env bash
# The Python package as a user installs it: `pip install .` into a fresh virtual environment
# (pip fetches maturin, which builds the extension in python/) with pytest, pandas and tqdm (the
# docs' examples use them; a test hides pandas to check the plain lists), then tests/python (pytest)
# against this build's `napsim` binary: the same numbers for the same arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -m venv --help > /dev/null 2>&1; then
    apt-get install -y -q python3-venv > /dev/null
fi
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --quiet --manifest-path python/Cargo.toml -- -D warnings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
start=$SECONDS
"$work/venv/bin/pip" install --quiet . pytest pandas tqdm
echo "test-python: pip install . took $((SECONDS - start)) s"
cargo build --release --quiet
NAPSIM_BIN="$PWD/target/release/napsim" "$work/venv/bin/python" -m pytest -q tests/python
echo "test-python: PASS"
