//! Compare what a build would write with what is on disk.
//!
//! `build`, `build --dry-run` and `check` all compute the same [`Plan`] and
//! differ only in what they do with it, so they can never disagree.

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::Value;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::disk;
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
    /// hookc's own folder under the root, which holds the compiled policy
    /// and the manifest: `None` for a project's [`emit::HOOKC_DIR`]; a
    /// managed build's (`etc/hookc`) otherwise.
    pub hookc_dir: Option<String>,
    /// A managed build's administrator files, of every harness: the only
    /// files it takes for its own by the manifest's digest alone, where the
    /// format leaves no room for hookc's sign.
    pub managed_files: Vec<String>,
}

impl Options {
    /// hookc's own folder under the root.
    pub fn hookc_dir(&self) -> &str {
        self.hookc_dir.as_deref().unwrap_or(emit::HOOKC_DIR)
    }

    /// The manifest, relative to the root.
    pub fn manifest(&self) -> String {
        format!("{}/manifest.json", self.hookc_dir())
    }
}

#[derive(Debug, Default)]
pub struct Plan {
    pub root: PathBuf,
    /// The manifest, relative to `root` ([`Options::manifest`]).
    pub manifest: String,
    pub changes: Vec<Change>,
    /// Directories hookc made (and `.hookc/` with everything below it): the
    /// only ones a retraction may remove once they are empty. A directory the
    /// user made stays, empty or not.
    pub owned_dirs: Vec<PathBuf>,
}

/// A manifest entry's identity: its path and, for a user-level file, its base.
type Key = (String, Option<UserBase>);

/// What this build records in the manifest about the files it plans.
#[derive(Default)]
struct Written {
    /// The digest of hookc's part of each file it writes.
    digests: std::collections::HashMap<Key, Option<String>>,
    /// What hookc added to each file it merges into.
    shapes: std::collections::HashMap<Key, Option<Shape>>,
    /// Project directories hookc makes or made.
    dirs: std::collections::BTreeSet<String>,
    /// Entries of the last build not planned this time (user-level files
    /// without `--user`): kept for a later build.
    kept_from_before: Vec<Owned>,
}

/// What earlier builds recorded, after every entry passed [`validate`].
#[derive(Default)]
struct Previous {
    files: Vec<Owned>,
    dirs: Vec<String>,
    /// Digests an interrupted build recorded (see [`emit::PENDING_MANIFEST`]):
    /// a file it got to write matches these rather than the manifest's.
    pending: std::collections::HashMap<Key, String>,
}

impl Previous {
    fn find(&self, key: &Key) -> Option<&Owned> {
        self.files
            .iter()
            .find(|o| o.path == key.0 && o.user == key.1)
    }
}

impl Plan {
    pub fn is_clean(&self) -> bool {
        self.changes.iter().all(|c| c.action == Action::Unchanged)
    }

    /// Compute the plan for `artifacts` under `root`. Nothing on disk is
    /// trusted: the manifest is [validated](validate), every path is
    /// [confined](disk::confine), and a file that cannot be read as text is an
    /// error, never "absent". Files with such problems are reported in `diags`
    /// and left out of the plan (never overwritten); callers write nothing
    /// when `diags` holds an error.
    pub fn new(
        root: &Path,
        policy_name: &str,
        artifacts: &[Artifact],
        options: &Options,
        diags: &mut Diagnostics,
    ) -> Plan {
        let mut plan = Plan {
            root: root.to_owned(),
            manifest: options.manifest(),
            changes: Vec::new(),
            owned_dirs: Vec::new(),
        };
        let Some(previous) = previous(root, options.hookc_dir(), diags) else {
            return plan;
        };
        let included = |scope: &Scope| options.user || *scope == Scope::Project;
        let produced: Vec<Artifact> = artifacts
            .iter()
            .filter(|a| included(&a.scope))
            .cloned()
            .collect();
        let mut written = Written::default();
        for artifact in &produced {
            plan.write_artifact(artifact, &previous, options, &mut written, diags);
        }
        // Retract what the last build owned and this one no longer produces.
        for owned in &previous.files {
            let still_produced = produced
                .iter()
                .any(|a| a.path == owned.path && user_base(&a.scope) == owned.user);
            if owned.path == plan.manifest || still_produced {
                continue;
            }
            if owned.user.is_some() && !options.user {
                // Not planned this time (no --user): remember it for a later build.
                written.kept_from_before.push(owned.clone());
                continue;
            }
            plan.retract(owned, &previous, options, diags);
        }
        plan.write_manifest(policy_name, &produced, written, &previous, options, diags);
        plan.changes.sort_by(|a, b| a.path.cmp(&b.path));
        plan
    }

