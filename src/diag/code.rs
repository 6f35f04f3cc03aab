//! Every diagnostic hookc can emit, with its stable name and long explanation.
//!
//! The names are public interface: users silence warnings by them, CI greps
//! for them, and the book has one page per code. Never rename one; add a new
//! code instead. `hookc explain CODE` prints [`Code::explanation`], and the
//! book's diagnostics pages are generated from the same text.

use super::Severity;

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $severity:ident, $summary:literal, $explanation:literal; )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $(#[$doc])* $variant, )* }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The kebab-case name, shown as `hookc::NAME`.
            pub fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// The severity a diagnostic of this code has unless stated otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$severity, )* }
            }

            /// One line: what the code is about.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }

            /// Why it matters, a bad example and what to write instead (Markdown).
            pub fn explanation(self) -> &'static str {
                match self { $( Code::$variant => $explanation, )* }
            }
        }
    };
}

codes! {
    Io = "io", Error, "a file could not be read or written",
"hookc could not read or write a file it needs. The message names the file and the operating
system's reason.

Check that the path is right (`--policy`, `--out`) and that you may read and write there.";

    KdlSyntax = "kdl-syntax", Error, "policy.kdl is not valid KDL 2.0",
"`policy.kdl` is parsed as KDL 2.0. A syntax error stops hookc before anything is checked.

KDL 2.0 differs from KDL 1 in a few places people trip over:

```kdl
guard \"x\" { allow true }      // KDL 1 keyword: rejected
guard \"x\" { opaque #true }    // KDL 2.0 keyword
regex r\"\\d+\"                  // KDL 1 raw string: rejected
regex #\"\\d+\"#                 // KDL 2.0 raw string
```";

    UnknownNode = "unknown-node", Error, "a node name hookc does not know",
"Each node in `policy.kdl` must be one hookc knows at that level: `targets`, `timeout`,
`on-error`, `harness`, `lint` and `guard` at the top; inside a guard `event`, `tool`, `mcp`,
`command`, `regex`, `path`, `opaque`, a decision (`deny`, `ask`, `allow`, `context`,
`block`), `message`, `example` and `allow-degraded`.

A misspelled node is an error rather than ignored: a guard that silently lost its `command`
would match every call. The help line suggests the closest known name.";

    UnknownProperty = "unknown-property", Error, "a property hookc does not know on this node",
"Properties (`key=value`) are checked like nodes: an unknown one is an error with a
suggestion, so `example \"git push -f\" expct=\"deny\"` does not silently lose its expectation.";

    WrongType = "wrong-type", Error, "a value of the wrong type",
"The value has the wrong KDL type: a string where a number is needed, a number where a
string is needed, and so on.

```kdl
timeout \"10\"   // wrong: a string
timeout 10      // right: seconds, as an integer
```";

    MissingValue = "missing-value", Error, "a node lacks a value it needs",
"The node needs an argument that is missing, for example `guard` without a name or `tool`
without a tool.";

    TooManyValues = "too-many-values", Error, "a node has more values than it takes",
"The node takes fewer arguments than were given. Extra values would otherwise be ignored,
which hides mistakes such as `deny \"first reason\" \"second reason\"`: write one reason.";

    DuplicateGuard = "duplicate-guard", Error, "two guards have the same name",
"Guard names identify guards in hook output, in `hookc test` reports and in the debug log,
so they must be unique. Rename one of them.";

    DuplicateNode = "duplicate-node", Error, "a node that may appear once appears twice",
"Nodes such as `event`, `message` or `timeout` take one value; a second one is an error
rather than silently overriding the first.";

    UnknownEvent = "unknown-event", Error, "an event name hookc does not know",
"Events are written in hookc's harness-neutral words: `pre-tool` (the default), `post-tool`,
`prompt`, `stop`, `subagent-stop` and `session-start`. hookc translates them into each
harness's own name (`PreToolUse`, `BeforeTool`, `preToolUse`, …).

```kdl
event \"PreToolUse\"   // wrong: a Claude Code name
event \"pre-tool\"     // right
```";

    UnknownTool = "unknown-tool", Error, "a tool name hookc does not know",
"Tools are written in harness-neutral words: `shell`, `read`, `write`, `edit`, `web-fetch`,
plus MCP tools with `mcp \"server\" \"tool\"`. A harness's own tool name can be given with a
type annotation naming the harness: `tool (claude)\"NotebookEdit\"`.

Names are case-sensitive in every harness (a Claude matcher `bash` never fires for `Bash`),
which is why hookc takes neutral words and writes the exact names itself.";

    UnknownHarness = "unknown-harness", Error, "a harness name hookc does not know",
"Harnesses are {harnesses}. Only those hookc can emit for may appear in `targets`.";

    UnknownPlatform = "unknown-platform", Error, "a platform name hookc does not know",
"`platforms` says where the team runs its agents: `linux`, `macos` and `windows`. Without it a
policy is for macOS and Linux.";

    WindowsUnguarded = "windows-unguarded", Warning, "a target that cannot guard calls on Windows",
"The policy says `platforms … \"windows\"`, and one of its targets cannot run hookc's hooks
there. On macOS and Linux every harness runs a hook command with a POSIX shell; on Windows
most use PowerShell or cmd.exe, and only some let a config give a separate Windows command.
What each harness does there:

{on-windows}

Run those harnesses in WSL on Windows, or leave them out of `targets` for Windows machines.
None of hookc's Windows commands has been run on Windows yet: see the security chapter.";

    MissingDecision = "missing-decision", Error, "a guard without a decision",
"Every guard says what happens when it matches: `deny \"…\"`, `ask \"…\"`, `allow`,
`context \"…\"`, or `block \"…\"` on stop events. Without one the guard would do nothing.";

    ConflictingDecisions = "conflicting-decisions", Error, "a guard with more than one decision",
"A guard has one decision. To deny some calls and ask for others, write two guards; when
both match, the strictest decision wins (deny > ask > allow > context).";

    DecisionNotForEvent = "decision-not-for-event", Error, "a decision the guard's event cannot take",
"`block` keeps the agent working and exists only on `stop` and `subagent-stop`; `deny` and
`ask` refuse a call and exist only on `pre-tool` and `prompt`. `post-tool` runs after the
tool ran, so it can only add `context` or `block` (feedback the model reads).

```kdl
guard \"tests-pass\" { event \"stop\"; deny \"Run the tests\" }    // wrong
guard \"tests-pass\" { event \"stop\"; block \"Run the tests\" }   // right
```";

    EmptyReason = "empty-reason", Error, "a refusal without a reason",
"A `deny`, `ask` or `block` needs a reason: it is what the model reads, and some harnesses
(Codex) treat a denial with an empty reason as invalid and let the call through.
Write the reason as an instruction: what to do instead.";

    ComplainingReason = "complaining-reason", Warning, "a reason that complains instead of instructing",
"A reason such as \"Blocked!\" or \"not allowed\" tells the model nothing it can act on, so
it tries the same thing in another spelling. Say what to do instead:

```kdl
deny \"Force push is not allowed\"                                        // complains
deny \"Do not force-push. Push to a new branch and open a pull request.\"  // instructs
```

hookc warns when a reason has no instruction-like words (use, run, ask, instead, push, …).";

    InvalidRegex = "invalid-regex", Error, "a regex that does not parse, or does not compile",
"Regexes are parsed with Rust's `regex-syntax` and run with its linear-time engine.
Look-around and back-references are not supported (they need backtracking, which can hang
a guard). The label points at the offending part inside the string.

A regex that parses can still be too big to compile: hookc caps a compiled regex at 2 MiB,
because `hookc guard` compiles again, for each call, every regex the call reaches. Counted
repetitions multiply, and Unicode classes are large: `\\w{200}` is 10 MiB, `[A-Za-z0-9_]{200}`
19 kB. hookc compiles every regex at build time, so this shows then and not in `hookc guard`.

Write regexes as raw strings so backslashes need no doubling: `regex #\"git\\s+push\"#`.";

    InvalidGlob = "invalid-glob", Error, "a path glob that does not parse",
"Path globs use `*` (within one directory), `**` (across directories), `?`, `[abc]` and
`{a,b}`. A glob without `/` matches the file name in any directory. A leading `!` excludes.";

    InvalidCommandPattern = "invalid-command-pattern", Error, "a command pattern hookc cannot use",
"A command pattern names a program, optional subcommand words, flag groups and argument
globs:

```kdl
command \"git\" \"push\" {
    flag \"--force\" \"-f\" \"--force-with-lease\"   // any one of these spellings
}
command \"rm\" {
    flag \"-r\" \"-R\" \"--recursive\"
    flag \"-f\" \"--force\"
    arg \"/\" \"~\" \".\" \"*\"
}
```

Flags must start with `-`; a group must list at least one spelling.";

    CommandWordSpace = "command-word-space", Error, "a command word with a space in it, which never matches",
"hookc matches a command word by word, the way the shell splits it: `npm publish` runs the
program `npm` with the word `publish`. A pattern word holding whitespace, like
`command \"npm publish\"`, asks for a program whose name contains a space, so the guard never
fires. Write each word as its own string: `command \"npm\" \"publish\"`.";

    RegexControlCharacter = "regex-control-character", Error, "a regex holding a control character, usually a KDL escape meant for the regex",
"In a quoted KDL string, `\\b` is a backspace and `\\f` a form feed, so
`regex \"(?i)\\bpassword\\b\"` asks for the word between two backspace characters and never
matches what was meant, a word boundary. Write regexes as raw strings, where a backslash is
kept as written: `regex #\"(?i)\\bpassword\\b\"#`. Tabs and newlines are allowed.";

    NoExample = "no-example", Warning, "a guard with no `example`",
"Examples are tests that run on every build: without one, nothing shows that the guard fires
on what it is meant for (a guard whose pattern can never match builds silently). Add an
`example` that the guard decides and one it lets pass. Where no example can say anything (a
`run` guard whose program needs its own environment, say), say why on the guard and the
warning goes away: `guard \"name\" untested=\"needs the staging database\" { … }`.";

    SelfProtectionOff = "self-protection-off", Warning, "the policy lets the agent change hookc's own files",
"By default every policy refuses writes, edits, deletes and renames of the policy file,
`.hookc/`, every hook settings file of a targeted harness (project and user level, such as
`.claude/settings.local.json` and `~/.claude/settings.json`), the shell profiles hook commands
run with, and `git config core.worktree`, `hookc build` and `hookc init` run by the agent.
Without that, an agent could switch its guards off with an allowed call.

```kdl
self-protection \"off\"   // warned about
```

Leave the line out unless your own guards protect those files.";

    LogTampered = "log-tampered", Warning, "hookc's audit log was changed outside hookc",
"Each `hookc guard` call appends to the project's audit log in hookc's state folder and keeps
a seal beside it (signed with hookc's key): which file the log and its rotated copy were, and
how long, when it last left them. When the log has since been deleted, cut short, replaced by
another file or a link, or made unreadable, or the seal does not verify, the next guard call
moves what is there aside (`<project>.tampered`) and starts a fresh log whose first record says
what it found; `hookc log` and `hookc doctor` report this warning with when it happened.

The agent's calls that touch the state folder are refused, so the change came from outside
the hooks: another program, a person, a backup restored. The records from before each
tampering may be gone; `hookc log --verdict tampered` lists when it happened.";

    PinFailed = "pin-failed", Warning, "`hookc build` could not record itself as the hookc the hooks run",
"`hookc build` copies the hookc that runs it into your state directory
(`$XDG_STATE_HOME/hookc/bin`, else `~/.local/state/hookc/bin`) and records the copy in
`pin` there. The generated hooks run that copy, so a `hookc` the agent puts on PATH, in
`node_modules/.bin` or `.venv/bin`, or over the installed one, never answers for them.

This warning says the copy or the record could not be written (no absolute `$HOME`, a state
directory that is not yours or not writable, a full disk) and what the hooks run instead: the
copy an earlier build recorded, or, where no build ever recorded one, the first `hookc` they
find. Fix the cause and run `hookc build` again; `hookc doctor` shows which hookc the hooks
run.";

    NothingToMatch = "nothing-to-match", Warning, "a tool guard that matches every call",
"A `pre-tool` guard with no `tool`, `mcp`, `command`, `regex` or `path` matches every tool
call. That is rarely meant; add what it should match. If the guard is meant for every
built-in tool, list them: `tool \"shell\" \"read\" \"write\" \"edit\" \"web-fetch\"`.";

    ConditionNeedsTool = "condition-needs-tool", Error, "a condition that the guard's tools never carry",
"`command` only matches shell calls, and `path` only calls that touch files (`read`,
`write`, `edit`, and shell redirections). A guard with `command` but tools that never run
commands would never fire. Add `tool \"shell\"`, or drop the condition.";

    ExampleContradicts = "example-contradicts", Error, "an example whose expectation the guard does not meet",
"`example` lines are tests that run on every build. This one expects a decision the policy
does not reach for that call. Either the guard or the example is wrong; the message says
what the policy decided and which guards matched.";

    PresetExampleOverruled = "preset-example-overruled", Warning, "a preset's example that a stricter guard of the policy decides otherwise",
"A preset's examples speak for the preset's own guard. When another guard of the policy
decides one of them more strictly (a guard that denies `npm install` in a bun repository,
where a preset's example says `npm install lodash` is allowed), the stricter rule wins and the
build goes on: this note says which guards decided. The example still holds for its own
guard, which is checked against it alone. A guard that decides a preset's example less
strictly than it expects (lets through what the preset refuses) is an error,
[`hookc::example-contradicts`](example-contradicts.md).";

    InvalidExample = "invalid-example", Error, "an example hookc cannot run",
"An example gives the call to try (a command for shell guards, `path=` for file tools,
`text=` for prompt guards) and `expect=` one of `deny`, `ask`, `allow`, `context`, `block`,
or `pass` (no guard matches).";

    ExtendsSource = "extends-source", Error, "the policy an `extends` names cannot be read",
"`extends` names the policy this one builds on: a file, by its path from this policy's folder,
a file in a git repository, or an HTTPS URL:

```kdl
extends \"org/policy.kdl\" digest=\"sha256:…\"
extends \"https://policies.acme.dev/agents/v3.kdl\" digest=\"sha256:…\"
extends \"git+https://github.com/acme/policies.git\" rev=\"v3\" path=\"policy.kdl\" digest=\"sha256:…\"
```

hookc reads the file, fetches it with git (only https, ssh, git and file URLs: never a
transport that runs a command), or fetches an `https://` URL with curl, on every build; any
other URL, plain `http://` among them, is refused. A file's name (and a git source's `path`)
must end in `.kdl`, so that no other file of the machine is read as a policy. A source that cannot be fetched is taken
from the copy an earlier build kept in hookc's state folder, if it holds the pinned bytes: that
is a warning, and an error when there is no such copy. Policies extend each other at most 8
layers deep, and a lower layer's path may not leave the repository or URL folder it is read
from.";

    ExtendsUnpinned = "extends-unpinned", Error, "an `extends` without a digest",
