//! The call and verdict types every reader of a tool call shares: what a
//! harness decoder makes of a payload ([`Call`], [`CallTool`], [`Shell`])
//! and what the policy answers ([`Verdict`], [`Hit`], [`RunResult`]).
//!
//! Read by each decoder under `harness/`, by `hookc guard` (`runtime`) and
//! `hookc why`, by the build when it checks examples (`resolve`), and by
//! hookc's own guards (`pin`, `protect`). The evaluator decides; these
//! types only carry the call in and the verdict out.

use std::sync::Arc;

use crate::ir::{Decision, Event, ExampleCall, Expectation, Tool, ToolKind};
use crate::shell::access::Expansion;
use crate::shell::{self, Analysis};

use super::Seen;

/// One call as hookc sees it, whatever harness it came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Call {
    pub event: Option<Event>,
    pub tool: Option<CallTool>,
    /// The shell command line, for shell calls.
    pub command: Option<String>,
    /// The command was typed into a program an earlier call started
    /// (Copilot's `write_bash`, Letta's `write_stdin`, Qoder's
    /// `BashInput`): a shell, for all hookc knows, standing in whatever
    /// folder earlier input left it, so its analysis starts in a folder
    /// hookc does not know ([`keys::in_unknown_folder`]).
    ///
    /// [`keys::in_unknown_folder`]: crate::shell::keys::in_unknown_folder
    pub typed: bool,
    /// The language [`command`](Self::command) is written in.
    pub shell: Shell,
    /// Files the call touches, as the harness gave them (read by a read
    /// tool, written by a write tool, both by an edit).
    pub paths: Vec<String>,
    /// Globs the tool expands itself (a search tool's file filter, Gemini's
    /// `read_many_files`), read: each stands for every file it could name.
    pub globs: Vec<(String, Expansion)>,
    /// Text to run regexes over when there is no command: the prompt, the
    /// agent's last message, or the tool input as JSON.
    pub text: Option<String>,
    /// The project root, to make absolute paths relative.
    pub root: Option<String>,
    /// The directory the call runs in, when the harness says so and it is
    /// absolute: relative paths of the call are relative to it, not to the root.
    pub cwd: Option<String>,
    pub home: Option<String>,
    /// git's configuration where the call runs (aliases, autocorrect, forced
    /// remotes); `hookc guard` reads it, examples never do.
    pub git: Option<crate::shell::git::GitConfig>,
    /// The harness the call came from (`hookc guard` sets it): a harness's
    /// own tool name, `tool (copilot)"apply_patch"`, applies to that
    /// harness's calls only, not to another's tool of the same name.
    pub harness: Option<crate::ir::HarnessId>,
    /// Names that differ only in case are one file where the call runs
    /// (macOS, Windows): `RM` runs `rm`, `.ENV` is `.env`. `hookc guard`
    /// finds out on the machine; examples never fold.
    pub folds_case: bool,
    /// The analysis of [`command`](Self::command), once made: see
    /// [`analysis`](Self::analysis).
    pub analysed: Analysed,
}

/// A call's analysis, kept with what it was made from: the guards and
/// hookc's own guard (`audit::builtin`) read one analysis of the line, and a
/// call whose line, directory or git configuration changed since is
/// analysed again. Two calls are equal whatever they keep.
///
/// The files the call touches are kept the same way: resolving each
/// through its links costs system calls, and hookc's built-in guards (the
/// state folder, the pinned binary) ask as well as the policy's.
///
/// So are the readings of its unknown programs' arguments (see
/// [`Call::read_reading`]), which each guard with command patterns asks
/// for, and which read files where the call runs: by their text, for the
/// analysis kept (emptied when it is made again).
#[derive(Default)]
pub struct Analysed(
    pub(super) std::sync::Mutex<Option<(AnalysisKey, Arc<Analysis>)>>,
    pub(super) std::sync::Mutex<Option<(TouchedKey, Arc<Vec<Seen>>)>>,
    pub(super) std::sync::Mutex<std::collections::HashMap<String, Analysis>>,
);

impl Clone for Analysed {
    fn clone(&self) -> Self {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let touched = self.1.lock().unwrap_or_else(|e| e.into_inner());
        let readings = self.2.lock().unwrap_or_else(|e| e.into_inner());
        Analysed(
            std::sync::Mutex::new(kept.clone()),
            std::sync::Mutex::new(touched.clone()),
            std::sync::Mutex::new(readings.clone()),
        )
    }
}

