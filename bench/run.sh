#!/usr/bin/env bash
# Guard latency and build time, side by side, on this machine.
#   bench/run.sh              200 rounds (BENCH_RUNS=N to change)
# Builds the release binary, generates the large policies, writes the bash + jq
# and Python comparison guards itself, and prints one table of medians and ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench guard --quiet