"Every `extends` carries the sha256 digest of the file it names, so that a change upstream
changes nothing in this repository until someone reviews it and pins the new digest. hookc
never fetches a source without a pin. `hookc update` reads each source and writes its digest
into `policy.kdl`, changing nothing else in the file.";

    ExtendsDigest = "extends-digest", Error, "the policy an `extends` names has changed",
"The bytes of the source no longer hash to the pinned digest: the file, the branch or the tag
moved. Review what changed upstream, then run `hookc update` to pin the new digest. `hookc
build` and `hookc check` both refuse until then.";

    ExtendsLoosens = "extends-loosens", Error, "a policy would loosen the policy it extends",
"A policy that extends another may add guards and be stricter, never looser. An error names
what would loosen it: a guard defined again under an inherited guard's name, `targets` that
leave out a harness the inherited policy guards, an `on-error` laxer than its, a shorter
`timeout`, `self-protection \"off\"`, `audit-log #false` under its `audit-log #true`, a different
`hookc-version`, a harness option it sets already, or a harness's safeguard turned off
(`harness \"claude\" { on-failure-block #false }`).

```kdl
extends \"org/policy.kdl\" digest=\"sha256:…\"
guard \"no-force-push\" { … }          // the org's guard: rename yours, both apply
on-error \"ask\"                        // the org's is deny
```