/// What the files a call touches depend on besides the disk: the analysis
/// (by identity: it is kept as long as this key), and every field of the
/// call they are read from.
#[derive(Clone, PartialEq)]
pub struct TouchedKey {
    analysis: Option<ArcId>,
    tool: Option<CallTool>,
    paths: Vec<String>,
    globs: Vec<(String, Expansion)>,
    root: Option<String>,
    cwd: Option<String>,
    home: Option<String>,
    folds_case: bool,
}

/// An analysis, compared by identity.
#[derive(Clone)]
struct ArcId(Arc<Analysis>);

impl PartialEq for ArcId {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
impl Call {
    /// A shell tool's call of `command` in the example project, for tests.
    pub(crate) fn shell_example(command: &str) -> Call {
        Call {
            event: Some(Event::PreTool),
            tool: Some(CallTool {
                kind: Some(ToolKind::Shell),
                native: "Bash".to_owned(),
                ..CallTool::default()
            }),
            command: Some(command.to_owned()),
            root: Some(EXAMPLE_ROOT.to_owned()),
            ..Call::default()
        }
    }
}

impl Call {
    fn touched_key(&self, analysis: Option<&Arc<Analysis>>) -> TouchedKey {
        TouchedKey {
            analysis: analysis.cloned().map(ArcId),
            tool: self.tool.clone(),
            paths: self.paths.clone(),
            globs: self.globs.clone(),
            root: self.root.clone(),
            cwd: self.cwd.clone(),
            home: self.home.clone(),
            folds_case: self.folds_case,
        }
    }

    /// The files the call touches (`Facts::touched`), made once per call
    /// however many evaluations ask.
    pub(super) fn touched_with(
        &self,
        analysis: Option<&Arc<Analysis>>,
        make: impl FnOnce() -> Vec<Seen>,
    ) -> Arc<Vec<Seen>> {
        let key = self.touched_key(analysis);
        let mut kept = self.analysed.1.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, seen)) = kept.as_ref()
            && *k == key
        {
            return seen.clone();
        }
        let seen = Arc::new(make());
        *kept = Some((key, seen.clone()));
        seen
    }
}

/// What an analysis depends on: the line, where it runs, whether names
/// fold case there, git's configuration.
type AnalysisKey = (
    String,
    Option<std::path::PathBuf>,
    bool,
    Option<crate::shell::git::GitConfig>,
);

impl std::fmt::Debug for Analysed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Analysed")
    }
}

impl PartialEq for Analysed {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The language of a shell call's command line. hookc reads POSIX shell
/// (bash, zsh, sh); the shell tool of Claude Code and Copilot CLI on Windows
/// takes PowerShell, whose quoting, variables and call syntax differ enough
/// that reading it as POSIX would be guessing. Such a line is opaque to every
/// guard that looks at commands or paths: they refuse it, unless they say
/// `opaque "allow"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Shell {
    #[default]
    Posix,
    PowerShell,
}

/// The tool of a call: its neutral kind when hookc knows it, and always the harness's own name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallTool {
    pub kind: Option<ToolKind>,
    pub mcp: Option<(String, String)>,
    pub native: String,
    /// Other readings of the same call, for harnesses whose tools do not map
    /// onto one neutral tool: a patch that adds one file and changes another
    /// is a write and an edit; an MCP name whose separator also occurs in
    /// server names splits several ways. A guard applies when it applies to
    /// the tool or to any of these.
    pub also: Vec<CallTool>,
}

/// Where an example's call happens: a project root and a home directory, as
/// `hookc guard` gets them from the payload and the environment, so that an
/// example path goes through exactly the normalisation a real call's does
/// (`.env` is in the project, `~/.ssh/id_rsa` in the home directory, and
/// `/etc/passwd` in neither). Neither is ever read.
pub const EXAMPLE_ROOT: &str = "/hookc-example/project";
pub const EXAMPLE_HOME: &str = "/hookc-example/home";

impl Call {
    /// Find out whether names fold case where the call runs: among the
    /// project's files, or where programs are found (`/usr/bin`). A
    /// project with no name to try counts as folding, which only matches
    /// more.
    pub fn detect_case_folding(&mut self) {
        if self.command.is_none() && self.paths.is_empty() && self.globs.is_empty() {
            return;
        }
        let programs =
            || crate::paths::folds_case(std::path::Path::new("/usr/bin"), false).unwrap_or(false);
        let project = || {
            self.dir()
                .is_some_and(|d| crate::paths::folds_case(d, true).unwrap_or(true))
        };
        self.folds_case = programs() || project();
    }

