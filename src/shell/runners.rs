//! JavaScript package managers and the package runners they ship: what
//! `npm`, `npx`, `pnpm`, `pnpx`, `yarn`, `bun` and `bunx` run.
//!
//! A preset that refuses `prisma migrate reset` must refuse it however a
//! JavaScript project starts the CLI: `npx prisma@5 migrate reset`, `bun x
//! prisma …`, `pnpm exec prisma …`, `yarn prisma …`, or a `package.json`
//! script that runs it (`npm run db:reset`). Read as programs hookc does
//! not know, these lines are presumed to run their arguments, which both
//! misses the scripts and refuses `pnpm rm lodash` as if it ran `rm`. So
//! each manager's own commands are listed here, as data, with the
//! `package.json` lifecycle scripts they run, and every other form says
//! what it runs:
//!
//! - a package's program ([`Runs::Package`]: `npx`, `npm exec`, `pnpm
//!   dlx`, `bun x`), its version dropped (`prisma@5` runs `prisma`);
//! - a shell line ([`Runs::Line`]: `npx -c`, `pnpm exec -c`, `yarn exec`);
//! - a `package.json` script, or a program of the package's dependencies
//!   when it has no script of that name ([`Runs::Script`]: `npm run X`,
//!   `pnpm X`, `yarn X`, `bun run X`). The normaliser reads the script
//!   where the line runs.
//!
//! This module reads words only; the normaliser reads the files.

/// What a manager's command line runs, by the index of a word of its
/// arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    /// The words from here on are a command whose program is a package
    /// (see [`program_of`]).
    Package(usize),
    /// The words from here on, joined, are a shell line.
    Line(usize),
    /// The word here names a script of `package.json` (with its `pre` and
    /// `post` scripts), to which the words after it are appended; without
    /// such a script, a program of the package's dependencies.
    Script(usize),
    /// The script of this name (`npm t` runs `test`), with the words from
    /// the index on appended.
    Named(&'static str, usize),
    /// The value after `=` of the word here is a shell line (`npm exec
    /// --call=CMD`).
    Call(usize),
    /// The manager's own command, which runs these lifecycle scripts of
    /// the package (when it has them).
    Own(&'static [&'static str]),
    /// `bun` running code: read as the interpreter it is.
    Code,
}

/// Where the scripts run come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The package whose folder the line runs in, or the nearest above.
    Here,
    /// The package in this folder (`npm --prefix DIR`, `pnpm -C DIR`,
    /// `yarn --cwd DIR`), relative to where the line runs.
    Folder(String),
    /// Packages of a workspace, chosen by an option (`pnpm -r`,
    /// `--filter`, `npm -w`, `yarn workspace NAME`): the option as written.
    Others(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub runs: Runs,
    pub place: Place,
}

/// Scripts an install runs in the package itself.
const INSTALL: &[&str] = INSTALL_TEST.split_at(7).0;
const PACK: &[&str] = &["prepack", "prepare", "postpack"];
const PUBLISH: &[&str] = &[
    "prepublishOnly",
    "prepack",
    "prepare",
    "postpack",
    "publish",
    "postpublish",
];
const VERSION: &[&str] = &["preversion", "version", "postversion"];
/// Those of `npm install-test`: an install's, then the tests'.
const INSTALL_TEST: &[&str] = &[
    "preinstall",
    "install",
    "postinstall",
    "prepublish",
    "preprepare",
    "prepare",
    "postprepare",
    "pretest",
    "test",
    "posttest",
];
const RESTART: &[&str] = &[
    "prerestart",
    "restart",
    "postrestart",
    "prestop",
    "stop",
    "poststop",
    "prestart",
    "start",
    "poststart",
];

/// One manager: its names, the options before its command that take a
/// value, and its own commands.
struct Manager {
    names: &'static [&'static str],
    /// Options (before the command) that take the next word as value.
    valued: &'static [&'static str],
    /// Options that choose the folder of the package (`--prefix DIR`).
    folder: &'static [&'static str],
    /// Options that choose other packages of a workspace; a `=` after the
    /// name is allowed.
    others: &'static [&'static str],
    /// Commands that run a package's program.
    package: &'static [&'static str],
    /// Commands that run a shell line.
    line: &'static [&'static str],
    /// Commands that run a script (`run`, `run-script`).
    script: &'static [&'static str],
    /// Commands that run a script of their own name (`npm t` runs `test`).
    named: &'static [(&'static str, &'static str)],
    /// Its own commands and the lifecycle scripts each runs; any other
    /// word is read as a script or a program.
    own: &'static [(&'static str, &'static [&'static str])],
    /// Whether it parses its options as npm does: anywhere before a `--`
    /// (`npm run reset --prefix web` runs web's `reset`), and long ones
    /// abbreviated (`--prefi web`).
    npm_options: bool,
}