    /// The change one artifact makes: the file whole, or hookc's entries
    /// merged into what is there, marked when it would undo a hand edit or
    /// replace someone else's file.
    fn write_artifact(
        &mut self,
        artifact: &Artifact,
        previous: &Previous,
        options: &Options,
        written: &mut Written,
        diags: &mut Diagnostics,
    ) {
        let root = &self.root;
        let key: Key = (artifact.path.clone(), user_base(&artifact.scope));
        let Some((shown, target)) = locate(root, &artifact.path, key.1.as_ref(), options, diags)
        else {
            return;
        };
        let Ok(old) = read(&shown, &target, diags) else {
            return;
        };
        if key.1.is_none() {
            written
                .dirs
                .extend(made_dirs(root, &artifact.path, &previous.dirs));
        }
        let part = part_of(&artifact.content);
        let before = previous.find(&key);
        // No record yet: hookc has added nothing to the file so far, and
        // owns only entries identical to the ones it writes.
        let fresh = Shape::default();
        let prior = match before {
            Some(owned) => owned.shape.as_ref(),
            None => Some(&fresh),
        };
        if let Some(old) = &old
            && strays_in_owned_tables(&shown, old, &artifact.content, diags)
        {
            return;
        }
        let (new, executable) = match &artifact.content {
            Content::Whole { text, executable } => (Some(text.clone()), *executable),
            content => {
                match merge(
                    &shown,
                    old.as_deref(),
                    &part,
                    content,
                    before.is_some(),
                    prior,
                    diags,
                ) {
                    Some((new, shape)) => {
                        written.shapes.insert(key.clone(), shape);
                        (new, false)
                    }
                    None => return,
                }
            }
        };
        let conflict = hand_edited(
            before,
            previous.pending.get(&key),
            &part,
            old.as_deref(),
            new.as_deref(),
        );
        let foreign = before.is_none() && foreign(artifact, old.as_deref(), new.as_deref());
        if let Some(new) = &new {
            written.digests.insert(key, digest(&part, new));
        }
        // A user's own files are copied aside before each change, and so
        // is an administrator's file the first time a managed build
        // replaces it (with `--force`) or merges into it: neither is in a
        // repository to restore from.
        let backup = artifact.scope != Scope::Project
            || (options.hookc_dir.is_some() && old.is_some() && before.is_none());
        self.push(shown, target, old, new, executable, backup);
        self.mark_conflict(conflict || foreign);
        if let Some(last) = self.changes.last_mut() {
            last.foreign = foreign && last.conflict;
        }
    }

