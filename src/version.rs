//! Which hookc a project needs: the policy's `hookc-version` requirement, the
//! release line recorded in `.hookc/policy.json`, and how the repository
//! installs hookc, so that a refusal can say what to run.
//!
//! A requirement is written as cargo writes one: `"0.2"` or `"^0.2"` means
//! 0.2.0 or later within 0.2 (for 1.0 and later: within the same major
//! version), `"~1.4"` within 1.4, `">=0.2.3"` that or later, `"=0.2.3"`
//! exactly that.

use std::cmp::Ordering;
use std::fmt;
use std::path::Path;

/// A release, `major.minor.patch`; pre-release suffixes are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
}

impl Version {
    /// This hookc.
    pub fn current() -> Version {
        Version::parse(env!("CARGO_PKG_VERSION")).expect("the crate version is a version")
    }

    /// `1.2.3`, `1.2` or `1`; missing parts are 0.
    pub fn parse(text: &str) -> Option<Version> {
        let core = text.trim().split(['-', '+']).next()?;
        let mut parts = core.split('.');
        let mut next = || -> Option<Option<u64>> {
            match parts.next() {
                None => Some(None),
                Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
                    p.parse().ok().map(Some)
                }
                Some(_) => None,
            }
        };
        let major = next()??;
        let minor = next()?;
        let patch = next()?;
        if parts.next().is_some() {
            return None;
        }
        Some(Version {
            major,
            minor: minor.unwrap_or(0),
            patch: patch.unwrap_or(0),
        })
    }

    /// The release line whose policies this hookc reads in full:
    /// `major.minor`. A hookc of an older line may not know what a newer one
    /// wrote, and refuses instead of guessing.
    pub fn line(self) -> String {
        format!("{}.{}", self.major, self.minor)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// A `hookc-version` requirement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    op: Op,
    version: Version,
    /// How many parts were written (`0.2` has two), for `^` and `~`.
    parts: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Caret,
    Tilde,
    AtLeast,
    Exact,
}

impl Requirement {
    pub fn parse(text: &str) -> Result<Requirement, String> {
        let text = text.trim();
        let (op, rest) = if let Some(r) = text.strip_prefix(">=") {
            (Op::AtLeast, r)
        } else if let Some(r) = text.strip_prefix('=') {
            (Op::Exact, r)
        } else if let Some(r) = text.strip_prefix('~') {
            (Op::Tilde, r)
        } else if let Some(r) = text.strip_prefix('^') {
            (Op::Caret, r)
        } else {
            (Op::Caret, text)
        };
        let rest = rest.trim();
        let version =
            Version::parse(rest).ok_or_else(|| format!("`{text}` is not a version requirement"))?;
        Ok(Requirement {
            op,
            version,
            parts: rest.split('.').count(),
        })
    }

    pub fn matches(&self, v: Version) -> bool {
        let min = self.version;
        if v < min {
            return false;
        }
        match self.op {
            Op::AtLeast => true,
            Op::Exact => v == min,
            Op::Tilde if self.parts >= 2 => (v.major, v.minor) == (min.major, min.minor),
            Op::Tilde => v.major == min.major,
            Op::Caret => match (min.major, min.minor) {
                (0, 0) if self.parts >= 3 => v == min,
                (0, _) if self.parts >= 2 => v.major == 0 && v.minor == min.minor,
                (major, _) => v.major == major,
            },
        }
    }
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.op {
            Op::Caret => "^",
            Op::Tilde => "~",
            Op::AtLeast => ">=",
            Op::Exact => "=",
        };
        write!(f, "{op}{}", self.version)
    }
}

/// Whether a hookc of `line` (`0.2`) is older than the `line` a policy was
/// built by.
pub fn older_line(this: Version, built_by: &str) -> bool {
    match Version::parse(built_by) {
        Some(b) => (this.major, this.minor).cmp(&(b.major, b.minor)) == Ordering::Less,
        // A line this hookc cannot even read is not one it knows.
        None => !built_by.is_empty(),
    }
}