const NPM: Manager = Manager {
    names: &["npm"],
    valued: &[
        "--prefix",
        "-C",
        "-w",
        "--workspace",
        "--registry",
        "--cache",
        "--userconfig",
        "--globalconfig",
        "--loglevel",
        "--script-shell",
        "--node-options",
        "--omit",
        "--include",
        "--tag",
        "--otp",
    ],
    folder: &["--prefix", "-C"],
    others: &["-w", "--workspace", "-ws", "--workspaces"],
    package: &["exec", "x"],
    line: &["explore"],
    script: &["run", "run-script", "rum", "urn"],
    named: &[
        ("test", "test"),
        ("t", "test"),
        ("tst", "test"),
        ("start", "start"),
        ("stop", "stop"),
    ],
    own: &[
        ("install", INSTALL),
        ("i", INSTALL),
        ("in", INSTALL),
        ("ins", INSTALL),
        ("inst", INSTALL),
        ("insta", INSTALL),
        ("instal", INSTALL),
        ("isnt", INSTALL),
        ("isnta", INSTALL),
        ("isntal", INSTALL),
        ("isntall", INSTALL),
        ("add", INSTALL),
        ("ci", INSTALL),
        ("clean-install", INSTALL),
        ("ic", INSTALL),
        ("install-clean", INSTALL),
        ("isntall-clean", INSTALL),
        ("rebuild", INSTALL),
        ("rb", INSTALL),
        ("link", INSTALL),
        ("ln", INSTALL),
        ("install-test", INSTALL_TEST),
        ("it", INSTALL_TEST),
        ("install-ci-test", INSTALL_TEST),
        ("cit", INSTALL_TEST),
        ("restart", RESTART),
        ("pack", PACK),
        ("publish", PUBLISH),
        ("version", VERSION),
        ("uninstall", &[]),
        ("unlink", &[]),
        ("remove", &[]),
        ("rm", &[]),
        ("r", &[]),
        ("un", &[]),
        ("update", INSTALL),
        ("up", INSTALL),
        ("upgrade", INSTALL),
        ("udpate", INSTALL),
        ("dedupe", &[]),
        ("ddp", &[]),
        ("prune", &[]),
        ("outdated", &[]),
        ("ls", &[]),
        ("list", &[]),
        ("la", &[]),
        ("ll", &[]),
        ("view", &[]),
        ("v", &[]),
        ("info", &[]),
        ("show", &[]),
        ("search", &[]),
        ("find", &[]),
        ("s", &[]),
        ("se", &[]),
        ("audit", &[]),
        ("fund", &[]),
        ("config", &[]),
        ("c", &[]),
        ("get", &[]),
        ("set", &[]),
        ("pkg", &[]),
        ("login", &[]),
        ("logout", &[]),
        ("adduser", &[]),
        ("whoami", &[]),
        ("owner", &[]),
        ("access", &[]),
        ("dist-tag", &[]),
        ("deprecate", &[]),
        ("unpublish", &[]),
        ("cache", &[]),
        ("doctor", &[]),
        ("ping", &[]),
        ("prefix", &[]),
        ("root", &[]),
        ("bin", &[]),
        ("help", &[]),
        ("help-search", &[]),
        ("explain", &[]),
        ("why", &[]),
        ("query", &[]),
        ("shrinkwrap", &[]),
        ("star", &[]),
        ("unstar", &[]),
        ("stars", &[]),
        ("token", &[]),
        ("team", &[]),
        ("org", &[]),
        ("profile", &[]),
        ("docs", &[]),
        ("home", &[]),
        ("bugs", &[]),
        ("repo", &[]),
        ("sbom", &[]),
        ("diff", &[]),
        ("completion", &[]),
    ],
    npm_options: true,
};

const NPX: Manager = Manager {
    names: &["npx"],
    valued: &["-p", "--package", "--registry", "--cache", "--userconfig"],
    folder: &["--prefix"],
    others: &["-w", "--workspace", "-ws", "--workspaces"],
    package: &[],
    line: &[],
    script: &[],
    named: &[],
    own: &[],
    npm_options: true,
};

const PNPM: Manager = Manager {
    names: &["pnpm"],
    valued: &[
        "-C",
        "--dir",
        "--filter",
        "-F",
        "--filter-prod",
        "--reporter",
        "--loglevel",
        "--store-dir",
        "--config-dir",
    ],
    folder: &["-C", "--dir"],
    others: &[
        "-r",
        "--recursive",
        "--filter",
        "-F",
        "--filter-prod",
        "-w",
        "--workspace-root",
    ],
    package: &["exec", "dlx", "create"],
    line: &[],
    script: &["run", "run-script"],
    named: &[
        ("test", "test"),
        ("t", "test"),
        ("tst", "test"),
        ("start", "start"),
    ],
    own: &[
        ("install", INSTALL),
        ("i", INSTALL),
        ("add", INSTALL),
        ("update", INSTALL),
        ("up", INSTALL),
        ("upgrade", INSTALL),
        ("rebuild", INSTALL),
        ("rb", INSTALL),
        ("link", INSTALL),
        ("ln", INSTALL),
        ("import", INSTALL),
        ("install-test", INSTALL_TEST),
        ("it", INSTALL_TEST),
        ("restart", RESTART),
        ("pack", PACK),
        ("publish", PUBLISH),
        ("version", VERSION),
        ("remove", &[]),
        ("rm", &[]),
        ("uninstall", &[]),
        ("un", &[]),
        ("unlink", &[]),
        ("prune", &[]),
        ("fetch", &[]),
        ("dedupe", &[]),
        ("patch", &[]),
        ("patch-commit", &[]),
        ("patch-remove", &[]),
        ("audit", &[]),
        ("list", &[]),
        ("ls", &[]),
        ("ll", &[]),
        ("la", &[]),
        ("outdated", &[]),
        ("why", &[]),
        ("licenses", &[]),
        ("root", &[]),
        ("bin", &[]),
        ("store", &[]),
        ("config", &[]),
        ("c", &[]),
        ("get", &[]),
        ("set", &[]),
        ("env", &[]),
        ("init", &[]),
        ("deploy", INSTALL),
        ("doctor", &[]),
        ("setup", &[]),
        ("self-update", &[]),
        ("server", &[]),
        ("cat-file", &[]),
        ("cat-index", &[]),
        ("find-hash", &[]),
        ("ignored-builds", &[]),
        ("approve-builds", INSTALL),
        ("help", &[]),
    ],
    npm_options: false,
};

