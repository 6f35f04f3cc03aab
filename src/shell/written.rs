//! What a line does to its own later commands by writing files: a file it
//! sources after writing it, a program it writes (copies, links, moves or
//! redirects into place) under another name and then runs (`ln -s /bin/rm
//! ./del && ./del -rf .`), a script it writes and hands to a shell or an
//! interpreter (`echo 'git push -f' > x.sh && bash x.sh`).
//! The access model ([`super::access`]) knows what each command writes; the
//! normaliser, which reads the line before that is known, does not, so the
//! checks run on the finished analysis.

use super::access::{self, Touch};
use super::lex::push_reason;
use super::normalize::{Analysis, SimpleCommand};
use super::pattern::normalize_arg;
use super::programs;
use super::ssh_config;

/// Shells, whose first operand is a script they run.
const SHELLS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "mksh", "rbash", "ash", "yash", "posh",
];

/// The files whose `script-shell` tells npm, pnpm or yarn which program
/// runs their scripts.
const MANAGER_SETTINGS: &[&str] = &[".npmrc", ".yarnrc", "npmrc", "pnpm-workspace.yaml"];

/// Build and test tools, and the files each runs that it finds by name
/// where it runs (a build's rules, a test runner's set-up and tests, a
/// package's build script): a line that writes one and then runs the tool
/// runs what it wrote, as `bash x.sh` runs `x.sh`. A name starting with
/// `*` is a suffix.
const RUNS_BY_NAME: &[(&[&str], &[&str])] = &[
    (
        &["make", "gmake", "bmake"],
        &["Makefile", "makefile", "GNUmakefile", "*.mk"],
    ),
    (&["just"], &["justfile", "Justfile", ".justfile", "*.just"]),
    (&["rake"], &["Rakefile", "rakefile", "*.rake"]),
    (&["ninja"], &["build.ninja", "*.ninja"]),
    (&["cmake"], &["CMakeLists.txt", "*.cmake"]),
    (&["meson"], &["meson.build", "meson_options.txt"]),
    (
        &[
            "pytest", "py.test", "tox", "nox", "pip", "pip3", "uv", "poetry", "hatch",
        ],
        &[
            "*.py",
            "pytest.ini",
            "pyproject.toml",
            "setup.cfg",
            "tox.ini",
        ],
    ),
    (&["cargo"], &["*.rs", "Cargo.toml", "config.toml"]),
    (&["go"], &["*.go", "go.mod"]),
    (
        &["gradle", "gradlew", "mvn", "mvnw", "ant"],
        &[
            "*.gradle",
            "*.gradle.kts",
            "gradle.properties",
            "pom.xml",
            "build.xml",
            "*.java",
        ],
    ),
    (&["bundle", "rspec"], &["Gemfile", "*.rb"]),
    (
        &["deno", "bun"],
        &["*.ts", "*.js", "deno.json", "bunfig.toml"],
    ),
    (
        &["npm", "npx", "pnpm", "pnpx", "yarn"],
        &["package.json", "*.js", "*.mjs", "*.cjs", "*.ts"],
    ),
];

/// The tool `cmd` runs, as [`RUNS_BY_NAME`] names it: its program, or the
/// module of `python -m MODULE`.
fn tool(cmd: &SimpleCommand) -> &str {
    let program = cmd.program.rsplit('/').next().unwrap_or_default();
    if programs::interpreter(program).is_some_and(|i| i.names.contains(&"python*"))
        && let Some(at) = cmd.args.iter().position(|a| a == "-m")
    {
        return cmd.args.get(at + 1).map_or("", String::as_str);
    }
    program
}

/// Whether a written file's last name is one `patterns` lists.
fn named_by(name: &str, patterns: &[&str]) -> bool {
    patterns.iter().any(|p| match p.strip_prefix('*') {
        Some(suffix) => name.ends_with(suffix),
        None => name == *p,
    })
}