    /// The change that takes back a file (or hookc's entries in it) the last
    /// build owned and this one no longer produces: only what hookc can prove
    /// it wrote.
    fn retract(
        &mut self,
        owned: &Owned,
        previous: &Previous,
        options: &Options,
        diags: &mut Diagnostics,
    ) {
        let Some((shown, target)) =
            locate(&self.root, &owned.path, owned.user.as_ref(), options, diags)
        else {
            return;
        };
        let Ok(Some(old)) = read(&shown, &target, diags) else {
            return;
        };
        // An administrator file of a managed build that the manifest
        // records with this very text is hookc's, even where the format
        // leaves no room for a sign (Copilot CLI's managed settings). Any
        // other file must show the sign: a manifest planted where a build
        // reads it could otherwise name /etc/sudoers with its digest.
        let recorded_as_is = options.managed_files.contains(&owned.path)
            && owned.digest.is_some()
            && digest(&owned.part, &old) == owned.digest;
        if matches!(owned.part, Part::Whole)
            && !owned.path.starts_with(".hookc/")
            && !recorded_as_is
            && not_hookcs(&old, None)
        {
            diags.push(
                Diagnostic::new(
                    Code::Conflict,
                    format!("{shown}: the manifest says hookc wrote this file, but it shows no sign of hookc; left alone"),
                )
                .severity(crate::diag::Severity::Warning)
                .help("if the file is hookc's, delete it yourself; the next build forgets it"),
            );
            return;
        }
        let key: Key = (owned.path.clone(), owned.user.clone());
        // Without a digest hookc cannot tell its own text from a hand
        // edit, so it retracts only what it can prove it wrote.
        let conflict = owned.digest.is_none()
            || hand_edited(
                Some(owned),
                previous.pending.get(&key),
                &owned.part,
                Some(&old),
                None,
            );
        let new = match &owned.part {
            Part::Whole => None,
            part => match merge(
                &shown,
                Some(&old),
                part,
                &Content::empty_like(part),
                true,
                owned.shape.as_ref(),
                diags,
            ) {
                Some((new, _)) => new,
                None => return,
            },
        };
        self.push(shown, target, Some(old), new, false, owned.user.is_some());
        self.mark_conflict(conflict);
    }

