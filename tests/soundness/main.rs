//! The soundness judge (issue 19; book/src/testing.md): command lines run
//! under real shells in a throwaway sandbox, and whatever the policy denies
//! that really happened there must have been refused by `hookc guard`.
//!
//! `cargo test --test soundness`. HOOKC_JUDGE_CASES=N: the long mode, N
//! generated lines over every construct (the default run generates a few
//! hundred over the constructs the engine reads today). HOOKC_JUDGE_SEED,
//! HOOKC_JUDGE_SHELLS ("bash dash zsh"), HOOKC_JUDGE_JOBS (sandboxes at
//! once), HOOKC_JUDGE_POLICY (another policy.kdl, for a planted bug),
//! HOOKC_JUDGE_LINE (judge one line and show what it ran),
//! HOOKC_JUDGE_CALIBRATE=1 (every layer alone on every core),
//! HOOKC_JUDGE_BLESS=1 (rewrite known-misses.txt), HOOKC_SOUNDNESS=0 (skip),
//! HOOKC_JUDGE_EXEC=0 (skip the pass that runs every line again under
//! `hookc exec`, the run-time judge).

mod generate;
mod judge;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use generate::{Case, Layer};
use judge::{Context, Decision, Hookc, Outcome, Sandbox, Supervised};

const DEFAULT_CASES: usize = 300;
const DEFAULT_SEED: u64 = 19;
/// Generated misses shrunk and reported as failures (the rest are listed).
const SHRUNK: usize = 20;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    repo().join("tests/fixtures/soundness").join(name)
}

/// A line of a corpus file, with the class its `# class N` heading gives.
#[derive(Debug, Clone)]
struct Entry {
    class: String,
    line: String,
}

/// Corpus files: one command line a line; a line starting with `> `
/// continues the one before (heredocs); `# class NAME` starts a class;
/// other `#` lines and blank lines are comments.
fn read_corpus(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out: Vec<Entry> = Vec::new();
    let mut class = String::from("-");
    for l in text.lines() {
        if let Some(c) = l.strip_prefix("# class ") {
            class = c.split(':').next().unwrap().trim().to_string();
        } else if let Some(more) = l.strip_prefix("> ").or((l == ">").then_some("")) {
            let last = out
                .last_mut()
                .unwrap_or_else(|| panic!("{}: `> ` before any line", path.display()));
            last.line.push('\n');
            last.line.push_str(more);
        } else if !l.starts_with('#') && !l.trim().is_empty() {
            out.push(Entry {
                class: class.clone(),
                line: l.to_string(),
            });
        }
    }
    out
}

fn write_entry(line: &str) -> String {
    let mut s = String::new();
    for (i, l) in line.split('\n').enumerate() {
        if i > 0 {
            s.push_str(if l.is_empty() { ">" } else { "> " });
        }
        s.push_str(l);
        s.push('\n');
    }
    s
}

fn one_line(line: &str) -> String {
    line.replace('\n', " ⏎ ").replace('\t', " ⇥ ")
}

/// Compiles the policy into a scratch project; returns policy.json.
fn compile(hookc: &Path, policy: &Path, scratch: &Path) -> PathBuf {
    let dir = scratch.join("project");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(policy, dir.join("policy.kdl")).unwrap();
    let out = Command::new(hookc)
        .arg("build")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "hookc build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join(".hookc/policy.json")
}

/// The programs the policy's command guards name (found on disk or not).
fn programs(policy_json: &Path) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(policy_json).unwrap()).unwrap();
    let mut set = BTreeSet::new();
    for g in v["guards"].as_array().unwrap() {
        for c in g["commands"].as_array().into_iter().flatten() {
            // `{psql,mysql}` names several programs; a name with a glob
            // (`python*`) names none the sandbox can stand in for.
            if let Some(p) = c["program"].as_str() {
                let names = p.strip_prefix('{').and_then(|p| p.strip_suffix('}'));
                for name in names.map_or(vec![p], |n| n.split(',').collect()) {
                    if !name.contains(['*', '?', '[']) {
                        set.insert(name.to_string());
                    }
                }
            }
        }
    }
    set.into_iter().collect()
}

struct Verdict {
    outcome: Outcome,
    decision: Decision,
}