`allow-once #true` is allowed: its approvals reach this policy's own guards only.";

    NoManagedLayer = "no-managed-layer", Warning, "a target harness has no administrator layer for a managed install",
"`hookc build --managed` writes each target harness's administrator layer: Claude Code's
`managed-settings.d/`, Codex's `requirements.toml`, Copilot CLI's `policy.d/`, Cursor's
enterprise `hooks.json`, Gemini CLI's system settings and the others the organisation chapter
lists. A harness without one hookc writes is left out of the managed tree, and
this warning names it. Guard it per repository with `hookc build` (the repository's policy may
extend the organisation's), or leave it out of the managed policy's `targets`.

A tree for Windows (`--os windows`) leaves out more: Windsurf and Factory Droid, whose hooks
hookc cannot yet run there, and Crush, which reads no system file on Windows.";

    ManagedNotEnforced = "managed-not-enforced", Warning, "a harness lets users or projects switch off its administrator's hooks",
"Some harnesses read an administrator layer but give the administrator no way to keep the
hooks in it on. Gemini CLI reads its system settings last, so `hooksConfig.enabled` there wins,
but a project's or user's `hooksConfig.disabled` that names a hook switches it off, and a folder
that is not trusted (or a `GEMINI_RESTRICTED_MODE` in the project's `.gemini/.env`) loads no
hooks at all. The managed install still writes the hooks, which run by default; this warning
says that they are not enforced. Where that matters, keep the harness out of the managed
policy's `targets` and off the machine, or guard it per repository as well.";

    RunMissing = "run-missing", Warning, "a guard's `run` program is not in the project",
"A guard with `run \"PATH\"` asks a program at PATH, relative to the project root, on every call
its conditions match. When the build finds no executable file there, every such call will be
refused as \"could not run\": the guard fails closed, but it stops work the policy meant to
allow. This happens most often with a guard inherited through `extends`, whose program lives in
the organisation's repository and not in this one. Commit the program at that path (and make it
executable), or ask the owner of the inherited policy to ship it.";

    InvalidSetting = "invalid-setting", Error, "a policy-wide setting with a bad value",
"`timeout` is whole seconds from 1 to 600; `on-error` is `deny` (the default) or `ask`. \
`preset` names one of hookc's presets (the book's Presets page lists them), and its `level` is \
`basic`, `standard` (the default) or `strict`. A guard's `override` is `never` or `allowed` (the \
default).";

    Unsupported = "unsupported", Warning, "a harness cannot do what a guard asks",
"Harnesses differ: some events cannot block in some harnesses, `ask` is honoured only in
some, some tools do not exist everywhere. hookc says what will happen instead. Silence it
for one guard and harness with `allow-degraded \"harness\"` once you have read it.";

    CannotRewrite = "cannot-rewrite", Error, "a `rewrite` guard for a harness that cannot change tool input",
"A `rewrite` guard changes a shell command before it runs (and tells the model what changed).
Only some harnesses let a hook hand back a changed tool input: Claude Code (`updatedInput`
with an explicit `allow`), the Claude Agent SDK (the same fields, from a callback), Codex
(`updatedInput` with `allow`, for shell commands), Gemini CLI (`tool_input`, which replaces
the whole argument object), Mistral Vibe (`hook_specific_output.tool_input`) and GitHub
Copilot CLI (`modifiedArgs`, for its shell tool). Elsewhere
hookc has no channel that changes the call, and running the call unchanged or refusing it would
both silently differ from the policy, so the build stops.

```kdl
targets \"claude\" \"kimi\"        // Kimi Code hooks cannot change a tool call
guard \"git-no-pager\" {
    command \"git\" \"log\"
    rewrite \"hookc added --no-pager so git does not wait for a pager.\" {
        replace #\"^git \"# \"git --no-pager \"
    }
}
```

Remove the harness from `targets`, or turn the guard into a `deny` whose reason gives the
command to run instead (`deny \"Run git --no-pager log instead.\"`), which every harness
carries.";

    MergeFailed = "merge-failed", Error, "an existing harness file could not be merged",
"hookc merges its hooks into harness files you may also edit. When such a file does not
parse, or has an unexpected shape where hookc's entries go, hookc leaves it untouched and
reports where it fails. Fix the file (or move it away) and build again.";

    Conflict = "conflict", Error, "an entry hookc owns was edited by hand",
"An entry or file hookc wrote earlier was changed on disk since the last build (hookc keeps a
digest of what it wrote in `.hookc/manifest.json`). hookc will not overwrite or delete a hand
edit: `hookc build` stops with this error and writes nothing, and `hookc check` reports it with
the difference. Move the change into `policy.kdl` and build again, or run `hookc build --force`
to replace the edit with what the policy says. Entries that were removed altogether are not a
conflict: the build puts them back.

