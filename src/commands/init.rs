//! `hookc init`: write a commented policy.kdl to start from. Never overwrites.

use std::io::Write;

use serde_json::json;

use super::Ui;
use crate::cli::{Format, InitArgs};
use crate::exit::ExitStatus;
use crate::harness;
use crate::init::{self, Pick, Reason};
use crate::ir::HarnessId;
use crate::presets::{self, Preset};

pub fn init(args: &InitArgs, ui: &Ui) -> ExitStatus {
    let shown = args.policy.to_string_lossy().replace('\\', "/");
    let fail = |message: String| {
        eprintln!("error: {message}");
        if args.format == Format::Json {
            println!(
                "{}",
                json!({"schema_version": 1, "command": "init", "policy": shown, "written": false, "error": message})
            );
        }
        ExitStatus::Error
    };
    if args.policy.exists() {
        return fail(format!(
            "{shown} already exists, and `hookc init` never overwrites a policy. \
             Edit it and run `hookc build`, or write a fresh one elsewhere with \
             `hookc init --policy policy.new.kdl` and compare."
        ));
    }

    let root = match args.policy.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => std::path::PathBuf::from("."),
    };
    let found = init::detect(&root);
    let (targets, reason) = match choose_targets(&args.harnesses, &found) {
        Ok(chosen) => chosen,
        Err(message) => return fail(message),
    };
    let picks = choose_presets(&args.presets, &root);
    let chosen: Vec<&'static Preset> = picks.iter().map(|p| p.preset).collect();

    let text = init::render(&targets, &reason, &picks);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&args.policy)
        .and_then(|mut f| f.write_all(text.as_bytes()));
    if let Err(e) = written {
        return fail(format!(
            "cannot write {shown}: {e}; check that its directory exists and is writable, or pass another path with `--policy FILE`"
        ));
    }

    let guards: usize = chosen
        .iter()
        .map(|p| p.guards_at(presets::Level::default()).len())
        .sum();
    let hand = hand_written(&root);
    let unsupported: Vec<HarnessId> = found
        .iter()
        .filter(|f| !f.supported)
        .map(|f| f.harness)
        .collect();
    if args.format == Format::Json {
        let mut doc = json_report(&shown, &targets, &found, &picks, guards);
        doc["hand_written"] = json!({
            "agent": hand.agent,
            "unreadable": hand.unreadable,
            "git": hand.git,
        });
        println!("{doc}");
        return ExitStatus::Success;
    }
    ui.say(&summary(&shown, &targets, &reason, &chosen, guards));
    if !unsupported.is_empty() {
        ui.say(&format!(
            "note: also found {}, which this hookc cannot emit for yet",
            words(&unsupported)
        ));
    }
    for line in hand_written_notes(&hand, &shown) {
        ui.say(&line);
    }
    ui.say(&format!(
        "next: read {shown}, then run `hookc build` to write the hooks"
    ));
    ExitStatus::Success
}

/// What `init` says about the hooks it found that hookc did not write.
fn hand_written_notes(hand: &HandWritten, shown: &str) -> Vec<String> {
    let mut notes = Vec::new();
    if !hand.agent.is_empty() {
        notes.push(format!(
            "note: found hand-written agent hooks in {}: `hookc import --output policy.imported.kdl` turns them into guards to copy into {shown}, and `hookc lint` checks them as they are",
            hand.agent.join(", ")
        ));
    }
    if !hand.unreadable.is_empty() {
        notes.push(format!(
            "note: {} do{} not parse as {} harness reads {}: `hookc lint {}` shows where",
            hand.unreadable.join(", "),
            if hand.unreadable.len() == 1 { "es" } else { "" },
            if hand.unreadable.len() == 1 {
                "its"
            } else {
                "their"
            },
            if hand.unreadable.len() == 1 {
                "it"
            } else {
                "them"
            },
            hand.unreadable.join(" ")
        ));
    }
    if !hand.git.is_empty() {
        notes.push(format!(
            "note: found git hooks ({}): have them run `hookc check`, so that a commit never carries hooks out of date with the policy",
            hand.git.join(", ")
        ));
    }
    notes
}

/// The harnesses the policy targets, and why: those named with `--harness`
/// (each one this hookc emits for), else those found in the project, else
/// the default.
fn choose_targets(
    named: &[HarnessId],
    found: &[init::Found],
) -> Result<(Vec<HarnessId>, Reason), String> {
    if !named.is_empty() {
        let missing: Vec<HarnessId> = named
            .iter()
            .copied()
            .filter(|h| harness::get(*h).is_none())
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "this hookc cannot emit for {} yet; choose from {}",
                words(&missing),
                words(&supported())
            ));
        }
        return Ok((dedup(named.to_vec()), Reason::Chosen));
    }
    let usable: Vec<_> = found.iter().filter(|f| f.supported).cloned().collect();
    Ok(if usable.is_empty() {
        (vec![init::DEFAULT], Reason::Default)
    } else {
        (
            usable.iter().map(|f| f.harness).collect(),
            Reason::Found(usable),
        )
    })
}