impl Verdict {
    fn miss(&self) -> bool {
        !self.outcome.denied.is_empty() && !self.decision.refused()
    }
    fn false_refusal(&self) -> bool {
        self.outcome.denied.is_empty() && self.decision.refused()
    }
    fn word(&self) -> &'static str {
        match (self.outcome.denied.is_empty(), self.decision.refused()) {
            (false, false) => "MISS",
            (false, true) => "refused",
            (true, true) => "false-refusal",
            (true, false) => "allowed",
        }
    }
}

struct Judge {
    sandbox: Sandbox,
    hookc: Hookc,
    ctx: Context,
}

impl Judge {
    /// Every line run again under `hookc exec` (the run-time judge), in a
    /// project that holds the policy's build (`built`): what each really
    /// did there.
    fn supervised(&mut self, lines: &[String], built: &Path) -> Vec<Outcome> {
        let sandbox = Sandbox {
            exec: Some(Supervised {
                hookc: self.hookc.exe.clone(),
                built: built.to_path_buf(),
            }),
            work: self.sandbox.work.with_extension("exec"),
            ..self.sandbox.clone()
        };
        let t = std::time::Instant::now();
        let runs = sandbox.run(lines);
        eprintln!(
            "soundness: ran {} lines under hookc exec in {:.1} s",
            lines.len(),
            t.elapsed().as_secs_f64()
        );
        runs.iter()
            .map(|r| judge::judge_supervised(r, &mut self.hookc, &self.ctx))
            .collect()
    }

