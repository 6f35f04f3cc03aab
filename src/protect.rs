//! Self-protection: the guards every policy gets unless it opts out.
//!
//! An agent that may write files could switch its guards off: change the
//! policy and run `hookc build`, overwrite `.hookc/policy.json` or a hook
//! script, set `"disableAllHooks": true` in `.claude/settings.local.json`,
//! edit a harness's user-level settings, or put `export HOOKC_BIN=/bin/true`
//! into a shell profile the hook shell reads. The guards written here refuse
//! every write, edit, delete and rename of those files (through the file
//! tools and every shell command the access model sees), and the commands
//! that rebuild or re-point the hooks. The policy opts out with
//! `self-protection "off"`, which the build warns about.
//!
//! The guards are written as policy text and compiled like the user's, so
//! they are checked, indexed and tested (their examples run on every build)
//! the same way.
//!
//! What differs from one machine to the next cannot be written here, since
//! the compiled policy is shared with the repository: the hookc that answers
//! for the hooks, the copy of it `hookc build` recorded in the user's state
//! directory, and the installs that would replace it. `hookc guard` guards
//! those at run time, whatever the policy says ([`crate::pin::refusal`]).

use crate::harness::{self, Profile};
use crate::ir::HarnessId;

/// The name of the synthetic source the guards are compiled from.
pub const SOURCE: &str = "(hookc self-protection)";

/// Whether a guard is one of these (by name).
pub fn is_builtin(guard: &str) -> bool {
    guard.starts_with("hookc-self-protection")
}

/// Startup files of the shells that run hook commands (`sh`, `bash`, `zsh`,
/// login or not), where an exported variable (`HOOKC_BIN`, `PATH`,
/// `BASH_ENV`) changes which program answers for hookc.
pub const SHELL_PROFILES: &[&str] = &[
    "~/.profile",
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.bash_logout",
    "~/.zshenv",
    "~/.zshrc",
    "~/.zprofile",
    "~/.zlogin",
    "~/.config/fish",
    "~/.config/environment.d",
    "$XDG_CONFIG_HOME/fish",
    "$XDG_CONFIG_HOME/environment.d",
    "/etc/profile",
    "/etc/profile.d",
    "/etc/bash.bashrc",
    "/etc/bashrc",
    "/etc/zsh",
    "/etc/zshenv",
    "/etc/environment",
];

/// The registered profiles of `targets` and of the harnesses whose hook
/// files a target runs too (`also_runs`, `hooks_from`), in registry order:
/// a hook the agent writes into `.claude/settings.json` runs in Cursor and
/// Copilot CLI even where the policy does not target Claude Code.
fn profiles(targets: &[HarnessId]) -> impl Iterator<Item = &'static Profile> + '_ {
    let targeted = || {
        harness::all()
            .iter()
            .filter(|h| targets.contains(&h.id()))
            .map(|h| h.profile())
    };
    harness::all().iter().map(|h| h.profile()).filter(move |p| {
        targeted()
            .any(|t| t.id == p.id || t.also_runs.contains(&p.id) || t.hooks_from.contains(&p.id))
    })
}

const REASON: &str = "This call would change hookc's own guards (the policy, .hookc/, a harness's hook settings, or a shell profile the hooks run with), which only the user may do. Do not try another way: ask the user to make the change themselves (edit the policy and run `hookc build`).";