/// Mark the analysis opaque where the line runs a file it has just written
/// in a way no guard can read.
pub fn check(analysis: &mut Analysis) {
    let mut reasons = Vec::new();
    if !analysis.sourced.is_empty() {
        let writes: Vec<Touch> = access::touches(analysis)
            .into_iter()
            .filter(|t| t.access.writes())
            .collect();
        for file in &analysis.sourced {
            if writes.iter().any(|t| names(&t.path, file)) {
                reasons.push(format!(
                    "`{file}`, which the line writes and sources (hookc read it as it is now)"
                ));
            }
        }
        // ssh's settings, read for a line that connects (see `ssh_config`),
        // and every file they may include. A `cd` the line makes is
        // followed to absolute paths, `~` too.
        let mut folders: Vec<String> = ssh_config::SETTINGS_FOLDERS
            .iter()
            .map(|f| (*f).to_owned())
            .collect();
        if let Some(home) = std::env::var("HOME").ok().filter(|h| h.starts_with('/')) {
            folders.push(format!("{}/.ssh", home.trim_end_matches('/')));
        }
        let connects = analysis
            .sourced
            .iter()
            .any(|f| f == ssh_config::USER_SETTINGS);
        if let Some(t) = writes.iter().find(|t| {
            let path = normalize_arg(&t.path);
            connects
                && folders
                    .iter()
                    .any(|folder| names(&path, folder) || path.starts_with(&format!("{folder}/")))
        }) {
            reasons.push(format!(
                "`{}`, ssh settings the line writes before it connects",
                t.path
            ));
        }
        // The settings a manager reads before it runs a script (see
        // `package_json::script_shell`), wherever the line writes them.
        let scripts_run = analysis.sourced.iter().any(|f| f.ends_with("package.json"));
        if let Some(t) = writes.iter().find(|t| {
            let name = normalize_arg(&t.path);
            let last = name.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            scripts_run && (MANAGER_SETTINGS.contains(&last) || name.ends_with("pnpm/rc"))
        }) {
            reasons.push(format!(
                "`{}`, settings the line writes before a package manager reads them to run its scripts",
                t.path
            ));
        }
    }
    // A set: a line of many commands that write is looked up once a command.
    let written: std::collections::HashSet<String> = written_names(&analysis.commands);
    // Every name each command writes, moves away or copies into place, a
    // copy that keeps its name included.
    let changed: Vec<std::collections::HashSet<String>> = analysis
        .commands
        .iter()
        .map(|c| changed_names(c, false))
        .collect();
    for (at, cmd) in analysis.commands.iter().enumerate() {
        // What the other commands of the line change (a tool's own
        // operands are its inputs, `pytest tests/test_x.py`).
        let changed_by_others = |name: &str| {
            changed
                .iter()
                .enumerate()
                .any(|(k, names)| k != at && names.contains(name))
        };
        // What `git add` and `git stash -u` take depends on git's ignore
        // files: after the line changes one, they may take a secret.
        let ignores = ["gitignore", ".gitignore", "exclude"];
        if cmd.program == "git"
            && matches!(cmd.args.first().map(String::as_str), Some("add" | "stash"))
            && let Some(name) = ignores.iter().find(|n| changed_by_others(n))
        {
            reasons.push(format!(
                "`{name}`, an ignore file the line changes before git takes files by it"
            ));
        }
        let tool = tool(cmd);
        // Python looks for modules in the script's folder or the working
        // one first, and loads `sitecustomize` and `.pth` files at start.
        let python: &[&str] = &["*.py", "*.pth"];
        let patterns = RUNS_BY_NAME
            .iter()
            .find(|(tools, _)| tools.contains(&tool))
            .map(|(_, p)| *p)
            .or_else(|| {
                programs::interpreter(&cmd.program)
                    .is_some_and(|i| i.names.contains(&"python*"))
                    .then_some(python)
            });
        if let Some(patterns) = patterns {
            // `make -f FILE` runs FILE, whatever its name.
            let given = cmd
                .args
                .iter()
                .position(|a| matches!(a.as_str(), "-f" | "--file" | "--makefile"))
                .and_then(|at| cmd.args.get(at + 1))
                .filter(|_| matches!(tool, "make" | "gmake" | "bmake" | "just"))
                .and_then(|f| f.rsplit('/').next());
            let mut names: Vec<&String> = changed
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != at)
                .flat_map(|(_, names)| names)
                .filter(|n| named_by(n, patterns) || Some(n.as_str()) == given)
                .collect();
            names.dedup();
            names.sort();
            if let Some(name) = names.first() {
                reasons.push(format!(
                    "`{name}`, a file the line itself writes and `{tool}` then runs"
                ));
            }
        }
        if written.contains(&cmd.program) {
            reasons.push(format!(
                "`{}`, a program the line itself writes (copies, links or moves into place) and runs",
                cmd.program
            ));
        }
        if let Some(script) = script_operand(cmd)
            && script
                .rsplit('/')
                .next()
                .is_some_and(|name| written.contains(name))
        {
            reasons.push(format!(
                "`{script}`, a script the line itself writes and runs with {}",
                cmd.program
            ));
        }
    }
    for r in reasons {
        push_reason(&mut analysis.opaque, r);
    }
}

