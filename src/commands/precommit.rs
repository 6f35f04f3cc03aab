//! `hookc install-pre-commit`: a plain git pre-commit hook running `hookc check`.

use std::path::Path;

use crate::exit::ExitStatus;

use super::Ui;

const MARK: &str = "# hookc: check generated hooks are up to date";

fn body(previous: Option<&str>) -> String {
    let chain = match previous {
        Some(p) => format!(
            "# The hook that was here before hookc, kept and run first:\n\"$(dirname \"$0\")/{p}\" \"$@\" || exit $?\n"
        ),
        None => String::new(),
    };
    format!(
        "#!/bin/sh\n{MARK}\n{chain}command -v hookc >/dev/null 2>&1 || {{ echo 'pre-commit: hookc not found on PATH' >&2; exit 1; }}\nexec hookc check\n"
    )
}

pub fn install(repo: &Path, ui: &Ui) -> ExitStatus {
    let hooks = repo.join(".git/hooks");
    if !repo.join(".git").is_dir() {
        eprintln!(
            "error: {} is not a git repository root (no .git folder)",
            repo.display()
        );
        return ExitStatus::Error;
    }
    let hook = hooks.join("pre-commit");
    let result = (|| -> std::io::Result<&'static str> {
        std::fs::create_dir_all(&hooks)?;
        let previous = match std::fs::read_to_string(&hook) {
            Ok(text) if text.contains(MARK) => return Ok("up to date"),
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