/// The self-protection guards for a policy at `source` (relative to the
/// project root) that targets `targets`, as policy text.
pub fn policy_text(source: &str, targets: &[HarnessId], extended: &[String]) -> String {
    // The policy's name at the project root, however the build was asked
    // to find it (`policy.kdl`, `../../policy.kdl`, an absolute path): the
    // same policy builds the same files.
    let name = source.rsplit(['/', '\\']).next().unwrap_or(source);
    let literal = |name: &str| -> String {
        name.chars()
            .map(|c| match c {
                '*' | '?' | '[' | ']' | '{' | '}' | '!' => format!("[{c}]"),
                c => c.to_string(),
            })
            .collect()
    };
    let policy_file = format!("./{}", literal(name));
    let mut files: Vec<String> = vec![policy_file, "./.hookc".to_owned()];
    // The files the policy extends by path, from its folder: an edit there
    // fails the next build (the pin), but `hookc update` would take it.
    if !extended.is_empty() {
        files.push(format!("./{}", crate::emit::POLICY_LOCK));
    }
    for file in extended {
        let file = file.replace('\\', "/");
        files.push(if file.starts_with('/') {
            literal(&file)
        } else {
            format!("./{}", literal(file.trim_start_matches("./")))
        });
    }
    // A file found through the environment (`$CODEX_HOME/config.toml`) is
    // where this machine's harness looks, which the compiled policy (shared
    // with the repository) cannot say: `hookc guard` guards those
    // ([`moved_refusal`]).
    let fixed = |f: &&&str| !f.starts_with('$');
    for profile in profiles(targets) {
        files.extend(
            profile
                .protected
                .iter()
                .filter(fixed)
                .map(|f| (*f).to_owned()),
        );
    }
    // The administrator's layer of each targeted harness, whole (the
    // folder of managed settings, not only hookc's file in it: another file
    // there can switch every hook off), and hookc's own managed folder. Only
    // root can change them, and an agent may run as root.
    // A Windows folder is written with `/`: call paths are read so (see
    // `crate::paths`).
    let mut managed = false;
    for layer in targets
        .iter()
        .filter_map(|id| harness::get(*id)?.managed_layer())
    {
        managed = true;
        let switch = layer.only_managed.and_then(|s| s.elsewhere);
        for paths in std::iter::once(layer.file).chain(switch) {
            for os in <crate::managed::Os as clap::ValueEnum>::value_variants() {
                files.extend(paths.on(*os).map(|file| {
                    literal(&crate::managed::administrator_folder(file).replace('\\', "/"))
                }));
            }
        }
    }
    if managed {
        for os in <crate::managed::Os as clap::ValueEnum>::value_variants() {
            files.push(literal(&os.hookc_dir().replace('\\', "/")));
        }
    }
    files.extend(SHELL_PROFILES.iter().filter(fixed).map(|f| (*f).to_owned()));
    files.push("./.git/config".to_owned());
    // hookc's own state: the approvals, the audit log and the record of
    // the last build (where `$XDG_STATE_HOME` moves it, the guard's
    // built-in check in `audit` covers it by name).
    files.push("~/.local/state/hookc".to_owned());
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    let quoted: Vec<String> = files.iter().map(|f| kdl_string(f)).collect();
    let degraded: Vec<String> = targets.iter().map(|t| kdl_string(t.word())).collect();
    let degraded = if degraded.is_empty() {
        String::new()
    } else {
        format!("    allow-degraded {}\n", degraded.join(" "))
    };
    let policy = kdl_string(name);
    let mut examples = vec![
        format!(
            "example {} expect=\"deny\"",
            kdl_string(&format!("sed -i s/deny/allow/ {}", shell_word(name)))
        ),
        format!("example tool=\"write\" path={policy} expect=\"deny\""),
        "example tool=\"write\" path=\".hookc/policy.json\" expect=\"deny\"".to_owned(),
        "example \"cp /tmp/x .hookc/policy.json\" expect=\"deny\"".to_owned(),
        "example \"mv /tmp/x .hookc/policy.json\" expect=\"deny\"".to_owned(),
        "example \"rm .hookc/policy.json\" expect=\"deny\"".to_owned(),
        "example \"truncate -s 0 .hookc/policy.json\" expect=\"deny\"".to_owned(),
        "example \"cd .hookc && echo {} > policy.json\" expect=\"deny\"".to_owned(),
        "example \"echo 'export HOOKC_BIN=/bin/true' >> ~/.profile\" expect=\"deny\"".to_owned(),
    ];
    if managed {
        examples.push("example \"cp /tmp/x /etc/hookc/policy.json\" expect=\"deny\"".to_owned());
        examples.push(
            r#"example tool="write" path="C:\\Program Files\\hookc\\policy.json" expect="deny""#
                .to_owned(),
        );
    }
    for profile in profiles(targets) {
        for file in profile.protected_examples {
            let example = format!("example tool=\"edit\" path=\"{file}\" expect=\"deny\"");
            if !examples.contains(&example) {
                examples.push(example);
            }
        }
    }
    let examples: String = examples.iter().map(|e| format!("    {e}\n")).collect();
    // Each target's own commands that would turn its hooks away.
    let (mut settings, mut settings_examples) = (String::new(), String::new());
    for (pattern, example) in profiles(targets).flat_map(|p| p.settings_commands) {
        settings.push_str(&format!("    {pattern}\n"));
        settings_examples.push_str(&format!(
            "    example {} expect=\"deny\"\n",
            kdl_string(example)
        ));
    }
    format!(
        r#"guard "hookc-self-protection" {{
    // Tools that write; a read tool changes nothing.
    tool "write" "edit" "shell"
    path {files} access="write"
    deny {reason}
{examples}{degraded}}}

guard "hookc-self-protection-commands" {{
    tool "shell"
    command "hookc" "build"
    command "hookc" "init"
    command "hookc" "update"
    command "npx" "hookc" {{ arg "build" "init" "update"; }}
    command "git" "config" {{ arg "core.worktree" "--unset"; }}
{settings}    // What hookc cannot read in a line is for the user's own command guards
    // to judge: these commands only rebuild from the protected policy.
    opaque "allow"
    deny {reason}
    example "hookc build" expect="deny"
    example "hookc update" expect="deny"
    example "npx hookc init --force" expect="deny"
    example "git config core.worktree /tmp/elsewhere" expect="deny"
{settings_examples}{degraded}}}
"#,
        files = quoted.join(" "),
        reason = kdl_string(REASON),
    )
}

