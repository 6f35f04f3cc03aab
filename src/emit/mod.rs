//! What emitters produce: [`Artifact`]s, collected in an [`EmitCx`].

mod template;

use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde_json::Value;

use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::ir::{Event, Guard, HarnessId, Policy};
use crate::profile::Profile;
use crate::source::SourceFile;

pub use template::{Shim, deadline, render_file, render_shim};

/// Where hookc keeps its own files, relative to the project root.
pub const HOOKC_DIR: &str = ".hookc";
pub use crate::policy_json::PATH as POLICY_JSON;
pub const MANIFEST: &str = ".hookc/manifest.json";
/// What each `extends` of the policy resolved to, as the build records it.
pub const POLICY_LOCK: &str = "policy.lock";
/// The manifest a build is writing: in place before the build's first change
/// and renamed over [`MANIFEST`] after its last, so that a build killed half-way
/// leaves the digests of what it wrote, and the next build does not take them
/// for hand edits.
pub const PENDING_MANIFEST: &str = ".hookc/manifest.pending.json";
/// [`PENDING_MANIFEST`]'s name, beside the manifest wherever that is.
pub const PENDING_NAME: &str = "manifest.pending.json";

/// One file hookc writes, or owns a part of.
#[derive(Debug, Clone, PartialEq)]
pub struct Artifact {
    /// Relative to the base its [`Scope`] names, with `/`.
    pub path: String,
    pub content: Content,
    pub scope: Scope,
}

impl Artifact {
    /// The file as a build writes it where there is none yet: hookc's part
    /// is then the whole file (`hookc build --managed --print`).
    pub fn fresh_text(&self) -> String {
        let merged = match &self.content {
            Content::Whole { text, .. } => return text.clone(),
            Content::JsonEntries {
                container,
                entries,
                ensure,
                ..
            } => {
                let container: Vec<&str> = container.iter().map(String::as_str).collect();
                let ensure: Vec<(&str, Value)> = ensure
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.clone()))
                    .collect();
                crate::merge::json::merge_entries(None, &container, entries, &ensure, &|_| false)
            }
            Content::TomlTables {
                key,
                tables,
                header,
                ..
            } => {
                let tables: Vec<toml_edit::Table> =
                    tables.iter().map(crate::merge::toml::toml_table).collect();
                crate::merge::toml::merge_array_of_tables(None, key, &tables, Some(header), &|_| {
                    false
                })
            }
        };
        match merged {
            Ok(crate::merge::Merged::Text(text)) => text,
            Ok(crate::merge::Merged::Empty) => String::new(),
            Err(e) => unreachable!("a merge into no file cannot fail: {e:?}"),
        }
    }
}

/// Which directory an artifact's path is relative to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case", tag = "scope")]
pub enum Scope {
    /// The project root (`--out`).
    #[default]
    Project,
    /// A harness's user-level config directory: `$env` when set, else `$HOME/default`.
    /// Written only with `hookc build --user`, after a backup of the existing file.
    User {
        env: &'static str,
        default: &'static str,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// hookc owns the whole file.
    Whole { text: String, executable: bool },
    /// hookc owns some entries of a JSON file the user may also edit: the
    /// elements of the arrays under `container` that contain `marker`.
    JsonEntries {
        container: Vec<String>,
        entries: IndexMap<String, Vec<Value>>,
        /// Top-level members hookc needs, added only when absent.
        ensure: Vec<(String, Value)>,
        marker: String,
    },
    /// hookc owns some tables of the array of tables `key` in a TOML file the
    /// user may also edit (Kimi's `[[hooks]]`): those containing `marker`.
    /// Each table is a JSON object of strings, numbers and booleans.
    TomlTables {
        key: String,
        tables: Vec<Value>,
        /// A comment line put above hookc's first table.
        header: String,
        marker: String,
    },
}

/// Everything one build produces.
pub struct EmitCx<'a> {
    pub file: &'a SourceFile,
    pub diags: &'a mut Diagnostics,
    artifacts: BTreeMap<String, Artifact>,
    /// The guards a harness can do only part of (or none of), by name,
    /// whether or not the user accepted it with `allow-degraded`: the build
    /// summary must not count them as simply active.
    pub degraded: std::collections::BTreeSet<String>,
    /// A managed build's hookc, as a shell word: every shim runs it and no
    /// other (see [`crate::managed`]). `None` in a project build.
    pub managed_hookc: Option<String>,
    /// A managed build's compiled policy, by its build (the digest its hooks
    /// on Windows name). `None` in a project build.
    pub managed_build: Option<String>,
}

