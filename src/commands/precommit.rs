//! `hookc install-pre-commit`: a plain git pre-commit hook running `hookc check`.

use std::path::Path;

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
