#!/usr/bin/env python3
"""How `hookc guard`'s time and memory grow with its input.

    bench/scaling.py [HOOKC]      (default: target/release/hookc, built by bench/run.sh
                                   or `cargo build --release`)

For each dimension (line length, nesting, brace groups, tree size, policy size) the
guard answers a Claude Code call at growing sizes, in a scratch project built from the
bundled policy, as a real process. Each size runs three times; the table gives the
median wall time, the largest peak memory of one run (measured by GNU time
where /usr/bin/time exists: `apt-get install time`), the answer (allow,
deny, or the deadline's refusal) and, per step, how much the time grew against how much
the input grew: about 1x per 1x is linear. No assertion: the bounds are read off the
table (the tests check the answers, see src/shell and tests/cli/guard.rs).
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOOKC = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(REPO, "target/release/hookc")
RUNS = 3
# GNU time (Debian's `time` package) measures each call's peak memory.
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def project(root, policy_text):
    os.makedirs(root)
    with open(os.path.join(root, "policy.kdl"), "w") as f:
        f.write(policy_text)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run([HOOKC, "build"], cwd=root, check=True, capture_output=True)
    return root


def call(root, command):
    payload = json.dumps({
        "session_id": "s", "cwd": root, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command},
    }).encode()
    times, peak, answer = [], 0, "?"
    peak_file = os.path.join(root, ".peak")
    for _ in range(RUNS):
        with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout:
            stdin.write(payload)
            stdin.seek(0)
            guard = [HOOKC, "guard", "--harness", "claude", "--event", "pre-tool",
                     "--policy", os.path.join(root, ".hookc/policy.json")]
            # A child's peak memory counts the parent it was forked from (this
            # Python), so GNU time, a small process, forks hookc and reports it.
            measure = [TIME, "-q", "-f", "%M", "-o", peak_file] if TIME else []
            started = time.perf_counter()
            child = subprocess.run(measure + guard, stdin=stdin, stdout=stdout,
                                   stderr=subprocess.DEVNULL, cwd=root)
            times.append(time.perf_counter() - started)
            if TIME:
                with open(peak_file) as f:
                    peak = max(peak, int(f.read().split()[-1]))
            stdout.seek(0)
            out = stdout.read().decode(errors="replace")
        if "could not finish checking" in out:
            answer = "deadline"
        elif child.returncode == 2:
            answer = "deny"
        elif child.returncode == 0:
            answer = "allow"
        else:
            answer = f"exit {child.returncode}"
    return statistics.median(times), peak, answer


def table(title, rows):
    print(f"\n## {title}\n")
    print("| size | input bytes | median ms | peak MB | answer | time growth / input growth |")
    print("|---:|---:|---:|---:|---|---:|")
    last = None
    for size, nbytes, ms, peak, answer in rows:
        growth = ""
        if last and last[1] and last[2] > 0:
            growth = f"{(ms / last[2]):.1f}x / {(nbytes / last[1]):.0f}x"
        shown = f"{peak / 1024:.1f}" if TIME else "n/a"
        print(f"| {size} | {nbytes} | {ms:.1f} | {shown} | {answer} | {growth} |")
        last = (size, nbytes, ms)


def dimension(root, title, sizes, make):
    rows = []
    for n in sizes:
        command = make(n)
        seconds, peak, answer = call(root, command)
        rows.append((n, len(command.encode()), seconds * 1000, peak, answer))
    table(title, rows)


def main():
    if not os.path.exists(HOOKC):
        sys.exit(f"no hookc at {HOOKC}: run `cargo build --release` first")
    bundled = open(os.path.join(REPO, "policy.kdl")).read()
    work = tempfile.mkdtemp(prefix="hookc-scaling-")
    try:
        root = project(os.path.join(work, "bundled"), bundled)
        print(f"# hookc guard scaling ({HOOKC}; median of {RUNS} runs)")
        words = [100, 10_000, 1_000_000]
        dimension(root, "Words: `true; true; …; git push --force`", words,
                  lambda n: "true; " * n + "git push --force")
        dimension(root, "Words: `echo a a a …`", words, lambda n: "echo" + " a" * n)
        dimension(root, "Pipeline: `cat | cat | …`", words, lambda n: "cat" + " | cat" * n)
        dimension(root, "Prefix: `cd ./././…; touch f1 … fN; git push --force`",
                  [100, 1_000, 10_000, 100_000],
                  lambda n: "cd " + "./" * n + "; touch " + " ".join(f"f{i}" for i in range(n))
                  + "; git push --force")
        depth = [10, 100, 1_000, 10_000, 100_000]
        dimension(root, "Nesting: `{ { … true; } … }`", depth,
                  lambda n: "{ " * n + "true; " + "} " * n)
        dimension(root, "Nesting: `\"$(\"$(… echo …)\")\"`", [4, 8, 16, 64, 1_000],
                  lambda n: '"$(' * n + "echo hi" + ')"' * n)
        dimension(root, "Brace groups: `touch {a,b}{a,b}…; rm -rf /`", [4, 8, 12, 16, 19, 32],
                  lambda n: "touch " + "{a,b}" * n + " ; rm -rf /")

        rows = []
        for n in [1_000, 10_000, 100_000]:
            tree = os.path.join(work, f"tree-{n}")
            project(tree, bundled)
            per = 1000
            for d in range(n // per):
                folder = os.path.join(tree, "node_modules", f"p{d}")
                os.makedirs(folder)
                for i in range(per):
                    open(os.path.join(folder, f"f{i}.js"), "w").close()
            seconds, peak, answer = call(tree, "grep -r KEY .")
            rows.append((n, n, seconds * 1000, peak, answer))
        table("Tree: `grep -r KEY .` over N files, no `.env`", rows)

        rows = []
        guard = 'guard "g{i}" {{\n    command "tool{i}" "run" {{ flag "--force"; }}\n    deny "Do not."\n}}\n'
        for n in [10, 1_000, 10_000]:
            text = bundled + "".join(guard.format(i=i) for i in range(n))
            proot = project(os.path.join(work, f"policy-{n}"), text)
            seconds, peak, answer = call(proot, "git push --force")
            rows.append((n, os.path.getsize(os.path.join(proot, ".hookc/policy.json")),
                         seconds * 1000, peak, answer))
        table("Policy: N more guards, `git push --force`", rows)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
