//! The command line, as data (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::ir::{Event, HarnessId};

const AFTER_HELP: &str = "\
Exit status:
  0  success (build wrote or found everything up to date; check found no drift)
  1  the tool ran and found a problem (invalid policy, drift, a failed example)
  2  the tool could not do its job (bad usage, unreadable or unmergeable files)

`hookc guard` has its own contract, see `hookc guard --help`.
Start with `hookc init`; the book has the rest.";

/// The exit-status table, repeated under each command that reports.
pub const EXIT_STATUS: &str = "\
Exit status: 0 success; 1 the tool ran and found a problem (invalid policy, drift, a failed
example); 2 the tool could not do its job (bad usage, unreadable or unwritable files).";

/// Compile one policy.kdl into fail-closed hooks for AI coding-agent harnesses.
#[derive(Debug, Parser)]
#[command(name = "hookc", version, after_help = AFTER_HELP, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// When to use colour in diagnostics (`auto`: only on a terminal, and never when NO_COLOR is set)
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto, help_heading = "Output")]
    pub color: Color,

    /// Print only errors
    #[arg(long, short, global = true, help_heading = "Output")]
    pub quiet: bool,

    /// Also print a line for every file, including those already up to date, and `check`'s diff
    #[arg(
        long,
        short,
        global = true,
        conflicts_with = "quiet",
        help_heading = "Output"
    )]
    pub verbose: bool,
}