    /// The analysis of the call's shell command as POSIX shell, with git's
    /// configuration applied to its git commands; `None` without a command.
    /// Made once per call, however many ask.
    pub fn analysis(&self) -> Option<Arc<Analysis>> {
        let command = self.analysed_line()?;
        let command = command.as_ref();
        let mut kept = self.analysed.0.lock().unwrap_or_else(|e| e.into_inner());
        // Compared in place: a line may be a megabyte, and each guard asks.
        if let Some(((line, dir, folds, git), analysis)) = kept.as_ref()
            && line == command
            && dir.as_deref() == self.dir()
            && *folds == self.folds_case
            && *git == self.git
        {
            return Some(analysis.clone());
        }
        let key: AnalysisKey = (
            command.to_owned(),
            self.dir().map(std::path::Path::to_path_buf),
            self.folds_case,
            self.git.clone(),
        );
        let mut analysis = shell::analyze_judged(
            command,
            self.dir(),
            self.folds_case,
            Some(&crate::git_writes::Git),
        );
        if let Some(git) = &self.git {
            git.apply(&mut analysis);
        }
        let analysis = Arc::new(analysis);
        *kept = Some((key, analysis.clone()));
        self.analysed
            .2
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        Some(analysis)
    }

    /// A line that a program hookc does not know may run (a reading of its
    /// arguments, see [`shell::unknown`]) in the call's line `line`, read
    /// as a line of the call's own: where the call runs, so that what the
    /// place says is read (a `package.json` script, ssh's settings), in
    /// each folder the line may be in when it moves (see
    /// `unknown::placed`), and with git's settings applied to its gits (see
    /// `GitConfig::for_readings`).
    ///
    /// Kept for the call's own analysis: each guard asks again.
    pub fn read_reading(&self, line: &Analysis, reading: &str) -> Analysis {
        let own = self
            .analysed
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|(_, kept)| std::ptr::eq(kept.as_ref(), line));
        let readings = &self.analysed.2;
        if own
            && let Some(kept) = readings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(reading)
        {
            return kept.clone();
        }
        let analysis = self.read_reading_anew(line, reading);
        if own {
            readings
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(reading.to_owned(), analysis.clone());
        }
        analysis
    }

    fn read_reading_anew(&self, line: &Analysis, reading: &str) -> Analysis {
        let text = shell::unknown::placed(line, reading);
        let mut analysis = shell::analyze_judged(
            &text,
            self.dir(),
            self.folds_case,
            Some(&crate::git_writes::Git),
        );
        if let Some(git) = &self.git {
            git.for_readings(line)(&mut analysis);
        }
        analysis
    }

    /// The line the shell reads, as hookc analyses it: the command, after a
    /// `cd` to a folder hookc does not know when it was [typed](Self::typed).
    pub fn analysed_line(&self) -> Option<std::borrow::Cow<'_, str>> {
        let command = self.command.as_deref()?;
        Some(if self.typed {
            shell::keys::in_unknown_folder(command).into()
        } else {
            command.into()
        })
    }

    /// The directory the call's command runs in, when known: the files
    /// it sources are read there.
    pub fn dir(&self) -> Option<&std::path::Path> {
        self.cwd
            .as_deref()
            .or(self.root.as_deref())
            .map(std::path::Path::new)
            .filter(|d| d.is_absolute())
    }

    /// The call an `example` line describes.
    pub fn from_example(event: Event, example: &ExampleCall) -> Call {
        let tool = example.tool.as_ref().map(|t| match t {
            Tool::Known { tool } => CallTool {
                kind: Some(*tool),
                native: tool.word().to_owned(),
                ..CallTool::default()
            },
            Tool::Mcp { server, tool } => CallTool {
                mcp: Some((server.clone(), tool.clone())),
                native: format!("mcp__{server}__{tool}"),
                ..CallTool::default()
            },
            Tool::Native { name, .. } => CallTool {
                native: name.clone(),
                ..CallTool::default()
            },
        });
        Call {
            event: Some(event),
            tool,
            command: example.command.clone(),
            typed: false,
            shell: Shell::Posix,
            paths: example.path.iter().cloned().collect(),
            globs: Vec::new(),
            text: example.text.clone(),
            root: Some(EXAMPLE_ROOT.to_owned()),
            cwd: None,
            folds_case: false,
            home: Some(EXAMPLE_HOME.to_owned()),
            git: None,
            harness: None,
            analysed: Analysed::default(),
        }
    }
}

