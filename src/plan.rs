//! Compare what a build would write with what is on disk.
//!
//! `build`, `build --dry-run` and `check` all compute the same [`Plan`] and
//! differ only in what they do with it, so they can never disagree.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{self, Artifact, Content, Scope};
use crate::manifest::{Manifest, Owned, Part, UserBase};
use crate::merge::{self, Merged, Shape};
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
    /// The path as shown to the user: relative to the project, or the full
    /// path of a user-level file.
    pub path: String,
    /// Where the file is.
    pub target: PathBuf,
    pub action: Action,
    pub old: Option<String>,
    pub new: Option<String>,
    pub executable: bool,
    /// Keep a copy of the original before the first change (user-level files).
    pub backup: bool,
    /// hookc's part of the file was edited by hand since the last build.
    pub conflict: bool,
    /// A file hookc would write whole is already there, and hookc never wrote
    /// it: it is someone else's, and replacing it needs `--force`.
    pub foreign: bool,
}

/// Where user-level files live, resolved once per run.
#[derive(Debug, Clone, Default)]
pub struct Homes {
    /// `$HOME`, if set.
    pub home: Option<PathBuf>,
}

impl Homes {
    pub fn from_env() -> Self {
        Self {
            home: std::env::var_os("HOME").map(PathBuf::from),
        }
    }

    /// `$env` if set and not empty, else `$HOME/default`.
    pub fn base(&self, env: &str, default: &str) -> Option<PathBuf> {
        match std::env::var_os(env) {
            Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
            _ => self.home.as_ref().map(|h| h.join(default)),
        }
    }
}

/// What a build includes besides the project's own files.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Also plan user-level files (`hookc build --user`).
    pub user: bool,
    pub homes: Homes,
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
        options: &Options,
        diags: &mut Diagnostics,
    ) -> Plan {
        let mut plan = Plan {
            root: root.to_owned(),
            changes: Vec::new(),
        };
        let previous = read(&root.join(emit::MANIFEST))
            .and_then(|t| serde_json::from_str::<Manifest>(&t).ok());
        let included = |scope: &Scope| options.user || *scope == Scope::Project;
        let mut digests = std::collections::HashMap::new();
        let mut shapes = std::collections::HashMap::new();
        for artifact in artifacts.iter().filter(|a| included(&a.scope)) {
            let Some((shown, target)) = locate(
                root,
                &artifact.path,
                user_base(&artifact.scope).as_ref(),
                options,
            ) else {
                report_no_home(diags, &artifact.path);
                continue;
            };
            let old = read(&target);
            let part = part_of(&artifact.content);
            let before = previous.as_ref().and_then(|m| {
                m.files
                    .iter()
                    .find(|o| o.path == artifact.path && o.user == user_base(&artifact.scope))
            });
            // No record yet: hookc has added nothing to the file so far.
            let fresh = Shape::default();
            let prior = match before {
                Some(owned) => owned.shape.as_ref(),
                None => Some(&fresh),
            };
            let (new, executable) = match &artifact.content {
                Content::Whole { text, executable } => (Some(text.clone()), *executable),
                content => match merge(&shown, old.as_deref(), &part, content, prior, diags) {
                    Some((new, shape)) => {
                        shapes.insert((artifact.path.clone(), user_base(&artifact.scope)), shape);
                        (new, false)
                    }
                    None => continue,
                },
            };
            let conflict = hand_edited(before, &part, old.as_deref(), new.as_deref());
            // Everything under `.hookc/` is hookc's by definition.
            let foreign = before.is_none()
                && !artifact.path.starts_with(".hookc/")
                && matches!(artifact.content, Content::Whole { .. })
                && old
                    .as_deref()
                    .is_some_and(|old| not_hookcs(old, new.as_deref()));
            if let Some(new) = &new {
                digests.insert(
                    (artifact.path.clone(), user_base(&artifact.scope)),
                    digest(&part, new),
                );
            }
            let backup = artifact.scope != Scope::Project;
            plan.push(shown, target, old, new, executable, backup);
            plan.mark_conflict(conflict || foreign);
            if let Some(last) = plan.changes.last_mut() {
                last.foreign = foreign && last.conflict;
            }
        }
        // Retract what the last build owned and this one no longer produces.
        let mut kept_from_before = Vec::new();
        for owned in previous.iter().flat_map(|m| &m.files) {
            let scope_included = owned.user.is_none() || options.user;
            let still_produced = artifacts.iter().any(|a| {
                a.path == owned.path && user_base(&a.scope) == owned.user && included(&a.scope)
            });
            if owned.path == emit::MANIFEST || still_produced {
                continue;
            }
            if !scope_included {
                // Not planned this time (no --user): remember it for a later build.
                kept_from_before.push(owned.clone());
                continue;
            }
            let Some((shown, target)) = locate(root, &owned.path, owned.user.as_ref(), options)
            else {
                continue;
            };
            let Some(old) = read(&target) else { continue };
            let conflict = hand_edited(Some(owned), &owned.part, Some(&old), None);
            let new = match &owned.part {
                Part::Whole => None,
                part => match merge(
                    &shown,
                    Some(&old),
                    part,
                    &Content::empty_like(part),
                    owned.shape.as_ref(),
                    diags,
                ) {
                    Some((new, _)) => new,
                    None => continue,
                },
            };
            plan.push(shown, target, Some(old), new, false, owned.user.is_some());
            plan.mark_conflict(conflict);
        }
        let mut manifest = Manifest::of(
            policy_name,
            &artifacts
                .iter()
                .filter(|a| included(&a.scope))
                .cloned()
                .collect::<Vec<_>>(),
        );
        for owned in &mut manifest.files {
            let key = (owned.path.clone(), owned.user.clone());
            owned.digest = digests.remove(&key).flatten();
            owned.shape = shapes.remove(&key).flatten();
        }
        manifest.files.extend(kept_from_before);
        let target = root.join(emit::MANIFEST);
        plan.push(
            emit::MANIFEST.to_owned(),
            target.clone(),
            read(&target),
            Some(emit::json_text(&manifest)),
            false,
            false,
        );
        plan.changes.sort_by(|a, b| a.path.cmp(&b.path));
        plan
    }

    /// Changes that would undo a hand edit of hookc's part of a file.
    pub fn conflicts(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.conflict)
    }

    fn mark_conflict(&mut self, conflict: bool) {
        if let Some(last) = self.changes.last_mut() {
            last.conflict = conflict && last.action != Action::Unchanged;
        }
    }

    fn push(
        &mut self,
        path: String,
        target: PathBuf,
        old: Option<String>,
        new: Option<String>,
        executable: bool,
        backup: bool,
    ) {
        let action = match (&old, &new) {
            (None, None) => return,
            (None, Some(_)) => Action::Create,
            (Some(_), None) => Action::Delete,
            (Some(a), Some(b)) if a == b => {
                if executable && !is_executable(&target) {
                    Action::Update
                } else {
                    Action::Unchanged
                }
            }
            (Some(_), Some(_)) => Action::Update,
        };
        self.changes.push(Change {
            path,
            target,
            action,
            old,
            new,
            executable,
            backup,
            conflict: false,
            foreign: false,
        });
    }
}