/// How a reporting command prints its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people; diagnostics on stderr
    Human,
    /// One JSON document on stdout (`"schema_version": 1`), diagnostics included
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile the policy and write every harness's hooks into the project
    ///
    /// Harness config files you also edit (e.g. .claude/settings.json) are merged:
    /// only hookc's own entries change. Files are written atomically.
    #[command(after_help = EXIT_STATUS)]
    Build(BuildArgs),

    /// Like build, but write nothing: exit 1 naming what is out of date (`-v`: with the diff)
    ///
    /// Meant for pre-commit hooks and CI.
    #[command(after_help = EXIT_STATUS)]
    Check(BuildArgs),

    /// Check that the hooks will run on this machine: what to do after cloning a project
    ///
    /// Checks that the policy compiles, which hookc the hooks will run (the copy the last
    /// `hookc build` recorded, else the first on PATH), that it is still what the build
    /// recorded and the version the project needs, that the generated files are up to date,
    /// and, per targeted harness,
    /// what can keep it from running them (a user-level install, a setting that switches
    /// hooks off, trust). Each problem comes with the command that fixes it.
    /// Exit 0: the hooks will run; 1: something stops them.
    #[command(after_help = EXIT_STATUS)]
    Doctor(DoctorArgs),

    /// Answer one hook call (run by the generated hook scripts, not by people)
    ///
    /// Reads the harness's JSON payload on stdin and answers in that harness's protocol.
    /// Exit 0: answered on stdout; 2: refused (in the harness's refusal form);
    /// 1: could not decide (reason on stderr); the calling script then refuses.
    Guard(GuardArgs),

    /// Run a shell call under the run-time judge: every program it starts and every file it touches is checked first (Linux)
    ///
    /// `hookc exec --harness H -- sh -c LINE` runs the program under ptrace and judges each
    /// program start (every process, thread, vfork and clone of the call, however it was
    /// spelled) by its real argument vector, with the command patterns of the policy's
    /// guards (a program the dynamic loader runs, `ld.so PROGRAM ARGS`, is judged as
    /// `PROGRAM ARGS`); and each file the call opens, makes, removes, renames, links or
    /// changes, by its real path (links resolved), with the path guards, before it happens.
    /// A start or a file access that a `deny` or `ask` guard describes stops the whole
    /// process tree, and so does the start of a program a guard names with code of the
    /// caller's choosing loaded into it (`LD_PRELOAD`, `LD_AUDIT`, `LD_LIBRARY_PATH` or
    /// `GCONV_PATH` set, or the loader's `--preload`, `--audit`, `--library-path`).
    /// Processes the call leaves running when its program exits are killed.
    ///
    /// Exit status: the program's own (128+N when killed by signal N); 87: a guard stopped a
    /// program start or a file access (`hookc exec: guard G stopped PROGRAM ARGS: REASON`, or
    /// `… stopped PROGRAM reading PATH: REASON`, on stderr); 86: supervision is not possible
    /// here (not Linux 5.14 or later, ptrace or seccomp refused, no compiled policy), and
    /// nothing ran.
    Exec(ExecArgs),

    /// Lint hand-written hook configs of every harness (no paths: the ones in this repo)
    ///
    /// Rule levels: a `lint { allow "CODE"; warn "CODE"; deny "CODE" }` block in policy.kdl. One
    /// finding: a comment `hookc-lint: ignore CODE` on the line above it (in formats with comments).
    ///
    /// Exit 0: no errors (warnings may be printed); 1: errors found; 2: could not run.
    Lint(LintArgs),

    /// Write a policy.kdl from the hand-written hooks of every harness in this repo
    ///
    /// Hooks whose matcher and command are simple (refuse every call, or grep the command line
    /// for a text) become ordinary guards; any other command becomes a `run` guard with a small
    /// wrapper in hooks/hookc-import/; what cannot be carried over is a comment. An existing
    /// policy.kdl is kept unless --force is given.
    ///
    /// Exit 0: written; 2: could not read a hook file, or would overwrite a file.
    Import(ImportArgs),

    /// Install a pre-commit hook that runs `hookc check` on what is staged (git's own, husky's or lefthook's; an existing hook is kept)
    ///
    /// The hook exports the index (what the commit will hold) into a temporary folder and checks
    /// the staged policy.kdl against the staged generated files there: committing a changed policy
    /// without the files `hookc build` regenerated is refused, and unstaged changes in the working
    /// tree do not matter. The working tree and the index are never touched. Installing again
    /// updates what an earlier hookc wrote.
    ///
    /// With lefthook (a lefthook.yml, .lefthook.yml or .config/lefthook.yml), a `hookc-check`
    /// command goes under its `pre-commit:` section, by adding lines only. With husky (a .husky
    /// folder), a block goes at the end of `.husky/pre-commit`, the committed script, never into
    /// the generated `.husky/_/`. Otherwise the hook goes where git looks for hooks, and a hook
    /// that was there is kept and run first.
    InstallPreCommit {
        /// A folder of the repository [default: the current folder]; the hook goes where git
        /// looks for hooks (`git rev-parse --git-path hooks`: worktrees and core.hooksPath
        /// included)
        #[arg(long)]
        repo: Option<PathBuf>,
    },

    /// Show what a harness does with a hook's exit status, stdout and stderr
    ///
    /// Give the result by hand (--exit, --stdout, --stderr) or as a line of a
    /// `hookc guard --debug` log (--log); --table prints every harness's exit-code table.
    Simulate(SimulateArgs),

    /// Run the policy's examples and the failure paths through the generated hooks of every harness
    ///
    /// Builds into a temporary copy of the project (HOME isolated), runs each harness's hook
    /// as a real process with that harness's payload, and decodes the result the way the
    /// harness would. Exit 1 when any row differs from what the policy expects.
    Test(TestArgs),

    /// Print the long explanation of a diagnostic code (e.g. `hookc explain unknown-tool`)
    #[command(after_help = EXIT_STATUS)]
    Explain {
        /// The code, with or without the `hookc::` prefix; omit to list every code
        code: Option<String>,

        /// How to print the result
        #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
        format: Format,
    },

    /// Explain how the policy decides one call: how it is read, which guards match and why, and what each harness is answered
    ///
    /// Give a shell command line (`hookc why 'sudo git push -f'`), a file tool call
    /// (`--tool read --path .env`), an MCP tool (`--mcp payments/refund`), a prompt or message
    /// (`--event prompt --text …`), or a harness's hook payload (`--payload FILE`, `-` for
    /// stdin). Nothing runs: guards with a `run` program are shown as matching, as in examples.
    /// Each guard that matches lists the rules that applied (`command`, `opaque` for a part hookc
    /// cannot read, `unknown program` for a program hookc presumes runs its arguments, `regex`,
    /// `path`) and, for a refusal of what hookc could not check, the rewrite that would let it.
    /// The verdict is made by the steps `hookc guard` takes, with this machine's environment:
    /// hookc's own refusals (a call that would replace the hookc answering for the hooks, or
    /// change hook settings where a variable such as CLAUDE_CONFIG_DIR moved them, or that holds a
    /// NUL byte) are shown as the hook gives them; no approval is taken and nothing is logged.
    /// A line the policy supervises is a refusal in the verdict, which is for no harness in
    /// particular, and is answered as run under `hookc exec` by the harnesses that can, on a
    /// machine that can (the line under the verdict names them). A note beside a call that goes on (`rewrite`, `context`) is marked under each harness that does not hand it to the model. Exit 0: explained (whatever the verdict); 1: the policy has errors; 2: bad usage.
    #[command(after_help = EXIT_STATUS)]
    Why(WhyArgs),

    /// Pin each policy that `extends` names to the digest of what its source holds now
    ///
    /// Reads each source (a file, or a git repository at its `rev`, fetched now) and writes
    /// the sha256 digest of its bytes into the `extends` line's `digest="…"`, changing nothing
    /// else in policy.kdl. The only command that reads a source without a pin: review what
    /// changed upstream first, then run `hookc build`, which writes policy.lock.
    /// Exit 0: pinned (or pinned already); 1: a source could not be read; 2: bad usage.
    #[command(after_help = EXIT_STATUS)]
    Update(UpdateArgs),

    /// Read the audit log of this project's decisions (`audit-log #true` in the policy)
    ///
    /// The log is JSON Lines in the user's state directory ($XDG_STATE_HOME/hookc/audit/, else
    /// ~/.local/state/hookc/audit/), one file per project, rotated at 8 MiB with one older file
    /// kept (16 MiB at most). Newest last; filters combine, across both files; records are read
    /// from the end, so --limit costs what it shows. A log that was deleted, cut, replaced,
    /// linked elsewhere or made unreadable since hookc last wrote it is reported, and the exit
    /// status is 1; a state folder that is a symbolic link is not read (exit 2).
    #[command(after_help = EXIT_STATUS)]
    Log(LogArgs),

    /// Let one refused call through, from your own terminal, by the code its refusal shows
    ///
    /// With `allow-once #true` in the policy, a refusal ends with a code such as `7f3a9c21`.
    /// `hookc allow-once 7f3a9c21` shows the call, whole and with control characters escaped,
    /// and, once you type the code again, lets that exact call (harness, tool, input, in that
    /// project and agent session) through once within 15 minutes, or with --session for the
    /// rest of the agent's session (at most 8 hours). It needs your own terminal: stdin and
    /// stderr must be its controlling terminal, and on Linux not one made by the agent's harness
    /// or a process it started. The agent cannot run it (hookc refuses the agent's own `hookc
    /// allow-once`, whatever the policy), an approval hookc did not seal is ignored, and a guard
    /// with `override "never"` cannot be overridden. Approvals go to the audit log.
    #[command(name = "allow-once", after_help = EXIT_STATUS)]
    AllowOnce(AllowOnceArgs),

    /// Write a commented policy.kdl to start from (never overwrites one)
    ///
    /// Targets the harnesses found in the project (.claude/, .codex/, .cursor/, .gemini/,
    /// .github/hooks/, .agents/, .kimi-code/, .opencode/, AGENTS.md, ...), or Claude Code when
    /// there are none, and fills the policy with guard presets. Every preset guard comes with
    /// examples, so `hookc build` proves it right away.
    #[command(after_help = EXIT_STATUS)]
    Init(InitArgs),

    /// Print a shell completion script (e.g. `hookc completions bash > ~/.local/share/bash-completion/completions/hookc`)
    Completions {
        /// The shell to complete for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },

    /// Print hookc's man page (roff), e.g. `hookc man > hookc.1`
    Man,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The policy whose `extends` lines to pin
    #[arg(
        long,
        default_value = "policy.kdl",
        env = "HOOKC_POLICY",
        hide_env_values = true
    )]
    pub policy: PathBuf,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Where to write the policy; an existing file is never overwritten
    #[arg(
        long,
        default_value = "policy.kdl",
        env = "HOOKC_POLICY",
        hide_env_values = true
    )]
    pub policy: PathBuf,

    /// A harness to write hooks for (repeatable; default: the ones found in the project)
    #[arg(long = "harness", value_name = "HARNESS", value_parser = parse_harness)]
    pub harnesses: Vec<HarnessId>,

    /// A preset to take (repeatable; default: git, filesystem, secrets, system and remote-code, plus the others whose files are found in the project: a Dockerfile, *.tf, k8s/, a lockfile, a migrations directory, …)
    #[arg(long = "preset", value_name = "PRESET", value_parser = clap::builder::PossibleValuesParser::new(crate::presets::NAMES))]
    pub presets: Vec<String>,

    /// How to print the result
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct LogArgs {
    #[command(flatten)]
    pub project: ProjectArgs,
    /// Only decisions for this harness
    #[arg(long, value_parser = parse_harness)]
    pub harness: Option<HarnessId>,
    /// Only this verdict: deny, ask, allow, context, block, rewrite, none (no guard matched),
    /// approved (the user's approvals)
    #[arg(long)]
    pub verdict: Option<String>,
    /// Only decisions a guard of this name took part in
    #[arg(long)]
    pub guard: Option<String>,
    /// Only the last DURATION (`30m`, `2h`, `7d`)
    #[arg(long, value_name = "DURATION")]
    pub since: Option<String>,
    /// At most this many records, the newest (0: all)
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// How to print the result (json: the records as JSON Lines)
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct AllowOnceArgs {
    /// The code the refusal showed (8 hexadecimal digits)
    pub code: String,
    /// Let the call through for the rest of the agent's session (at most 8 hours), not once
    #[arg(long)]
    pub session: bool,
}

#[derive(Debug, Args)]
pub struct WhyArgs {
    /// The shell command line to explain (one argument: quote it)
    pub command: Option<String>,
    /// The tool of the call, in hookc's words: shell (the default with a command), read, write,
    /// edit, web-fetch
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::ir::ToolKind::WORDS))]
    pub tool: Option<String>,
    /// The file the call reads or writes (with --tool read, write or edit)
    #[arg(long)]
    pub path: Option<String>,
    /// An MCP tool call, as SERVER/TOOL
    #[arg(long, value_name = "SERVER/TOOL", conflicts_with_all = ["tool", "command", "path"])]
    pub mcp: Option<String>,
    /// The prompt (--event prompt) or the agent's last message (--event stop)
    #[arg(long, conflicts_with_all = ["tool", "command", "path", "mcp"])]
    pub text: Option<String>,
    /// A harness's hook payload (JSON) to explain instead, `-` for stdin; the harness is
    /// recognised from it or given with --harness
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tool", "command", "path", "mcp", "text"])]
    pub payload: Option<PathBuf>,
    /// A harness whose answer to show (repeatable; default: every harness the policy targets)
    #[arg(long = "harness", value_name = "HARNESS", value_parser = parse_harness)]
    pub harnesses: Vec<HarnessId>,
    /// The hook event, in hookc's words
    #[arg(long, value_parser = parse_event, default_value = "pre-tool")]
    pub event: Event,
    #[command(flatten)]
    pub project: ProjectArgs,
    /// How to print the result
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
}

