//! End-to-end guard latency and build time, measured side by side.
//!
//! Run with `bench/run.sh` (or `cargo bench --bench guard`). Every scenario is
//! a real process started the way a harness starts a hook, `sh -c COMMAND`
//! with the payload on stdin; scenarios run round-robin, each round in a new
//! order, so machine noise hits them all alike, and the table reports
//! medians and ratios to the floor (`sh -c 'exec true'`) measured in the same
//! run. No assertion here: the targets are read off the table (see the
//! README's development section).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const HOOKC: &str = env!("CARGO_BIN_EXE_hookc");

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let warmup = runs / 10 + 5;
    let work = tempfile::tempdir().expect("temp dir");
    let root = work.path();
    let bundled =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("policy.kdl")).unwrap();

    // HOOKC_BASELINE=/path/to/an/older/hookc times that binary alongside,
    // on projects it built itself, for before/after tables from one run.
    // HOOKC_BASELINE_LABEL names it in the table (default `baseline`).
    let label = std::env::var("HOOKC_BASELINE_LABEL").unwrap_or_else(|_| "baseline".to_owned());
    let label: &'static str = label.leak();
    let hookc = install(root, "hookc", Path::new(HOOKC));
    let baseline =
        std::env::var_os("HOOKC_BASELINE").map(|old| install(root, label, Path::new(&old)));
    let baseline = baseline.as_deref();
    let small = project(root, "bundled", &claude_only(&bundled), &hookc);
    let large = project(
        root,
        "guards-1000",
        &claude_only(&generated(&bundled, 1000)),
        &hookc,
    );
    let payload = root.join("payload.json");
    std::fs::write(
        &payload,
        r#"{"session_id":"s","transcript_path":"/tmp/t.jsonl","cwd":"/repo","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"tool_use_id":"t"}"#,
    )
    .unwrap();
    // hookc is found on PATH, as on a developer's machine.
    let path = format!(
        "{}:{}",
        hookc.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let jq = script(root, "jq-guard.sh", JQ_GUARD);
    let python = script(root, "python-guard.py", PYTHON_GUARD);

    // The hook command exactly as the build wrote it into
    // .claude/settings.json, run the way Claude Code runs it.
    // With the state folder whose pin names the copy of hookc the project's
    // build recorded (see `project`), as on the developer's machine.
    let shim_in = |dir: &Path, state: &Path| {
        let settings = std::fs::read_to_string(dir.join(".claude/settings.json")).unwrap();
        let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
        let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .expect("a PreToolUse hook command in .claude/settings.json")
            .to_owned();
        format!(
            "export CLAUDE_PROJECT_DIR='{}' XDG_STATE_HOME='{}'; {command}",
            dir.display(),
            state.display()
        )
    };
    let shim = |dir: &Path| shim_in(dir, &state_of(&hookc));
    let alone = |bin: &Path, dir: &Path| {
        format!(
            "exec '{}' guard --harness claude --event pre-tool --policy '{}'",
            bin.display(),
            dir.join(".hookc/policy.json").display()
        )
    };
    let mut scenarios: Vec<(String, String)> = vec![
        (
            "floor: sh -c 'exec true'".to_owned(),
            "exec true".to_owned(),
        ),
        (
            "hookc shim + guard, bundled policy".to_owned(),
            shim(&small),
        ),
        ("hookc shim + guard, 1,000 guards".to_owned(), shim(&large)),
        // Where no build recorded hookc (a teammate right after cloning), the
        // shim finds it on PATH and runs it under the system's `timeout`.
        (
            "hookc shim + guard, no pin (PATH, `timeout`)".to_owned(),
            shim_in(&small, &root.join("no-state")),
        ),
        (
            "hookc guard alone, bundled policy".to_owned(),
            alone(&hookc, &small),
        ),
        (
            "bash + jq guard, one regex".to_owned(),
            format!("'{}'", jq.display()),
        ),
        (
            "python guard, one regex".to_owned(),
            format!("'{}'", python.display()),
        ),
    ];
    if let Some(old) = baseline {
        let small = project(
            root,
            &format!("{label}-bundled"),
            &claude_only(&bundled),
            old,
        );
        let large = project(
            root,
            &format!("{label}-guards-1000"),
            &claude_only(&generated(&bundled, 1000)),
            old,
        );
        // Its own builds' pin names its own copy.
        let with_old = |dir: &Path| shim_in(dir, &state_of(old));
        scenarios.push((
            format!("{label} shim + guard, bundled policy"),
            with_old(&small),
        ));
        scenarios.push((
            format!("{label} shim + guard, 1,000 guards"),
            with_old(&large),
        ));
        scenarios.push((
            format!("{label} guard alone, bundled policy"),
            alone(old, &small),
        ));
    }
    let have = |tool: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {tool}"))
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let scenarios: Vec<_> = scenarios
        .into_iter()
        .filter(|(name, _)| {
            (!name.starts_with("bash + jq") || have("jq"))
                && (!name.starts_with("python") || have("python3"))
        })
        .collect();

    // Every scenario must really refuse the force push, with the policy's
    // reason: a broken setup (hookc not found, say) would time the wrong path.
    for (name, command) in &scenarios[1..] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(command)
            .env("PATH", &path)
            .stdin(std::fs::File::open(&payload).unwrap())
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            said.contains("Do not force-push"),
            "{name} did not refuse with the policy's reason: {said}"
        );
    }

    // Each round visits the scenarios in a new order. In a fixed order, the
    // scenario that always ran right after the Python guard timed up to
    // 0.45 ms slower than the same guard code run elsewhere in the round.
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); scenarios.len()];
    let mut order: Vec<usize> = (0..scenarios.len()).collect();
    let mut shuffle = Shuffle(0x2545_F491_4F6C_DD1D);
    for round in 0..warmup + runs {
        shuffle.apply(&mut order);
        for &i in &order {
            let took = time_once(&scenarios[i].1, &payload, &path);
            if round >= warmup {
                samples[i].push(took);
            }
        }
    }
    let floor = median(&mut samples[0]);
    let mut table = String::new();
    writeln!(table, "guard call, median of {runs} runs after {warmup} warm-up rounds (payload: a Claude Code Bash call, `git push --force`)").unwrap();
    writeln!(
        table,
        "{:<40} {:>10} {:>9}",
        "scenario", "median", "× floor"
    )
    .unwrap();
    let mut medians = Vec::new();
    for (i, (name, _)) in scenarios.iter().enumerate() {
        let m = median(&mut samples[i]);
        medians.push((name.as_str(), m));
        writeln!(
            table,
            "{:<40} {:>7.2} ms {:>8.2}×",
            name,
            ms(m),
            ms(m) / ms(floor)
        )
        .unwrap();
    }
    // The issue's target for the common call: the hook command and hookc
    // guard together at most 1.5× the floor.
    for (name, m) in &medians {
        if name.contains("shim + guard, bundled") {
            let ratio = ms(*m) / ms(floor);
            writeln!(
                table,
                "target: {name} <= {TARGET:.2}× floor: {ratio:.2}× ({})",
                if ratio <= TARGET { "met" } else { "missed" }
            )
            .unwrap();
        }
    }
    for who in ["hookc", label] {
        let Some(&(_, hookc)) = medians
            .iter()
            .find(|(n, _)| n.starts_with(&format!("{who} shim + guard, bundled")))
        else {
            continue;
        };
        for (name, m) in &medians {
            if name.starts_with("bash + jq") || name.starts_with("python") {
                writeln!(
                    table,
                    "{:<40} {:>7.1}× slower than {who}",
                    name,
                    ms(*m) / ms(hookc)
                )
                .unwrap();
            }
        }
    }

    // BENCH_CALLS_ONLY=1: the call table alone (the build of 10,000 guards
    // takes minutes).
    if std::env::var_os("BENCH_CALLS_ONLY").is_some() {
        print!("{table}");
        return;
    }
    let mut binaries = vec![("hookc", hookc.as_path())];
    binaries.extend(baseline.map(|old| (label, old)));
    let builds = time_builds(&binaries, root, &bundled);
    for ((who, bin), [small, large]) in binaries.iter().zip(builds) {
        writeln!(
            table,
            "\n{who}: build for every harness, median of {COMMAND_RUNS} runs after a warm-up"
        )
        .unwrap();
        writeln!(table, "{:<40} {:>7.1} ms", "1000 guards", ms(small)).unwrap();
        writeln!(table, "{:<40} {:>7.1} ms", "10000 guards", ms(large)).unwrap();
        writeln!(
            table,
            "{:<40} {:>7.1}×  (10× the guards)",
            "10,000 / 1,000",
            ms(large) / ms(small)
        )
        .unwrap();
        measure_commands(who, bin, root, &mut table);
    }
    print!("{table}");
}

