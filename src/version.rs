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
/// the way the repository itself installs it. A JavaScript project whose
/// `package.json` depends on hookc gets its own package manager's install
/// (see [`js_install`]); a Python one whose `pyproject.toml` names hookc gets
/// its own tool's (see [`python_install`]). Anything else builds hookc from
/// source: from the project itself when it is hookc's own checkout, else from
/// the repository the package names (see [`from_source`]).
pub fn install_command(root: &Path, requirement: Option<&Requirement>) -> String {
    let read = |file: &str| crate::disk::read_text(&root.join(file)).ok().flatten();
    if read("Cargo.toml").is_some_and(|text| is_hookc_package(&text)) {
        return "cargo install --locked --path .".to_owned();
    }
    if let Some(manifest) = read("package.json").filter(|text| js_depends_on_hookc(text)) {
        return js_install(root, &manifest).to_owned();
    }
    if read("pyproject.toml").is_some_and(|text| python_depends_on_hookc(&text)) {
        if let Some(tool) = python_install(root) {
            return tool.to_owned();
        }
        return match requirement {
            Some(pin) => format!("pip install 'hookc{}'", python_pin(&pin.to_string())),
            None => "pip install hookc".to_owned(),
        };
    }
    from_source(env!("CARGO_PKG_REPOSITORY"))
}

/// How to build hookc from its source when the project does not install it
/// itself: no release is published yet, so from the repository the package
/// names, and without one from a checkout of that source.
pub fn from_source(repository: &str) -> String {
    if repository.is_empty() {
        "cargo install --locked --path <a checkout of hookc's source>".to_owned()
    } else {
        format!("cargo install --locked --git {repository}")
    }
}

/// Whether a `package.json` lists hookc among the packages it installs (a
/// script that runs `hookc` installs nothing).
fn js_depends_on_hookc(manifest: &str) -> bool {
    let Ok(serde_json::Value::Object(fields)) = serde_json::from_str(manifest) else {
        return false;
    };
    ["dependencies", "devDependencies", "optionalDependencies"]
        .iter()
        .filter_map(|group| fields.get(*group)?.as_object())
        .any(|deps| deps.contains_key("hookc"))
}

/// Whether a `pyproject.toml` lists hookc among the packages it installs:
/// in `[project]`'s dependencies or optional ones, a `[dependency-groups]`
/// group, uv's dev-dependencies or one of poetry's dependency tables.
fn python_depends_on_hookc(manifest: &str) -> bool {
    let Ok(doc) = manifest.parse::<toml_edit::DocumentMut>() else {
        return false;
    };
    let names_hookc = |spec: &str| {
        let name: String = spec
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect();
        name.eq_ignore_ascii_case("hookc")
    };
    let in_list = |item: Option<&toml_edit::Item>| {
        item.and_then(|i| i.as_array())
            .is_some_and(|list| list.iter().any(|v| v.as_str().is_some_and(&names_hookc)))
    };
    let in_lists = |item: Option<&toml_edit::Item>| {
        item.and_then(|i| i.as_table_like())
            .is_some_and(|groups| groups.iter().any(|(_, list)| in_list(Some(list))))
    };
    let in_keys = |item: Option<&toml_edit::Item>| {
        item.and_then(|i| i.as_table_like())
            .is_some_and(|deps| deps.iter().any(|(k, _)| names_hookc(k)))
    };
    let project = doc.get("project");
    let poetry = doc.get("tool").and_then(|t| t.get("poetry"));
    in_list(project.and_then(|p| p.get("dependencies")))
        || in_lists(project.and_then(|p| p.get("optional-dependencies")))
        || in_lists(doc.get("dependency-groups"))
        || in_list(
            doc.get("tool")
                .and_then(|t| t.get("uv"))
                .and_then(|u| u.get("dev-dependencies")),
        )
        || in_keys(poetry.and_then(|p| p.get("dependencies")))
        || in_keys(poetry.and_then(|p| p.get("dev-dependencies")))
        || poetry
            .and_then(|p| p.get("group"))
            .and_then(|g| g.as_table_like())
            .is_some_and(|groups| {
                groups
                    .iter()
                    .any(|(_, group)| in_keys(group.get("dependencies")))
            })
}