/// How a command finds the policy when `--policy` is not given (the book's
/// CLI pages show it under each command that reads the policy).
const POLICY_SEARCH: &str = "Without --policy (or HOOKC_POLICY), hookc looks for policy.kdl in the current folder, then in each folder above it, and uses the first it finds. The search stops at a repository root (a folder holding .git, which is still searched), and it never looks in a folder on another file system, in $HOME's parent or above it (/home, /), in / itself, or in a folder every user may write to (/tmp): a policy there is not yours to trust. With no policy found, hookc names the folders it searched and exits 2.";

/// Which policy, and which project: what every command that reads a policy takes.
#[derive(Debug, Args)]
pub struct ProjectArgs {
    #[doc = "The policy [default: the nearest policy.kdl, searched upward]"]
    #[arg(
        long,
        env = "HOOKC_POLICY",
        hide_env_values = true,
        long_help = format!("The policy [default: the nearest policy.kdl]\n\n{POLICY_SEARCH}")
    )]
    pub policy: Option<PathBuf>,

    /// The project root, where the hooks are written [default: the policy's folder when
    /// found by the search, else the current folder]
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub project: ProjectArgs,

    /// Print what would change, write nothing
    #[arg(long)]
    pub dry_run: bool,

    /// Also install into user-level harness configs that have no project file
    /// (e.g. Kimi Code's ~/.kimi-code/config.toml), after a backup of each
    #[arg(long)]
    pub user: bool,

    /// Overwrite hookc's entries even where they were edited by hand since the last build
    #[arg(long)]
    pub force: bool,

    /// How to print the result
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,

    /// `check` only: check each repository FILE lists (a folder or a git URL a line, with
    /// an optional branch or tag after it; `#` starts a comment) instead of this one, and
    /// report per repository the policies it extends with their digests, and whether it is
    /// current, stale (its generated files differ from what its policy compiles to),
    /// loosens what it extends, or does not compile. Exit 1 when any is not current.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["policy", "out", "dry_run", "user", "force", "managed"])]
    pub org: Option<PathBuf>,

    /// Install the policy into each target harness's administrator layer (Claude Code's
    /// managed-settings.d, Codex's requirements.toml, Copilot CLI's policy.d, Cursor's
    /// enterprise hooks.json, Gemini CLI's and Qwen Code's system settings, OpenCode's and
    /// Kilo Code CLI's managed config, Factory Droid's organisation and Auggie's system settings,
    /// Cascade's system hooks.json, Crush's system crush.json) instead of a project, with hookc's files in /etc/hookc (macOS:
    /// /Library/Application Support/hookc; Windows: C:\Program Files\hookc); `check --managed` checks that tree
    #[arg(long, conflicts_with_all = ["out", "user"], help_heading = "Managed install")]
    pub managed: bool,

    /// With --managed: lay the tree out under DIR instead of / (for a package, an MDM
    /// payload or a configuration-management role); the files still name their paths on
    /// the managed machine
    #[arg(
        long,
        value_name = "DIR",
        requires = "managed",
        help_heading = "Managed install"
    )]
    pub root: Option<PathBuf>,

    /// With --managed: print the administrator file of HARNESS (for consoles that take the
    /// settings as text), write nothing
    #[arg(long, value_name = "HARNESS", value_parser = parse_harness, requires = "managed", help_heading = "Managed install")]
    pub print: Option<HarnessId>,

    /// With --managed: the hookc every managed hook runs, an absolute path only root can
    /// change
    /// [default: /usr/local/bin/hookc; Windows: C:\Program Files\hookc\hookc.exe]
    #[arg(
        long,
        value_name = "PATH",
        requires = "managed",
        help_heading = "Managed install"
    )]
    pub hookc: Option<PathBuf>,

    /// With --managed: the system the tree is for; another system's tree needs --root
    /// [default: this one]
    #[arg(
        long,
        value_enum,
        requires = "managed",
        help_heading = "Managed install"
    )]
    pub os: Option<crate::managed::Os>,

    /// With --managed: leave off each harness's switch that runs the administrator's hooks
    /// only (`allowManagedHooksOnly`), so that the users' and projects' own hooks run too
    #[arg(long, requires = "managed", help_heading = "Managed install")]
    pub allow_other_hooks: bool,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    #[command(flatten)]
    pub project: ProjectArgs,

    /// Check this machine's managed install instead of a project: for each harness with an
    /// administrator layer, whether its file holds hookc's hooks as the last managed build
    /// wrote them, whether only root can change them, the hookc they run and the policy, and
    /// what else on the machine would switch them off or shadow them
    #[arg(long, conflicts_with_all = ["policy", "out"], help_heading = "Managed install")]
    pub managed: bool,

    /// With --managed: the tree is under DIR instead of / (a package's staging folder)
    #[arg(
        long,
        value_name = "DIR",
        requires = "managed",
        help_heading = "Managed install"
    )]
    pub root: Option<PathBuf>,

    /// With --managed: the system the tree is for; another system's tree needs --root
    /// [default: this one]
    #[arg(
        long,
        value_enum,
        requires = "managed",
        help_heading = "Managed install"
    )]
    pub os: Option<crate::managed::Os>,

    /// How to print the result
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files or project folders to lint (default: the folder of the nearest policy.kdl, found as
    /// `hookc build` finds it, else the current folder)
    pub paths: Vec<PathBuf>,

    /// Also lint the user-level configs (~/.claude/settings.json, $KIMI_CODE_HOME/config.toml)
    #[arg(long)]
    pub user: bool,

    /// Output format
    #[arg(long, value_enum, default_value_t = LintFormat::Human)]
    pub format: LintFormat,

    /// Apply the mechanical fixes (event-name case, Cursor `failClosed` on a refusing hook that does not set it) in place, and show each change
    #[arg(long)]
    pub fix: bool,

    /// The policy whose `lint { … }` block sets rule levels (default: the nearest policy.kdl)
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Hook configs or project folders to import (default: the current folder)
    pub paths: Vec<PathBuf>,

    /// Where to write the policy (`-`: standard output; default: policy.kdl in the current folder)
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Overwrite an existing policy.kdl and wrapper scripts
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    Human,
    Json,
    Sarif,
}