/// The command that installs (or upgrades to) the hookc a project needs, for
/// the way the repository itself installs it: a JavaScript project that lists
/// hookc in `package.json` pins it in its lockfile (`npm install`), a Python
/// one in `pyproject.toml` (`uv sync` with a `uv.lock`), anything else gets it
/// from crates.io.
pub fn install_command(root: &Path, requirement: Option<&Requirement>) -> String {
    let mentions = |file: &str| {
        crate::disk::read_text(&root.join(file))
            .ok()
            .flatten()
            .is_some_and(|text| text.contains("hookc"))
    };
    let pin = requirement.map(|r| r.to_string());
    if mentions("package.json") {
        return "npm install".to_owned();
    }
    if mentions("pyproject.toml") {
        if root.join("uv.lock").is_file() {
            return "uv sync".to_owned();
        }
        return match &pin {
            Some(pin) => format!("pip install 'hookc{}'", python_pin(pin)),
            None => "pip install hookc".to_owned(),
        };
    }
    match pin {
        Some(pin) => format!("cargo install hookc --locked --version '{pin}'"),
        None => "cargo install hookc --locked".to_owned(),
    }
}

/// A cargo requirement in pip's words (`^0.2.0` → `>=0.2.0,<0.3`).
fn python_pin(cargo: &str) -> String {
    let Ok(r) = Requirement::parse(cargo) else {
        return String::new();
    };
    let v = r.version;
    match r.op {
        Op::AtLeast => format!(">={v}"),
        Op::Exact => format!("=={v}"),
        Op::Tilde => format!(">={v},<{}.{}", v.major, v.minor + 1),
        Op::Caret if v.major == 0 => format!(">={v},<0.{}", v.minor + 1),
        Op::Caret => format!(">={v},<{}", v.major + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn requirements_read_like_cargo() {
        let cases = [
            ("0.2", "0.2.0", true),
            ("0.2", "0.2.9", true),
            ("0.2", "0.3.0", false),
            ("0.2", "0.1.9", false),
            ("^1.4", "1.9.0", true),
            ("^1.4", "2.0.0", false),
            ("1", "1.0.0", true),
            ("~1.4", "1.5.0", false),
            ("~1.4", "1.4.7", true),
            (">=0.1.3", "7.0.0", true),
            (">=0.1.3", "0.1.2", false),
            ("=0.2.3", "0.2.4", false),
            ("0.0.3", "0.0.4", false),
        ];
        for (req, version, want) in cases {
            let r = Requirement::parse(req).unwrap();
            assert_eq!(r.matches(v(version)), want, "{req} vs {version}");
        }
        for bad in ["", "x", "0.2.x", "1..2", ">=", "0.1.2.3"] {
            assert!(Requirement::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_older_line_is_told_apart() {
        assert!(older_line(v("0.1.9"), "0.2"));
        assert!(!older_line(v("0.2.0"), "0.2"));
        assert!(!older_line(v("0.3.0"), "0.2"));
        assert!(older_line(v("0.1.0"), "garbage"));
        assert!(!older_line(v("0.1.0"), ""));
    }

    #[test]
    fn install_commands_follow_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let r = Requirement::parse("0.2").unwrap();
        assert_eq!(
            install_command(dir.path(), Some(&r)),
            "cargo install hookc --locked --version '^0.2.0'"
        );
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[dependency-groups]\ndev = [\"hookc>=0.2\"]\n",
        )
        .unwrap();
        assert_eq!(
            install_command(dir.path(), Some(&r)),
            "pip install 'hookc>=0.2.0,<0.3'"
        );
        std::fs::write(dir.path().join("uv.lock"), "").unwrap();
        assert_eq!(install_command(dir.path(), Some(&r)), "uv sync");
        std::fs::write(
            dir.path().join("package.json"),
            "{\"devDependencies\": {\"hookc\": \"^0.2.0\"}}",
        )
        .unwrap();
        assert_eq!(install_command(dir.path(), None), "npm install");
    }
}