    /// The manifest of this build (what it wrote, with digests and shapes,
    /// and what it kept from before), and the directories it owns.
    fn write_manifest(
        &mut self,
        policy_name: &str,
        produced: &[Artifact],
        written: Written,
        previous: &Previous,
        options: &Options,
        diags: &mut Diagnostics,
    ) {
        let Written {
            mut digests,
            mut shapes,
            dirs,
            kept_from_before,
        } = written;
        let mut manifest = Manifest::of(policy_name, produced);
        for owned in &mut manifest.files {
            let key = (owned.path.clone(), owned.user.clone());
            owned.digest = digests.remove(&key).flatten();
            owned.shape = shapes.remove(&key).flatten();
        }
        manifest.files.extend(kept_from_before);
        // Directories hookc made that still hold one of its files; the others
        // may go when a retraction empties them.
        manifest.dirs = dirs.iter().cloned().collect();
        let root = &self.root;
        self.owned_dirs = previous
            .dirs
            .iter()
            .chain(&dirs)
            .chain(std::iter::once(&options.hookc_dir().to_owned()))
            .filter_map(|d| disk::confine(root, d).ok())
            .collect();
        if let Some((shown, target)) = locate(root, &self.manifest, None, options, diags)
            && let Ok(old) = read(&shown, &target, diags)
        {
            self.push(
                shown,
                target,
                old,
                Some(emit::json_text(&manifest)),
                false,
                false,
            );
        }
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

/// The path to show and the file to touch: `path` below the project root or
/// below a user-level base, through no symlink that leads out of it. `None`
/// (reported) when there is no such file.
fn locate(
    root: &Path,
    path: &str,
    user: Option<&UserBase>,
    options: &Options,
    diags: &mut Diagnostics,
) -> Option<(String, PathBuf)> {
    let (shown, base) = match user {
        None => (path.to_owned(), root.to_owned()),
        Some(base) => {
            let Some(dir) = options.homes.base(&base.env, &base.default) else {
                report_no_home(diags, path);
                return None;
            };
            (dir.join(path).display().to_string(), dir)
        }
    };
    match disk::confine(&base, path) {
        Ok(target) => Some((shown, target)),
        Err(why) => {
            diags.push(
                Diagnostic::new(
                    Code::UnsafeFile,
                    format!("{shown}: hookc will not read or write it: {why}"),
                )
                .help("replace the symlink with a real directory or file inside the project (or remove it) and build again; hookc never follows a link out of the project"),
            );
            None
        }
    }
}

/// The text at `target`, `None` when there is none; anything that is not a
/// readable UTF-8 regular file is reported (as `shown`) and is an `Err`.
fn read(shown: &str, target: &Path, diags: &mut Diagnostics) -> Result<Option<String>, ()> {
    disk::read_text(target).map_err(|e| {
        diags.push(
            Diagnostic::new(Code::UnsafeFile, format!("cannot read {shown}: {e}")).help(e.help()),
        );
    })
}

/// The manifest of the last build, with the digests of a build that was
/// interrupted after it (if any) folded in. `None` (reported) when either is
/// unreadable or claims anything hookc cannot own: then nothing may be
/// touched. A project without a manifest has `Previous::default()`.
fn previous(root: &Path, hookc_dir: &str, diags: &mut Diagnostics) -> Option<Previous> {
    let errors = diags.error_count();
    let manifest_path = format!("{hookc_dir}/manifest.json");
    let manifest = recorded(root, &manifest_path, diags);
    let pending = recorded(root, &format!("{hookc_dir}/{}", emit::PENDING_NAME), diags);
    if diags.error_count() > errors {
        return None;
    }
    let (manifest, pending) = (manifest.flatten(), pending.flatten());
    if manifest.is_none() && pending.is_none() && root.join(hookc_dir).join("policy.json").is_file()
    {
        diags.push(
            Diagnostic::new(
                Code::ManifestInvalid,
                format!("{manifest_path} is missing, though hookc built this project before"),
            )
            .severity(crate::diag::Severity::Warning)
            .help("hookc now owns only entries identical to the ones it writes; entries of an earlier build that differ stay where they are: remove them by hand, or restore the manifest from version control and build again"),
        );
    }
    let mut previous = Previous::default();
    if let Some(m) = manifest {
        previous.files = m.files;
        previous.dirs = m.dirs;
    }
    for owned in pending.iter().flat_map(|m| &m.files) {
        let key: Key = (owned.path.clone(), owned.user.clone());
        match (previous.find(&key).is_some(), &owned.digest) {
            (true, Some(digest)) => {
                previous.pending.insert(key, digest.clone());
            }
            (true, None) => {}
            (false, _) => previous.files.push(owned.clone()),
        }
    }
    for dir in pending.into_iter().flat_map(|m| m.dirs) {
        if !previous.dirs.contains(&dir) {
            previous.dirs.push(dir);
        }
    }
    Some(previous)
}

/// One manifest file: `Some(None)` when it is not there, `None` when it is
/// unusable (reported).
fn recorded(root: &Path, rel: &str, diags: &mut Diagnostics) -> Option<Option<Manifest>> {
    let target = match disk::confine(root, rel) {
        Ok(t) => t,
        Err(why) => {
            diags.push(
                Diagnostic::new(
                    Code::UnsafeFile,
                    format!("{rel}: hookc will not read it: {why}"),
                )
                .help(
                    "replace the symlink with a real directory inside the project and build again",
                ),
            );
            return None;
        }
    };
    let text = read(rel, &target, diags).ok()?;
    let Some(text) = text else {
        return Some(None);
    };
    let file = SourceFile::new(rel, text.as_str());
    let manifest = match serde_json::from_str::<Manifest>(&text) {
        Ok(m) => m,
        Err(e) => {
            let offset = offset_of(&text, e.line(), e.column());
            diags.push(
                Diagnostic::new(Code::ManifestInvalid, format!("{rel} is not a manifest hookc wrote: {e}"))
                    .in_file(&file)
                    .label(Span::new(offset.min(text.len()), 0), "here")
                    .help("restore it from version control (`git checkout -- .hookc/manifest.json`), or delete it and build again"),
            );
            return None;
        }
    };
    let errors = diags.error_count();
    // The manifest lies in hookc's own folder, which its entries point into.
    let hookc_dir = rel.rsplit_once('/').map_or(emit::HOOKC_DIR, |(dir, _)| dir);
    validate(&manifest, &file, hookc_dir, diags);
    (diags.error_count() == errors).then_some(Some(manifest))
}

/// Check every claim of a manifest before any is acted on: hookc owns whole
/// files only under `.hookc/`, and elsewhere only entries that point into
/// `.hookc/`; every path is plain and relative.
fn validate(manifest: &Manifest, file: &SourceFile, hookc_dir: &str, diags: &mut Diagnostics) {
    let mut bad = |what: &str, why: String| {
        // Point at the entry: the first place its path appears as a JSON string.
        let quoted = serde_json::to_string(what).unwrap_or_default();
        let span = file
            .text
            .find(&quoted)
            .map_or(Span::new(0, 0), |at| Span::new(at, quoted.len()));
        diags.push(
            Diagnostic::new(
                Code::ManifestInvalid,
                format!("{}: hookc cannot own {quoted}: {why}", file.name),
            )
            .in_file(file)
            .label(span, "this entry")
            .help("the manifest is input like any other file in the repository; restore it from version control (`git checkout -- .hookc/manifest.json`), or delete it and build again. hookc touched nothing"),
        );
    };
    for owned in &manifest.files {
        if let Some(why) = unownable(owned, hookc_dir) {
            bad(&owned.path, why);
        }
    }
    for dir in &manifest.dirs {
        if !disk::is_plain_relative(dir) {
            bad(
                dir,
                "not a plain relative directory inside the project".to_owned(),
            );
        }
    }
}

/// Why hookc cannot own the manifest entry `owned`, if it cannot; the
/// entries hookc owns in a shared file name its folder `hookc_dir` (`.hookc`).
fn unownable(owned: &Owned, hookc_dir: &str) -> Option<String> {
    let own = format!("{hookc_dir}/");
    let path = owned.path.as_str();
    if !disk::is_plain_relative(path) {
        return Some("not a plain relative path inside the project".to_owned());
    }
    if let Some(base) = &owned.user {
        let env_ok = !base.env.is_empty()
            && base
                .env
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
        if !env_ok || !disk::is_plain_relative(&base.default) {
            return Some(format!(
                "its user-level base ${} or ~/{} is not a plain directory name",
                base.env, base.default
            ));
        }
    }
    let in_hookc = owned.user.is_none() && path.starts_with(&own);
    match &owned.part {
        Part::Whole => None,
        _ if in_hookc => Some(format!("hookc writes files under {own} whole, never in part")),
        Part::JsonEntries {
            container, marker, ..
        } => (!marker.contains(&own)
            || container.is_empty()
            || container.iter().any(String::is_empty))
        .then(|| {
            format!(
                "its entries are selected by {marker:?} under {container:?}, which does not point into {own}"
            )
        }),
        Part::TomlTables { key, marker, .. } => (!marker.contains(&own) || key.is_empty())
            .then(|| {
                format!(
                    "its tables are selected by {marker:?}, which does not point into {own}"
                )
            }),
    }
}

/// The byte offset of serde_json's 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    start + column.saturating_sub(1)
}

/// The project directories on the way to `path` that hookc will make (they
/// do not exist yet) or made before (`recorded`).
fn made_dirs(root: &Path, path: &str, recorded: &[String]) -> Vec<String> {
    let mut dirs = Vec::new();
    let mut dir = String::new();
    let parts: Vec<&str> = path.split('/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        if !dir.is_empty() {
            dir.push('/');
        }
        dir.push_str(part);
        if recorded.contains(&dir) || !root.join(&dir).exists() {
            dirs.push(dir.clone());
        }
    }
    dirs
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
///
/// With no record of the file (`recorded` false), hookc owns only entries that
/// are identical to one it writes: a hook of the user's that merely mentions
/// `.hookc/` is theirs, and stays.
fn merge(
    path: &str,
    old: Option<&str>,
    part: &Part,
    content: &Content,
    recorded: bool,
    prior: Option<&Shape>,
    diags: &mut Diagnostics,
) -> Option<(Option<String>, Option<Shape>)> {
    if let (Part::JsonEntries { .. }, Some(text)) = (part, old)
        && rejected_by_harness(path, text, diags)
    {
        return None;
    }
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
                &|v: &Value| {
                    mentions(v, marker) && (recorded || entries.values().flatten().any(|e| e == v))
                },
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
            let tables: Vec<toml_edit::Table> =
                tables.iter().map(merge::toml::toml_table).collect();
            merge::toml::merge_array_of_tables_shaped(
                old,
                key,
                &tables,
                Some(header),
                &|t: &toml_edit::Table| {
                    toml_owned(t, marker)
                        && (recorded || tables.iter().any(|n| toml_pairs(n) == toml_pairs(t)))
                },
                prior,
            )
        }
        _ => unreachable!("part_of and empty_like keep part and content in step"),
    };
    match result {
        Ok((Merged::Text(text), shape)) => Some((Some(text), shape)),
        Ok((Merged::Empty, shape)) => Some((None, shape)),
        Err(error) => {
            report_merge_failed(path, old.unwrap_or_default(), &error, diags);
            None
        }
    }
}