#[derive(Debug, Args)]
pub struct GuardArgs {
    /// The harness whose protocol to speak
    #[arg(long, value_parser = parse_harness)]
    pub harness: HarnessId,

    /// The hook event, in hookc's words (pre-tool, post-tool, prompt, stop, subagent-stop, session-start)
    #[arg(long, value_parser = parse_event)]
    pub event: Event,

    /// The compiled policy
    #[arg(long, default_value = ".hookc/policy.json")]
    pub policy: PathBuf,

    /// Append one JSON line per call to this file
    #[arg(long, env = "HOOKC_DEBUG", hide_env_values = true)]
    pub debug: Option<PathBuf>,

    /// Keep the guard in a child process and stop it after SECONDS (from the
    /// start), ending with status 124 and no answer; a crash ends with 128 +
    /// the signal. The generated hooks pass it (see the book's security page)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub deadline: Option<std::time::Duration>,

    /// Obey the compiled policy only if it is this build (the digest `hookc
    /// build` gives it). Managed hooks on Windows pass it: there hookc cannot
    /// tell from the file's owner that only an administrator could have
    /// written it, so the administrator's hook names the policy it was built with
    #[arg(long, value_name = "ID")]
    pub build: Option<String>,

    /// With --deadline: the hook script that handed its process to hookc
    /// (`exec`). When the guard gives no answer (late, crashed, any status
    /// but 0 or 2), hookc runs `/bin/sh -- SCRIPT --hookc-failed STATUS`,
    /// which refuses the call in the script's own words
    #[arg(long, value_name = "SCRIPT", requires = "deadline")]
    pub shim: Option<PathBuf>,
}

