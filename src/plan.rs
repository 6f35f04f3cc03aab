//! Compare what a build would write with what is on disk.
//!
//! `build`, `build --dry-run` and `check` all compute the same [`Plan`] and
//! differ only in what they do with it, so they can never disagree.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{self, Artifact, Content};
use crate::manifest::{Manifest, Owned};
use crate::merge::{self, Merged};
use crate::source::{SourceFile, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Create,
    Update,
    Unchanged,
    /// hookc's file (or its last entries) is no longer wanted.
    Delete,
}

#[derive(Debug, Clone)]
pub struct Change {
    pub path: String,
    pub action: Action,
    pub old: Option<String>,
    pub new: Option<String>,
    pub executable: bool,
}

#[derive(Debug, Default)]
pub struct Plan {
    pub root: PathBuf,
    pub changes: Vec<Change>,
}

impl Plan {
    pub fn is_clean(&self) -> bool {
        self.changes.iter().all(|c| c.action == Action::Unchanged)
    }

    /// Compute the plan for `artifacts` under `root`. Unparseable user files
    /// are reported in `diags` and left out of the plan (never overwritten).
    pub fn new(
        root: &Path,
        policy_name: &str,
        artifacts: &[Artifact],
        diags: &mut Diagnostics,
    ) -> Plan {
        let mut plan = Plan {
            root: root.to_owned(),
            changes: Vec::new(),
        };
        let previous = read_manifest(root);
        for artifact in artifacts {
            let old = read(root, &artifact.path);
            let (new, executable) = match &artifact.content {
                Content::Whole { text, executable } => (Some(text.clone()), *executable),
                Content::JsonEntries {
                    container,
                    entries,
                    ensure,
                    marker,
                } => match merge_json(
                    &artifact.path,
                    old.as_deref(),
                    container,
                    entries,
                    ensure,
                    marker,
                    diags,
                ) {
                    Some(new) => (new, false),
                    None => continue,
                },
            };
            plan.push(&artifact.path, old, new, executable);
        }
        // Retract what the last build owned and this one no longer produces.
        for owned in previous.iter().flat_map(|m| &m.files) {
            if owned.path() == emit::MANIFEST || artifacts.iter().any(|a| a.path == owned.path()) {
                continue;
            }
            let Some(old) = read(root, owned.path()) else {
                continue;
            };
            let new = match owned {
                Owned::Whole { .. } => None,
                Owned::JsonEntries {
                    path,
                    container,
                    marker,
                } => match merge_json(
                    path,
                    Some(&old),
                    container,
                    &IndexMap::new(),
                    &[],
                    marker,
                    diags,
                ) {
                    Some(new) => new,
                    None => continue,
                },
            };
            plan.push(owned.path(), Some(old), new, false);
        }
        let manifest = Manifest::of(policy_name, artifacts);
        plan.push(
            emit::MANIFEST,
            read(root, emit::MANIFEST),
            Some(emit::json_text(&manifest)),
            false,
        );
        plan.changes.sort_by(|a, b| a.path.cmp(&b.path));
        plan
    }

    fn push(&mut self, path: &str, old: Option<String>, new: Option<String>, executable: bool) {
        let action = match (&old, &new) {
            (None, None) => return,
            (None, Some(_)) => Action::Create,
            (Some(_), None) => Action::Delete,
            (Some(a), Some(b)) if a == b => {
                if executable && !is_executable(&self.root.join(path)) {
                    Action::Update
                } else {
                    Action::Unchanged
                }
            }
            (Some(_), Some(_)) => Action::Update,
        };
        self.changes.push(Change {
            path: path.to_owned(),
            action,
            old,
            new,
            executable,
        });
    }
}

fn merge_json(
    path: &str,
    old: Option<&str>,
    container: &[String],
    entries: &IndexMap<String, Vec<Value>>,
    ensure: &[(String, Value)],
    marker: &str,
    diags: &mut Diagnostics,
) -> Option<Option<String>> {
    let container: Vec<&str> = container.iter().map(String::as_str).collect();
    let ensure: Vec<(&str, Value)> = ensure
        .iter()
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    let is_owned = |v: &Value| mentions(v, marker);
    match merge::json::merge_entries(old, &container, entries, &ensure, &is_owned) {
        Ok(Merged::Text(text)) => Some(Some(text)),
        Ok(Merged::Empty) => Some(None),
        Err(error) => {
            let file = SourceFile::new(path, old.unwrap_or_default());
            diags.push(
                Diagnostic::new(
                    Code::MergeFailed,
                    format!("cannot merge hooks into {path}: {}", error.message),
                )
                .in_file(&file)
                .label(Span::new(error.offset.min(file.text.len()), 1), "here")
                .help(format!("{}; hookc left the file untouched", error.help)),
            );
            None
        }
    }
}

/// Whether any string inside `value` contains `marker`.
fn mentions(value: &Value, marker: &str) -> bool {
    match value {
        Value::String(s) => s.contains(marker),
        Value::Array(items) => items.iter().any(|v| mentions(v, marker)),
        Value::Object(map) => map.values().any(|v| mentions(v, marker)),
        _ => false,
    }
}

fn read(root: &Path, path: &str) -> Option<String> {
    std::fs::read_to_string(root.join(path)).ok()
}

fn read_manifest(root: &Path) -> Option<Manifest> {
    serde_json::from_str(&read(root, emit::MANIFEST)?).ok()
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    true
}