impl Content {
    /// The same kind of owned part with nothing in it: what retraction merges.
    fn empty_like(part: &Part) -> Content {
        match part {
            Part::Whole => Content::Whole {
                text: String::new(),
                executable: false,
            },
            Part::JsonEntries {
                container,
                marker,
                ensure,
            } => Content::JsonEntries {
                container: container.clone(),
                entries: IndexMap::new(),
                ensure: ensure.clone(),
                marker: marker.clone(),
            },
            Part::TomlTables {
                key,
                header,
                marker,
            } => Content::TomlTables {
                key: key.clone(),
                tables: Vec::new(),
                header: header.clone(),
                marker: marker.clone(),
            },
        }
    }
}

fn part_of(content: &Content) -> Part {
    match content {
        Content::Whole { .. } => Part::Whole,
        Content::JsonEntries {
            container,
            marker,
            ensure,
            ..
        } => Part::JsonEntries {
            container: container.clone(),
            marker: marker.clone(),
            ensure: ensure.clone(),
        },
        Content::TomlTables {
            key,
            header,
            marker,
            ..
        } => Part::TomlTables {
            key: key.clone(),
            header: header.clone(),
            marker: marker.clone(),
        },
    }
}

fn user_base(scope: &Scope) -> Option<UserBase> {
    match scope {
        Scope::Project => None,
        Scope::User { env, default } => Some(UserBase {
            env: (*env).to_owned(),
            default: (*default).to_owned(),
        }),
    }
}

/// The path to show and the file to touch.
fn locate(
    root: &Path,
    path: &str,
    user: Option<&UserBase>,
    options: &Options,
) -> Option<(String, PathBuf)> {
    match user {
        None => Some((path.to_owned(), root.join(path))),
        Some(base) => {
            let target = options.homes.base(&base.env, &base.default)?.join(path);
            Some((target.display().to_string(), target))
        }
    }
}

fn report_no_home(diags: &mut Diagnostics, path: &str) {
    diags.push(
        Diagnostic::new(
            Code::Io,
            format!("cannot place the user-level file {path}: neither its directory variable nor HOME is set"),
        )
        .help("set HOME (or the harness's config-home variable) and build again"),
    );
}

