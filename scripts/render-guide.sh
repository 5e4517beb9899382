#!/usr/bin/env bash
# Renders results/GUIDE.md from results/GUIDE.template.md and the committed tables (every
# figure of the guide is a placeholder of the template: tests/docs/guide.rs says how to write one).
# The same rendering is the test that fails when the guide and the tables disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
BLESS=1 cargo test --profile suite --quiet --test docs -- guide::
