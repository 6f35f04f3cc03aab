//! A seeded generator of command lines: a core command (denied by the
//! bundled policy, or not) spelled through the constructs of issue 19's
//! classes and of everything the lexer knows.
//!
//! A line is a core, at most one rewrite of its words (`Word`), then up to
//! three wrappers (`Wrap`) around the text so far. Each layer names its
//! class: 0 for the constructs of the shell language the engine is meant
//! to read (quoting, lists, compound commands, functions, redirections,
//! assignments, substitutions, known wrappers), 1-10 for the issue's,
//! 11 for programs hookc does not know (issue 31): random names the judge
//! puts on the sandbox's PATH as scripts that run their arguments,
//! multicall names, `g`-named GNU tools and GNU env's `-S` separators.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// xorshift64*: small, seeded, the same lines on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A core command: words needing no quoting.
pub struct Core {
    pub words: &'static [&'static str],
    /// What the bundled policy says about it run as typed.
    pub denied: bool,
}

pub const CORES: &[Core] = &[
    Core {
        words: &["git", "push", "--force", "origin", "main"],
        denied: true,
    },
    Core {
        words: &["git", "push", "-f", "origin", "main"],
        denied: true,
    },
    Core {
        words: &["git", "push", "origin", "+main"],
        denied: true,
    },
    Core {
        words: &["git", "push", "--force-with-lease", "origin", "main"],
        denied: true,
    },
    Core {
        words: &["git", "reset", "--hard", "HEAD"],
        denied: true,
    },
    Core {
        words: &["rm", "-rf", "."],
        denied: true,
    },
    Core {
        words: &["rm", "-r", "-f", ".git"],
        denied: true,
    },
    Core {
        words: &["rm", "--recursive", "--force", "./"],
        denied: true,
    },
    Core {
        words: &["cat", ".env"],
        denied: true,
    },
    Core {
        words: &["head", "-n", "1", ".env.local"],
        denied: true,
    },
    Core {
        words: &["tail", "config/.env.production"],
        denied: true,
    },
    Core {
        words: &["less", ".env"],
        denied: true,
    },
    Core {
        words: &["grep", "TOKEN", ".env"],
        denied: true,
    },
    Core {
        words: &["cp", ".env", "leak.txt"],
        denied: true,
    },
    Core {
        words: &["git", "push", "origin", "main"],
        denied: false,
    },
    Core {
        words: &["git", "status", "--short"],
        denied: false,
    },
    Core {
        words: &["git", "reset", "--soft", "HEAD~1"],
        denied: false,
    },
    Core {
        words: &["rm", "-rf", "build"],
        denied: false,
    },
    Core {
        words: &["cat", "README.md"],
        denied: false,
    },
    Core {
        words: &["head", "-n", "3", ".env.example"],
        denied: false,
    },
    Core {
        words: &["cargo", "test"],
        denied: false,
    },
];

pub enum Kind {
    /// Rewrites the core's words into a line (program renamed, option
    /// hidden, git told to decide for itself).
    Word(fn(&[String]) -> Option<String>),
    /// Wraps a line; `simple`: only around a simple command.
    Wrap {
        f: fn(&str) -> String,
        simple: bool,
        keeps_simple: bool,
    },
}

pub struct Layer {
    pub name: &'static str,
    pub class: u8,
    pub kind: Kind,
}

