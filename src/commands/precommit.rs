//! `hookc install-pre-commit`: a pre-commit hook running `hookc check` on what
//! is staged. A plain git hook, or, in a repository whose hooks husky or
//! lefthook manage, an entry in that manager's own file.

use std::path::{Path, PathBuf};

use crate::exit::ExitStatus;

use super::Ui;

const MARK: &str = "# hookc: check generated hooks are up to date";

/// What the hook does after the chained hook: export the index (what the
/// commit will hold, even under `git commit -a` or `git commit FILE`, which
/// point `GIT_INDEX_FILE` at a temporary index) into a temporary folder, and
/// check the staged policy against the staged generated files there. The
/// working tree and the real index are never touched, so unstaged edits
/// neither fail nor pass a commit.
const CHECK_STAGED: &str = r#"command -v hookc >/dev/null 2>&1 || { echo 'pre-commit: hookc not found on PATH' >&2; exit 1; }
staged=$(mktemp -d "${TMPDIR:-/tmp}/hookc-staged.XXXXXX") || { echo 'pre-commit: cannot make a temporary folder' >&2; exit 1; }
trap 'rm -rf "$staged"' EXIT
trap 'exit 1' HUP INT TERM
# --ignore-skip-worktree-bits (git 2.37+) exports files a sparse checkout leaves out too.
git checkout-index --all --ignore-skip-worktree-bits --prefix="$staged/" 2>/dev/null ||
    git checkout-index --all --force --prefix="$staged/" ||
    { echo 'pre-commit: cannot export the staged files' >&2; exit 1; }
if [ ! -f "$staged/policy.kdl" ]; then
    echo 'pre-commit: policy.kdl is not staged; stage it (git add policy.kdl), or remove this hook' >&2
    exit 1
fi
# In the exported copy, so that messages name policy.kdl and not the temporary folder.
(cd "$staged" && hookc check --policy policy.kdl --out .) && exit 0
echo 'pre-commit: the staged generated files do not match the staged policy.kdl; run `hookc build` and stage what it changed' >&2
exit 1
"#;

fn body(previous: Option<&str>) -> String {
    let chain = match previous {
        Some(p) => format!(
            "# The hook that was here before hookc, kept and run first:\n\"$(dirname \"$0\")/{p}\" \"$@\" || exit $?\n"
        ),
        None => String::new(),
    };
    format!("#!/bin/sh\n{MARK}\n{chain}{CHECK_STAGED}")
}

/// The chained hook's file name in a hook hookc wrote, if any.
fn chained(text: &str) -> Option<&str> {
    let start = text.find("\"$(dirname \"$0\")/")? + "\"$(dirname \"$0\")/".len();
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// Where git runs hooks for the repository `repo` is in: `.git/hooks` of
/// the repository or worktree, or `core.hooksPath`. Asked of git itself, so
/// that a subfolder, a worktree (whose `.git` is a file) and a custom hooks
/// folder all work.
fn hooks_dir(repo: &Path) -> Result<std::path::PathBuf, String> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--git-path", "hooks"])
        .current_dir(repo)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{} is not in a git repository ({})",
            repo.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let path = Path::new(text.trim_end_matches(['\n', '\r']));
    if path.as_os_str().is_empty() {
        return Err("git named no hooks folder".to_owned());
    }
    // Relative answers are relative to the folder git ran in.
    Ok(repo.join(path))
}

/// The top folder of the work tree `repo` is in, as git names it.
fn top_level(repo: &Path) -> Option<PathBuf> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(repo)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let top = text.trim_end_matches(['\n', '\r']);
    (out.status.success() && !top.is_empty()).then(|| PathBuf::from(top))
}

/// The hook managers whose own files hookc edits instead of git's hooks
/// folder, which they own.
#[derive(Debug, PartialEq, Eq)]
enum Manager {
    /// lefthook: its config file (`lefthook.yml` and the other names it
    /// reads), which its git hooks read on every commit.
    Lefthook(PathBuf),
    /// husky: `.husky/pre-commit`, the team's committed script, which
    /// husky's generated `.husky/_/pre-commit` runs. `.husky/_/` is
    /// rewritten by every `husky` run (each `npm install`), so nothing is
    /// written there.
    Husky { dir: PathBuf, legacy: bool },
}

