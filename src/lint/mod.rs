//! `hookc lint`: check hook configs people wrote by hand, for every harness.
//!
//! This module finds the hook files of every registered harness, hands each
//! to its harness ([`Harness::lint_file`](crate::harness::Harness::lint_file)),
//! and applies rule levels ([`config`]) and fixes. The checks themselves are
//! in [`lint_rules`](crate::lint_rules), with span-keeping parsers
//! (`jsonc_parser`'s AST, `toml_edit`'s document), so every finding points
//! at a line and column; the facts come from each harness's
//! [`Profile`](crate::harness::Profile).

pub mod config;
pub mod dialect;
pub mod json_spans;
pub mod sarif;

use std::path::{Path, PathBuf};

use crate::harness::{self, Harness};
use crate::ir::HarnessId;
use crate::profile::{FileFormat, HookFile};
use crate::source::SourceFile;

pub use crate::lint_rules::{Edit, FileReport};

/// What a harness file is, from its path: whose, and in which format;
/// [`lint_text`] hands it to that harness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    pub harness: HarnessId,
    pub format: FileFormat,
}

impl Kind {
    fn of(harness: HarnessId, format: FileFormat) -> Kind {
        Kind { harness, format }
    }

    /// A harness's JSON hooks file.
    pub fn json(harness: HarnessId) -> Kind {
        Kind::of(harness, FileFormat::HooksJson)
    }
}

/// Every hook file of every registered harness, with its harness.
fn hook_files() -> impl Iterator<Item = (HarnessId, &'static HookFile)> {
    harness::all()
        .iter()
        .flat_map(|h| h.profile().files.iter().map(move |f| (h.id(), f)))
}

/// Where [`discover`] looks in a project, as `folder/name` globs
/// (`.kiro/agents/*.json`), in registry order, each once.
pub fn project_globs() -> Vec<String> {
    let mut globs: Vec<String> = Vec::new();
    for (_, file) in hook_files().filter(|(_, f)| f.in_project) {
        for name in file.names {
            let glob = match file.dir {
                "" => (*name).to_owned(),
                dir => format!("{dir}/{name}"),
            };
            if !globs.contains(&glob) {
                globs.push(glob);
            }
        }
    }
    globs
}

/// The registered hook file `path` is, by folder and name.
fn hook_file(path: &Path) -> Option<(HarnessId, &'static HookFile)> {
    let s = path.to_string_lossy().replace('\\', "/");
    hook_files().find(|(_, f)| f.matches(&s))
}

/// Which harness file a path is, by the harness's conventions (its
/// profile's [`files`](crate::profile::Profile::files)).
pub fn classify(path: &Path) -> Option<Kind> {
    hook_file(path).map(|(id, f)| Kind::of(id, f.format))
}

/// A file given by path that [`classify`] does not know by its name, by
/// its content, as a harness recognises it
/// ([`Harness::file_by_content`]).
pub fn classify_content(path: &Path, text: &str) -> Option<Kind> {
    harness::all()
        .iter()
        .find_map(|h| h.file_by_content(path, text).map(|f| Kind::of(h.id(), f)))
}

/// The harness files under a project root: each registered harness's
/// project files, folder by folder in registry order, names sorted.
pub fn discover(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for (_, file) in hook_files().filter(|(_, f)| f.in_project) {
        let mut here = vec![root.to_path_buf()];
        for part in file.dir.split('/') {
            here = here.into_iter().flat_map(|d| children(&d, part)).collect();
        }
        for dir in here {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    let mut found = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut names: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| !p.is_dir())
            .filter(|p| {
                hook_file(p.strip_prefix(root).unwrap_or(p)).is_some_and(|(_, f)| f.in_project)
            })
            .collect();
        names.sort();
        found.extend(names);
    }
    found
}

