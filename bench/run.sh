#!/usr/bin/env bash
# Guard latency and build time, side by side, on this machine.
#   bench/run.sh              200 rounds (BENCH_RUNS=N to change)
#   BENCH_CALLS_ONLY=1 bench/run.sh
#                             the call table alone, without the build and lint timings
#   BENCH_STATIC=1 bench/run.sh
#                             also builds hookc as the Linux release ships it
#                             (x86_64-unknown-linux-musl, linked statically, not a
#                             position-independent executable) into
#                             target/static and times it alongside
# Builds the release binary, generates the large policies, writes the bash + jq
# and Python comparison guards itself, and prints one table of medians and ratios.
# HOOKC_BASELINE=path/to/hookc times another binary alongside (see benches/guard.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${BENCH_STATIC:-}" ]; then
  # The target .github/workflows/release.yml builds the Linux x86_64 binary
  # for: the one users of the release, npm and the musllinux wheels run.
  musl=x86_64-unknown-linux-musl
  if ! rustup target list --installed 2>/dev/null | grep -qx "$musl"; then
    echo "bench/run.sh: BENCH_STATIC needs the $musl target: rustup target add $musl" >&2
    exit 1
  fi
  # With the flags release.yml builds it with (its comment says why).
  RUSTFLAGS="-C relocation-model=static" \
    cargo build --release --quiet --target "$musl" --target-dir target/static
  export HOOKC_BASELINE="$PWD/target/static/$musl/release/hookc"
  export HOOKC_BASELINE_LABEL=static
fi
cargo bench --bench guard --quiet
