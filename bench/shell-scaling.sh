#!/usr/bin/env bash
# Time and peak memory of `hookc guard` on shell lines that grow: each
# family at several sizes, so that a step that is not linear shows.
#
#   bench/shell-scaling.sh [HOOKC] [SIZES...]
#
# HOOKC defaults to target/release/hookc; SIZES to 100 10000 1000000. The
# bundled policy is built into a scratch project; each line is sent as a
# Claude Code PreToolUse payload. Prints: family, size, payload bytes,
# seconds, peak KB, exit (2 refused, 0 allowed).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
hookc=$(realpath "${1:-$here/target/release/hookc}")
shift || true
sizes=("${@:-100 10000 1000000}")
read -r -a sizes <<<"${sizes[*]}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/policy.kdl" "$work/"
(cd "$work" && git init -q && "$hookc" build >/dev/null)

gen() { # family size -> payload on stdout
  python3 - "$1" "$2" "$work" <<'PY'
import json, sys
family, n, cwd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def nest(depth, each, core):
    # Built from both ends at once: formatting level by level is quadratic.
    before, after = each.split("{}")
    return before * depth + core + after * depth
lines = {
    "true": lambda: "true; " * n + "git push --force",
    "cat": lambda: "cat" + " | cat" * n,
    "echo": lambda: "echo" + " a" * n,
    "cd": lambda: "cd .; " * n + "git push --force",
    "cd-prefix": lambda: "cd " + "./" * n + "; touch " + " ".join(f"f{i}" for i in range(n)) + "; git push --force",
    "group": lambda: "{ " * n + "true" + "; }" * n,
    "subst": lambda: nest(n, "$( {} )", "true"),
    "dq-subst": lambda: nest(n, '"$({})"', "git push --force"),
    "braces": lambda: "touch " + "{a,b}" * n + " ; rm -rf /",
    "heredoc": lambda: "cat > out.txt <<'EOF'\n" + "".join(f"line {i} of a file, $HOME kept\n" for i in range(n)) + "EOF",
}
print(json.dumps({"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse",
                  "tool_name": "Bash", "tool_input": {"command": lines[family]()}}))
PY
}

printf '%-10s %9s %10s %8s %9s %s\n' family size bytes seconds peak_kb exit
for family in ${FAMILIES:-true cat echo cd cd-prefix group subst dq-subst braces heredoc}; do
  for n in "${sizes[@]}"; do
    # Brace groups and nesting grow by the group: a million is not needed.
    case $family in braces | dq-subst) ((n > 10000)) && n=1000 ;; esac
    gen "$family" "$n" >"$work/in.json"
    bytes=$(stat -c %s "$work/in.json")
    set +e
    (cd "$work" && /usr/bin/time -o "$work/time" -f "%e %M" timeout 120 "$hookc" guard \
      --harness claude --event pre-tool --policy .hookc/policy.json \
      <"$work/in.json" >/dev/null 2>&1)
    code=$?
    set -e
    read -r secs kb < <(tail -n 1 "$work/time") || true
    printf '%-10s %9s %10s %8s %9s %s\n' "$family" "$n" "$bytes" "$secs" "$kb" "$code"
  done
done