    fn verdicts(&mut self, lines: &[String]) -> Vec<Verdict> {
        let t = std::time::Instant::now();
        let runs = self.sandbox.run(lines);
        eprintln!(
            "soundness: ran {} lines in the sandbox in {:.1} s",
            lines.len(),
            t.elapsed().as_secs_f64()
        );
        let t = std::time::Instant::now();
        let v: Vec<Verdict> = lines
            .iter()
            .zip(runs)
            .map(|(line, runs)| Verdict {
                outcome: judge::judge(&runs, &mut self.hookc, &self.ctx),
                decision: self.hookc.decide(line),
            })
            .collect();
        eprintln!(
            "soundness: judged them in {:.1} s",
            t.elapsed().as_secs_f64()
        );
        v
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo test --test soundness -- --list` and filters: one test here.
    if args.iter().any(|a| a == "--list") {
        println!("soundness: test");
        return;
    }
    if std::env::var("HOOKC_SOUNDNESS").is_ok_and(|v| v == "0") {
        eprintln!("soundness judge skipped (HOOKC_SOUNDNESS=0; .ci/run runs it in its own step)");
        return;
    }
    if let Some(why) = judge::unavailable() {
        eprintln!(
            "\n==============================================================\n\
             SKIPPED: the soundness judge did not run: {why}.\n\
             It needs root and `unshare` (user, mount, pid and network\n\
             namespaces); CI runs it as root. Nothing was judged.\n\
             ==============================================================\n"
        );
        return;
    }
    let started = std::time::Instant::now();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("soundness");
    std::fs::create_dir_all(&tmp).unwrap();
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_hookc"));
    let policy_kdl = std::env::var_os("HOOKC_JUDGE_POLICY")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("policy.kdl"));
    let policy = compile(&exe, &policy_kdl, &tmp);
    let long = std::env::var("HOOKC_JUDGE_CASES").ok();
    let cases: usize = long
        .as_deref()
        .map(|n| n.parse().expect("HOOKC_JUDGE_CASES is a number"))
        .unwrap_or(DEFAULT_CASES);
    let seed: u64 = std::env::var("HOOKC_JUDGE_SEED")
        .ok()
        .map(|s| s.parse().expect("HOOKC_JUDGE_SEED is a number"))
        .unwrap_or(DEFAULT_SEED);
    let shells: Vec<String> = match std::env::var("HOOKC_JUDGE_SHELLS") {
        Ok(s) => s.split_whitespace().map(String::from).collect(),
        Err(_) => ["bash", "dash", "zsh"]
            .into_iter()
            .filter(|s| {
                Command::new("sh")
                    .args(["-c", &format!("command -v {s}")])
                    .output()
                    .is_ok_and(|o| o.status.success())
            })
            .map(String::from)
            .collect(),
    };
    if !shells.iter().any(|s| s == "zsh") {
        eprintln!("NOTE: zsh is not installed: the judge runs bash and dash only");
    }
    let root = tmp.join("root");
    let mut j = Judge {
        sandbox: Sandbox {
            script: repo().join("tests/soundness/sandbox.sh"),
            work: tmp.join("io"),
            root: root.clone(),
            shells: shells.clone(),
            programs: programs(&policy),
            wrappers: generate::wrappers(seed),
            jobs: std::env::var("HOOKC_JUDGE_JOBS")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(2),
            exec: None,
        },
        hookc: Hookc::new(exe.clone(), policy).in_project(&root.join("run/repo").to_string_lossy()),
        ctx: Context {
            repo: root.join("run/repo").to_string_lossy().into_owned(),
            home: root.join("run/home").to_string_lossy().into_owned(),
            top_level: [
                "Cargo.toml",
                "README.md",
                "build",
                "config",
                "docs",
                "migrations",
                "node_modules",
                "package.json",
                "scripts",
                "src",
                "target",
            ]
            .map(String::from)
            .to_vec(),
        },
    };

    mirror_template(Path::new(&j.ctx.repo), &tmp.join("project"));

    // HOOKC_JUDGE_LINE='...': judge that one line and show what it ran.
    if let Ok(line) = std::env::var("HOOKC_JUDGE_LINE") {
        let v = j.verdicts(std::slice::from_ref(&line));
        println!("{}: {}", v[0].word(), one_line(&line));
        println!("hookc: {:?}", v[0].decision);
        for r in &v[0].outcome.ran {
            println!("  ran: {}", one_line(r));
        }
        for d in &v[0].outcome.denied {
            println!("  denied: {}", one_line(d));
        }
        return;
    }
    let corpus = read_corpus(&fixture("corpus.txt"));
    let benign = read_corpus(&fixture("benign.txt"));
    let known: Vec<String> = read_corpus(&fixture("known-misses.txt"))
        .into_iter()
        .map(|e| e.line)
        .collect();
    let kept_out: BTreeSet<String> = read_corpus(&fixture("unhandled-layers.txt"))
        .into_iter()
        .map(|e| e.line.trim().to_string())
        .collect();
    let all_layers = generate::layers();
    for name in &kept_out {
        assert!(
            all_layers.iter().any(|l| l.name == name)
                || generate::CORES
                    .iter()
                    .any(|c| Some(c.words.join(" ").as_str()) == name.strip_prefix("core ")),
            "unhandled-layers.txt names {name:?}, which is no layer or core of tests/soundness/generate.rs"
        );
    }
    let restricted =
        long.is_none() || std::env::var("HOOKC_JUDGE_LAYERS").as_deref() == Ok("handled");
    let allowed = |l: &Layer| !restricted || !kept_out.contains(l.name);
    let allowed_core = |c: &generate::Core| {
        !restricted || !kept_out.contains(&format!("core {}", c.words.join(" ")))
    };
    // HOOKC_JUDGE_CALIBRATE=1: every layer alone on every core, to find
    // the layers the engine does not read (unhandled-layers.txt).
    let generated = if std::env::var("HOOKC_JUDGE_CALIBRATE").is_ok_and(|v| v == "1") {
        generate::singles(&all_layers)
    } else {
        generate::generate(seed, cases, &allowed, &allowed_core)
    };

    let mut lines: Vec<String> = Vec::new();
    lines.extend(corpus.iter().map(|e| e.line.clone()));
    lines.extend(benign.iter().map(|e| e.line.clone()));
    lines.extend(generated.iter().map(|c| c.line.clone()));
    let verdicts = j.verdicts(&lines);
    let (vc, rest) = verdicts.split_at(corpus.len());
    let (vb, vg) = rest.split_at(benign.len());

    let mut report = String::new();
    let mut failures: Vec<String> = Vec::new();
    let _ = writeln!(
        report,
        "hookc soundness judge: policy {}, shells {}, seed {seed}, {} generated lines ({})\n",
        policy_kdl.display(),
        shells.join(" "),
        generated.len(),
        if restricted {
            "default: the constructs the engine reads"
        } else {
            "long mode: every construct"
        }
    );

    // The corpus of known attacks, line by line.
    let _ = writeln!(report, "== corpus.txt: {} lines ==", corpus.len());
    let _ = writeln!(
        report,
        "{:<14} {:<6} line / what happened",
        "verdict", "class"
    );
    let mut per_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses_now: Vec<String> = Vec::new();
    for (e, v) in corpus.iter().zip(vc) {
        let _ = writeln!(
            report,
            "{:<14} {:<6} {}",
            v.word(),
            e.class,
            one_line(&e.line)
        );
        for d in v.outcome.denied.iter().take(3) {
            let _ = writeln!(report, "{:<21}   {}", "", one_line(d));
        }
        let slot = per_class.entry(e.class.clone()).or_default();
        slot.0 += 1;
        if v.miss() {
            slot.1 += 1;
            misses_now.push(e.line.clone());
        }
    }
    let _ = writeln!(report, "\nmisses per class (corpus): lines judged, misses");
    for (c, (n, m)) in &per_class {
        let _ = writeln!(report, "  class {c:<4} {n:>4} {m:>4}");
    }

    // The benign corpus: misses fail; false refusals are counted, and the
    // lines the harnesses that hand a call over run supervised among them
    // (refused by the other harnesses).
    let mut fr = Vec::new();
    for (e, v) in benign.iter().zip(vb) {
        if v.miss() {
            misses_now.push(e.line.clone());
        }
        if v.false_refusal() {
            fr.push((e.line.clone(), v.decision == Decision::Supervised));
        }
    }
    let supervising: Vec<&str> = hookc::harness::all()
        .iter()
        .filter(|h| h.supervises())
        .map(|h| h.profile().name)
        .collect();
    let _ = writeln!(
        report,
        "\n== benign.txt: {} lines, {} false refusals ({} of them run supervised on Linux in {}) ==",
        benign.len(),
        fr.len(),
        fr.iter().filter(|(_, s)| *s).count(),
        supervising.join(", ")
    );
    for (l, supervised) in &fr {
        let how = if *supervised {
            " (supervised where the harness hands it over)"
        } else {
            ""
        };
        let _ = writeln!(report, "  false refusal: {}{how}", one_line(l));
    }
    // By the `# class` heading each line falls under (`-`: before any).
    let mut fr_per_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (e, v) in benign.iter().zip(vb) {
        let slot = fr_per_class.entry(e.class.as_str()).or_default();
        slot.0 += 1;
        slot.1 += usize::from(v.false_refusal());
    }
    let _ = writeln!(
        report,
        "false refusals per class (benign): lines judged, false refusals"
    );
    for (c, (n, f)) in &fr_per_class {
        let _ = writeln!(report, "  class {c:<8} {n:>4} {f:>4}");
    }

    // The allow-list of known misses must be exactly the misses of today.
    let known_set: BTreeSet<&String> = known.iter().collect();
    let now_set: BTreeSet<&String> = misses_now.iter().collect();
    let in_corpus: BTreeSet<&String> = corpus.iter().chain(&benign).map(|e| &e.line).collect();
    for m in now_set.difference(&known_set) {
        failures.push(format!(
            "a line hookc allows really ran something the policy denies, and known-misses.txt does not list it:\n    {}",
            one_line(m)
        ));
    }
    for k in known_set.difference(&now_set) {
        failures.push(if in_corpus.contains(k) {
            format!(
                "known-misses.txt lists a line that is no longer a miss (hookc refuses it now, or it runs nothing denied): remove it:\n    {}",
                one_line(k)
            )
        } else {
            format!("known-misses.txt lists a line that is in neither corpus: {}", one_line(k))
        });
    }
    if std::env::var("HOOKC_JUDGE_BLESS").is_ok_and(|v| v == "1") {
        let mut text = String::from(
            "# Lines of corpus.txt and benign.txt that really run something the bundled\n\
             # policy denies and that hookc allows today. The soundness judge fails when a\n\
             # miss is not listed here, and when a listed line is no longer a miss.\n\
             # HOOKC_JUDGE_BLESS=1 cargo test --test soundness rewrites it.\n",
        );
        for m in &misses_now {
            text.push_str(&write_entry(m));
        }
        std::fs::write(fixture("known-misses.txt"), text).unwrap();
        failures.retain(|f| !f.contains("known-misses.txt"));
        eprintln!("known-misses.txt rewritten: {} lines", misses_now.len());
    }

    // Generated lines: every miss fails, shrunk to its fewest layers.
    // Per class and per layer: lines, misses, false refusals.
    let mut gen_class: BTreeMap<u8, (usize, usize, usize)> = BTreeMap::new();
    let mut gen_layer: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut gen_misses: Vec<Case> = Vec::new();
    let mut gen_fr = 0;
    // Lines built on a denied core where nothing denied ran (a syntax only
    // one shell accepts, say): they test nothing.
    let mut inert = 0;
    for (c, v) in generated.iter().zip(vg) {
        let count = |slot: &mut (usize, usize, usize)| {
            slot.0 += 1;
            slot.1 += usize::from(v.miss());
            slot.2 += usize::from(v.false_refusal());
        };
        for class in c.classes(&all_layers) {
            count(gen_class.entry(class).or_default());
        }
        for &l in &c.layers {
            count(gen_layer.entry(all_layers[l].name).or_default());
        }
        if v.miss() {
            gen_misses.push(c.clone());
        }
        gen_fr += usize::from(v.false_refusal());
        inert += usize::from(generate::CORES[c.core].denied && v.outcome.denied.is_empty());
    }
    let _ = writeln!(
        report,
        "\n== generated: {} lines, {} misses, {} false refusals, {} attacks that ran nothing denied in any shell ==",
        generated.len(),
        gen_misses.len(),
        gen_fr,
        inert
    );
    let _ = writeln!(
        report,
        "per class (a line counts in every class of its layers): lines, misses, false refusals"
    );
    for (c, (n, m, f)) in &gen_class {
        let _ = writeln!(report, "  class {c:<3} {n:>6} {m:>6} {f:>6}");
    }
    let _ = writeln!(report, "per layer: lines, misses, false refusals");
    for (l, (n, m, f)) in &gen_layer {
        let _ = writeln!(report, "  {l:<28} {n:>6} {m:>6} {f:>6}");
    }
    let shrunk = shrink(&mut j, &all_layers, &gen_misses);
    for (i, (c, small)) in gen_misses.iter().zip(&shrunk).enumerate() {
        let _ = writeln!(
            report,
            "  MISS {}\n       {}",
            one_line(&c.line),
            c.describe(&all_layers)
        );
        if i < SHRUNK {
            let _ = writeln!(report, "       smallest: {}", one_line(&small.line));
        }
    }
    for small in shrunk.iter().take(SHRUNK) {
        failures.push(format!(
            "a generated line ran something the policy denies and hookc allowed it; the smallest such line:\n    {}\n    ({})",
            one_line(&small.line),
            small.describe(&all_layers)
        ));
    }

    // The run-time judge (book/src/testing.md): every line again, run
    // under `hookc exec`, whatever the static guard decided. Nothing the
    // policy denies may happen there, in any shell.
    let built = tmp.join("project");
    let exec_works = supervision_works(&exe, &built);
    if let Err(why) = &exec_works {
        eprintln!(
            "\n==============================================================\n\
             NOTE: the run-time judge's pass did not run: {why}\n\
             ==============================================================\n"
        );
        let _ = writeln!(report, "\n== under hookc exec: not run ({why}) ==");
    } else {
        let outcomes = j.supervised(&lines, &built);
        let mut per_section: Vec<(&str, usize, usize)> = Vec::new();
        let sections = [
            ("corpus.txt", corpus.len()),
            ("benign.txt", benign.len()),
            ("generated", generated.len()),
        ];
        let mut at = 0;
        for (name, n) in sections {
            let bad = outcomes[at..at + n]
                .iter()
                .filter(|o| !o.denied.is_empty())
                .count();
            per_section.push((name, n, bad));
            at += n;
        }
        let _ = writeln!(
            report,
            "\n== under hookc exec (the run-time judge): {} lines, {} with a denied effect ==",
            lines.len(),
            outcomes.iter().filter(|o| !o.denied.is_empty()).count()
        );
        for (name, n, bad) in per_section {
            let _ = writeln!(
                report,
                "  {name:<12} {n:>6} lines {bad:>4} with a denied effect"
            );
        }
        for (line, o) in lines.iter().zip(&outcomes) {
            if o.denied.is_empty() {
                continue;
            }
            let _ = writeln!(report, "  DENIED UNDER EXEC {}", one_line(line));
            for d in o.denied.iter().take(3) {
                let _ = writeln!(report, "      {}", one_line(d));
            }
            failures.push(format!(
                "under hookc exec, a line did something the policy denies:\n    {}\n    {}",
                one_line(line),
                o.denied.join("; ")
            ));
        }
    }

    // Every preset at its strictest, judged on its own examples: a `deny`
    // example must be refused (it is, or the build fails), and an `allow`
    // example must not run anything the presets deny under a real shell.
    // HOOKC_JUDGE_PRESETS=0 skips this part (with HOOKC_JUDGE_POLICY, it
    // is skipped too: that run judges one given policy).
    let mut judged = lines.len();
    if std::env::var("HOOKC_JUDGE_PRESETS").as_deref() != Ok("0")
        && std::env::var_os("HOOKC_JUDGE_POLICY").is_none()
    {
        let dir = tmp.join("presets");
        std::fs::create_dir_all(&dir).unwrap();
        let kdl = dir.join("policy.kdl");
        let names = preset_names();
        let mut text = String::from("targets \"claude\"\n");
        for name in &names {
            text.push_str(&format!("preset \"{name}\" level=\"strict\"\n"));
        }
        std::fs::write(&kdl, text).unwrap();
        let policy = compile(&exe, &kdl, &dir);
        let mut pj = Judge {
            sandbox: Sandbox {
                programs: programs(&policy),
                work: dir.join("io"),
                ..j.sandbox.clone()
            },
            hookc: Hookc::new(exe.clone(), policy).in_project(&j.ctx.repo),
            ctx: j.ctx.clone(),
        };
        let examples = preset_examples(&names);
        let lines: Vec<String> = examples.iter().map(|(line, _)| line.clone()).collect();
        let verdicts = pj.verdicts(&lines);
        let mut fr = 0;
        let under_exec = if exec_works.is_ok() {
            pj.supervised(&lines, &dir.join("project"))
        } else {
            Vec::new()
        };
        for (line, o) in lines.iter().zip(&under_exec) {
            if !o.denied.is_empty() {
                failures.push(format!(
                    "under hookc exec, a preset example did something the presets deny:\n    {}\n    {}",
                    one_line(line),
                    o.denied.join("; ")
                ));
            }
        }
        for ((line, expect), v) in examples.iter().zip(&verdicts) {
            if v.miss() {
                failures.push(format!(
                    "a preset example ran something the presets deny and hookc allowed it:\n    {}",
                    one_line(line)
                ));
            }
            fr += usize::from(expect == "allow" && v.false_refusal());
        }
        let _ = writeln!(
            report,
            "\n== presets ({}, strict): {} examples, {} misses, {} allow examples refused, {} with a denied effect under hookc exec ==",
            names.join(" "),
            examples.len(),
            verdicts.iter().filter(|v| v.miss()).count(),
            fr,
            under_exec.iter().filter(|o| !o.denied.is_empty()).count()
        );
        judged += lines.len();
    }

    let _ = writeln!(
        report,
        "\n{} lines judged in {:.1} s; {} failures",
        judged,
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    let target = repo().join("target");
    let _ = std::fs::create_dir_all(&target);
    std::fs::write(target.join("soundness-report.txt"), &report).unwrap();
    print!("{report}");
    println!("(written to target/soundness-report.txt)");
    if !failures.is_empty() {
        eprintln!("\nsoundness: {} failures:", failures.len());
        for f in &failures {
            eprintln!("- {f}");
        }
        std::process::exit(1);
    }
    println!("soundness: ok");
}

/// What `hookc guard` sees of the project a line runs in. The sandbox mounts
/// its scratch over `root`, so the guard, which runs outside it, would see
/// an empty folder there; but some decisions depend on what is on disk and
/// in git (`grep -r x .` reads `.env` only where there is one, `git switch
/// feature` rewrites the files that differ, `$(git ls-files)` prints what
/// is tracked). So the template is made again, outside, at the same paths,
/// by the same script (`template.sh`) the sandbox makes it with. The guard
/// judges a project where hookc's hooks are installed, as users have it:
/// the files of the policy's build (`built`) are there too, untracked, so
/// that what would rewrite them is judged as it is in such a project (the
/// judge does not look at what a line does to them).
fn mirror_template(project: &Path, built: &Path) {
    let run = project.parent().expect("the project is in the run folder");
    if run.exists() {
        std::fs::remove_dir_all(run).unwrap();
    }
    let script = repo().join("tests/soundness/template.sh");
    let made = Command::new("bash")
        .arg("-c")
        .arg(r#". "$1" && make_template "$2""#)
        .arg("template")
        .arg(&script)
        .arg(run)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .status()
        .expect("bash runs");
    assert!(made.success(), "{} failed", script.display());
    let copied = Command::new("cp")
        .arg("-a")
        .arg(built.join("."))
        .arg(project)
        .status()
        .expect("cp runs");
    assert!(copied.success(), "copying {} failed", built.display());
}

/// Whether `hookc exec` can supervise here, tried on `true` with the
/// policy's build in `built`. HOOKC_JUDGE_EXEC=0 skips the pass.
fn supervision_works(hookc: &Path, built: &Path) -> Result<(), String> {
    if std::env::var("HOOKC_JUDGE_EXEC").is_ok_and(|v| v == "0") {
        return Err("HOOKC_JUDGE_EXEC=0".to_owned());
    }
    let out = Command::new(hookc)
        .args(["exec", "--harness", "claude", "--policy"])
        .arg(built.join(".hookc/policy.json"))
        .args(["--", "true"])
        .output()
        .map_err(|e| format!("hookc exec cannot start: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "hookc exec cannot supervise here: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The presets this hookc ships, by their files in `presets/`.
fn preset_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("presets"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "kdl").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

/// The shell examples of the presets (`example "LINE" expect="…"` without
/// `tool=` or with `tool="shell"`), with what each expects.
fn preset_examples(names: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in names {
        let path = repo().join(format!("presets/{name}.kdl"));
        let doc: kdl::KdlDocument = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        for guard in doc.nodes().iter().filter(|n| n.name().value() == "guard") {
            let Some(children) = guard.children() else {
                continue;
            };
            for ex in children
                .nodes()
                .iter()
                .filter(|n| n.name().value() == "example")
            {
                let prop = |key: &str| {
                    ex.entries()
                        .iter()
                        .find(|e| e.name().is_some_and(|n| n.value() == key))
                        .and_then(|e| e.value().as_string())
                };
                let line = ex
                    .entries()
                    .iter()
                    .find(|e| e.name().is_none())
                    .and_then(|e| e.value().as_string());
                let shell = prop("tool").is_none_or(|t| t == "shell");
                if let (Some(line), Some(expect), true) = (line, prop("expect"), shell) {
                    out.push((line.to_owned(), expect.to_owned()));
                }
            }
        }
    }
    out
}

/// Drops layers from each missing case while it still misses.
fn shrink(j: &mut Judge, all: &[Layer], misses: &[Case]) -> Vec<Case> {
    let mut cur: Vec<Case> = misses.iter().take(SHRUNK).cloned().collect();
    let mut result = misses.to_vec();
    loop {
        let mut cands: Vec<(usize, Case)> = Vec::new();
        for (i, c) in cur.iter().enumerate() {
            for s in generate::smaller(all, c) {
                cands.push((i, s));
            }
        }
        if cands.is_empty() {
            break;
        }
        let lines: Vec<String> = cands.iter().map(|(_, c)| c.line.clone()).collect();
        let vs = j.verdicts(&lines);
        let mut moved = false;
        let mut taken = BTreeSet::new();
        for ((i, c), v) in cands.into_iter().zip(vs) {
            if v.miss() && taken.insert(i) {
                cur[i] = c;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    for (i, c) in cur.into_iter().enumerate() {
        result[i] = c;
    }
    result
}