/// Merge owned entries of `content` into `old`, given the record of what hookc
/// added before (`None`: a manifest without one). `Some((None, _))`: nothing is
/// left, delete the file. The record to keep comes back with the text.
fn merge(
    path: &str,
    old: Option<&str>,
    part: &Part,
    content: &Content,
    prior: Option<&Shape>,
    diags: &mut Diagnostics,
) -> Option<(Option<String>, Option<Shape>)> {
    let result = match (part, content) {
        (
            Part::JsonEntries {
                container, marker, ..
            },
            Content::JsonEntries {
                entries, ensure, ..
            },
        ) => {
            let container: Vec<&str> = container.iter().map(String::as_str).collect();
            let ensure: Vec<(&str, Value)> = ensure
                .iter()
                .map(|(k, v)| (k.as_str(), v.clone()))
                .collect();
            merge::json::merge_entries_shaped(
                old,
                &container,
                entries,
                &ensure,
                &|v: &Value| mentions(v, marker),
                prior,
            )
        }
        (
            Part::TomlTables {
                key,
                header,
                marker,
            },
            Content::TomlTables { tables, .. },
        ) => {
            let tables: Vec<toml_edit::Table> = tables.iter().map(toml_table).collect();
            merge::toml::merge_array_of_tables_shaped(
                old,
                key,
                &tables,
                Some(header),
                &|t: &toml_edit::Table| toml_owned(t, marker),
                prior,
            )
        }
        _ => unreachable!("part_of and empty_like keep part and content in step"),
    };
    match result {
        Ok((Merged::Text(text), shape)) => Some((Some(text), shape)),
        Ok((Merged::Empty, shape)) => Some((None, shape)),
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

/// Whether `old`, found where hookc would write a whole file it has no record
/// of, is someone else's: it differs from what hookc writes and shows no sign of
/// hookc (its `@generated` header, or a path into `.hookc/`, which every file
/// hookc writes outside `.hookc/` contains).
fn not_hookcs(old: &str, new: Option<&str>) -> bool {
    Some(old) != new && !old.contains("@generated by hookc") && !old.contains(".hookc/")
}

/// Whether hookc's part of a file was edited by hand since the last build,
/// in a way this build would undo. hookc's entries removed altogether (a file
/// replaced, or checked out from before hookc) are not an edit to protect:
/// the build puts them back, as `check` would ask it to.
fn hand_edited(before: Option<&Owned>, part: &Part, old: Option<&str>, new: Option<&str>) -> bool {
    let (Some(recorded), Some(old)) = (before.and_then(|o| o.digest.as_deref()), old) else {
        return false;
    };
    if old == new.unwrap_or_default() {
        return false;
    }
    match owned_text(part, old) {
        Some(owned) if owned.is_empty() => false,
        Some(owned) => fnv(&owned) != recorded,
        None => false,
    }
}

/// A digest of what hookc owns in `text`.
fn digest(part: &Part, text: &str) -> Option<String> {
    owned_text(part, text).map(|owned| fnv(&owned))
}

/// FNV-1a: stable across platforms and Rust versions, which the manifest
/// needs; not a security measure.
fn fnv(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// What hookc owns in `text`, in a canonical form (empty: nothing).
fn owned_text(part: &Part, text: &str) -> Option<String> {
    Some(match part {
        Part::Whole => text.to_owned(),
        Part::JsonEntries {
            container, marker, ..
        } => {
            let container: Vec<&str> = container.iter().map(String::as_str).collect();
            let entries =
                merge::json::owned_entries(text, &container, &|v: &Value| mentions(v, marker))
                    .ok()?;
            if entries.is_empty() {
                String::new()
            } else {
                serde_json::to_string(&entries).ok()?
            }
        }
        Part::TomlTables { key, marker, .. } => {
            let doc: toml_edit::DocumentMut = text.parse().ok()?;
            let tables = doc.get(key).and_then(|i| i.as_array_of_tables());
            tables
                .into_iter()
                .flat_map(|t| t.iter())
                .filter(|t| toml_owned(t, marker))
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        }
    })
}

fn toml_owned(table: &toml_edit::Table, marker: &str) -> bool {
    table
        .iter()
        .any(|(_, item)| item.as_str().is_some_and(|s| s.contains(marker)))
}

/// A JSON object of scalars as a TOML table, keys in order.
fn toml_table(value: &Value) -> toml_edit::Table {
    let mut table = toml_edit::Table::new();
    for (key, value) in value.as_object().into_iter().flatten() {
        let item = match value {
            Value::String(s) => toml_edit::value(s.as_str()),
            Value::Bool(b) => toml_edit::value(*b),
            Value::Number(n) if n.is_i64() => toml_edit::value(n.as_i64().unwrap_or_default()),
            Value::Number(n) => toml_edit::value(n.as_f64().unwrap_or_default()),
            other => toml_edit::value(other.to_string()),
        };
        table.insert(key, item);
    }
    table
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

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
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