/// The most a guarded call (hook command and `hookc guard`) may cost, as a
/// multiple of `sh -c 'exec true'`.
const TARGET: f64 = 1.5;

/// A fixed-seed shuffle (xorshift): each round of timings in a new order.
struct Shuffle(u64);

impl Shuffle {
    fn apply<T>(&mut self, items: &mut [T]) {
        for at in (1..items.len()).rev() {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            items.swap(at, (self.0 % (at as u64 + 1)) as usize);
        }
    }
}

/// Timed runs of each build and lint. With five, the build medians moved by
/// a quarter from one run of the bench to the next on a busy two-core machine.
const COMMAND_RUNS: usize = 9;

/// Median build times of 1,000 and 10,000 guards for each binary. The
/// builds take turns, in a new order each round, so a noisy spell of the
/// machine does not fall on one size or one binary.
fn time_builds(binaries: &[(&str, &Path)], root: &Path, bundled: &str) -> Vec<[Duration; 2]> {
    let mut jobs = Vec::new();
    for (who, bin) in binaries {
        for n in [1_000usize, 10_000] {
            let dir = root.join(format!("{who}-build-{n}"));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("policy.kdl"), generated(bundled, n)).unwrap();
            jobs.push((*bin, dir, n));
        }
    }
    let build = |(bin, dir, n): &(&Path, PathBuf, usize)| {
        let _ = std::fs::remove_dir_all(dir.join(".hookc"));
        let started = Instant::now();
        let status = Command::new(bin)
            .args(["build", "-q"])
            .current_dir(dir)
            .status()
            .unwrap();
        assert!(status.success(), "build of {n} guards failed");
        started.elapsed()
    };
    // A warm-up build of each.
    for job in &jobs {
        build(job);
    }
    let mut samples = vec![Vec::new(); jobs.len()];
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    let mut shuffle = Shuffle(0x9E37_79B9_7F4A_7C15);
    for _ in 0..COMMAND_RUNS {
        shuffle.apply(&mut order);
        for &j in &order {
            samples[j].push(build(&jobs[j]));
        }
    }
    samples
        .chunks_mut(2)
        .map(|pair| [median(&mut pair[0]), median(&mut pair[1])])
        .collect()
}