/// What hookc's refusal of a write to a harness's configuration found
/// through the environment says to the model.
pub const MOVED_REASON: &str = "This call would change a harness's hook settings where this machine's environment tells the harness to look for them (a variable such as CLAUDE_CONFIG_DIR, CODEX_HOME or XDG_CONFIG_HOME), which only the user may do. Do not try another way: ask the user to make the change themselves.";

/// The protected files of `targets` (every harness when empty) and the
/// shell profiles that the harness's environment puts somewhere else: each
/// `$VAR/rest` entry whose variable is set here, as an absolute path (a
/// relative value is taken from the folder the hook runs in, as the
/// harness that started it would). A variable that is unset or empty names
/// nothing: the harness then looks in the fixed places, which the compiled
/// policy guards.
pub fn moved_by_environment(targets: &[HarnessId]) -> Vec<std::path::PathBuf> {
    let all: Vec<HarnessId> = harness::all().iter().map(|h| h.id()).collect();
    let targets = if targets.is_empty() { &all } else { targets };
    let entries = profiles(targets)
        .flat_map(|p| p.protected.iter())
        .chain(SHELL_PROFILES);
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    for entry in entries {
        let Some((var, rest)) = entry
            .strip_prefix('$')
            .and_then(|e| e.split_once('/').or(Some((e, ""))))
        else {
            continue;
        };
        let Some(value) = std::env::var_os(var).filter(|v| !v.is_empty()) else {
            continue;
        };
        let mut path = std::path::PathBuf::from(value);
        if path.is_relative()
            && let Ok(here) = std::env::current_dir()
        {
            path = here.join(path);
        }
        if !rest.is_empty() {
            path.push(rest);
        }
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// hookc's own guard over the harness configuration the environment moved
/// ([`moved_by_environment`]): a pre-tool call that writes one of those
/// files (or a folder holding one) is refused, whatever the policy says.
pub fn moved_refusal(
    event: crate::ir::Event,
    call: &crate::eval::Call,
    targets: &[HarnessId],
) -> Option<crate::eval::Verdict> {
    if event != crate::ir::Event::PreTool || (call.command.is_none() && call.paths.is_empty()) {
        return None;
    }
    let moved = moved_by_environment(targets);
    (!moved.is_empty() && crate::pin::writes_any(call, &moved))
        .then(|| crate::pin::self_refusal(MOVED_REASON))
}

/// A file name as a shell word: plain when it can be, else quoted.
fn shell_word(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/+".contains(c))
    {
        name.to_owned()
    } else {
        crate::emit::sh_word(name)
    }
}

/// A KDL string literal.
fn kdl_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A registered harness names the files that control its hooks, and
    /// each of its examples lies among them (so the examples test them).
    #[test]
    fn every_registered_harness_protects_its_hook_files() {
        for h in harness::all() {
            let p = h.profile();
            assert!(
                !p.protected.is_empty() && !p.protected_examples.is_empty(),
                "{}: give its profile the files that control its hooks (`protected`) and one to test (`protected_examples`)",
                p.id
            );
            for example in p.protected_examples {
                // `**/x` stands for `x` in any folder, the project's too.
                assert!(
                    p.protected
                        .iter()
                        .map(|f| f.strip_prefix("**/").unwrap_or(f))
                        .any(|f| *example == f || example.starts_with(&format!("{f}/"))),
                    "{}: {example} is not among its `protected` files",
                    p.id
                );
            }
        }
    }

    #[test]
    fn only_targeted_harnesses_files_are_listed() {
        let text = policy_text(
            "policy.kdl",
            &[HarnessId::Codex],
            &["org/base.kdl".to_owned()],
        );
        assert!(text.contains(".codex/hooks.json"));
        assert!(!text.contains(".cursor/hooks.json"));
        // The administrator's layer of a targeted harness, and hookc's own.
        assert!(text.contains("\"/etc/codex\""));
        assert!(text.contains("\"/etc/hookc\""));
        assert!(text.contains("\"C:/ProgramData/OpenAI/Codex\""));
        assert!(text.contains("\"C:/Program Files/hookc\""));
        assert!(!text.contains("/etc/claude-code"));
        assert!(text.contains("\"./policy.kdl\""));
        assert!(text.contains("\"./org/base.kdl\""));
        assert!(text.contains("~/.profile"));
    }

    /// Cursor runs the hooks of `.claude/settings.json` too: a hook the
    /// agent wrote there would run outside the guards, so a policy for
    /// Cursor alone protects Claude Code's files (not Copilot CLI's, which
    /// Cursor does not run).
    #[test]
    fn the_files_of_a_harness_whose_hooks_a_target_runs_are_protected() {
        let text = policy_text("policy.kdl", &[HarnessId::Cursor], &[]);
        assert!(text.contains(".cursor/hooks.json"), "{text}");
        assert!(text.contains(".claude/settings.json"), "{text}");
        assert!(!text.contains(".github/hooks"), "{text}");
        // VS Code runs Copilot CLI's hook files.
        let text = policy_text("policy.kdl", &[HarnessId::VsCode], &[]);
        assert!(text.contains(".github/hooks"), "{text}");
    }
}