impl GuardArgs {
    /// Read the command line every generated hook script writes,
    /// `hookc guard --harness H --event E [--policy P] [--debug F] [--build ID]`, without
    /// clap. `hookc guard` runs on every tool call an agent makes, and
    /// building clap's whole command tree was a third of its work. Anything
    /// else (`--help`, `--harness=H`, a repeated or unknown option, an empty
    /// value) returns `None` and goes to clap as before, so both readings agree.
    pub fn from_hook(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<GuardArgs> {
        let mut args = args.into_iter().skip(1);
        if args.next()? != "guard" {
            return None;
        }
        let (mut harness, mut event, mut policy, mut debug, mut deadline, mut shim, mut build) =
            (None, None, None, None, None, None, None);
        while let Some(name) = args.next() {
            let value = args.next().filter(|v| !v.is_empty())?;
            let slot = match name.to_str()? {
                "--harness" => &mut harness,
                "--event" => &mut event,
                "--policy" => &mut policy,
                "--debug" => &mut debug,
                "--deadline" => &mut deadline,
                "--shim" => &mut shim,
                "--build" => &mut build,
                _ => return None,
            };
            if slot.replace(value).is_some() {
                return None;
            }
        }
        let debug = match debug {
            Some(path) => Some(path),
            None => match std::env::var_os("HOOKC_DEBUG") {
                Some(path) if path.is_empty() => return None,
                other => other,
            },
        };
        Some(GuardArgs {
            harness: HarnessId::from_word(harness?.to_str()?)?,
            event: Event::from_word(event?.to_str()?)?,
            policy: policy.map_or_else(|| PathBuf::from(".hookc/policy.json"), PathBuf::from),
            debug: debug.map(PathBuf::from),
            deadline: match deadline {
                Some(seconds) => Some(parse_seconds(seconds.to_str()?).ok()?),
                None if shim.is_some() => return None,
                None => None,
            },
            shim: shim.map(PathBuf::from),
            build: match build {
                Some(id) => Some(id.into_string().ok()?),
                None => None,
            },
        })
    }
}

impl ExecArgs {
    /// `hookc exec --harness H [--policy P] -- PROGRAM ARGS…`, as a
    /// supervised call's command spells it, without clap (as
    /// [`GuardArgs::from_hook`], and for the same reason: it runs on every
    /// supervised call). Anything else returns `None` and goes to clap.
    pub fn from_call(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<ExecArgs> {
        let mut args = args.into_iter().skip(1);
        if args.next()? != "exec" {
            return None;
        }
        let (mut harness, mut policy) = (None, None);
        loop {
            let name = args.next()?;
            if name == "--" {
                break;
            }
            let value = args.next().filter(|v| !v.is_empty())?;
            let slot = match name.to_str()? {
                "--harness" => &mut harness,
                "--policy" => &mut policy,
                _ => return None,
            };
            if slot.replace(value).is_some() {
                return None;
            }
        }
        let command: Vec<std::ffi::OsString> = args.collect();
        if command.is_empty() {
            return None;
        }
        Some(ExecArgs {
            harness: HarnessId::from_word(harness?.to_str()?)?,
            policy: policy.map_or_else(|| PathBuf::from(".hookc/policy.json"), PathBuf::from),
            command,
        })
    }
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// The harness whose call this is (a guard on that harness's own tool names applies)
    #[arg(long, value_parser = parse_harness)]
    pub harness: HarnessId,

    /// The compiled policy
    #[arg(long, default_value = ".hookc/policy.json")]
    pub policy: PathBuf,

    /// The program to run and its arguments, after `--` (e.g. `-- sh -c 'make test'`)
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub command: Vec<std::ffi::OsString>,
}

#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The harness (omit with --table for all of them)
    #[arg(long, value_parser = parse_harness, required_unless_present_any = ["table", "log"])]
    pub harness: Option<HarnessId>,