/// lefthook's config files, in the order lefthook looks for them.
const LEFTHOOK_FILES: &[&str] = &[
    "lefthook.yml",
    ".lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yaml",
    ".config/lefthook.yml",
    ".config/lefthook.yaml",
];

/// Which hook manager the repository uses, from its files: a lefthook
/// config, else a `.husky` folder at the top (installed or not yet on this
/// clone). husky before version 9 points git at `.husky` itself and wants
/// each script to load `_/husky.sh`.
fn manager(top: &Path, hooks: &Path) -> Option<Manager> {
    if let Some(file) = LEFTHOOK_FILES
        .iter()
        .map(|f| top.join(f))
        .find(|f| f.is_file())
    {
        return Some(Manager::Lefthook(file));
    }
    let dir = top.join(".husky");
    if !dir.is_dir() {
        return None;
    }
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let legacy = same(hooks, &dir) || dir.join("_/husky.sh").is_file();
    Some(Manager::Husky { dir, legacy })
}

const END: &str = "# hookc: end";

/// The block appended to `.husky/pre-commit`: the staged check in a
/// subshell, so that its `exit` ends only the block, and whatever the
/// script runs after it still runs.
fn husky_block() -> String {
    format!("{MARK} (hookc install-pre-commit)\n(\n{CHECK_STAGED}) || exit 1\n{END}\n")
}

/// `.husky/pre-commit` with hookc's block: added at the end, or put in the
/// place of the block an earlier hookc wrote. The rest of the file is kept
/// byte for byte.
fn husky_text(existing: Option<&str>, legacy: bool) -> String {
    let block = husky_block();
    let Some(text) = existing else {
        let head = if legacy {
            "#!/usr/bin/env sh\n. \"$(dirname -- \"$0\")/_/husky.sh\"\n\n"
        } else {
            ""
        };
        return format!("{head}{block}");
    };
    if let Some(start) = text.find(MARK) {
        let start = text[..start].rfind('\n').map_or(0, |n| n + 1);
        if let Some(end) = text[start..].find(END) {
            let end = start + end + END.len();
            let end = if text[end..].starts_with('\n') {
                end + 1
            } else {
                end
            };
            return format!("{}{block}{}", &text[..start], &text[end..]);
        }
    }
    let sep = if text.is_empty() || text.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    format!("{text}{sep}{block}")
}

const LEFTHOOK_KEY: &str = "hookc-check";

/// hookc's command in lefthook's config, at `indent` spaces.
fn lefthook_entry(indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out =
        format!("{pad}{LEFTHOOK_KEY}: {MARK} (hookc install-pre-commit)\n{pad}  run: |\n");
    for line in CHECK_STAGED.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("{pad}    {line}\n"));
        }
    }
    out
}

/// The indentation of a YAML line, when it is made of spaces only; `None`
/// for a blank or comment line (which belong to no block).
fn indent(line: &str) -> Option<usize> {
    let body = line.trim_start_matches(' ');
    if body.is_empty() || body.starts_with('#') || body.trim().is_empty() {
        None
    } else {
        Some(line.len() - body.len())
    }
}

/// Whether `line` is the block mapping key `key:` alone (a comment after
/// it allowed), at any indentation.
fn is_key(line: &str, key: &str) -> bool {
    line.trim_start_matches(' ')
        .strip_prefix(key)
        .and_then(|r| r.strip_prefix(':'))
        .is_some_and(|r| {
            let r = r.trim();
            r.is_empty() || r.starts_with('#')
        })
}