The same error stops a build that would replace a file hookc has no record of writing, where
hookc writes a whole file of its own (Copilot's `.github/hooks/hookc.json`, OpenCode's
`.opencode/plugin/hookc.js`), unless it looks like hookc's (it has hookc's `@generated` line or
runs something under `.hookc/`). Move or rename your file, or build with `--force`.";

    InvalidVersion = "invalid-version", Error, "`hookc-version` is not a version requirement",
"`hookc-version` says which hookc a policy needs, written as cargo writes a requirement:

```kdl
hookc-version \"0.2\"        // 0.2.0 or later within 0.2
hookc-version \">=0.2.3\"    // that or any later release
hookc-version \"~1.4\"       // 1.4.x
hookc-version \"=0.2.3\"     // exactly that
```";

    VersionMismatch = "version-mismatch", Error, "the policy needs another hookc version",
"The policy's `hookc-version` does not include the hookc that is running. Install one it
includes with the command the help names: the repository's own install when it lists hookc
as a dependency (its package manager's, read from `packageManager` and the lockfile, or its
Python tool's), else a build from source; or change `hookc-version` if the policy really
works with this one.

The generated hooks hold the same requirement: a teammate whose hookc is older than the one
that built the project gets a refusal that names the version and the command to install it,
not a silent pass.";

    ManifestInvalid = "manifest-invalid", Error, "`.hookc/manifest.json` claims a file hookc cannot own",
"`.hookc/manifest.json` records what the last build wrote, so that the next one can update and
retract exactly that. The manifest is committed with the project, so it is input like any other:
a pull request can change it. hookc therefore checks every entry before it touches anything, and
stops with this error, writing nothing, when an entry

- is not a plain relative path (`/etc/passwd`, `../x`, `a/./b`, a backslash, a control
  character), for a project file or a user-level file alike;
- claims part of a file outside `.hookc/` with a marker that does not point into `.hookc/` (an
  empty marker would select every entry of another tool's settings);
- claims a file under `.hookc/` as anything but a whole file;
- or when the manifest is not valid JSON of the expected shape.

A missing manifest is not an error: hookc then owns nothing yet, adopts only entries identical to
the ones it writes, and says so.

Restore the file from version control (`git checkout -- .hookc/manifest.json`), or delete it and
build again.";

    UnsafeFile = "unsafe-file", Error, "a file hookc would read or write is not a plain file inside the project",
"hookc reads and writes only regular, UTF-8 files of at most 32 MiB, inside the project (or inside
the user-level directory a harness declares). It stops with this error, and writes nothing, when a
path it would read or write

- passes through a symlink that leads out of the project (`.claude -> /elsewhere`), or is a
  symlink that points nowhere;
- is a FIFO, a device, a socket or a directory (a FIFO would hang the build, `/dev/zero` would
  fill memory);
- is not valid UTF-8, or cannot be read (hookc never treats such a file as absent and writes over
  it);
- is larger than 32 MiB.

A symlink that stays inside the project is followed: hookc edits the file it points to and keeps
the link. Replace the offending path with a regular file (or remove it) and run hookc again.";

    Drift = "drift", Error, "generated files are out of date",
"`hookc check` found generated files or owned entries that differ from what `policy.kdl`
compiles to. Run `hookc build` and commit the result.";

    LintSyntax = "lint-syntax", Error, "a harness config file does not parse",
"`hookc lint` could not parse a hook config the way its harness reads it. Every harness
drops a file it cannot parse (Claude: \"Invalid or malformed JSON\"; Kimi drops the whole
config; OpenCode skips a plugin with a syntax error *silently*), so none of its hooks run.
Fix the syntax at the position shown.

JSON files are read as strictly as their harness reads them: Claude Code, Codex, Copilot CLI
and Antigravity take strict JSON (a comment or a trailing comma is an error), Gemini CLI and
Cursor take comments but no trailing commas, and only Claude Code skips a byte order mark at
the start of the file. JSON5 (unquoted keys, single quotes, missing commas, hex numbers) is an
error everywhere. `hookc build` refuses to merge into a file its harness would reject.";

    LintUnknownKey = "lint-unknown-key", Error, "a key the harness rejects",
"Some harnesses check their hook files strictly. Kimi Code's `[[hooks]]` accepts only
`event`, `matcher`, `command` and `timeout` (one unknown key drops *every* config hook);
Codex's `hooks.json` root takes only `hooks` (and `description`), otherwise the file
contributes no hooks; Codex's `config.toml` is checked strictly too. Antigravity drops the
whole `.agents/hooks.json` for a key that contradicts a handler's `type` (`prompt` or `model` on
a `command` hook, `command` on a `prompt` hook), and quietly discards any other key it does not
know on a handler or matcher group (`env`, `cwd`, `name`, `background`): a warning, since the
hook then runs without what the key asked for.