    /// The hook event, in hookc's words
    #[arg(long, value_parser = parse_event, default_value = "pre-tool")]
    pub event: Event,

    /// The hook's exit status (omit for a process killed by a signal)
    #[arg(long, allow_hyphen_values = true)]
    pub exit: Option<i32>,

    /// What the hook printed on stdout
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub stdout: String,

    /// What the hook printed on stderr
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub stderr: String,

    /// The hook ran out of time
    #[arg(long)]
    pub timed_out: bool,

    /// A `hookc guard --debug` log line, or a file of them (the last line is used)
    #[arg(long, conflicts_with_all = ["exit", "timed_out"])]
    pub log: Option<String>,

    /// Print the exit-code table of every harness (or of --harness)
    #[arg(long)]
    pub table: bool,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    #[doc = "The policy to test [default: the nearest policy.kdl, searched upward; with --project, DIR/policy.kdl]"]
    #[arg(long, env = "HOOKC_POLICY", long_help = format!("The policy to test [default: the nearest policy.kdl; with --project DIR, DIR/policy.kdl]\n\n{POLICY_SEARCH}"))]
    pub policy: Option<PathBuf>,

    /// Payload fixtures to run too: JSON files of
    /// `{"harness", "event", "payload", "expect"}` (tests/hooks/*.json next to the policy are always run)
    pub fixtures: Vec<PathBuf>,