const PNPX: Manager = Manager {
    names: &["pnpx"],
    valued: &["--package"],
    npm_options: false,
    ..NPX
};

const YARN: Manager = Manager {
    names: &["yarn"],
    valued: &["--cwd", "--modules-folder", "--cache-folder", "--mutex"],
    folder: &["--cwd"],
    others: &["workspace", "workspaces"],
    package: &["dlx", "create"],
    line: &["exec"],
    script: &["run"],
    named: &[("test", "test"), ("start", "start")],
    own: &[
        ("install", INSTALL),
        ("add", INSTALL),
        ("up", INSTALL),
        ("upgrade", INSTALL),
        ("upgrade-interactive", INSTALL),
        ("rebuild", INSTALL),
        ("link", INSTALL),
        ("import", INSTALL),
        ("pack", PACK),
        ("publish", PUBLISH),
        ("version", VERSION),
        ("remove", &[]),
        ("unlink", &[]),
        ("dedupe", &[]),
        ("info", &[]),
        ("why", &[]),
        ("list", &[]),
        ("outdated", &[]),
        ("config", &[]),
        ("cache", &[]),
        ("init", &[]),
        ("npm", &[]),
        ("plugin", &[]),
        ("set", &[]),
        ("constraints", &[]),
        ("patch", &[]),
        ("patch-commit", &[]),
        ("explain", &[]),
        ("bin", &[]),
        ("unplug", &[]),
        ("audit", &[]),
        ("autoclean", &[]),
        ("check", &[]),
        ("licenses", &[]),
        ("login", &[]),
        ("logout", &[]),
        ("owner", &[]),
        ("tag", &[]),
        ("team", &[]),
        ("generate-lock-entry", &[]),
        ("versions", &[]),
        ("help", &[]),
    ],
    npm_options: false,
};

const BUN: Manager = Manager {
    names: &["bun"],
    valued: &["--cwd", "--config", "-c", "--env-file", "--preload", "-r"],
    folder: &["--cwd"],
    others: &["--filter", "-F", "--workspaces"],
    package: &["x", "create", "c"],
    line: &["exec"],
    script: &["run"],
    named: &[],
    own: &[
        ("install", INSTALL),
        ("i", INSTALL),
        ("add", INSTALL),
        ("a", INSTALL),
        ("update", INSTALL),
        ("link", INSTALL),
        ("publish", PUBLISH),
        ("remove", &[]),
        ("rm", &[]),
        ("unlink", &[]),
        ("outdated", &[]),
        ("pm", &[]),
        ("patch", &[]),
        ("patch-commit", &[]),
        ("audit", &[]),
        ("info", &[]),
        ("why", &[]),
        ("init", &[]),
        ("upgrade", &[]),
        ("build", &[]),
        ("help", &[]),
    ],
    npm_options: false,
};

const BUNX: Manager = Manager {
    names: &["bunx"],
    valued: &["-p", "--package"],
    npm_options: false,
    ..NPX
};

const MANAGERS: &[Manager] = &[NPM, NPX, PNPM, PNPX, YARN, BUN, BUNX];

fn manager(program: &str) -> Option<&'static Manager> {
    MANAGERS.iter().find(|m| m.names.contains(&program))
}

/// Whether the option `word` of a manager names the program that runs the
/// package's scripts, or a settings file that may name it: npm's
/// `--script-shell`, `--userconfig` and `--globalconfig`, which npm takes
/// abbreviated too (`--userc ./u`), pnpm's `--config.script-shell=…` and
/// `--config-dir`, and yarn's `--use-yarnrc`.
pub fn names_script_shell(word: &str) -> bool {
    let Some(option) = word.strip_prefix("--") else {
        return false;
    };
    let key = option.split('=').next().unwrap_or_default();
    let key = key.strip_prefix("config.").unwrap_or(key).replace('_', "-");
    // `--global` is an option of its own, not `--globalconfig` abbreviated.
    matches!(key.as_str(), "use-yarnrc" | "config-dir")
        || key.len() >= 3
            && key != "global"
            && ["script-shell", "userconfig", "globalconfig"]
                .iter()
                .any(|full| full.starts_with(key.as_str()))
}

/// Whether `program` is one of the managers read here.
pub fn is_runner(program: &str) -> bool {
    manager(program).is_some()
}

/// Whether the word `word` of `program` is an option whose value names the
/// folder or the packages it runs in (`-C DIR`, `--filter=web`).
pub fn chooses_the_package(program: &str, word: &str) -> bool {
    let name = word.split_once('=').map_or(word, |(n, _)| n);
    manager(program).is_some_and(|m| {
        (m.folder.contains(&name) || m.others.contains(&name))
            && (m.valued.contains(&name) || word.contains('='))
    })
}