impl<'a> EmitCx<'a> {
    pub fn new(file: &'a SourceFile, diags: &'a mut Diagnostics) -> Self {
        Self {
            file,
            diags,
            artifacts: BTreeMap::new(),
            degraded: std::collections::BTreeSet::new(),
            managed_hookc: None,
            managed_build: None,
        }
    }

    /// A project file hookc owns entirely.
    pub fn whole(&mut self, path: impl Into<String>, text: String, executable: bool) {
        self.add(Artifact {
            path: path.into(),
            content: Content::Whole { text, executable },
            scope: Scope::Project,
        });
    }

    /// The POSIX-sh shim a harness runs for `event`, at
    /// `.hookc/<harness>/<event>.sh`; `native` is the harness's name for the
    /// event and `on_error` what the shim answers when hookc cannot
    /// (`deny`, or `ask` where the harness can ask). Returns its path.
    pub fn shim(
        &mut self,
        policy: &Policy,
        profile: &Profile,
        event: Event,
        native: &str,
        on_error: &str,
    ) -> String {
        let path = format!(".hookc/{}/{}.sh", profile.id.word(), event.word());
        self.shim_at(
            policy,
            profile,
            (event, native),
            on_error,
            &path,
            "../policy.json",
        );
        path
    }

    /// [`shim`](Self::shim) at another `path`, for a harness that runs hook
    /// files from its own folder (Cline's `.clinerules/hooks/`);
    /// `policy_from_shim` is `.hookc/policy.json` relative to that folder.
    pub fn shim_at(
        &mut self,
        policy: &Policy,
        profile: &Profile,
        (event, native): (Event, &str),
        on_error: &str,
        path: &str,
        policy_from_shim: &str,
    ) {
        let refusal = profile
            .refusal
            .unwrap_or_else(|| panic!("{} has shims but no refusal template", profile.name));
        let timeout = profile.hook_timeout(policy.timeout);
        let text = render_shim(
            &Shim {
                timeout,
                deadline: deadline(timeout),
                // Only where the harness always refuses a late hook: a hook
                // file refused only by an option (Claude Code's `onFailure`)
                // is run by other harnesses too (Copilot CLI and Cursor load
                // .claude/settings.json), which let a late hook's call run.
                outer: profile.late_hook != crate::profile::LateHook::Refuses,
                header: header(policy, "#"),
                harness: profile.id.word(),
                harness_name: profile.name,
                event: event.word(),
                native_event: native,
                on_error,
                policy_from_shim,
                not_found_fix: sh_word(&format!(
                    "install hookc ({}) or set HOOKC_BIN to its path",
                    policy.install_command()
                )),
                not_hookc_fix: sh_word(&format!(
                    "point HOOKC_BIN or PATH at the hookc this project needs ({})",
                    policy.install_command()
                )),
                managed_hookc: self.managed_hookc.clone(),
            },
            refusal,
        );
        self.whole(path, text, true);
    }

    /// [`shim`](Self::shim) in a managed build: in hookc's folder of the
    /// managed machine, running the administrator's hookc. Returns its
    /// absolute path on that machine.
    pub fn managed_shim(
        &mut self,
        policy: &Policy,
        profile: &Profile,
        (event, native): (Event, &str),
        on_error: &str,
        install: &crate::managed::Install,
    ) -> String {
        let path = format!(
            "{}/{}/{}.sh",
            install.hookc_dir(),
            profile.id.word(),
            event.word()
        );
        self.shim_at(
            policy,
            profile,
            (event, native),
            on_error,
            &path,
            "../policy.json",
        );
        install.absolute(&path)
    }

    /// A managed build's policy build (see [`EmitCx::managed_build`]).
    pub fn managed_build(&self) -> &str {
        self.managed_build
            .as_deref()
            .expect("a managed build knows its policy's build")
    }