/// Say where in `old` the merge into `path` failed, and that the file is
/// left as it is.
fn report_merge_failed(path: &str, old: &str, error: &merge::MergeError, diags: &mut Diagnostics) {
    let file = SourceFile::new(path, old);
    diags.push(
        Diagnostic::new(
            Code::MergeFailed,
            format!("cannot merge hooks into {path}: {}", error.message),
        )
        .in_file(&file)
        .label(Span::new(error.offset.min(file.text.len()), 1), "here")
        .help(format!("{}; hookc left the file untouched", error.help)),
    );
}

/// Whether the harness that reads the JSON file `path` would reject `text`
/// whole (comments or trailing commas where it reads strict JSON), which is
/// reported: merging hooks into it would not make them run.
fn rejected_by_harness(path: &str, text: &str, diags: &mut Diagnostics) -> bool {
    let Some((id, span, why)) = crate::lint::dialect::rejected(path, text) else {
        return false;
    };
    let name = crate::harness::get(id).map_or("the harness", |h| h.profile().name);
    let file = SourceFile::new(path, text);
    diags.push(
        Diagnostic::new(
            Code::MergeFailed,
            format!("cannot merge hooks into {path}: {name} rejects the whole file ({why}), and every hook in it, hookc's too"),
        )
        .in_file(&file)
        .label(span, format!("{name} reads strict JSON here"))
        .help(format!("remove the comments and trailing commas (or the byte order mark) from {path} (`hookc lint {path}` points at each), then build again; hookc left the file untouched")),
    );
    true
}