/// Lint time, startup and size of one binary.
fn measure_commands(who: &str, bin: &Path, root: &Path, table: &mut String) {
    writeln!(table, "\n{who}: lint, median of {COMMAND_RUNS} runs").unwrap();
    let lint_dir = root.join(format!("{who}-lint"));
    std::fs::create_dir_all(lint_dir.join(".claude")).unwrap();
    let groups: Vec<String> = (0..1000)
        .map(|i| {
            format!(
                r#"{{"matcher": "^(?:Tool{i})$", "hooks": [{{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hooks/h{i}.sh", "timeout": 10}}]}}"#
            )
        })
        .collect();
    std::fs::write(
        lint_dir.join(".claude/settings.json"),
        format!(
            "{{\"hooks\": {{\"PreToolUse\": [\n{}\n]}}}}\n",
            groups.join(",\n")
        ),
    )
    .unwrap();
    let mut times: Vec<Duration> = (0..COMMAND_RUNS)
        .map(|_| {
            let started = Instant::now();
            let _ = Command::new(bin)
                .args(["lint", "-q", ".claude/settings.json"])
                .current_dir(&lint_dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            started.elapsed()
        })
        .collect();
    writeln!(
        table,
        "{:<40} {:>7.1} ms",
        "1,000 hook entries",
        ms(median(&mut times))
    )
    .unwrap();

    let mut times: Vec<Duration> = (0..20)
        .map(|_| {
            let started = Instant::now();
            Command::new(bin)
                .arg("--version")
                .stdout(Stdio::null())
                .status()
                .unwrap();
            started.elapsed()
        })
        .collect();
    writeln!(
        table,
        "\n{who}: startup (--version), median of 20: {:.2} ms",
        ms(median(&mut times))
    )
    .unwrap();
    let size = std::fs::metadata(bin).map(|m| m.len()).unwrap_or(0);
    writeln!(
        table,
        "{who}: binary, {:.1} MiB",
        size as f64 / (1024.0 * 1024.0)
    )
    .unwrap();
}

fn time_once(command: &str, stdin: &Path, path: &str) -> Duration {
    let input = std::fs::File::open(stdin).unwrap();
    let started = Instant::now();
    let status = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("PATH", path)
        .stdin(input)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("spawn sh");
    let took = started.elapsed();
    // Every guard here must refuse the force push; anything else is a broken scenario.
    assert!(
        status.code() == Some(0) || status.code() == Some(2),
        "{command} exited {status}"
    );
    took
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn claude_only(policy: &str) -> String {
    let mut out = String::from("targets \"claude\"\n");
    for line in policy.lines().filter(|l| !l.starts_with("targets ")) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The bundled policy plus generated guards, up to `n` guards in all: shell
/// guards on other programs (so a call's own program is one among many),
/// path guards and regex guards, each with an example.
fn generated(bundled: &str, n: usize) -> String {
    let mut out = bundled.to_owned();
    let have = bundled.matches("\nguard ").count() + usize::from(bundled.starts_with("guard "));
    for i in 0..n.saturating_sub(have) {
        match i % 3 {
            0 => writeln!(
                out,
                "guard \"gen-{i}\" {{\n    command \"tool{i}\" \"sub{i}\" {{ flag \"--danger-{i}\" \"-d\"; }}\n    deny \"Do not run tool{i} with --danger-{i}; run it without that flag instead.\"\n    example \"tool{i} sub{i} -d\" expect=\"deny\"\n}}"
            ),
            1 => writeln!(
                out,
                "guard \"gen-{i}\" {{\n    tool \"write\" \"edit\"\n    path \"generated/{i}/**\"\n    ask \"generated/{i} is generated; change its source and regenerate instead.\"\n    example tool=\"edit\" path=\"generated/{i}/x.rs\" expect=\"ask\"\n}}"
            ),
            _ => writeln!(
                out,
                "guard \"gen-{i}\" {{\n    tool \"shell\"\n    regex #\"secret-{i}-[0-9]+\"#\n    deny \"Do not pass secret-{i} tokens on the command line; read them from the environment instead.\"\n    example \"echo secret-{i}-42\" expect=\"deny\"\n}}"
            ),
        }
        .unwrap();
    }
    out
}

fn project(root: &Path, name: &str, policy: &str, bin: &Path) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("policy.kdl"), policy).unwrap();
    let status = Command::new(bin)
        .args(["build", "-q"])
        .current_dir(&dir)
        .env("XDG_STATE_HOME", state_of(bin))
        .status()
        .unwrap();
    assert!(status.success(), "hookc build failed for {name}");
    dir
}

/// The state folder of the builds `bin` (a copy made by `install`) runs:
/// each binary's builds record their own copy for the hooks to run, so a
/// baseline's build does not make the current binary's hooks run it.
fn state_of(bin: &Path) -> PathBuf {
    bin.parent().unwrap().join("state")
}

/// A copy of `bin` at `root/dir/hookc`. Every binary is timed as a fresh copy
/// on the same file system, as `cargo install` leaves one: the binary the
/// linker wrote in `target/` took more page faults to start (143 against 135)
/// and about 0.1 ms more CPU per call than a copy of itself.
fn install(root: &Path, dir: &str, bin: &Path) -> PathBuf {
    let path = root.join(dir).join("hookc");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(bin, &path).unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    path
}

fn script(root: &Path, name: &str, text: &str) -> PathBuf {
    let path = root.join(name);
    std::fs::write(&path, text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// What teams write by hand: bash + jq, failing closed when jq is missing or the input is bad.
const JQ_GUARD: &str = r#"#!/bin/bash
command -v jq >/dev/null 2>&1 || { echo "guard: jq missing" >&2; exit 2; }
cmd=$(jq -r '.tool_input.command // empty') || { echo "guard: bad input" >&2; exit 2; }
if [[ $cmd =~ git[[:space:]]+push.*(--force|-f) ]]; then
  echo "Do not force-push." >&2
  exit 2
fi
exit 0
"#;

const PYTHON_GUARD: &str = r#"#!/usr/bin/env python3
import json, re, sys
try:
    cmd = json.load(sys.stdin).get("tool_input", {}).get("command", "")
except Exception:
    print("guard: bad input", file=sys.stderr)
    sys.exit(2)
if re.search(r"git\s+push.*(--force|-f)", cmd):
    print("Do not force-push.", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#;