```toml
[[hooks]]
event = \"PreToolUse\"
command = \"exit 2\"
on_error = \"block\"   # rejected: remove it
```";

    LintMissingField = "lint-missing-field", Error, "a field the harness requires is missing",
"A required field is absent: `type` on a Gemini, Claude or Codex handler, `version` at the
root of Cursor's `hooks.json` (Copilot accepts its absence but documents `version: 1`), a
`command`, or the `hooks` array of a matcher group (the flat form is refused by Claude and
Gemini). Add it as the help line says.";

    LintWrongType = "lint-wrong-type", Error, "a value of the wrong type in a hook config",
"A value has the wrong JSON/TOML type: `\"timeout\": \"30s\"` where a number is needed, an array
where a matcher string is needed, an object where a list of hooks is needed. The harness
refuses the entry (Claude: \"expected number, received string\") and the hook never runs.";

    LintTimeout = "lint-timeout", Error, "a timeout out of range or in the wrong unit",
"Timeouts differ per harness: seconds for Claude, Codex, Cursor, Copilot (`timeoutSec`),
Antigravity and Kimi (a whole number from 1 to 600); **milliseconds** for Gemini CLI, where
`\"timeout\": 30` gives the hook 30 ms and it times out. A value of 0 or less is refused
everywhere. A Gemini value under 1000 is reported as a warning: it is most likely seconds.
The other way round, a value of 1000 or more where the harness counts seconds (`\"timeout\":
30000` in Claude Code is over eight hours) is a warning too: it is most likely milliseconds.";

    LintUnknownEvent = "lint-unknown-event", Error, "an event name the harness does not know",
"Event names are exact and differ per harness: Claude `PreToolUse`, Gemini `BeforeTool`,
Cursor `preToolUse`. A wrong name is ignored (Claude: \"Unknown hook event ... was ignored\"),
so the hook never runs. `pretooluse` is a case mistake (`hookc lint --fix` corrects it);
`PreToolUse` in a Gemini file is Claude's name, the help says the harness's own.
Antigravity alone reads known event names in any case, so there a wrong case is a warning.";

    LintDuplicateKey = "lint-duplicate-key", Error, "a key appears twice in one JSON object",
"JSON readers disagree about a repeated key: JavaScript's `JSON.parse` (Claude Code, Gemini CLI,
Copilot CLI) and Python keep only the last one, so the hooks under the first are silently lost;
serde-based readers reject the whole file. Merge the two into one key. When the two differ only in
case (`preToolUse` and `PreToolUse`), `hookc lint --fix` moves the entries of the misspelt one into
the right one, and refuses (leaving both) when either is not a list.";

    LintMatcherCase = "lint-matcher-case", Error, "a matcher names a tool in the wrong case",
"Matchers are case-sensitive in every harness: `bash` matches nothing in Claude Code, whose
tool is `Bash`. Use the tool name exactly as the harness spells it.";

    LintMatcherUnanchored = "lint-matcher-unanchored", Warning, "a matcher also matches longer tool names",
"Where the harness tests the matcher as an unanchored regex (Gemini, Kimi, Cursor,
Antigravity, and Claude/Codex for anything but plain names), a bare `Bash` also matches
`BashOutput`, and `run_shell_command` matches any MCP tool whose name contains it. Anchor
it: `^Bash$`. Only matchers of tool names are reported: Cursor tests a `beforeShellExecution`
matcher against the whole command line, where `git` is meant to be found anywhere (`^(git)$`
would stop the hook firing for `git push`). Nor are matchers for every tool: `.*` matches every
name however it is anchored, and so do `*` and an empty matcher where the harness reads them
as every tool. A regex whose end is open on purpose needs no `$` either: one ending in `.*`
(`^(?!Bash$).*`), or `^` and a look-ahead alone (`^(?!Shell$|MCP:)`, every tool but these, as
`hookc build` writes for Cursor), which a `$` would leave matching nothing.";

    LintMatcherRegex = "lint-matcher-regex", Error, "a matcher regex that does not compile in the harness's flavour",
