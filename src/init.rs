//! `hookc init`'s pure half: which harnesses a project uses, and the text of
//! a new `policy.kdl`. The command (`commands/init.rs`) only adds the file
//! system and the printing.

use std::path::Path;
use std::sync::LazyLock;

use crate::harness;
use crate::ir::HarnessId;
use crate::presets::Preset;

/// Files and directories that show a project uses a harness, from each
/// registered harness's [`Profile::hints`](crate::profile::Profile::hints).
/// A directory is written with a trailing `/`.
pub static HINTS: LazyLock<Vec<(HarnessId, &'static [&'static str])>> = LazyLock::new(|| {
    harness::all()
        .iter()
        .map(|h| (h.id(), h.profile().hints))
        .collect()
});

/// The harness a project gets when nothing points at another.
pub const DEFAULT: HarnessId = HarnessId::Claude;

/// A harness found in the project, and what gave it away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub harness: HarnessId,
    pub hints: Vec<&'static str>,
    /// Whether this hookc can emit for it.
    pub supported: bool,
}

/// Every harness with a hint in `root`, in [`HINTS`] order.
pub fn detect(root: &Path) -> Vec<Found> {
    HINTS
        .iter()
        .filter_map(|(harness, hints)| {
            let hints: Vec<&'static str> = hints
                .iter()
                .copied()
                .filter(|hint| match hint.strip_suffix('/') {
                    Some(dir) => root.join(dir).is_dir(),
                    None => root.join(hint).is_file(),
                })
                .collect();
            (!hints.is_empty()).then(|| Found {
                harness: *harness,
                hints,
                supported: harness::get(*harness).is_some(),
            })
        })
        .collect()
}

/// The compose files `hookc init` reads for database services.
pub const COMPOSE_FILES: [&str; 4] = [
    "compose.yaml",
    "compose.yml",
    "docker-compose.yaml",
    "docker-compose.yml",
];

/// The database servers a compose file's `image:` lines name, the image's
/// own name (registry and tag left off) against the engines the databases
/// preset guards.
const DATABASE_IMAGES: [&str; 6] = ["postgres", "postgis", "mysql", "mariadb", "mongo", "redis"];

/// The compose files in `root` that run a database server, each with the
/// images that do (`docker-compose.yml (postgres)`).
pub fn compose_databases(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for name in COMPOSE_FILES {
        let Ok(Some(text)) = crate::disk::read_text(&root.join(name)) else {
            continue;
        };
        let mut images: Vec<&str> = Vec::new();
        for line in text.lines() {
            let Some(image) = line.trim_start().strip_prefix("image:") else {
                continue;
            };
            let image = image.split('#').next().unwrap_or_default();
            let image = image.trim().trim_matches(|c| c == '"' || c == '\'');
            // registry/owner/name:tag@digest → name
            let base = image.rsplit('/').next().unwrap_or_default();
            let base = base.split([':', '@']).next().unwrap_or_default();
            if let Some(db) = DATABASE_IMAGES
                .iter()
                .find(|db| base == **db || base.starts_with(&format!("{db}-")))
                && !images.contains(db)
            {
                images.push(db);
            }
        }
        if !images.is_empty() {
            found.push(format!("{name} ({})", images.join(", ")));
        }
    }
    found
}

/// Why the policy targets what it targets, said in its comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// `--harness` on the command line.
    Chosen,
    /// Hints in the project (only harnesses hookc supports).
    Found(Vec<Found>),
    /// Nothing found: the default.
    Default,
}

/// A preset a new policy takes, and why.
#[derive(Debug, Clone)]
pub struct Pick {
    pub preset: &'static Preset,
    /// What in the repository made `hookc init` take it (empty: every
    /// repository gets it, or it was named with `--preset`).
    pub found: Vec<String>,
}

/// The text of a new policy: a header that says how to use it, the settings,
/// then a `preset` line for each preset taken and a commented-out one for
/// each of the others.
pub fn render(targets: &[HarnessId], reason: &Reason, picks: &[Pick]) -> String {
    let mut out = String::from(
        "\
// policy.kdl: the guards hookc compiles into your coding agents' hooks.
//
// `hookc build` writes the hooks and runs every guard's examples as tests;
// `hookc check` fails when the hooks are out of date (use it in pre-commit and CI).
// `hookc why 'COMMAND'` shows how a call is read and which guards decide it.
// `hookc explain CODE` explains any diagnostic.

",
    );
    let words: Vec<&str> = targets.iter().map(|t| t.word()).collect();
    let why = match reason {
        Reason::Chosen => "chosen with `hookc init --harness`".to_owned(),
        Reason::Found(found) => format!(
            "found in this project: {}",
            found
                .iter()
                .flat_map(|f| f.hints.iter().copied())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Reason::Default => {
            "nothing in this project pointed at a harness, so the default".to_owned()
        }
    };
    out.push_str(&format!("// Harnesses to write hooks for ({why}).\n"));
    out.push_str(&format!(
        "targets {}\n\n",
        words
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    out.push_str(
        "\
// Seconds a harness waits for a guard before giving up.
timeout 10

// A guard that cannot run (hookc missing, crashed, unreadable call) refuses the call.
on-error \"deny\"

// Guard presets: each line takes a preset's guards, with their examples, as if written here.
// The book's Presets page shows every guard. A preset takes `level=\"basic\"` (only what
// cannot be undone), `level=\"standard\"` (the default) or `level=\"strict\"`.
// To change one of its guards, copy the guard from the book, rename it, and drop the line.
",
    );
    for pick in picks {
        out.push_str(&format!("\n// {}\n", pick.preset.summary()));
        if !pick.found.is_empty() {
            out.push_str(&format!("// (found {})\n", pick.found.join(", ")));
        }
        out.push_str(&format!("preset \"{}\"\n", pick.preset.name));
    }
    let others: Vec<&Preset> = crate::presets::ALL
        .iter()
        .filter(|p| !picks.iter().any(|k| k.preset.name == p.name))
        .collect();
    if !others.is_empty() {
        out.push_str("\n// Not taken (nothing in the project pointed at them); remove the `//` to take one:\n");
        for preset in others {
            out.push_str(&format!("// preset \"{}\"\n", preset.name));
        }
    }
    out.push_str(
        "\n// Your own guards go here: guard \"name\" { … } (book: The policy language).\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_harness_has_hints() {
        for id in HarnessId::ALL {
            assert!(
                HINTS.iter().any(|(h, hints)| h == id && !hints.is_empty()),
                "no init hints for {id}"
            );
        }
    }

    #[test]
    fn detects_directories_and_files_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(detect(dir.path()), vec![]);
        std::fs::create_dir(dir.path().join(".claude")).unwrap();
        // A file where a directory is expected is no hint.
        std::fs::write(dir.path().join(".cursor"), "").unwrap();
        let found = detect(dir.path());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].harness, HarnessId::Claude);
        assert_eq!(found[0].hints, vec![".claude/"]);
        assert!(found[0].supported);
    }

    #[test]
    fn the_policy_names_its_targets_and_why() {
        let text = render(
            &[HarnessId::Claude],
            &Reason::Default,
            &[Pick {
                preset: crate::presets::get("git").unwrap(),
                found: vec![],
            }],
        );
        assert!(text.contains("targets \"claude\"\n"), "{text}");
        assert!(text.contains("the default"), "{text}");
        assert!(text.contains("\npreset \"git\"\n"), "{text}");
        assert!(text.contains("\n// preset \"kubernetes\"\n"), "{text}");
    }
}
