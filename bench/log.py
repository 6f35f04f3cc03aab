#!/usr/bin/env python3
"""What reading and writing the audit log costs as it grows.

    bench/log.py [HOOKC [BASELINE]]   (default: target/release/hookc, built by
                                       bench/run.sh or `cargo build --release`;
                                       BASELINE: another hookc to time alongside)

In a scratch project with `audit-log #true` and its own HOME, one `hookc guard`
call makes the log and its seal; then the log is filled by hand to each size
(records shaped like the guard's, about 330 bytes each: a log an older hookc left
unbounded, or one written faster than it rotates), and each command runs three
times. The table gives the median wall time and the largest peak memory of one run
(GNU time, where /usr/bin/time exists: `apt-get install time`):

* `hookc log --limit 5`: the last five records (read backwards from the end);
* `hookc log --limit 5 --verdict deny`: the last five refusals, one record in
  a hundred, so about 500 records are read;
* `hookc log --since 1h --limit 0`: every record of the last hour (here: all),
  the whole file, for scale;
* `hookc guard` on `git status`, appending one record (and at 8 MiB rotating
  the log, which the first size past it does once).

No assertion: the figures are read off the table (tests/cli/audit_log.rs checks
the answers).
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
BASELINE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
RUNS = 3
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
SIZES = [10_000, 100_000, 600_000]

POLICY = """targets "claude"
audit-log #true

guard "no-force-push" {
    command "git" "push" { flag "--force" "-f"; }
    deny "Do not force-push; push normally, or ask the user."
    example "git push -f" expect="deny"
}
"""


def run(hookc, args, root, home, stdin=b""):
    """Median seconds and largest peak KiB of RUNS runs of `hookc ARGS`."""
    times, peak = [], 0
    peak_file = os.path.join(home, ".peak")
    env = dict(os.environ, HOME=home, NO_COLOR="1")
    env.pop("XDG_STATE_HOME", None)
    for _ in range(RUNS):
        measure = [TIME, "-q", "-f", "%M", "-o", peak_file] if TIME else []
        started = time.perf_counter()
        subprocess.run(measure + [hookc] + args, cwd=root, env=env, input=stdin,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
        if TIME:
            with open(peak_file) as f:
                peak = max(peak, int(f.read().split()[-1]))
    return statistics.median(times), peak


def log_file(home):
    folder = os.path.join(home, ".local/state/hookc/audit")
    return os.path.join(folder, next(n for n in os.listdir(folder) if n.endswith(".jsonl")
                                     and not n.endswith(".1.jsonl")))


def fill(path, lines, now):
    """Appends `lines` records to the log, one refusal in a hundred."""
    with open(path, "a") as f:
        for n in range(lines):
            verdict = "deny" if n % 100 == 0 else "none"
            f.write(json.dumps({
                "time": "2026-12-01T00:00:00Z", "unix": now, "harness": "claude",
                "event": "pre-tool", "tool": "Bash", "digest": "0" * 64,
                "summary": f"Bash cargo test --workspace -p crate-{n} -- --nocapture",
                "guards": ["no-force-push"] if verdict == "deny" else [],
                "verdict": verdict, "code": None, "override": None,
            }, separators=(",", ":")) + "\n")


def main():
    for h in [HOOKC] + ([BASELINE] if BASELINE else []):
        if not os.path.exists(h):
            sys.exit(f"no hookc at {h}: run `cargo build --release` first")
    print(f"# hookc log scaling ({HOOKC}{', baseline ' + BASELINE if BASELINE else ''}; "
          f"median of {RUNS} runs)\n")
    print("| records | log MB | command | hookc ms | peak MB |"
          + (" baseline ms | baseline peak MB |" if BASELINE else ""))
    print("|---:|---:|---|---:|---:|" + ("---:|---:|" if BASELINE else ""))
    for size in SIZES:
        work = tempfile.mkdtemp(prefix="hookc-log-")
        try:
            root = os.path.join(work, "project")
            home = os.path.join(work, "home")
            os.makedirs(root)
            os.makedirs(home)
            with open(os.path.join(root, "policy.kdl"), "w") as f:
                f.write(POLICY)
            subprocess.run(["git", "init", "-q"], cwd=root, check=True)
            subprocess.run([HOOKC, "build"], cwd=root, check=True, capture_output=True)
            guard = ["guard", "--harness", "claude", "--event", "pre-tool",
                     "--policy", os.path.join(root, ".hookc/policy.json")]
            stdin = json.dumps({"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse",
                                "tool_name": "Bash",
                                "tool_input": {"command": "git status"}}).encode()
            subprocess.run([HOOKC] + guard, cwd=root, input=stdin, capture_output=True,
                           env=dict(os.environ, HOME=home))
            path = log_file(home)
            fill(path, size, int(time.time()))
            mb = os.path.getsize(path) / 1e6
            commands = [
                ("log --limit 5", ["log", "--limit", "5"], b""),
                ("log --limit 5 --verdict deny", ["log", "--limit", "5", "--verdict", "deny"], b""),
                ("log --since 1h --limit 0", ["log", "--since", "1h", "--limit", "0"], b""),
                ("guard (appends a record)", guard, stdin),
            ]
            for label, args, data in commands:
                ms, peak = run(HOOKC, args, root, home, data)
                row = f"| {size:,} | {mb:.0f} | `{label}` | {ms * 1000:.1f} | "
                row += f"{peak / 1024:.1f} |" if TIME else "n/a |"
                if BASELINE:
                    bms, bpeak = run(BASELINE, args, root, home, data)
                    row += f" {bms * 1000:.1f} | " + (f"{bpeak / 1024:.1f} |" if TIME else "n/a |")
                print(row)
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