"The harness reads the matcher as a regex and this one does not compile **in that harness's
regex language**. Harnesses then skip the entry or never match (Kimi: silently), so the guard
never runs. Claude Code, Gemini CLI and Kimi Code compile matchers with JavaScript's `RegExp`
(Cursor is treated the same way): look-ahead such as `^(?!Bash$)` works there, inline flags such
as `(?i)` do not. Codex uses Rust's `regex`, and Antigravity (a Go program, so RE2) the same
kind of engine: `(?i)` works, look-around and backreferences do not. Which engine Copilot CLI
uses is not established, so a matcher that compiles in only one of the two gets a warning.
A common trap everywhere is a bare `*`: write `.*`, or leave the matcher out to match every tool.

```json
{ \"hooks\": { \"PreToolUse\": [ { \"matcher\": \"^(?!Bash$).*\", \"hooks\": [ … ] } ] } }
```

is fine in `.claude/settings.json` and never matches in `.codex/hooks.json`; there, list the
tools you mean: `^(?:apply_patch|mcp__fs__write)$`.";

    LintGuardScript = "lint-guard-script", Error, "a hook's script is missing or not executable",
"A hook runs a local file that does not exist or is not executable. The shell exits 126 or
127, and most harnesses treat that as a hook error and **let the call through** (fail open).
Create the file, `chmod +x` it, or fix the path. A script handed to its interpreter (`bash x.sh`,
`python3 x.py`) needs no execute bit, only to exist (a missing file makes `python3` exit 2,
which refuses every call).";

    LintFailOpen = "lint-fail-open", Warning, "a hook command or guard script can fail open",