/// The presets the policy starts with: those named with `--preset`, else
/// those whose signs the project shows, in the library's order.
fn choose_presets(named: &[String], root: &std::path::Path) -> Vec<Pick> {
    if named.is_empty() {
        presets::ALL
            .iter()
            .filter_map(|preset| {
                let found = presets::found(preset, root);
                // A database server in a compose file is a database too.
                let found = if preset.name == "databases" && found.is_none() {
                    Some(init::compose_databases(root)).filter(|hits| !hits.is_empty())
                } else {
                    found
                };
                found.map(|found| Pick { preset, found })
            })
            .collect()
    } else {
        // clap only lets known names through; keep the library's order.
        presets::ALL
            .iter()
            .filter(|p| named.iter().any(|n| n == p.name))
            .map(|preset| Pick {
                preset,
                found: Vec::new(),
            })
            .collect()
    }
}

/// What `init` did, for a program (`--format json`).
fn json_report(
    shown: &str,
    targets: &[HarnessId],
    found: &[init::Found],
    picks: &[Pick],
    guards: usize,
) -> serde_json::Value {
    json!({
        "schema_version": 1,
        "command": "init",
        "policy": shown,
        "written": true,
        "targets": targets.iter().map(|t| t.word()).collect::<Vec<_>>(),
        "found": found.iter().map(|f| json!({
            "harness": f.harness.word(),
            "hints": f.hints,
            "supported": f.supported,
        })).collect::<Vec<_>>(),
        "presets": picks.iter().map(|p| p.preset.name).collect::<Vec<_>>(),
        "level": presets::Level::default().word(),
        "preset_hints": picks.iter().map(|p| (p.preset.name.to_owned(), json!(p.found))).collect::<serde_json::Map<_, _>>(),
        "guards": guards,
    })
}

/// The line that says what `init` wrote: for which harnesses and why, and
/// how many guards from which presets.
fn summary(
    shown: &str,
    targets: &[HarnessId],
    reason: &Reason,
    chosen: &[&Preset],
    guards: usize,
) -> String {
    let why = match reason {
        Reason::Chosen => String::new(),
        Reason::Found(found) => format!(
            " (found {})",
            found
                .iter()
                .flat_map(|f| f.hints.iter().copied())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Reason::Default => " (no harness found in the project; the default)".to_owned(),
    };
    format!(
        "hookc: wrote {shown} for {}{why}: {guards} guard{} from the preset{} {}",
        words(targets),
        if guards == 1 { "" } else { "s" },
        if chosen.len() == 1 { "" } else { "s" },
        chosen.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
    )
}

fn supported() -> Vec<HarnessId> {
    harness::all().iter().map(|h| h.id()).collect()
}

fn dedup(mut ids: Vec<HarnessId>) -> Vec<HarnessId> {
    ids.sort();
    ids.dedup();
    ids
}

fn words(ids: &[HarnessId]) -> String {
    ids.iter().map(|i| i.word()).collect::<Vec<_>>().join(", ")
}

/// Agent hook configs and git hook managers `hookc init` saw in a project,
/// that hookc did not write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct HandWritten {
    /// Agent hook configs holding hooks hookc did not write (what `hookc
    /// import` reads).
    pub agent: Vec<String>,
    /// Agent hook configs that do not parse as their harness reads them.
    pub unreadable: Vec<String>,
    /// Git hook managers' files (`.husky/`, `lefthook.yml`, …).
    pub git: Vec<String>,
}

/// Git hook managers, by the file or folder each keeps in a repository.
const GIT_HOOK_FILES: [&str; 5] = [
    ".husky/",
    "lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yml",
    ".pre-commit-config.yaml",
];

/// The hand-written hooks in `root`: agent hooks read as `hookc import`
/// reads them (hookc's own entries and files left out), and git hooks.
fn hand_written(root: &std::path::Path) -> HandWritten {
    let mut found = HandWritten::default();
    match crate::import::import(root, &[]) {
        Ok(imported) => {
            found.agent = imported
                .files
                .iter()
                .map(|f| f.to_string_lossy().replace('\\', "/"))
                .collect();
        }
        Err(_) => {
            // One file that does not parse stops import: name each such file.
            for file in crate::lint::discover(root) {
                let Some(kind) = crate::lint::classify(&file) else {
                    continue;
                };
                let Ok(Some(text)) = crate::disk::read_text(&file) else {
                    continue;
                };
                let rel = file.strip_prefix(root).unwrap_or(&file);
                let rel = rel.to_string_lossy().replace('\\', "/");
                let mut notes = Vec::new();
                match crate::import::read_file(kind, &rel, &text, &mut notes) {
                    Err(_) => found.unreadable.push(rel),
                    Ok(hooks) if hooks.iter().any(|h| !h.is_hookcs()) => found.agent.push(rel),
                    Ok(_) => {}
                }
            }
        }
    }
    found.git = GIT_HOOK_FILES
        .iter()
        .filter(|f| match f.strip_suffix('/') {
            Some(dir) => root.join(dir).is_dir(),
            None => root.join(f).is_file(),
        })
        .map(|f| (*f).to_owned())
        .collect();
    found
}