/// Whether `program`'s command writes a `package.json` (`npm pkg set`,
/// `npm set-script`, `npm init`, `yarn create`, `bun pm`): a line that
/// writes the manifest and then runs one of its scripts runs what it wrote,
/// which no guard read.
pub fn writes_the_manifest(program: &str, words: &[&str]) -> bool {
    let Some(m) = manager(program) else {
        return false;
    };
    let (_, command) = own_options(m, words);
    words
        .get(command)
        .is_some_and(|c| matches!(*c, "pkg" | "set-script" | "init" | "create" | "pm"))
}

/// One of a manager's own options before its command: the word as
/// written, its name (`--prefix` of `--prefix=web`) and its value.
struct OwnOption<'w> {
    word: &'w str,
    name: &'w str,
    value: Option<&'w str>,
}

/// A manager's own options before its command, and where the command is.
fn own_options<'w>(m: &Manager, words: &[&'w str]) -> (Vec<OwnOption<'w>>, usize) {
    let mut options = Vec::new();
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        if w == "--" {
            i += 1;
            break;
        }
        if !w.starts_with('-') || w == "-" {
            break;
        }
        let option = own_option(m, words, i);
        i += if option.takes_next { 2 } else { 1 };
        options.push(option.option);
    }
    (options, i)
}

/// The option at `words[i]` of a manager, and whether its value is the
/// next word.
struct Parsed<'w> {
    option: OwnOption<'w>,
    takes_next: bool,
}

fn own_option<'w>(m: &Manager, words: &[&'w str], i: usize) -> Parsed<'w> {
    let w = words[i];
    let name = full_name(m, w.split_once('=').map_or(w, |(n, _)| n));
    let takes_next = m.valued.contains(&name) && !w.contains('=');
    let value = if takes_next {
        words.get(i + 1).copied()
    } else {
        w.split_once('=').map(|(_, v)| v)
    };
    Parsed {
        option: OwnOption {
            word: w,
            name,
            value,
        },
        takes_next,
    }
}

/// An option's name as the manager reads it: npm takes a long option
/// abbreviated (`--prefi web` is `--prefix web`), so an abbreviation of an
/// option read here is that option (one that could be several stops npm
/// with an error: reading it as one of them is safe).
fn full_name<'w>(m: &Manager, name: &'w str) -> &'w str {
    if !m.npm_options || !name.starts_with("--") || name.len() < 5 {
        return name;
    }
    let read = m.valued.iter().chain(m.folder).chain(m.others);
    let mut found = None;
    for full in read {
        if *full == name {
            return name;
        }
        if found.is_none() && full.starts_with(name) {
            found = Some(*full);
        }
    }
    found.unwrap_or(name)
}

/// The manager's options after its command, and the index of the first
/// word that is neither one of them nor an option's value: up to a `--`
/// for npm, which reads them wherever they stand; up to that first
/// operand for the others (`pnpm run --dir web reset` runs web's `reset`;
/// after the script's name, words are the script's).
fn later_options<'w>(m: &Manager, words: &[&'w str], from: usize) -> (Vec<OwnOption<'w>>, usize) {
    let mut options = Vec::new();
    let mut operand = None;
    let mut i = from;
    while let Some(&w) = words.get(i) {
        if w == "--" {
            break;
        }
        if !w.starts_with('-') || w == "-" {
            operand.get_or_insert(i);
            if !m.npm_options {
                break;
            }
            i += 1;
            continue;
        }
        let option = own_option(m, words, i);
        i += if option.takes_next { 2 } else { 1 };
        options.push(option.option);
    }
    (options, operand.unwrap_or(i))
}

/// What `program`'s arguments run, when it is a manager.
pub fn read(program: &str, words: &[&str]) -> Option<Reading> {
    let m = manager(program)?;
    // The runners: the package and its words follow their options.
    if m.own.is_empty() {
        return Some(Reading {
            runs: package_runs(m, words, 0),
            place: Place::Here,
        });
    }
    let mut place = Place::Here;
    // The manager's own options before its command, and after it.
    let (mut options, i) = own_options(m, words);
    let (later, operand) = later_options(m, words, i + 1);
    options.extend(later);
    for o in options {
        if m.folder.contains(&o.name) {
            place = match o.value {
                Some(v) => Place::Folder(v.to_owned()),
                None => Place::Others(o.word.to_owned()),
            };
        } else if m.others.contains(&o.name) {
            place = Place::Others(o.word.to_owned());
        }
        if matches!(program, "bun") && matches!(o.name, "-e" | "--eval" | "-p" | "--print") {
            return Some(Reading {
                runs: Runs::Code,
                place,
            });
        }
    }
    let Some(&command) = words.get(i) else {
        return Some(Reading {
            runs: Runs::Own(&[]),
            place,
        });
    };
    // `yarn workspace NAME CMD…`, `yarn workspaces foreach [OPTIONS]
    // CMD…`: a yarn command, in other packages.
    if program == "yarn" && matches!(command, "workspace" | "workspaces") {
        let from = if command == "workspace" {
            i + 2
        } else {
            foreach_command(words, i + 1)
        };
        let inner = read(program, &words[from.min(words.len())..])?;
        return Some(Reading {
            runs: inner.runs.shifted(from),
            place: Place::Others(command.to_owned()),
        });
    }
    let runs = if m.package.contains(&command) {
        package_runs(m, words, i + 1)
    } else if m.line.contains(&command) {
        Runs::Line(after_dashdash(words, i + 1))
    } else if m.script.contains(&command) {
        Runs::Script(operand)
    } else if let Some((_, script)) = m.named.iter().find(|(name, _)| *name == command) {
        Runs::Named(script, i + 1)
    } else if let Some((_, scripts)) = m.own.iter().find(|(name, _)| *name == command) {
        Runs::Own(scripts)
    } else if program == "bun" && looks_like_a_file(command) {
        Runs::Code
    } else {
        Runs::Script(i)
    };
    Some(Reading { runs, place })
}