"Only exit 2 (or a JSON deny) blocks; exit 1 is a hook *error* and the call goes ahead. `exit 1`
is an error, not a warning, where it lets the call through (Claude Code, Codex, Gemini CLI, Kimi
Code); Cursor refuses it only with `failClosed`, and Copilot CLI and Antigravity refuse on any
failure, so there it is not reported, except that VS Code also runs Copilot CLI's
`.github/hooks/*.json` and lets the call through on `exit 1`: there it is a warning. So a
guard that `exit 1`s on its blocking path, that uses `jq` or `python3` without checking they
exist (127 fails open), or whose status is swallowed by `|| true` / `|| echo`, does not
protect anything when it matters. Only the status of a command that decides counts: reading
stdin (`payload=$(cat || true)`) or housekeeping (`mkdir -p logs || true`) with `|| true` is
harmless and not reported. It is a guard's trap, so it is reported for a hook that runs before
a tool (a wrapper that swallows its check's status is a guard that never refuses) and, on the
other events, for a hook that shows a refusal (exit 2, a refusing decision, `exit 1`): a
formatter or a notifier that fails stops nothing. The script a hook hands its interpreter is read too (`bash x.sh`,
`python3 x.py`, `uv run x.py`, `node x.mjs`, `bun x.ts`, `npx tsx x.ts`), with the checks of its
language: in Python `sys.exit(1)`, and a guard that parses its input with no `try:` (an uncaught
exception exits 1); in JavaScript `process.exit(1)`, and `JSON.parse` with no `try`. Exit 2 on
deny, and fail closed when a tool is missing:

```sh
command -v jq >/dev/null || { echo 'jq missing' >&2; exit 2; }
```";

    LintHookPath = "lint-hook-path", Warning, "a hook command's path that holds only in one folder or on one machine",
"A hook command names its script by a path that breaks off the author's machine, and a hook
that cannot start fails open:

- a path relative to the hook's working directory, where the harness runs hooks in the
  session's current directory: Claude Code does (after a `cd` into a subfolder
  `.claude/hooks/guard.sh` is not found; write `\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh`),
  and Codex does (write `\"$(git rev-parse --show-toplevel)\"/.codex/hooks/guard.sh`). Cursor
  and Copilot CLI run a project's hooks at its root, so a path from there holds;
- a path into one developer's home (`/home/alice/…`, `/Users/bob/…`), missing on every other
  machine: keep the script in the project, or write `$HOME/…` for a tool each developer
  installs;
- a variable the harness does not set for the hook: Copilot CLI gives `CLAUDE_PROJECT_DIR` to
  plugin hooks only, so in `.github/hooks/*.json` `\"$CLAUDE_PROJECT_DIR\"/x.sh` is `/x.sh`.
  Cursor and Gemini CLI do set it, as an alias of their own.

Where the harness's working directory or its variables are not established (Gemini CLI's
directory, Kimi Code, Codex's variables, the harnesses without notes), nothing is reported.";

    LintPayloadField = "lint-payload-field", Warning, "a hook reads a payload field the harness does not send on that event",
"The hook (its command or the script it runs) reads a field of the JSON payload that the harness
does not send on this event, so the guard sees nothing to check and the call goes ahead. GitHub
Copilot CLI sends a camelCase `preToolUse` hook the tool's arguments as `toolArgs` (in some
versions a JSON string); `tool_input` is Claude Code's field, which Copilot CLI sends only under
the PascalCase key `PreToolUse`. Read `toolArgs` (`jq '.toolArgs | if type == \"string\" then
fromjson else . end'`), or both: `.toolArgs // .tool_input`.";

    LintStderrDeny = "lint-stderr-deny", Warning, "a deny reason on stderr the harness never shows",
"GitHub Copilot CLI reads a `preToolUse` deny from stdout JSON
(`{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"…\"}`); a reason printed to
stderr with `exit 2` is not forwarded to the model. Print the JSON instead.";

    LintCursorFailClosed = "lint-cursor-fail-closed", Warning, "a blocking Cursor hook without `failClosed: true`",
"Cursor treats a crash, a timeout or invalid output of a hook as *allow* unless the handler
has `\"failClosed\": true`. A guard on an event that can refuse (`preToolUse`, the `before…`
events, `subagentStart`) should fail closed. Only hooks that look like guards are reported: the
command or the script it runs exits 2 or prints a refusal (`\"permission\": \"deny\"`,
`\"continue\": false`). A `stop` hook (its follow-up starts another turn and refuses nothing),
and an observer that logs or notifies and never refuses, need no `failClosed`.
`hookc lint --fix` adds it, and shows each change; an explicit `\"failClosed\": false` is the
author's choice, still reported, and left as it is.";

    LintStopLoop = "lint-stop-loop", Warning, "an unbounded stop loop (`loop_limit: null`)",
"A Cursor `stop`/`subagentStop` hook that sends a follow-up makes the agent run again; with
`\"loop_limit\": null` there is no cap, so a hook that always objects loops forever. Leave the
default (5) or set a number.";

    LintCrossLoading = "lint-cross-loading", Warning, "hooks in `.claude/settings.json` that other harnesses also run",
"Cursor and GitHub Copilot CLI also load the repo's `.claude/settings.json` hooks, and run them
with their own payloads and reply protocols. A Claude guard that reads `tool_input.command`
or answers with Claude's JSON then misfires or fails open there. Make the script check
which harness called it, or keep Claude-only hooks in `.claude/settings.local.json`.";

    LintMatcherForeignTool = "lint-matcher-foreign-tool", Error, "a matcher names a tool by another harness's name",