/// The config with hookc's command under `pre-commit: commands:`, added
/// by inserting lines only: every line of the user's stays as it is. The
/// layouts read are block mappings indented with spaces; any other (flow
/// style, anchors on those keys, tabs) is an error that asks for the lines
/// to be added by hand. `Ok(None)`: hookc's command is there already.
fn lefthook_text(text: &str) -> Result<Option<String>, String> {
    if text.contains('\t') {
        return Err("it is indented with tabs".to_owned());
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let line_at = |k: usize| lines[k].trim_end_matches(['\n', '\r']);
    let top: Vec<usize> = (0..lines.len())
        .filter(|&k| indent(line_at(k)) == Some(0))
        .collect();
    let pre_commit: Vec<usize> = top
        .iter()
        .copied()
        .filter(|&k| line_at(k).starts_with("pre-commit:"))
        .collect();
    let joined = |head: &[&str], insert: &str, tail: &[&str]| {
        let mut out: String = head.concat();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(insert);
        out.push_str(&tail.concat());
        out
    };
    let odd = top.iter().copied().find(|&k| {
        let l = line_at(k);
        l.starts_with("<<") || (l.contains("pre-commit") && !l.starts_with("pre-commit:"))
    });
    if let Some(k) = odd {
        return Err(format!(
            "line {} may define `pre-commit` in a way hookc does not read",
            k + 1
        ));
    }
    match pre_commit[..] {
        [] => {
            let sep = if text.is_empty() { "" } else { "\n" };
            let insert = format!("{sep}pre-commit:\n  commands:\n{}", lefthook_entry(4));
            Ok(Some(joined(&lines, &insert, &[])))
        }
        [k] if is_key(line_at(k), "pre-commit") => {
            // The block of `pre-commit:`: up to the next line at the top level.
            let end = top.iter().copied().find(|&t| t > k).unwrap_or(lines.len());
            let children: Vec<(usize, usize)> = (k + 1..end)
                .filter_map(|j| indent(line_at(j)).map(|i| (j, i)))
                .collect();
            let step = children.first().map_or(2, |&(_, i)| i);
            let commands = children
                .iter()
                .find(|&&(j, i)| i == step && line_at(j).trim_start().starts_with("commands:"));
            match commands {
                None => {
                    let insert = format!(
                        "{}commands:\n{}",
                        " ".repeat(step),
                        lefthook_entry(step * 2)
                    );
                    Ok(Some(joined(&lines[..=k], &insert, &lines[k + 1..])))
                }
                Some(&(c, _)) if is_key(line_at(c), "commands") => {
                    let inner: Vec<(usize, usize)> = children
                        .iter()
                        .copied()
                        .filter(|&(j, _)| j > c)
                        .take_while(|&(_, i)| i > step)
                        .collect();
                    let at = inner.first().map_or(step * 2, |&(_, i)| i);
                    let ours = inner.iter().find(|&&(j, i)| {
                        i == at
                            && line_at(j)
                                .trim_start()
                                .starts_with(&format!("{LEFTHOOK_KEY}:"))
                    });
                    if let Some(&(j, _)) = ours {
                        if !line_at(j).contains(MARK) {
                            return Err(format!(
                                "it has a `{LEFTHOOK_KEY}` command of its own (line {})",
                                j + 1
                            ));
                        }
                        // hookc's own entry: its lines replaced by today's.
                        let stop = inner.iter().find(|&&(l, i)| l > j && i <= at).map_or_else(
                            || {
                                children
                                    .iter()
                                    .find(|&&(l, i)| l > j && i <= step)
                                    .map_or(end, |&(l, _)| l)
                            },
                            |&(l, _)| l,
                        );
                        let mut stop = stop;
                        // Blank lines before the next key belong to it.
                        while stop > j + 1 && line_at(stop - 1).trim().is_empty() {
                            stop -= 1;
                        }
                        let current: String = lines[j..stop].concat();
                        let entry = lefthook_entry(at);
                        if current == entry {
                            return Ok(None);
                        }
                        return Ok(Some(joined(&lines[..j], &entry, &lines[stop..])));
                    }
                    Ok(Some(joined(
                        &lines[..=c],
                        &lefthook_entry(at),
                        &lines[c + 1..],
                    )))
                }
                Some(&(c, _)) => Err(format!(
                    "its `commands:` (line {}) is not a block mapping hookc can add to",
                    c + 1
                )),
            }
        }
        [k] => Err(format!(
            "its `pre-commit:` (line {}) is not a block mapping hookc can add to",
            k + 1
        )),
        _ => Err("it has more than one `pre-commit:`".to_owned()),
    }
}

/// Write hookc's check into the hook manager's own file: what was done.
fn install_managed(manager: &Manager) -> Result<(PathBuf, &'static str), (PathBuf, String)> {
    match manager {
        Manager::Husky { dir, legacy } => {
            let hook = dir.join("pre-commit");
            let io = |e: std::io::Error| (hook.clone(), e.to_string());
            let existing = match std::fs::read_to_string(&hook) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(io(e)),
            };
            let text = husky_text(existing.as_deref(), *legacy);
            if existing.as_deref() == Some(text.as_str()) {
                return Ok((hook, "up to date (husky)"));
            }
            std::fs::write(&hook, &text).map_err(io)?;
            #[cfg(unix)]
            if existing.is_none() {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755))
                    .map_err(io)?;
            }
            Ok((
                hook,
                match existing {
                    None => "installed (husky)",
                    Some(t) if t.contains(MARK) => "updated (husky)",
                    Some(_) => "added to the existing hook (husky)",
                },
            ))
        }
        Manager::Lefthook(file) => {
            let io = |e: std::io::Error| (file.clone(), e.to_string());
            let text = std::fs::read_to_string(file).map_err(io)?;
            match lefthook_text(&text) {
                Ok(None) => Ok((file.clone(), "up to date (lefthook)")),
                Ok(Some(new)) => {
                    std::fs::write(file, new).map_err(io)?;
                    Ok((
                        file.clone(),
                        if text.contains(MARK) {
                            "updated (lefthook)"
                        } else {
                            "added a pre-commit command (lefthook)"
                        },
                    ))
                }
                Err(why) => Err((
                    file.clone(),
                    format!(
                        "hookc does not edit this file: {why}. Add these lines under `pre-commit:` yourself:\n\n  commands:\n{}",
                        lefthook_entry(4)
                    ),
                )),
            }
        }
    }
}

