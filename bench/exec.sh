#!/usr/bin/env bash
# What `hookc exec` (the run-time judge, Linux) costs, next to the same command run directly,
# in one run: `true`, `git status` in a small repository, a step of 200 processes
# (`for i in $(seq 200); do /bin/true; done` under sh), and 2,000 opens of one file by one
# shell (what a file call costs: the difference over 2,000). Each round runs the direct and the
# supervised commands one after the other, so load on the machine hits both alike. Two
# supervised columns: the repository's policy, which guards reading `.env` files (so every
# open that reads goes to the supervisor), and the same policy without that guard (only opens
# that write, and other file changes, go to it).
#   bench/exec.sh                 31 rounds (BENCH_RUNS=N to change)
#   HOOKC=path/to/hookc bench/exec.sh
#                                 time that binary instead of building the release one
# Prints the median of each and the ratio supervised / direct.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${BENCH_RUNS:-31}
if [ -z "${HOOKC:-}" ]; then
  cargo build --release --quiet
  HOOKC="$PWD/target/release/hookc"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A project with the repository's policy, built, and a small git repository in it.
cp policy.kdl "$work/"
(cd "$work" && git init -q && "$HOOKC" build -q >/dev/null)
# The same policy without its guard on reading files.
mkdir -p "$work/writes"
awk '/^guard "protect-env-files"/ { skip = 1 } skip && /^}/ { skip = 0; next } !skip' policy.kdl >"$work/writes/policy.kdl"
(cd "$work/writes" && git init -q && "$HOOKC" build -q >/dev/null)
mkdir -p "$work/repo"
(
  cd "$work/repo" && git init -q && for i in $(seq 50); do echo "$i" > "f$i.txt"; done &&
    git add . && git -c user.name=b -c user.email=b@example.invalid commit -qm files
)
policy="$work/.hookc/policy.json"
writes="$work/writes/.hookc/policy.json"
now() { date +%s%N; }
# time_one DIR CMD...: nanoseconds for one run of CMD in DIR, output dropped
time_one() {
  local dir=$1; shift
  local t0 t1
  t0=$(now)
  (cd "$dir" && "$@" >/dev/null 2>&1) || { echo "failed: $*" >&2; exit 1; }
  t1=$(now)
  echo $((t1 - t0))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
steps=(
  "true|$work|true"
  "git status|$work/repo|git status"
  "200 processes|$work|sh -c 'for i in \$(seq 200); do /bin/true; done'"
  "2000 opens|$work|sh -c 'for i in \$(seq 2000); do : < policy.kdl; done'"
)
printf '%-16s %10s %10s %7s %12s %7s\n' "command" "direct ms" "exec ms" "ratio" "no-reads ms" "ratio"
for step in "${steps[@]}"; do
  IFS='|' read -r name dir cmd <<<"$step"
  direct=() supervised=() unread=()
  for _ in $(seq "$runs"); do
    direct+=("$(time_one "$dir" sh -c "$cmd")")
    supervised+=("$(time_one "$dir" "$HOOKC" exec --harness claude --policy "$policy" -- sh -c "$cmd")")
    unread+=("$(time_one "$dir" "$HOOKC" exec --harness claude --policy "$writes" -- sh -c "$cmd")")
  done
  d=$(printf '%s\n' "${direct[@]}" | median)
  s=$(printf '%s\n' "${supervised[@]}" | median)
  u=$(printf '%s\n' "${unread[@]}" | median)
  awk -v n="$name" -v d="$d" -v s="$s" -v u="$u" \
    'BEGIN { printf "%-16s %10.2f %10.2f %6.2fx %12.2f %6.2fx\n", n, d / 1e6, s / 1e6, s / d, u / 1e6, u / d }'
done
echo "($runs rounds each; medians; every column includes starting sh -c)"