"Each harness has its own tool names, and a matcher holding another harness's name matches
nothing: `Bash` is Claude Code's shell tool, Cursor's is `Shell`, Antigravity's `run_command`,
Gemini CLI's `run_shell_command`. Anchoring the word does not help. The finding gives this
harness's name for the same tool. Where the harness's hooks see no such tool at all, the word
matches nothing either: Codex hooks see only `Bash`, `apply_patch` and MCP tools, so `Read`
never fires there (while `Edit` and `Write` are Codex's own aliases of `apply_patch`). Kimi Code
renamed the tools of the old Python kimi-cli, and its hooks never see the old names: `Shell` is
`Bash` now, `ReadFile` `Read`, `WriteFile` `Write`, `StrReplaceFile` `Edit`, `SearchWeb`
`WebSearch`, `SetTodoList` `TodoList`, and `Think` is gone (`ReadMediaFile`, `Glob`, `Grep` and
`FetchURL` kept their names).";

    LintMatcherNeverFires = "lint-matcher-never-fires", Error, "a matcher on an event whose matcher sees only an empty string",
"Kimi Code tests the matcher of `Stop`, `Interrupt` and `SessionHeartbeat` hooks against an
empty string: only an absent or empty matcher (or a pattern that matches nothing at all, like
`^$`) lets them fire. `matcher = \"Bash\"` on a `Stop` hook means the hook never runs. Remove
the matcher.";

    LintMatcherMcp = "lint-matcher-mcp", Error, "an MCP tool named in a form the harness does not use",
"Each harness names MCP tools its own way, and a matcher written another way matches nothing,
so the guard never runs:

| harness | MCP tool names in matchers |
|---|---|
| Claude Code, Codex, Kimi Code | `mcp__<server>__<tool>` |
| Gemini CLI (0.34 and later) | `mcp_<server>_<tool>` |
| Cursor (`preToolUse`, `postToolUse`) | `MCP:<tool>` (no server) |
| Copilot CLI (its camelCase events) | `<server>-<tool>` (seen in its tool lists; a warning, as hooks are not verified) |

A matcher `memory__create_entities` in `.claude/settings.json` lacks the prefix: write
`mcp__memory__create_entities`, or `mcp__memory__.*` for every tool of the server. The same
name in `.gemini/settings.json` is written `mcp_memory_create_entities`. A server without a
tool, `mcp__memory`, is matched whole by Claude Code and Codex and so matches no tool: write
`mcp__memory__.*`.";

    LintCannotBlock = "lint-cannot-block", Warning, "a hook tries to block on an event that cannot block",
"The hook refuses (`exit 2`, a `deny`) on an event where the harness does not stop anything:
Cursor's and Copilot's `postToolUse` run after the tool, so the refusal is only logged. Move
the guard to the harness's pre-tool event (`preToolUse`, `beforeShellExecution`).";

    LintReasonlessDeny = "lint-reasonless-deny", Warning, "a deny without a reason",
"A refusal with no reason leaves the model guessing, and it usually retries the same call.
Give one: `permissionDecisionReason` (Claude, Copilot), `user_message`/`agent_message`
(Cursor), or a line on stderr before `exit 2`.";

    LintUpdatedInput = "lint-updated-input", Warning, "`updatedInput` without an explicit allow",
"Claude Code applies a hook's `updatedInput` only together with `\"permissionDecision\": \"allow\"`
(or `ask`); without it the rewrite is ignored and the original call runs.";

    LintStdoutNoise = "lint-stdout-noise", Warning, "a guard script prints text where the harness reads JSON",
"Cursor, Copilot and (on exit 0) Claude Code, Codex and Gemini parse a hook's stdout as JSON. A
stray `echo` to stdout makes the reply invalid; the decision is lost and, in most harnesses,
the call goes ahead. Send diagnostics to stderr: `echo \"checking\" >&2`.

Plain text is also reported, in a hook command or its shell script, where the harness does not
take it as the hook meant on that event: Codex wants JSON from a `Stop` or `SubagentStop` hook
(plain text makes it fail); Cursor refuses the call when a `preToolUse`,
`beforeShellExecution` or `beforeMCPExecution` hook prints anything but JSON, so `echo allow`
blocks every call; and a bare word printed as the decision (`echo deny`, `echo block`) refuses
nothing where plain text is ignored (Claude Code and Codex on `PreToolUse`) or read as an allow
(Gemini CLI on `BeforeTool`). Refuse with the reason on stderr and `exit 2`, or print the JSON
decision. Plain text where the harness reads it as context (`UserPromptSubmit`, `SessionStart`)
is fine.";

    LintUnknownHook = "lint-unknown-hook", Error, "an OpenCode plugin hook name that does not exist",
"OpenCode calls plugin hooks by exact name (`tool.execute.before`); a misspelled key like
`tool.before` is never called and the plugin silently guards nothing.";

    UnknownLintRule = "unknown-lint-rule", Error, "a lint level or ignore comment names no lint rule",
"The policy's `lint` block sets the level of `hookc lint`'s rules, and an ignore comment in a
hook config silences one finding; both name rules by their codes, which all start with `lint-`
(`hookc::` in front is optional).

```kdl
lint {
    allow \"lint-matcher-unanchored\"  // no finding
    warn \"lint-fail-open\"            // a warning
    deny \"lint-cross-loading\"        // an error: lint exits 1
}
```

```toml
# hookc-lint: ignore lint-timeout
timeout = 900
```

A misspelt code would silently change nothing, so it is reported: an error in the policy, a
warning in an ignore comment. The help names the closest rule; `hookc explain CODE` describes
each.";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "hookc::{}", self.name())
    }
}

impl std::str::FromStr for Code {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, ()> {
        let s = s.strip_prefix("hookc::").unwrap_or(s);
        Code::ALL.iter().copied().find(|c| c.name() == s).ok_or(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.name()), "duplicate {}", code.name());
            assert!(
                code.name()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{} is not kebab-case",
                code.name()
            );
            assert_eq!(code.to_string().parse::<Code>(), Ok(*code));
            assert!(!code.explanation().trim().is_empty());
        }
    }
}