impl Runs {
    /// The same reading of words that sit `n` further on.
    fn shifted(self, n: usize) -> Runs {
        match self {
            Runs::Package(k) => Runs::Package(k + n),
            Runs::Line(k) => Runs::Line(k + n),
            Runs::Script(k) => Runs::Script(k + n),
            Runs::Named(name, k) => Runs::Named(name, k + n),
            Runs::Call(k) => Runs::Call(k + n),
            own @ (Runs::Own(_) | Runs::Code) => own,
        }
    }
}

/// Where the command of `yarn workspaces foreach [OPTIONS] CMD` starts.
fn foreach_command(words: &[&str], from: usize) -> usize {
    let mut i = from;
    if words.get(i) == Some(&"foreach") {
        i += 1;
    }
    while let Some(&w) = words.get(i) {
        if !w.starts_with('-') {
            break;
        }
        let valued = matches!(w, "--include" | "--exclude" | "--from" | "-j" | "--jobs");
        i += if valued { 2 } else { 1 };
    }
    i
}

/// `npx [OPTIONS] PACKAGE …`, `npm exec [OPTIONS] [--] PACKAGE …`: the
/// package after the runner's options, or the shell line of `-c`.
fn package_runs(m: &Manager, words: &[&str], from: usize) -> Runs {
    let mut i = from;
    while let Some(&w) = words.get(i) {
        if w == "--" {
            return Runs::Package(i + 1);
        }
        if !w.starts_with('-') || w == "-" {
            break;
        }
        let name = w.split_once('=').map_or(w, |(n, _)| n);
        // `npx -c 'CMD'`, `npm exec --call=CMD`, `pnpm exec -c CMD …`.
        // (pnpm's `-c` is a flag that joins the words after it: the same
        // words.)
        if matches!(name, "-c" | "--call" | "--shell-mode") {
            return if w.contains('=') {
                Runs::Call(i)
            } else {
                Runs::Line(i + 1)
            };
        }
        let valued =
            (m.valued.contains(&name) || matches!(name, "-p" | "--package")) && !w.contains('=');
        i += if valued { 2 } else { 1 };
    }
    Runs::Package(i.min(words.len()))
}

/// The index after a `--` at `from`, or `from`.
fn after_dashdash(words: &[&str], from: usize) -> usize {
    if words.get(from) == Some(&"--") {
        from + 1
    } else {
        from
    }
}