/// Whether the file `artifact` would replace whole, with no record of it in
/// the manifest, is someone else's. Everything under `.hookc/` is hookc's by
/// definition.
fn foreign(artifact: &Artifact, old: Option<&str>, new: Option<&str>) -> bool {
    !artifact.path.starts_with(".hookc/")
        && matches!(artifact.content, Content::Whole { .. })
        && old.is_some_and(|old| not_hookcs(old, new))
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
///
/// `pending` is the digest an interrupted build recorded for the file: its
/// text matches that one if the build got as far as writing it.
fn hand_edited(
    before: Option<&Owned>,
    pending: Option<&String>,
    part: &Part,
    old: Option<&str>,
    new: Option<&str>,
) -> bool {
    let (Some(recorded), Some(old)) = (before.and_then(|o| o.digest.as_deref()), old) else {
        return false;
    };
    if old == new.unwrap_or_default() {
        return false;
    }
    match owned_text(part, old) {
        Some(owned) if owned.is_empty() => false,
        Some(owned) => {
            let now = fnv(&owned);
            now != recorded && pending.is_none_or(|p| now != *p)
        }
        None => false,
    }
}

/// Whether `text` is a file hookc wrote whole at `rel` (relative to `root`)
/// and nobody changed since: the project's manifest records it, with the
/// digest of exactly this text. `hookc import` leaves such files out.
pub fn written_whole_by_hookc(root: &Path, rel: &str, text: &str) -> bool {
    recorded_whole(root, emit::MANIFEST, rel, text)
}

/// [`written_whole_by_hookc`] by the manifest at `manifest` (relative to
/// `root`): a managed tree's, in its own hookc folder.
pub fn recorded_whole(root: &Path, manifest: &str, rel: &str, text: &str) -> bool {
    let mut ignored = Diagnostics::default();
    let Some(Some(manifest)) = recorded(root, manifest, &mut ignored) else {
        return false;
    };
    manifest.files.iter().any(|owned| {
        owned.path == rel
            && owned.part == Part::Whole
            && owned.digest.as_deref() == Some(fnv(text).as_str())
    })
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

/// Whether one of hookc's tables in `old` (where `content` is TOML tables)
/// holds a key hookc never writes (reported). TOML gives every key to the
/// table above it, so a setting appended at the end of a file lands in
/// hookc's last table, and a harness that rejects unknown keys (Kimi drops
/// every hook) stops running them. hookc says where the key is rather than
/// take it for a hand edit of its own part, which `--force` would throw away.
fn strays_in_owned_tables(
    shown: &str,
    old: &str,
    content: &Content,
    diags: &mut Diagnostics,
) -> bool {
    let Content::TomlTables {
        key,
        tables: desired,
        marker,
        ..
    } = content
    else {
        return false;
    };
    let Ok(doc) = old.parse::<toml_edit::DocumentMut>() else {
        return false;
    };
    let known = |k: &str| desired.iter().any(|t| t.get(k).is_some());
    let strays: Vec<String> = doc
        .get(key)
        .and_then(|i| i.as_array_of_tables())
        .into_iter()
        .flat_map(|t| t.iter())
        .filter(|t| toml_owned(t, marker))
        .flat_map(|t| t.iter().map(|(k, _)| k.to_owned()))
        .filter(|k| !known(k))
        .collect();
    let file = SourceFile::new(shown, old);
    for stray in &strays {
        let at = old
            .match_indices(stray.as_str())
            .map(|(at, _)| at)
            .filter(|&at| at == 0 || old.as_bytes()[at - 1] == b'\n')
            .last()
            .unwrap_or(0);
        diags.push(
            Diagnostic::new(
                Code::MergeFailed,
                format!("{shown}: `{stray}` sits inside one of hookc's [[{key}]] tables"),
            )
            .in_file(&file)
            .label(Span::new(at, stray.len()), "TOML puts this key into the table above it")
            .help(format!("move `{stray}` above the first [[{key}]] table (or under a table of your own) and build again; as it is, the harness reads it as part of a hook, and Kimi then ignores every hook. hookc left the file untouched")),
        );
    }
    !strays.is_empty()
}

/// A table's keys and values, without formatting, to compare two tables.
fn toml_pairs(table: &toml_edit::Table) -> Vec<(String, String)> {
    table
        .iter()
        .map(|(k, item)| {
            let value = item
                .as_value()
                .map(|v| v.clone().decorated("", "").to_string());
            (k.to_owned(), value.unwrap_or_default())
        })
        .collect()
}

fn toml_owned(table: &toml_edit::Table, marker: &str) -> bool {
    table
        .iter()
        .any(|(_, item)| item.as_str().is_some_and(|s| s.contains(marker)))
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

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    true
}