    /// Test this already-built project directory as it is, instead of building a
    /// temporary copy (its hooks are run, never rebuilt)
    #[arg(long)]
    pub project: Option<PathBuf>,

    /// Without `node` on PATH, mark the OpenCode rows "not applicable" instead
    /// of failing them (the generated plugin is run under node)
    #[arg(long)]
    pub allow_missing_node: bool,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

fn parse_harness(s: &str) -> Result<HarnessId, String> {
    HarnessId::from_word(s)
        .ok_or_else(|| format!("expected one of {}", HarnessId::WORDS.join(", ")))
}

fn parse_event(s: &str) -> Result<Event, String> {
    Event::from_word(s).ok_or_else(|| format!("expected one of {}", Event::WORDS.join(", ")))
}

/// A number of seconds, more than 0 and at most an hour (`8.5`).
fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|n| *n > 0.0 && *n <= 3600.0)
        .map(std::time::Duration::from_secs_f64)
        .ok_or_else(|| {
            format!("expected a number of seconds, more than 0 and at most 3600, not `{s}`")
        })
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    #[test]
    fn cli_is_well_formed() {
        super::Cli::command().debug_assert();
    }

    /// The hook command line read without clap means what clap reads, and
    /// anything unusual is left to clap.
    #[test]
    fn hook_command_lines_read_like_clap() {
        let read = |line: &str| {
            let words = line.split(' ').map(std::ffi::OsString::from);
            let fast = super::GuardArgs::from_hook(words.clone());
            let clap = super::Cli::try_parse_from(words)
                .ok()
                .map(|c| match c.command {
                    super::Command::Guard(args) => args,
                    other => panic!("{other:?}"),
                });
            (fast, clap)
        };
        for line in [
            "hookc guard --harness claude --event pre-tool --policy /p/.hookc/policy.json",
            "hookc guard --event stop --harness codex",
            "hookc guard --harness cursor --event prompt --policy x --debug /tmp/log",
            "hookc guard --harness codex --event pre-tool --policy C:\\hookc\\policy.json --build 0f1e",
        ] {
            let (fast, clap) = read(line);
            let (fast, clap) = (fast.expect(line), clap.expect(line));
            assert_eq!(
                (fast.harness, fast.event, &fast.policy),
                (clap.harness, clap.event, &clap.policy),
                "{line}"
            );
            assert_eq!(fast.debug, clap.debug, "{line}");
            assert_eq!(fast.build, clap.build, "{line}");
        }
        for line in [
            "hookc guard --help",
            "hookc guard --harness=claude --event pre-tool",
            "hookc guard --harness claude --harness codex --event pre-tool",
            "hookc guard --harness claude",
            "hookc guard --harness nobody --event pre-tool",
            "hookc guard --harness claude --event pre-tool --quiet",
            "hookc guard --harness claude --event pre-tool --policy",
            "hookc -q guard --harness claude --event pre-tool",
            "hookc build --harness claude --event pre-tool",
        ] {
            assert!(read(line).0.is_none(), "{line}");
        }
    }