/// The folders in `dir` a folder glob names, sorted.
fn children(dir: &Path, glob: &str) -> Vec<PathBuf> {
    if !glob.contains(['*', '?']) {
        return vec![dir.join(glob)];
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| crate::profile::glob_match(glob, &e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

/// The harness whose hook file a `kind` is, and the file's format.
pub fn owner(kind: Kind) -> Option<(&'static dyn Harness, FileFormat)> {
    harness::get(kind.harness).map(|h| (h, kind.format))
}

/// Lint one file's text. `root` is the project the file belongs to (guard
/// scripts are resolved against it).
pub fn lint_text(kind: Kind, file: &SourceFile, root: &Path) -> FileReport {
    let mut report = FileReport::default();
    if let Some((h, format)) = owner(kind) {
        h.lint_file(format, file, root, &mut report);
    }
    report
}

/// The user-level hook files of every registered harness under `home`
/// (`$HOME`), where they exist, in registry order
/// ([`Harness::user_hook_files`]).
pub fn user_files(home: &Path) -> Vec<(PathBuf, Kind)> {
    harness::all()
        .iter()
        .flat_map(|h| {
            h.user_hook_files(home)
                .into_iter()
                .map(|(path, format)| (path, Kind::of(h.id(), format)))
        })
        .filter(|(path, _)| path.is_file())
        .collect()
}

/// Whether `hookc lint` reads a file of this kind as TOML (its ignore
/// comments start with `#`).
pub fn is_toml(kind: Kind) -> bool {
    kind.format.is_toml()
}

/// The project root of a harness file: the folder above `.claude/`,
/// `.github/hooks/`, … (as deep as its registered folder).
pub fn root_of(path: &Path) -> PathBuf {
    let levels = hook_file(path).map_or(1, |(_, f)| f.depth());
    let mut p = path.parent().unwrap_or(Path::new("."));
    for _ in 0..levels {
        p = p.parent().unwrap_or(Path::new("."));
    }
    if p.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        p.to_path_buf()
    }
}

/// Apply edits to a text (with the merger's [`apply_edits`](crate::merge)).
/// Of two edits that overlap (one inside a property another deletes or
/// moves) or start at the same byte, only the first (outer) one is applied;
/// the other is found again by linting the result.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| (e.span.start, std::cmp::Reverse(e.span.len)));
    let mut kept: Vec<Edit> = Vec::new();
    for e in edits {
        let clear = kept
            .last()
            .is_none_or(|k| e.span.start > k.span.start && e.span.start >= k.span.range().end);
        if clear {
            kept.push(e);
        }
    }
    let kept = kept
        .into_iter()
        .map(|e| crate::merge::Edit {
            start: e.span.start,
            end: e.span.range().end,
            text: e.text,
        })
        .collect();
    crate::merge::apply_edits(text, kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn paths_are_classified_by_harness_convention() {
        let k = |p: &str| classify(Path::new(p));
        assert_eq!(
            k("a/.claude/settings.local.json"),
            Some(Kind::json(HarnessId::Claude))
        );
        assert_eq!(
            k(".github/hooks/x.json"),
            Some(Kind::json(HarnessId::Copilot))
        );
        let whose = |p: &str| k(p).map(|k| k.harness);
        assert_eq!(whose(".codex/config.toml"), Some(HarnessId::Codex));
        assert!(k(".codex/config.toml").unwrap().format.is_toml());
        assert_eq!(whose(".kimi/config.toml"), Some(HarnessId::Kimi));
        assert_eq!(whose(".opencode/plugins/p.ts"), Some(HarnessId::Opencode));
        assert_eq!(
            k(".agents/hooks.json"),
            Some(Kind::json(HarnessId::Antigravity))
        );
        assert_eq!(k("package.json"), None);
        assert_eq!(
            root_of(Path::new("r/.github/hooks/x.json")),
            PathBuf::from("r")
        );
        assert_eq!(
            root_of(Path::new(".claude/settings.json")),
            PathBuf::from(".")
        );
    }

    /// Every hook file a registered harness declares is found in a project,
    /// classified as that harness's, and rooted where it was put.
    #[test]
    fn every_registered_hook_file_is_found_classified_and_rooted() {
        for h in harness::all() {
            for f in h.profile().files {
                let dir = tempfile::tempdir().unwrap();
                let folder = f.dir.replace('*', "-x");
                let name = f.names[0].replace('*', "x");
                std::fs::create_dir_all(dir.path().join(&folder)).unwrap();
                let path = dir.path().join(&folder).join(&name);
                std::fs::write(&path, "{}").unwrap();
                let kind = classify(&path).unwrap_or_else(|| panic!("{path:?}"));
                assert_eq!(kind.harness, h.id(), "{path:?}");
                assert_eq!(root_of(&path), dir.path(), "{path:?}");
                assert_eq!(
                    discover(dir.path()).contains(&path),
                    f.in_project,
                    "{path:?}"
                );
            }
        }
    }

    #[test]
    fn lint_tables_do_not_repeat_what_the_profiles_say() {
        for h in harness::all() {
            let profile = h.profile();
            for (_, name) in profile.events {
                assert!(
                    !profile.more_events.contains(name),
                    "{name} is in {:?}'s events already",
                    profile.id
                );
            }
        }
    }

    /// Copilot CLI reads a handler's timeout from `timeoutSec`, else from
    /// `timeout`: both are checked there; Claude Code reads no `timeoutSec`.
    #[test]
    fn a_timeout_is_read_under_each_key_its_harness_reads() {
        let codes = |kind, name: &str, key: &str| {
            let text = format!(
                "{{\"version\": 1, \"hooks\": {{\"{name}\": [{{\"matcher\": \"Bash\", \"hooks\": [{{\"type\": \"command\", \"command\": \"g\", \"{key}\": \"30s\"}}]}}]}}}}"
            );
            let file = SourceFile::new("hooks.json", text);
            lint_text(kind, &file, Path::new("/nonexistent"))
                .diags
                .iter()
                .map(|d| d.code)
                .collect::<Vec<_>>()
        };
        let wrong = crate::diag::Code::LintWrongType;
        let copilot = Kind::json(HarnessId::Copilot);
        assert!(codes(copilot, "preToolUse", "timeoutSec").contains(&wrong));
        assert!(codes(copilot, "preToolUse", "timeout").contains(&wrong));
        let claude = Kind::json(HarnessId::Claude);
        assert!(codes(claude, "PreToolUse", "timeout").contains(&wrong));
        assert!(!codes(claude, "PreToolUse", "timeoutSec").contains(&wrong));
    }

    /// `hookc lint --user` finds Claude Code's user settings under `$HOME`.
    #[test]
    fn user_files_include_claudes_settings() {
        let home = tempfile::tempdir().unwrap();
        let claude = Kind::json(HarnessId::Claude);
        let found = |home: &Path| user_files(home).into_iter().find(|(_, k)| *k == claude);
        assert_eq!(found(home.path()), None, "only a file that exists");
        let settings = home.path().join(".claude/settings.json");
        std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
        std::fs::write(&settings, "{}").unwrap();
        assert_eq!(found(home.path()), Some((settings, claude)));
    }

    #[test]
    fn edits_apply_last_first_and_keep_every_other_byte() {
        let text = "{ \"a\": 1, \"b\": 2 }";
        let edits = [
            Edit {
                span: Span::new(2, 3),
                text: "\"A\"".into(),
            },
            Edit {
                span: Span::new(16, 0),
                text: ", \"c\": 3".into(),
            },
        ];
        assert_eq!(
            apply_edits(text, &edits),
            "{ \"A\": 1, \"b\": 2, \"c\": 3 }"
        );
    }
}