/// A search or glob tool's call (Claude's Grep and Glob, Gemini's
/// grep_search and glob): it reads the directory or file at `dir_key`
/// (the project root without one) and, with a file filter at `glob_key`,
/// every file below it the filter names. For a glob tool the filter is
/// the pattern itself, relative to the directory. Its wildcards skip
/// hidden files, as ripgrep's do.
pub fn search_call(
    call: &mut Call,
    input: &serde_json::Value,
    dir_key: &str,
    glob_key: &str,
    glob_tool: bool,
) {
    let dir = input
        .pointer(dir_key)
        .and_then(serde_json::Value::as_str)
        .filter(|d| !d.is_empty());
    if let Some(dir) = dir {
        call.paths.push(dir.to_owned());
    }
    if let Some(glob) = input
        .pointer(glob_key)
        .and_then(serde_json::Value::as_str)
        .filter(|g| !g.is_empty())
    {
        let base = dir.unwrap_or(".").trim_end_matches('/');
        let below = if glob_tool || glob.contains('/') {
            format!("{base}/{glob}")
        } else {
            format!("{base}/**/{glob}")
        };
        let g = if glob.starts_with('/') {
            glob.to_owned()
        } else {
            below
        };
        call.globs.push((g, Expansion::default()));
    }
}

/// What a guard's own program said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunResult {
    /// Exit 0: the guard does not apply.
    Allow,
    /// Exit 2: the guard's decision, with this reason (empty: the guard's own).
    Refuse(String),
}

/// What the policy decided, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub decision: Decision,
    /// Every guard that reached `decision`'s level, in policy order.
    pub hits: Vec<Hit>,
    /// For [`Decision::Rewrite`]: the shell command line to run instead.
    pub rewritten: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub guard: String,
    /// Where the guard is written when it is inherited through `extends`.
    pub from: Option<String>,
    pub decision: Decision,
    pub reason: String,
    pub message: Option<String>,
}

impl Verdict {
    /// The text the model reads: one reason, or every reason numbered.
    pub fn reason(&self) -> String {
        // Guards refusing for the same reason (an opaque command refused by
        // several command guards) say it once.
        let mut reasons: Vec<&str> = Vec::new();
        for reason in self.hits.iter().map(|h| h.reason.as_str()) {
            if !reason.is_empty() && !reasons.contains(&reason) {
                reasons.push(reason);
            }
        }
        match reasons.as_slice() {
            [] => String::new(),
            [one] => (*one).to_owned(),
            many => {
                let mut out = format!(
                    "{} policy rules apply to this call; address each:",
                    many.len()
                );
                for (i, reason) in many.iter().enumerate() {
                    out.push_str(&format!("\n{}. {}", i + 1, reason));
                }
                out
            }
        }
    }

    /// The text for the user, if any guard has one.
    pub fn message(&self) -> Option<String> {
        let messages: Vec<&str> = self
            .hits
            .iter()
            .filter_map(|h| h.message.as_deref())
            .collect();
        (!messages.is_empty()).then(|| messages.join("\n"))
    }

    /// Whether a guard would run the call under the run-time judge: the
    /// verdict's own decision, or a question beside it (a refusal beside it
    /// refuses anyway).
    pub fn supervises(&self) -> bool {
        matches!(self.decision, Decision::Supervise | Decision::Ask)
            && self.hits.iter().any(|h| h.decision == Decision::Supervise)
    }

    pub fn guard_names(&self) -> Vec<&str> {
        self.hits.iter().map(|h| h.guard.as_str()).collect()
    }
}

/// Whether a verdict meets an example's expectation. `allow` is met by any
/// outcome that lets the call proceed (an explicit allow, added context, or no match).
pub fn meets(verdict: Option<&Verdict>, expect: Expectation) -> bool {
    match (expect, verdict) {
        (Expectation::Pass, None) => true,
        (Expectation::Pass, Some(_)) => false,
        (Expectation::Decision(Decision::Allow), None) => true,
        (Expectation::Decision(Decision::Allow), Some(v)) => {
            matches!(v.decision, Decision::Allow | Decision::Context)
        }
        (Expectation::Decision(_), None) => false,
        (Expectation::Decision(Decision::Supervise), Some(v)) => v.decision == Decision::Supervise,
        // Supervised where the harness and the machine allow it, refused
        // everywhere else: as `deny` means it.
        (Expectation::Decision(d), Some(v)) if v.supervises() => d == Decision::Deny,
        (Expectation::Decision(d), Some(v)) => v.decision == d,
    }
}