    /// The same for a supervised call's `hookc exec`.
    #[test]
    fn exec_command_lines_read_like_clap() {
        let read = |line: &str| {
            let words = line.split(' ').map(std::ffi::OsString::from);
            let fast = super::ExecArgs::from_call(words.clone());
            let clap = super::Cli::try_parse_from(words)
                .ok()
                .map(|c| match c.command {
                    super::Command::Exec(args) => args,
                    other => panic!("{other:?}"),
                });
            (fast, clap)
        };
        for line in [
            "hookc exec --harness claude --policy /p/.hookc/policy.json -- bash -c true",
            "hookc exec --harness codex -- true",
            "hookc exec --policy x --harness claude -- sh -c --policy",
        ] {
            let (fast, clap) = read(line);
            let (fast, clap) = (fast.expect(line), clap.expect(line));
            assert_eq!(
                (fast.harness, &fast.policy, &fast.command),
                (clap.harness, &clap.policy, &clap.command),
                "{line}"
            );
        }
        for line in [
            "hookc exec --help",
            "hookc exec --harness=claude -- true",
            "hookc exec --harness claude --harness codex -- true",
            "hookc exec --harness claude --",
            "hookc exec --harness claude true",
            "hookc exec --harness nobody -- true",
            "hookc -q exec --harness claude -- true",
        ] {
            assert!(read(line).0.is_none(), "{line}");
        }
    }
}