/// Whether the line runs a program it has itself written under another
/// name (copied, linked, moved into place): that program may be anything.
pub fn runs_what_it_writes(analysis: &Analysis) -> bool {
    let written = written_names(&analysis.commands);
    analysis
        .commands
        .iter()
        .any(|c| written.contains(&c.program))
}

/// The script a shell or an interpreter runs: its first operand.
fn script_operand(cmd: &SimpleCommand) -> Option<&str> {
    let runs_scripts =
        SHELLS.contains(&cmd.program.as_str()) || programs::interpreter(&cmd.program).is_some();
    if !runs_scripts {
        return None;
    }
    cmd.args
        .iter()
        .find(|a| !a.starts_with('-') && !a.starts_with('+'))
        .map(String::as_str)
}

/// The last path component of every file a command writes or moves away;
/// `but_copies` leaves out a name it also reads: a copy that keeps its name
/// (`cp /usr/bin/git /tmp/`) runs as what it is, and so does the source of
/// a hard link.
fn changed_names(cmd: &SimpleCommand, but_copies: bool) -> std::collections::HashSet<String> {
    let mut touches = Vec::new();
    access::command(cmd, &mut touches);
    let last = |t: &access::Touch| {
        let path = normalize_arg(&t.path);
        path.rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
    };
    let sources: std::collections::HashSet<String> = touches
        .iter()
        .filter(|t| but_copies && t.access.reads())
        .filter_map(last)
        .collect();
    touches
        .iter()
        .filter(|t| t.access.writes())
        .filter_map(last)
        .filter(|n| !sources.contains(n))
        .collect()
}

/// The last path component of every file the line writes, but copies.
fn written_names(commands: &[SimpleCommand]) -> std::collections::HashSet<String> {
    commands
        .iter()
        .flat_map(|c| changed_names(c, true))
        .collect()
}

/// Whether the written path `written` (a file, a folder, or a glob) may be
/// the file `file`, both as written in the line.
fn names(written: &str, file: &str) -> bool {
    let strip = |p: &str| -> String {
        let p = normalize_arg(p);
        p.strip_prefix("./").unwrap_or(&p).to_owned()
    };
    let (written, file) = (strip(written), strip(file));
    written == file
        || file.starts_with(&format!("{written}/"))
        || (access::is_glob(&written)
            && globset::Glob::new(&written).is_ok_and(|g| g.compile_matcher().is_match(&file)))
}

#[cfg(test)]
mod tests {
    use crate::shell::analyze;

    fn opaque(line: &str) -> bool {
        analyze(line).is_opaque()
    }

    #[test]
    fn a_build_or_test_tool_after_the_line_writes_its_files_is_opaque() {
        assert!(opaque("printf 'all:\\n\\tcat .env\\n' > Makefile && make"));
        assert!(opaque("echo x > rules.txt; make -f rules.txt"));
        assert!(opaque(
            "printf 'import os' > conftest.py && python3 -m pytest"
        ));
        assert!(opaque("cp /tmp/evil.py setup.py && pip install ."));
        assert!(opaque(
            "cat > build.rs <<'EOF'\nfn main() {}\nEOF\ncargo build"
        ));
        // What it does not run by name, or a tool that runs nothing the
        // line wrote.
        assert!(!opaque("make > build.log"));
        assert!(!opaque("echo hi > notes.txt && make"));
        assert!(!opaque("cargo test 2>&1 | tee test.log"));
        assert!(!opaque("python3 -m pytest -q > out.txt"));
    }