/// The install command of the package manager a JavaScript project uses: the
/// one its `packageManager` field names, else the one whose lockfile it
/// holds, else npm's.
pub fn js_install(root: &Path, manifest: &str) -> &'static str {
    const MANAGERS: [(&str, &str); 4] = [
        ("bun", "bun install"),
        ("pnpm", "pnpm install"),
        ("yarn", "yarn install"),
        ("npm", "npm install"),
    ];
    let declared = serde_json::from_str::<serde_json::Value>(manifest)
        .ok()
        .and_then(|v| v.get("packageManager")?.as_str().map(str::to_owned));
    if let Some(declared) = declared {
        let name = declared.split('@').next().unwrap_or_default().trim();
        if let Some((_, install)) = MANAGERS.iter().find(|(n, _)| *n == name) {
            return install;
        }
    }
    const LOCKS: [(&str, &str); 6] = [
        ("bun.lock", "bun install"),
        ("bun.lockb", "bun install"),
        ("pnpm-lock.yaml", "pnpm install"),
        ("yarn.lock", "yarn install"),
        ("package-lock.json", "npm install"),
        ("npm-shrinkwrap.json", "npm install"),
    ];
    LOCKS
        .iter()
        .find(|(lock, _)| root.join(lock).is_file())
        .map_or("npm install", |(_, install)| install)
}

/// The install command of the tool whose lockfile a Python project holds, or
/// `None` when it holds none (plain pip).
pub fn python_install(root: &Path) -> Option<&'static str> {
    const LOCKS: [(&str, &str); 4] = [
        ("uv.lock", "uv sync"),
        ("poetry.lock", "poetry install"),
        ("pdm.lock", "pdm install"),
        ("Pipfile.lock", "pipenv install"),
    ];
    LOCKS
        .iter()
        .find(|(lock, _)| root.join(lock).is_file())
        .map(|(_, install)| *install)
}

/// Whether a `Cargo.toml` is hookc's own package (the project is a checkout
/// of hookc's source).
fn is_hookc_package(manifest: &str) -> bool {
    manifest
        .parse::<toml_edit::DocumentMut>()
        .ok()
        .and_then(|doc| Some(doc.get("package")?.get("name")?.as_str()? == "hookc"))
        .unwrap_or(false)
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
        let write = |file: &str, text: &str| std::fs::write(dir.path().join(file), text).unwrap();
        let r = Requirement::parse("0.2").unwrap();
        assert_eq!(
            install_command(dir.path(), Some(&r)),
            "cargo install --locked --path <a checkout of hookc's source>"
        );
        // A project that only names hookc (its own name, a script) installs nothing.
        write("pyproject.toml", "[project]\nname = \"hookc-tools\"\n");
        write("package.json", r#"{"scripts": {"check": "hookc check"}}"#);
        assert!(install_command(dir.path(), None).starts_with("cargo install"));
        write(
            "pyproject.toml",
            "[dependency-groups]\ndev = [\"hookc>=0.2\"]\n",
        );
        assert_eq!(
            install_command(dir.path(), Some(&r)),
            "pip install 'hookc>=0.2.0,<0.3'"
        );
        write("poetry.lock", "");
        assert_eq!(install_command(dir.path(), Some(&r)), "poetry install");
        write("uv.lock", "");
        assert_eq!(install_command(dir.path(), Some(&r)), "uv sync");
        write(
            "package.json",
            r#"{"devDependencies": {"hookc": "^0.2.0"}}"#,
        );
        assert_eq!(install_command(dir.path(), None), "npm install");
        write("yarn.lock", "");
        assert_eq!(install_command(dir.path(), None), "yarn install");
        write("bun.lock", "");
        assert_eq!(install_command(dir.path(), None), "bun install");
        // The declared manager wins over any lockfile.
        write(
            "package.json",
            r#"{"packageManager": "pnpm@9.1.0", "devDependencies": {"hookc": "^0.2.0"}}"#,
        );
        assert_eq!(install_command(dir.path(), None), "pnpm install");
        // hookc's own checkout builds itself.
        write(
            "Cargo.toml",
            "[package]\nname = \"hookc\"\nversion = \"0.1.0\"\n",
        );
        assert_eq!(
            install_command(dir.path(), None),
            "cargo install --locked --path ."
        );
    }

    #[test]
    fn source_installs_name_the_repository_when_there_is_one() {
        assert_eq!(
            from_source("https://example.org/hookc"),
            "cargo install --locked --git https://example.org/hookc"
        );
        assert!(from_source("").contains("--path"));
    }
}
