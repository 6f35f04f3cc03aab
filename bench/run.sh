#!/usr/bin/env bash
# Guard latency and build time, side by side, on this machine.
#   bench/run.sh              200 rounds (BENCH_RUNS=N to change)
#   BENCH_CALLS_ONLY=1 bench/run.sh
#                             the call table alone, without the build and lint timings
#   BENCH_STATIC=1 bench/run.sh
#                             also builds hookc linked statically (glibc, x86_64
#                             Linux) into target/static and times it alongside
# Builds the release binary, generates the large policies, writes the bash + jq
# and Python comparison guards itself, and prints one table of medians and ratios.
# HOOKC_BASELINE=path/to/hookc times another binary alongside (see benches/guard.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BENCH_STATIC:-}" ]; then
  # --target keeps the flag off build scripts and proc macros, which cannot be static.
  RUSTFLAGS="-C target-feature=+crt-static" cargo build --release --quiet \
    --target x86_64-unknown-linux-gnu --target-dir target/static
  export HOOKC_BASELINE="$PWD/target/static/x86_64-unknown-linux-gnu/release/hookc"
  export HOOKC_BASELINE_LABEL=static
fi
cargo bench --bench guard --quiet