    #[test]
    fn git_add_after_the_line_changes_an_ignore_file_is_opaque() {
        assert!(opaque("rm .gitignore && git add -A && git diff --cached"));
        assert!(opaque("printf '!.env\\n' >> .gitignore && git add ."));
        assert!(opaque("echo x > .git/info/exclude; git stash -u"));
        assert!(!opaque("echo x > notes.txt && git add notes.txt"));
        assert!(!opaque("git add . && git commit -m x"));
        assert!(opaque("mv .gitignore /tmp/gi; git add -A"));
    }

    #[test]
    fn python_or_a_package_manager_after_the_line_writes_their_code_is_opaque() {
        assert!(opaque("base64 -d < x.b64 > x.py; python3 -m x"));
        assert!(opaque(
            "cp /tmp/j.py json.py; python3 -m json.tool README.md"
        ));
        assert!(opaque(
            "echo x > sitecustomize.py; PYTHONPATH=. python3 -c 1"
        ));
        assert!(opaque("base64 -d < p.b64 > package.json; npm test"));
        assert!(opaque("cp /tmp/Makefile . && make"));
        assert!(!opaque("python3 -m json.tool package.json > out.json"));
        assert!(!opaque("npm test > test.log"));
        // A tool's own operands are its inputs.
        assert!(!opaque("pytest tests/test_parser.py -q"));
    }

    #[test]
    fn a_program_renamed_in_the_line_is_opaque() {
        assert!(opaque("ln -s /bin/rm ./del && ./del -rf ."));
        assert!(opaque("cp /usr/bin/git /tmp/g; /tmp/g push --force"));
        assert!(opaque("mv ./rm-copy ./tidy && ./tidy -rf ."));
        assert!(opaque("cat /bin/rm > del && chmod +x del && ./del -rf ."));
        assert!(opaque("echo 'git push --force' > x.sh && bash x.sh"));
        assert!(opaque("printf 'import os' > t.py; python3 t.py"));
        // A program file reached through a descriptor, whatever it holds.
        assert!(opaque("exec 3</usr/bin/git; /proc/self/fd/3 push --force"));
        assert!(opaque("/dev/fd/3 push -f 3</usr/bin/git"));
        assert!(opaque("/usr/../proc//self/./exe -c 'git push -f'"));
        assert!(!opaque("ls /proc/self/fd && cat /dev/stdin"));
        // A link to a document, a copy that keeps its name: nothing renamed runs.
        assert!(!opaque(
            "ln -s ../README.md docs/README.md && cat docs/README.md"
        ));
        assert!(!opaque("cp /usr/bin/git /tmp/ && /tmp/git status"));
        assert!(!opaque("echo hi > notes.txt && cat notes.txt"));
        assert!(!opaque("bash scripts/check.sh > check.log"));
    }

    /// ssh's settings are read where a call is judged; a line that writes
    /// them before it connects changes what was read.
    #[test]
    fn ssh_settings_the_line_writes_before_it_connects_are_opaque() {
        let dir = tempfile::tempdir().unwrap();
        let judged =
            |line: &str| crate::shell::analyze_in(line, Some(dir.path()), false).is_opaque();
        for line in [
            "echo 'ProxyCommand rm -rf ~' >> ~/.ssh/config && git fetch origin",
            "printf 'LocalCommand x' > $HOME/.ssh/config.d/a; ssh host true",
            "cp /tmp/cfg /etc/ssh/ssh_config && scp a host:b",
            "cd ~/.ssh && echo 'ProxyCommand x' > config && git push origin main",
        ] {
            assert!(judged(line), "{line}");
        }
        assert!(!judged("echo hi > notes.txt && git fetch origin"));
        assert!(!judged("echo x >> ~/.ssh/config && git status"));
    }
}