pub fn install(repo: &Path, ui: &Ui) -> ExitStatus {
    let hooks = match hooks_dir(repo) {
        Ok(h) => h,
        Err(e) => {
            eprintln!(
                "error: {e}; run `hookc install-pre-commit` inside the repository, or pass `--repo DIR`"
            );
            return ExitStatus::Error;
        }
    };
    if let Some(manager) = top_level(repo).and_then(|top| manager(&top, &hooks)) {
        return match install_managed(&manager) {
            Ok((file, what)) => {
                ui.say(&format!("{what}  {}", file.display()));
                ExitStatus::Success
            }
            Err((file, e)) => {
                eprintln!("error: cannot install into {}: {e}", file.display());
                ExitStatus::Error
            }
        };
    }
    let hook = hooks.join("pre-commit");
    let result = (|| -> std::io::Result<&'static str> {
        std::fs::create_dir_all(&hooks)?;
        let previous = match std::fs::read_to_string(&hook) {
            // A hook an earlier hookc wrote: brought up to date, its chain kept.
            Ok(text) if text.contains(MARK) => {
                let previous = chained(&text).map(str::to_owned);
                if text == body(previous.as_deref()) {
                    return Ok("up to date");
                }
                std::fs::write(&hook, body(previous.as_deref()))?;
                return Ok("updated");
            }
            Ok(_) => {
                let mut name = String::from("pre-commit.before-hookc");
                let mut n = 1;
                while hooks.join(&name).exists() {
                    n += 1;
                    name = format!("pre-commit.before-hookc.{n}");
                }
                std::fs::rename(&hook, hooks.join(&name))?;
                Some(name)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        std::fs::write(&hook, body(previous.as_deref()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755))?;
        }
        Ok(if previous.is_some() {
            "installed (existing hook chained)"
        } else {
            "installed"
        })
    })();
    match result {
        Ok(what) => {
            ui.say(&format!("{what}  {}", hook.display()));
            ExitStatus::Success
        }
        Err(e) => {
            eprintln!("error: cannot install {}: {e}", hook.display());
            ExitStatus::Error
        }
    }
}