    /// The shim of an event no guard of the policy is for, where a harness
    /// runs one anyway (Kimi Code's user-level hooks run on every event):
    /// the call goes on without asking hookc, and the file's presence tells a
    /// complete build from a broken one.
    pub fn idle_shim(&mut self, policy: &Policy, profile: &Profile, event: Event) -> String {
        let path = format!(".hookc/{}/{}.sh", profile.id.word(), event.word());
        let text = format!(
            "#!/bin/sh\n{}\n#\n# {} runs this on `{}`. No guard of the policy is for this event, so\n\
             # there is nothing to check and the call goes on. The file is here because\n\
             # the hook takes a project without it for a broken build, and refuses.\nexit 0\n",
            header(policy, "#"),
            profile.name,
            event.word()
        );
        self.whole(path.clone(), text, true);
        path
    }

    /// hookc's entries under `hooks` in a project JSON file the user may also
    /// edit, recognised by `marker`; `ensure` members are added when absent.
    pub fn hook_entries(
        &mut self,
        path: &str,
        entries: IndexMap<String, Vec<Value>>,
        ensure: Vec<(String, Value)>,
        marker: &str,
    ) {
        self.add(Artifact {
            scope: Scope::Project,
            path: path.to_owned(),
            content: Content::JsonEntries {
                container: vec!["hooks".to_owned()],
                entries,
                ensure,
                marker: marker.to_owned(),
            },
        });
    }

    pub fn add(&mut self, artifact: Artifact) {
        // Two emitters writing one path is a bug in hookc, not in the policy.
        let key = format!("{:?}/{}", artifact.scope, artifact.path);
        let previous = self.artifacts.insert(key, artifact);
        assert!(previous.is_none(), "two artifacts for one path");
    }

    /// Warn that a harness cannot do what `guard` asks, unless the user has
    /// acknowledged it with `allow-degraded "<harness>"`.
    pub fn unsupported(
        &mut self,
        guard: &Guard,
        harness: HarnessId,
        what: String,
        instead: String,
    ) {
        self.degraded.insert(guard.name.clone());
        if guard.allow_degraded.contains(&harness) {
            return;
        }
        self.diags.push(
            Diagnostic::new(Code::Unsupported, format!("{harness}: {what}"))
                .severity(Severity::Warning)
                .in_file(self.file)
                .label(guard.origin, format!("in guard `{}`", guard.name))
                .help(format!(
                    "{instead}; to accept this, add `allow-degraded \"{harness}\"` to the guard"
                )),
        );
    }

    pub fn into_artifacts(self) -> Vec<Artifact> {
        self.artifacts.into_values().collect()
    }
}

/// The first line of every generated file that can hold a comment.
pub fn header(policy: &Policy, comment: &str) -> String {
    let source = comment_text(&policy.source);
    format!(
        "{comment} @generated by hookc from {source}: do not edit. Regenerate with `hookc build`."
    )
}

/// Text that did not come from hookc (the policy's path), made safe to put
/// inside a one-line comment of any language hookc writes: every character
/// that some language reads as the end of a line (JavaScript counts U+2028 and
/// U+2029) or that TOML forbids in a comment becomes `?`, so the text cannot
/// end the comment and run as code.
pub fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                '?'
            } else {
                c
            }
        })
        .collect()
}

pub use crate::shell::sh_word;

/// Pretty JSON with a trailing newline, the format of every JSON file hookc owns.
pub fn json_text(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    text.push('\n');
    text
}

/// A JSON value as a JavaScript expression: the one way generated code
/// carries data. JSON is JavaScript, except that older engines reject U+2028
/// and U+2029 inside string literals; those are escaped, and so is `<`, which
/// keeps `</script>` and `<!--` out of the text. The literal of a JSON
/// *string* is also a Python string literal (JSON's escapes are a subset of
/// Python's), which is how Python modules get their data: `json.loads(…)`.
pub fn js_literal(value: &Value) -> String {
    let json = serde_json::to_string(value).expect("JSON values serialise");
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            '<' => out.push_str("\\u003c"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn comment_text_cannot_end_a_comment_in_any_language() {
        let text = comment_text("a\u{2028}b\u{2029}c\nd\re\u{85}f\u{7}g");
        assert_eq!(text, "a?b?c?d?e?f?g");
    }

    #[test]
    fn js_literals_are_json_with_line_separators_and_angles_escaped() {
        let value = json!({"a": "x\u{2028}y\u{2029}</script>\"\\\n", "n": 10000});
        let literal = js_literal(&value);
        assert!(!literal.contains('\u{2028}') && !literal.contains('\u{2029}'));
        assert!(!literal.contains('<'));
        let back: Value = serde_json::from_str(&literal).unwrap();
        assert_eq!(back, value);
    }
}