pub fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn b64(s: &str) -> String {
    const T: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b = s.as_bytes();
    let mut out = String::new();
    for chunk in b.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &x)| acc | (x as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The random names of the unknown wrappers of class 11, drawn once.
static UNKNOWN: OnceLock<Vec<String>> = OnceLock::new();

/// How many unknown wrapper names are drawn (half of them multicall-like,
/// ending in `box`).
const UNKNOWN_NAMES: usize = 8;

/// Draw the unknown wrappers' names from `seed` (the first call wins) and
/// say what the sandbox must put on its PATH, one `KIND NAME [PROGRAM]` a
/// line: `unknown` names run their arguments (after options, or a `--run`
/// or `-c` string), `gnu` names run the GNU tool they name, `coreutils`
/// runs `--coreutils-prog=NAME` or its first operand.
pub fn wrappers(seed: u64) -> Vec<String> {
    let names = UNKNOWN.get_or_init(|| draw_names(seed));
    let mut out: Vec<String> = names.iter().map(|n| format!("unknown {n}")).collect();
    for multicall in ["busybox", "toybox"] {
        out.push(format!("unknown {multicall}"));
    }
    out.push("coreutils coreutils".to_owned());
    for tool in GNU_CORES {
        out.push(format!("gnu g{tool} {tool}"));
    }
    out
}

fn draw_names(seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed ^ 0x31);
    let mut names: Vec<String> = Vec::new();
    while names.len() < UNKNOWN_NAMES {
        let len = 4 + rng.below(5);
        let mut name: String = (0..len)
            .map(|_| (b'a' + rng.below(26) as u8) as char)
            .collect();
        if names.len() % 2 == 1 {
            name.push_str("box");
        }
        let taken = std::process::Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !taken && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// An unknown wrapper's name for a line: which one depends on the line,
/// so that every name is used and a line always gets the same.
fn unknown_name(line: &str, salt: u64) -> String {
    let names = UNKNOWN.get_or_init(|| draw_names(19));
    let hash = line.bytes().fold(0xcbf2_9ce4_8422_2325_u64 ^ salt, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    names[(hash % names.len() as u64) as usize].clone()
}

/// Core programs that Homebrew also installs with a `g` in front.
const GNU_CORES: &[&str] = &["rm", "cat", "head", "tail", "cp", "grep"];

/// Where the program lives (the judge binds its stand-in there).
fn path_of(prog: &str) -> String {
    std::process::Command::new("bash")
        .args(["-c", &format!("command -v {prog}")])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|p| p.starts_with('/'))
        .unwrap_or_else(|| format!("/usr/bin/{prog}"))
}

fn join(w: &[String]) -> String {
    w.join(" ")
}

fn rest(w: &[String]) -> String {
    join(&w[1..])
}

fn git_sub(w: &[String]) -> Option<(String, String, String)> {
    // (subcommand, its options, the rest) for a git core
    if w[0] != "git" {
        return None;
    }
    let opts: Vec<String> = w[2..]
        .iter()
        .filter(|a| a.starts_with('-'))
        .cloned()
        .collect();
    let others: Vec<String> = w[2..]
        .iter()
        .filter(|a| !a.starts_with('-'))
        .cloned()
        .collect();
    Some((w[1].clone(), opts.join(" "), others.join(" ")))
}

fn abbreviate(a: &str) -> Option<&'static str> {
    Some(match a {
        "--hard" => "--ha",
        "--force-with-lease" => "--force-w",
        "--recursive" => "--rec",
        "--force" => "--forc",
        _ => return None,
    })
}

pub fn layers() -> Vec<Layer> {
    use Kind::*;
    macro_rules! wrap {
        ($name:expr, $class:expr, $simple:expr, $keeps:expr, $f:expr) => {
            Layer {
                name: $name,
                class: $class,
                kind: Wrap {
                    f: $f,
                    simple: $simple,
                    keeps_simple: $keeps,
                },
            }
        };
    }
    macro_rules! word {
        ($name:expr, $class:expr, $f:expr) => {
            Layer {
                name: $name,
                class: $class,
                kind: Word($f),
            }
        };
    }
    vec![
        // 0: the shell language the engine reads.
        word!("quote-program", 0, |w| Some(format!(
            "'{}' {}",
            w[0],
            rest(w)
        ))),
        word!("dquote-program", 0, |w| Some(format!(
            "\"{}\" {}",
            w[0],
            rest(w)
        ))),
        word!("backslash-program", 0, |w| Some(format!(
            "\\{} {}",
            w[0],
            rest(w)
        ))),
        word!("split-quotes-program", 0, |w| {
            let (a, b) = w[0].split_at(1);
            Some(format!("{a}\"{b}\" {}", rest(w)))
        }),
        word!("quote-args", 0, |w| {
            Some(format!(
                "{} {}",
                w[0],
                w[1..].iter().map(|a| sq(a)).collect::<Vec<_>>().join(" ")
            ))
        }),
        word!("absolute-program", 0, |w| Some(format!(
            "{} {}",
            path_of(&w[0]),
            rest(w)
        ))),
        word!("extra-spaces", 0, |w| Some(w.join("  "))),
        word!("tab-separated", 0, |w| Some(w.join("\t"))),
        wrap!("and", 0, false, false, |c| format!("probe && {c}")),
        wrap!("or", 0, false, false, |c| format!("probe || {c}")),
        wrap!("sequence", 0, false, false, |c| format!("true; {c}")),
        wrap!("newline", 0, false, false, |c| format!("true\n{c}")),
        wrap!("cd", 0, false, false, |c| format!(
            "cd docs && cd .. && {c}"
        )),
        wrap!("subshell", 0, false, false, |c| format!("({c})")),
        wrap!("group", 0, false, false, |c| format!("{{ {c}; }}")),
        wrap!("if", 0, false, false, |c| format!("if probe; then {c}; fi")),
        wrap!("else", 0, false, false, |c| format!(
            "if probe; then :; else {c}; fi"
        )),
        wrap!("for", 0, false, false, |c| format!(
            "for i in 1; do {c}; done"
        )),
        wrap!("while", 0, false, false, |c| format!(
            "while true; do {c}; break; done"
        )),
        wrap!("case", 0, false, false, |c| format!(
            "case x in x) {c};; esac"
        )),
        wrap!("function", 0, false, false, |c| format!(
            "f() {{ {c}; }}; f"
        )),
        wrap!("pipe-into", 0, false, false, |c| format!("echo hi | {c}")),
        wrap!("pipe-from", 0, false, false, |c| format!("{c} | wc -l")),
        wrap!("background", 0, false, false, |c| format!("{c} & wait")),
        wrap!("negate", 0, false, false, |c| format!("! {c}")),
        wrap!("redirect-after", 0, false, false, |c| format!(
            "{c} >/dev/null 2>&1"
        )),
        wrap!("redirect-before", 0, true, false, |c| format!(
            ">/dev/null {c}"
        )),
        wrap!("assignment", 0, true, false, |c| format!("A=1 {c}")),
        wrap!("command-substitution", 0, false, false, |c| format!(
            "echo \"$({c})\""
        )),
        wrap!("backticks", 0, true, false, |c| format!("echo `{c}`")),
        wrap!("heredoc", 0, true, false, |c| format!(
            "{c} <<'EOF'\nhello\nEOF"
        )),
        wrap!("env", 0, true, true, |c| format!("env A=1 {c}")),
        wrap!("command", 0, true, true, |c| format!("command {c}")),
        wrap!("exec", 0, true, false, |c| format!("(exec {c})")),
        wrap!("sudo", 0, true, true, |c| format!("sudo {c}")),
        wrap!("nice", 0, true, true, |c| format!("nice {c}")),
        wrap!("nohup", 0, true, true, |c| format!("nohup {c}")),
        wrap!("timeout", 0, true, true, |c| format!("timeout 5 {c}")),
        wrap!("time", 0, true, false, |c| format!("time {c}")),
        wrap!("bash-c", 0, false, false, |c| format!("bash -c {}", sq(c))),
        wrap!("sh-c", 0, false, false, |c| format!("sh -c {}", sq(c))),
        wrap!("eval", 0, false, false, |c| format!("eval {}", sq(c))),
        wrap!("xargs", 0, true, false, |c| format!("echo | xargs {c}")),
        wrap!("stdbuf", 0, true, true, |c| format!("stdbuf -o0 {c}")),
        // 1: text the shell evaluates.
        wrap!("trap", 1, false, false, |c| format!("trap {} EXIT", sq(c))),
        wrap!("test-v-subscript", 1, false, false, |c| format!(
            "test -v {}",
            sq(&format!("a[$({c})]"))
        )),
        wrap!("let-subscript", 1, false, false, |c| format!(
            "let {}",
            sq(&format!("x=a[$({c})]"))
        )),
        wrap!("double-bracket-subscript", 1, false, false, |c| format!(
            "[[ 1 -eq {} ]]",
            sq(&format!("a[$({c})]"))
        )),
        wrap!("arithmetic", 1, false, false, |c| format!(
            "echo $(( $({c}) + 1 ))"
        )),
        wrap!("printf-v", 1, false, false, |c| format!(
            "printf -v {} x",
            sq(&format!("a[$({c})]"))
        )),
        wrap!("bash-env", 1, false, false, |c| format!(
            "BASH_ENV={} bash -c true",
            sq(&format!("$({c})"))
        )),
        wrap!("ps4", 1, false, false, |c| format!(
            "PS4={} bash -xc true",
            sq(&format!("$({c})"))
        )),
        wrap!("compgen-c", 1, false, false, |c| format!(
            "compgen -C {} x",
            sq(c)
        )),
        wrap!("mapfile-c", 1, false, false, |c| format!(
            "mapfile -C {} -c 1 <<< x",
            sq(c)
        )),
        // 2: syntax that hides the program.
        wrap!("fd-variable", 2, true, false, |c| format!(
            "{{fd}}>/dev/null {c}"
        )),
        wrap!("array-assignment", 2, true, false, |c| format!(
            "a[0]=x {c}"
        )),
        word!("fd-variable-after-program", 2, |w| Some(format!(
            "{} {{fd}}>/dev/null {}",
            w[0],
            rest(w)
        ))),
        // 3: the program renamed in the line.
        word!("hash-p", 3, |w| Some(format!(
            "hash -p {} r; r {}",
            path_of(&w[0]),
            rest(w)
        ))),
        word!("hash-p-after-other-options", 3, |w| Some(format!(
            "hash -rp {} r; r {}",
            path_of(&w[0]),
            rest(w)
        ))),
        word!("alias", 3, |w| Some(format!(
            "shopt -s expand_aliases 2>/dev/null; alias r={}\nr {}",
            w[0],
            rest(w)
        ))),
        word!("symlink", 3, |w| Some(format!(
            "ln -s {} ./del && ./del {}",
            path_of(&w[0]),
            rest(w)
        ))),
        word!("wrapper-function", 3, |w| Some(format!(
            "r() {{ {} \"$@\"; }}; r {}",
            w[0],
            rest(w)
        ))),
        // 4: globs in the program or an option.
        word!("glob-program", 4, |w| {
            let p = path_of(&w[0]);
            let (a, b) = p.split_at(p.len() - 1);
            Some(format!("{a}[{b}] {}", rest(w)))
        }),
        word!("glob-option", 4, |w| {
            let i = w.iter().position(|a| a.starts_with("--") && a.len() > 4)?;
            let mut v = w.to_vec();
            let o = v[i].clone();
            v[i] = format!("{}?", &o[..o.len() - 1]);
            Some(format!("touch ./{o} && {}", join(&v)))
        }),
        // 5: wrappers and programs that run a command or code.
        wrap!("flock", 5, true, true, |c| format!("flock .lock {c}")),
        wrap!("setsid", 5, true, true, |c| format!("setsid -w {c}")),
        wrap!("chroot", 5, true, false, |c| format!("chroot / {c}")),
        wrap!("script", 5, false, false, |c| format!(
            "script -qc {} /dev/null",
            sq(c)
        )),
        wrap!("xargs-sh", 5, false, false, |c| format!(
            "echo x | xargs -I{{}} sh -c {}",
            sq(c)
        )),
        wrap!("env-s", 5, true, false, |c| format!("env -S {}", sq(c))),
        wrap!("python", 5, false, false, |c| format!(
            "python3 -c {}",
            sq(&format!("import os; os.system({})", json(c)))
        )),
        wrap!("perl", 5, false, false, |c| format!(
            "perl -e {}",
            sq(&format!("system(q{{{c}}})"))
        )),
        wrap!("node", 5, false, false, |c| format!(
            "node -e {}",
            sq(&format!("require('child_process').execSync({})", json(c)))
        )),
        wrap!("awk", 5, false, false, |c| format!(
            "awk {}",
            sq(&format!("BEGIN{{system({})}}", json(c)))
        )),
        wrap!("sed-e", 5, false, false, |c| format!(
            "echo x | sed {}",
            sq(&format!("1e {c}"))
        )),
        wrap!("find-exec", 5, true, false, |c| format!(
            "find . -maxdepth 0 -exec {c} \\;"
        )),
        wrap!("find-exec-sh", 5, false, false, |c| format!(
            "find . -maxdepth 0 -exec sh -c {} \\;",
            sq(c)
        )),
        wrap!("git-rebase-x", 5, false, false, |c| format!(
            "git rebase -x {} HEAD~1",
            sq(c)
        )),
        wrap!("tar-checkpoint", 5, false, false, |c| {
            format!(
                "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec={} README.md",
                sq(c)
            )
        }),
        // 6: scripts on stdin or in variables.
        wrap!("pipe-to-sh", 6, false, false, |c| format!(
            "echo {} | sh",
            sq(c)
        )),
        wrap!("here-string-bash", 6, false, false, |c| format!(
            "bash <<< {}",
            sq(c)
        )),
        wrap!("base64-sh", 6, false, false, |c| format!(
            "echo {} | base64 -d | sh",
            b64(c)
        )),
        word!("option-in-variable", 6, |w| {
            let i = w.iter().position(|a| a.starts_with('-'))?;
            let mut v = w.to_vec();
            let o = std::mem::replace(&mut v[i], "$F".into());
            Some(format!("F={o}; {}", join(&v)))
        }),
        word!("program-in-variable", 6, |w| Some(format!(
            "P={}; $P {}",
            w[0],
            rest(w)
        ))),
        // 7: git deciding for itself; option abbreviations.
        word!("git-autocorrect", 7, |w| {
            let (sub, opts, others) = git_sub(w)?;
            let typo = match sub.as_str() {
                "push" => "psuh",
                "reset" => "rseet",
                _ => return None,
            };
            Some(format!(
                "git -c help.autocorrect=immediate {typo} {opts} {others}"
            ))
        }),
        word!("git-alias-c", 7, |w| {
            let (sub, opts, others) = git_sub(w)?;
            Some(format!(
                "git -c alias.x={} x {others}",
                sq(&format!("{sub} {opts}"))
            ))
        }),
        word!("git-alias-config", 7, |w| {
            let (sub, opts, others) = git_sub(w)?;
            Some(format!(
                "git config alias.x {} && git x {others}",
                sq(&format!("{sub} {opts}"))
            ))
        }),
        word!("git-alias-environment", 7, |w| {
            let (sub, opts, others) = git_sub(w)?;
            Some(format!(
                "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0={} git x {others}",
                sq(&format!("{sub} {opts}"))
            ))
        }),
        // bash's keyword option: a `NAME=VALUE` argument anywhere is the
        // program's environment, here git's settings.
        word!("git-alias-keyword", 7, |w| {
            let (sub, opts, others) = git_sub(w)?;
            let setting = format!("'alias.x={sub} {opts}'");
            Some(format!(
                "set -k; git x {others} GIT_CONFIG_PARAMETERS={}",
                sq(&setting)
            ))
        }),
        word!("git-push-refspec", 7, |w| {
            let (sub, opts, _) = git_sub(w)?;
            (sub == "push" && !opts.is_empty()).then(|| {
                "git -c remote.origin.push=+refs/heads/main:refs/heads/main push origin".to_string()
            })
        }),
        word!("git-push-mirror", 7, |w| {
            let (sub, opts, _) = git_sub(w)?;
            (sub == "push" && !opts.is_empty())
                .then(|| "git -c remote.origin.mirror=true push origin".to_string())
        }),
        word!("abbreviated-option", 7, |w| {
            let i = w.iter().position(|a| abbreviate(a).is_some())?;
            let mut v = w.to_vec();
            v[i] = abbreviate(&v[i]).unwrap().to_string();
            Some(join(&v))
        }),
        // 8: zsh.
        word!("zsh-equals", 8, |w| Some(format!("={} {}", w[0], rest(w)))),
        wrap!("zsh-noglob", 8, true, true, |c| format!("noglob {c}")),
        wrap!("zsh-nocorrect", 8, true, true, |c| format!("nocorrect {c}")),
        wrap!("zsh-repeat", 8, false, false, |c| format!("repeat 1 {c}")),
        wrap!("zsh-emulate", 8, false, false, |c| format!(
            "emulate sh -c {}",
            sq(c)
        )),
        // 11: programs hookc does not know, and programs under other names.
        wrap!("unknown-argv", 11, true, true, |c| format!(
            "{} {c}",
            unknown_name(c, 0)
        )),
        wrap!("unknown-options", 11, true, true, |c| format!(
            "{} -q --level 3 {c}",
            unknown_name(c, 1)
        )),
        wrap!("unknown-double-dash", 11, true, true, |c| format!(
            "{} -- {c}",
            unknown_name(c, 2)
        )),
        wrap!("unknown-run-string", 11, false, false, |c| format!(
            "{} --run {}",
            unknown_name(c, 3),
            sq(c)
        )),
        wrap!("unknown-run-attached", 11, false, false, |c| format!(
            "{} --run={}",
            unknown_name(c, 4),
            sq(c)
        )),
        wrap!("unknown-c-string", 11, false, false, |c| format!(
            "{} -q -c {}",
            unknown_name(c, 5),
            sq(c)
        )),
        wrap!("multicall", 11, true, true, |c| format!("busybox {c}")),
        wrap!("multicall-toybox", 11, true, true, |c| format!(
            "toybox {c}"
        )),
        word!("coreutils-prog", 11, |w| Some(format!(
            "coreutils --coreutils-prog={} {}",
            w[0],
            rest(w)
        ))),
        word!("coreutils-operand", 11, |w| Some(format!(
            "coreutils {}",
            join(w)
        ))),
        word!("gnu-name", 11, |w| GNU_CORES
            .contains(&w[0].as_str())
            .then(|| format!("g{} {}", w[0], rest(w)))),
        wrap!("env-s-separators", 11, true, false, |c| format!(
            "env -S {}",
            sq(&c.replace(' ', "\\_"))
        )),
        // 10: options before the subcommand, dashed git commands.
        word!("git-global-options", 10, |w| {
            (w[0] == "git")
                .then(|| format!("git -C . --no-pager -c core.quotepath=off {}", rest(w)))
        }),
        word!("git-dir-option", 10, |w| (w[0] == "git").then(|| format!(
            "git --git-dir=.git --work-tree=. {}",
            rest(w)
        ))),
        word!("git-dashed", 10, |w| {
            (w[0] == "git").then(|| format!("$(git --exec-path)/git-{} {}", w[1], join(&w[2..])))
        }),
        word!("git-dashed-absolute", 10, |w| {
            let exec = std::process::Command::new("git")
                .arg("--exec-path")
                .output()
                .ok()?;
            let exec = String::from_utf8_lossy(&exec.stdout).trim().to_string();
            (w[0] == "git").then(|| format!("{exec}/git-{} {}", w[1], join(&w[2..])))
        }),
    ]
}

/// One generated line and how it was made.
#[derive(Debug, Clone)]
pub struct Case {
    pub line: String,
    pub core: usize,
    /// Indices into `layers()`, innermost first.
    pub layers: Vec<usize>,
}

impl Case {
    pub fn classes(&self, all: &[Layer]) -> BTreeSet<u8> {
        self.layers.iter().map(|&i| all[i].class).collect()
    }
    pub fn describe(&self, all: &[Layer]) -> String {
        let names: Vec<&str> = self.layers.iter().map(|&i| all[i].name).collect();
        format!(
            "core {:?} through [{}]",
            CORES[self.core].words.join(" "),
            names.join(", ")
        )
    }
}

/// Builds the line for a core and layers; None when a layer does not apply.
pub fn build(all: &[Layer], core: usize, layers: &[usize]) -> Option<String> {
    let words: Vec<String> = CORES[core].words.iter().map(|s| s.to_string()).collect();
    let mut line = words.join(" ");
    let mut simple = true;
    for (n, &i) in layers.iter().enumerate() {
        match &all[i].kind {
            Kind::Word(f) => {
                if n != 0 {
                    return None;
                }
                line = f(&words)?;
                simple = !line.contains(';') && !line.contains("&&") && !line.contains('\n');
            }
            Kind::Wrap {
                f,
                simple: needs,
                keeps_simple,
            } => {
                if *needs && !simple {
                    return None;
                }
                line = f(&line);
                simple = simple && *keeps_simple;
            }
        }
    }
    Some(line)
}

/// `count` lines from `seed`, using only the layers `allowed` accepts.
pub fn generate(
    seed: u64,
    count: usize,
    allowed: &dyn Fn(&Layer) -> bool,
    allowed_core: &dyn Fn(&Core) -> bool,
) -> Vec<Case> {
    let cores: Vec<usize> = (0..CORES.len())
        .filter(|&i| allowed_core(&CORES[i]))
        .collect();
    let all = layers();
    let words: Vec<usize> = (0..all.len())
        .filter(|&i| matches!(all[i].kind, Kind::Word(_)) && allowed(&all[i]))
        .collect();
    let wraps: Vec<usize> = (0..all.len())
        .filter(|&i| matches!(all[i].kind, Kind::Wrap { .. }) && allowed(&all[i]))
        .collect();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 50 {
        tries += 1;
        let core = cores[rng.below(cores.len())];
        let mut chosen = Vec::new();
        if !words.is_empty() && rng.below(3) == 0 {
            chosen.push(words[rng.below(words.len())]);
        }
        for _ in 0..rng.below(4) {
            if !wraps.is_empty() {
                chosen.push(wraps[rng.below(wraps.len())]);
            }
        }
        if let Some(line) = build(&all, core, &chosen) {
            out.push(Case {
                line,
                core,
                layers: chosen,
            });
        }
    }
    out
}

/// Lines one step smaller: one layer fewer.
pub fn smaller(all: &[Layer], case: &Case) -> Vec<Case> {
    (0..case.layers.len())
        .filter_map(|skip| {
            let layers: Vec<usize> = case
                .layers
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, &l)| l)
                .collect();
            build(all, case.core, &layers).map(|line| Case {
                line,
                core: case.core,
                layers,
            })
        })
        .collect()
}

/// Every layer alone on every core (and every core bare).
pub fn singles(all: &[Layer]) -> Vec<Case> {
    let mut out = Vec::new();
    for core in 0..CORES.len() {
        if let Some(line) = build(all, core, &[]) {
            out.push(Case {
                line,
                core,
                layers: vec![],
            });
        }
        for l in 0..all.len() {
            if let Some(line) = build(all, core, &[l]) {
                out.push(Case {
                    line,
                    core,
                    layers: vec![l],
                });
            }
        }
    }
    out
}