/// `bun ./x.ts`, `bun server.js`: a file bun runs as code.
fn looks_like_a_file(word: &str) -> bool {
    word.contains('/')
        || [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx"]
            .iter()
            .any(|ext| word.ends_with(ext))
}

/// Packages whose program has another name than the package: `npx
/// aws-cdk destroy` runs `cdk destroy`. The CLIs the presets name are all
/// here; a package not listed runs the program of its own name, which
/// hookc then reads as any program.
const PROGRAMS: &[(&str, &str)] = &[
    ("aws-cdk", "cdk"),
    ("cdktf-cli", "cdktf"),
    ("typescript", "tsc"),
    ("@angular/cli", "ng"),
    ("@nestjs/cli", "nest"),
    ("@vue/cli", "vue"),
    ("firebase-tools", "firebase"),
    ("netlify-cli", "netlify"),
    ("@railway/cli", "railway"),
    ("@aws-amplify/cli", "amplify"),
    ("@prisma/cli", "prisma"),
    ("@pulumi/pulumi", "pulumi"),
    ("@mikro-orm/cli", "mikro-orm"),
    ("kysely-ctl", "kysely"),
    ("@salesforce/cli", "sf"),
    ("@shopify/cli", "shopify"),
];

/// The program a package spec runs: `prisma@5` runs `prisma`, `aws-cdk@2`
/// runs `cdk` ([`PROGRAMS`]), `@scope/tool@1.2` a program of the package
/// `@scope/tool`, read as `tool`. A spec that is a path or URL is returned
/// as written.
pub fn program_of(spec: &str) -> &str {
    let (scoped, name) = match spec.strip_prefix('@') {
        Some(rest) => match rest.split_once('/') {
            Some((_, name)) => (true, name),
            None => return spec,
        },
        None => (false, spec),
    };
    if name.contains(['/', ':']) {
        return spec;
    }
    let bare = name.split_once('@').map_or(name, |(n, _)| n);
    if scoped && bare.is_empty() {
        return spec;
    }
    let package = &spec[..spec.len() - (name.len() - bare.len())];
    PROGRAMS
        .iter()
        .find(|(p, _)| *p == package)
        .map_or(bare, |(_, program)| program)
}

/// The scripts of a `package.json`, by name, or `None` when the text is not
/// a JSON object (the manager refuses it too, but hookc cannot say what it
/// would have run).
pub fn scripts(text: &str) -> Option<Vec<(String, String)>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let object = value.as_object()?;
    let Some(scripts) = object.get("scripts") else {
        return Some(Vec::new());
    };
    let scripts = scripts.as_object()?;
    scripts
        .iter()
        .map(|(name, body)| Some((name.clone(), body.as_str()?.to_owned())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(line: &str) -> Reading {
        let words: Vec<&str> = line.split_whitespace().collect();
        read(words[0], &words[1..]).expect("a manager")
    }

    #[test]
    fn runners_run_the_package_after_their_options() {
        assert_eq!(runs("npx prisma migrate reset").runs, Runs::Package(0));
        assert_eq!(runs("npx -y prisma migrate reset").runs, Runs::Package(1));
        assert_eq!(
            runs("npx -p prisma prisma migrate reset").runs,
            Runs::Package(2)
        );
        assert_eq!(runs("npm exec -- prisma migrate").runs, Runs::Package(2));
        assert_eq!(runs("npm x prisma migrate").runs, Runs::Package(1));
        assert_eq!(runs("pnpm dlx prisma migrate").runs, Runs::Package(1));
        assert_eq!(runs("bun x prisma migrate").runs, Runs::Package(1));
        assert_eq!(runs("bunx --bun prisma migrate").runs, Runs::Package(1));
        assert_eq!(runs("yarn dlx -p x prisma migrate").runs, Runs::Package(3));
        assert_eq!(runs("npx -c ls").runs, Runs::Line(1));
        assert_eq!(runs("pnpm exec -c ls").runs, Runs::Line(2));
        assert_eq!(runs("yarn exec ls").runs, Runs::Line(1));
    }

    #[test]
    fn own_commands_are_data_with_their_lifecycle_scripts() {
        assert_eq!(runs("pnpm rm lodash").runs, Runs::Own(&[]));
        assert_eq!(runs("yarn remove rm").runs, Runs::Own(&[]));
        assert_eq!(runs("npm install").runs, Runs::Own(INSTALL));
        assert_eq!(runs("bun add zod").runs, Runs::Own(INSTALL));
        assert_eq!(runs("npm --loglevel silent ci").runs, Runs::Own(INSTALL));
    }

    #[test]
    fn any_other_word_is_a_script_or_a_program() {
        assert_eq!(runs("npm run --silent reset").runs, Runs::Script(2));
        assert_eq!(runs("npm t -- --watch").runs, Runs::Named("test", 1));
        assert_eq!(runs("npm exec --call=ls").runs, Runs::Call(1));
        assert_eq!(runs("pnpm prisma migrate").runs, Runs::Script(0));
        assert_eq!(runs("yarn prisma migrate").runs, Runs::Script(0));
        assert_eq!(runs("bun run prisma").runs, Runs::Script(1));
        assert_eq!(runs("bun ./seed.ts").runs, Runs::Code);
        assert_eq!(runs("bun -e 1").runs, Runs::Code);
    }

    #[test]
    fn options_choose_the_package() {
        assert_eq!(runs("pnpm -C web build").place, Place::Folder("web".into()));
        assert_eq!(
            runs("npm --prefix=web run build").place,
            Place::Folder("web".into())
        );
        assert_eq!(runs("pnpm -r build").place, Place::Others("-r".into()));
        assert_eq!(
            runs("pnpm --filter web build").place,
            Place::Others("--filter".into())
        );
        let workspace = runs("yarn workspace web build");
        assert_eq!(workspace.place, Place::Others("workspace".into()));
        assert_eq!(workspace.runs, Runs::Script(2));
        let foreach = runs("yarn workspaces foreach -A --from web run build");
        assert_eq!(foreach.place, Place::Others("workspaces".into()));
        assert_eq!(foreach.runs, Runs::Script(6));
        assert_eq!(runs("yarn workspace web add zod").runs, Runs::Own(INSTALL));
        assert_eq!(runs("npm run build").place, Place::Here);
    }

    /// npm reads its options wherever they stand before a `--`, and long
    /// ones abbreviated (checked with npm 11: `npm run reset --prefi web`
    /// runs web's `reset`).
    #[test]
    fn a_managers_options_count_where_it_reads_them() {
        let web = || Place::Folder("web".into());
        for line in [
            "npm run reset --prefix web",
            "npm run reset --prefix=web",
            "npm run reset -C web",
            "npm --prefi web run reset",
            "npm run reset --prefi=web",
        ] {
            assert_eq!(runs(line).place, web(), "{line}");
        }
        let later = runs("npm run --prefix web reset");
        assert_eq!((later.place, later.runs), (web(), Runs::Script(3)));
        assert_eq!(
            runs("npm test --workspa=web").place,
            Place::Others("--workspa=web".into())
        );
        // The script's own words after a `--`; pnpm passes on the words
        // after the script's name, and reads those before it (checked with
        // pnpm 10).
        assert_eq!(runs("npm run reset -- --prefix web").place, Place::Here);
        assert_eq!(runs("pnpm run reset --dir web").place, Place::Here);
        let before = runs("pnpm run --dir web reset");
        assert_eq!((before.place, before.runs), (web(), Runs::Script(3)));
        let filtered = runs("pnpm run --filter web reset");
        assert_eq!(filtered.place, Place::Others("--filter".into()));
        assert_eq!(filtered.runs, Runs::Script(3));
        // An option npm does not know is a flag.
        assert_eq!(runs("npm run --foo reset wipe").runs, Runs::Script(2));
    }

    #[test]
    fn a_package_spec_runs_its_program() {
        assert_eq!(program_of("prisma@5"), "prisma");
        assert_eq!(program_of("prisma"), "prisma");
        assert_eq!(program_of("@prisma/cli@5.1"), "prisma");
        assert_eq!(program_of("@acme/tool@1"), "tool");
        assert_eq!(program_of("aws-cdk@2"), "cdk");
        assert_eq!(program_of("typescript"), "tsc");
        assert_eq!(program_of("github:user/repo"), "github:user/repo");
        assert_eq!(program_of("./bin/x"), "./bin/x");
    }

    #[test]
    fn scripts_are_read_from_json() {
        let s = scripts(r#"{"scripts":{"reset":"prisma migrate reset"}}"#).unwrap();
        assert_eq!(s, [("reset".into(), "prisma migrate reset".into())]);
        assert_eq!(scripts("{}"), Some(vec![]));
        assert_eq!(scripts("not json"), None);
        assert_eq!(scripts(r#"{"scripts":{"x":1}}"#), None);
    }

    /// What the analysis of `line` (run in `dir`) sees run, as `program
    /// arg…` lines, and whether it is opaque.
    fn seen(line: &str, dir: Option<&std::path::Path>) -> (Vec<String>, bool) {
        let a = crate::shell::analyze_in(line, dir, false);
        let commands = a
            .commands
            .iter()
            .map(|c| {
                format!("{} {}", c.program, c.args.join(" "))
                    .trim()
                    .to_owned()
            })
            .collect();
        (commands, a.is_opaque())
    }

    fn runs_command(line: &str, dir: Option<&std::path::Path>, command: &str) -> bool {
        let (commands, _) = seen(line, dir);
        commands.iter().any(|c| c == command)
    }

    #[test]
    fn every_runner_form_runs_the_package_program() {
        for line in [
            "npx prisma migrate reset",
            "npx -y prisma@5 migrate reset",
            "npx --package prisma prisma migrate reset",
            "bunx prisma migrate reset",
            "bun x prisma migrate reset",
            "bun run prisma migrate reset",
            "pnpm dlx prisma migrate reset",
            "pnpm exec prisma migrate reset",
            "pnpm prisma migrate reset",
            "pnpx prisma migrate reset",
            "yarn prisma migrate reset",
            "yarn dlx prisma migrate reset",
            "yarn run prisma migrate reset",
            "npm exec -- prisma migrate reset",
            "npm x prisma migrate reset",
            "npx -c 'prisma migrate reset'",
            "npm exec --call='prisma migrate reset'",
            "pnpm exec -c prisma migrate reset",
            "yarn exec prisma migrate reset",
            "sudo -u app npx prisma migrate reset",
        ] {
            assert!(
                runs_command(line, None, "prisma migrate reset"),
                "{line:?}: {:?}",
                seen(line, None)
            );
        }
        assert!(runs_command("npx aws-cdk@2 destroy", None, "cdk destroy"));
    }

    #[test]
    fn a_managers_own_commands_run_nothing_they_name() {
        for line in [
            "pnpm rm -rf lodash",
            "yarn remove rm",
            "npm uninstall rm",
            "bun remove rm",
        ] {
            let (commands, opaque) = seen(line, None);
            assert_eq!(commands.len(), 1, "{line:?}: {commands:?}");
            assert!(!opaque, "{line:?}");
        }
    }

    /// A project folder for the script tests, removed when dropped.
    struct Project(std::path::PathBuf);

    impl Project {
        fn new(name: &str) -> Project {
            let dir = std::env::temp_dir().join(format!("hookc-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Project(dir)
        }

        fn write(&self, name: &str, text: &str) -> &Project {
            let path = self.0.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
            self
        }
    }

    impl Drop for Project {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_package_json_script_is_read_where_the_line_runs() {
        let p = Project::new("scripts");
        p.write(
            "package.json",
            r#"{"workspaces": ["packages/*"], "scripts": {
                "reset": "prisma migrate reset", "prebuild": "rm -rf dist",
                "build": "pnpm -r build", "test": "vitest", "postinstall": "node fetch.js"}}"#,
        )
        .write(
            "packages/db/package.json",
            r#"{"scripts": {"wipe": "prisma migrate reset", "build": "tsc"}}"#,
        )
        .write("packages/db/src/x.ts", "");
        let at = Some(p.0.as_path());
        let sees = |line: &str, command: &str| {
            assert!(
                runs_command(line, at, command),
                "{line:?} should run {command:?}: {:?}",
                seen(line, at)
            );
        };
        sees("npm run reset -- --force", "prisma migrate reset --force");
        sees("pnpm reset", "prisma migrate reset");
        sees("yarn reset", "prisma migrate reset");
        sees("bun run reset", "prisma migrate reset");
        sees("npm run build", "rm -rf dist");
        sees("npm t", "vitest");
        sees("npm ci", "node fetch.js");
        // Scripts of the workspace's packages, from the root or within.
        sees("pnpm -r wipe", "prisma migrate reset");
        sees("pnpm --filter db wipe", "prisma migrate reset");
        sees("yarn workspace db wipe", "prisma migrate reset");
        sees("npm -w packages/db run wipe", "prisma migrate reset");
        sees("pnpm -C packages/db wipe", "prisma migrate reset");
        sees("cd packages/db && npm run wipe", "prisma migrate reset");
        sees("cd packages/db/src && npm run wipe", "prisma migrate reset");
        // A `cd` in `( … )` does not outlast it: both folders are read.
        sees("(cd packages/db) ; npm run reset", "prisma migrate reset");
        // The root's `build` runs `pnpm -r build`, which runs it again.
        sees("pnpm build", "tsc");
        // No such script: the manager runs a program of that name.
        sees("pnpm prisma migrate reset", "prisma migrate reset");
        let (_, opaque) = seen("npm run reset", at);
        assert!(!opaque);
        for line in [
            "cd \"$D\" && npm run wipe",
            "npm run \"$SCRIPT\"",
            "echo '{}' > package.json && npm run reset",
            "cp /tmp/x packages/db/package.json; pnpm -r wipe",
            "npm pkg set scripts.reset='git push -f' && npm run reset",
            "npm --prefix . set-script reset 'git push -f'; npm run reset",
        ] {
            assert!(
                seen(line, at).1,
                "{line:?} should be opaque: {:?}",
                seen(line, at)
            );
        }
        p.write("packages/bad/package.json", "{ not json");
        assert!(seen("pnpm -r wipe", at).1);
    }

    /// A settings file (written by an earlier call, say) or an option that
    /// names the program the scripts run with leaves them unread: what
    /// that program makes of `prisma migrate reset` is unknown.
    #[test]
    fn a_script_shell_of_the_settings_leaves_the_scripts_unread() {
        let p = Project::new("script-shell");
        p.write(
            "package.json",
            r#"{"scripts": {"reset": "prisma migrate reset"}}"#,
        )
        .write("web/package.json", r#"{"scripts": {"test": "vitest"}}"#);
        let at = Some(p.0.as_path());
        let opaque = |line: &str| seen(line, at).1;
        assert!(!opaque("npm run reset"));
        assert!(!opaque("cd web && npm test"));
        for line in [
            "npm --script-shell=./x.sh run reset",
            "npm run reset --script-shell ./x.sh",
            "npm_config_script_shell=./x.sh npm run reset",
            // Settings files that may name one, and npm's abbreviations.
            "npm --userconfig ./u run reset",
            "npm --userc ./u run reset",
            "npm --script-sh=./x.sh run reset",
            "npm --globalconfig=./u test",
            "NPM_CONFIG_USERCONFIG=./u npm run reset",
            "export npm_config_globalconfig=./u; npm run reset",
            "pnpm --config.script-shell=./x.sh run reset",
            "yarn --use-yarnrc ./u run reset",
            // Another user's settings.
            "sudo npm run reset",
            "sudo -u deploy yarn reset",
        ] {
            assert!(opaque(line), "{line}");
        }
        assert!(!opaque("npm --global run reset"));
        // `--` ends the manager's options: the words are the script's.
        assert!(!opaque("npm run reset -- --script-shell=x"));
        // The project's settings, in the package's folder or above it.
        p.write(".npmrc", "fund=false\nscript-shell = ./x.sh\n");
        assert!(opaque("npm run reset"));
        assert!(opaque("cd web && pnpm test"));
        p.write(".npmrc", "; script-shell=./x.sh\nfund=false\n");
        assert!(!opaque("npm run reset"));
        // Written by the line itself, before the script runs.
        p.write(".npmrc", "fund=false\n");
        for line in [
            "echo script-shell=./x.sh >> .npmrc && npm run reset",
            "cp /tmp/settings ~/.npmrc; npm run reset",
            "cd web && printf 'script-shell=x' > ../.npmrc && npm test",
            "cp -r /tmp/template/ web && cd web && npm test",
            "echo 'scriptShell: ./x.sh' > pnpm-workspace.yaml; pnpm run reset",
            "cp /tmp/rc ~/.config/pnpm/rc && pnpm test",
        ] {
            assert!(opaque(line), "{line}");
        }
        // pnpm's `scriptShell` in a `pnpm-workspace.yaml` of the package's
        // folder or one above it, however YAML spells it.
        p.write("pnpm-workspace.yaml", "packages: [web]\n");
        assert!(!opaque("cd web && pnpm test"));
        for yaml in [
            "scriptShell: ./x.sh\n",
            "{packages: [web], scriptShell: ./x.sh}\n",
            "\"script\\x53hell\": ./x.sh\n",
        ] {
            p.write("pnpm-workspace.yaml", yaml);
            assert!(opaque("cd web && pnpm test"), "{yaml}");
            assert!(!opaque("cd web && npm test"), "{yaml}");
        }
        assert!(!opaque("echo script-shell=x > notes.txt && npm run reset"));
        // yarn 1 reads `.yarnrc` too; npm does not.
        p.write("web/.yarnrc", "script-shell \"/bin/zsh\"\n");
        assert!(opaque("cd web && yarn test"));
        assert!(!opaque("cd web && npm test"));
    }

    #[test]
    fn without_a_place_a_script_is_read_as_a_program() {
        assert!(runs_command("npm run reset", None, "reset"));
        assert!(!seen("npm run reset", None).1);
    }
}
