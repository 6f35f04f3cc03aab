//! Managed installs (`hookc build --managed`): the guards written into each
//! harness's administrator layer, which the user, the project and the agent
//! can neither edit nor switch off.
//!
//! A project build puts its hooks in files the project owns, so whoever can
//! write the project (the agent included) can take them out, and
//! self-protection is what stands in the way. An administrator's layer is owned
//! by root: Claude Code's `managed-settings.d/`, Codex's `requirements.toml`,
//! Copilot CLI's `policy.d/`, Cursor's enterprise `hooks.json` and Gemini
//! CLI's system settings are read on every start, beside and above anything
//! a user or project says (each harness's `managed_layer` says where, and
//! how far). A managed build writes the same guards there:
//!
//! - hookc's own files (the compiled policy, the manifest and one shim per
//!   harness and event) go to hookc's folder on that machine
//!   ([`Os::hookc_dir`]), laid out as a project's `.hookc/`;
//! - each harness's administrator file names its shims by absolute path,
//!   and each shim runs one hookc, by absolute path (`--hookc`), whatever
//!   `HOOKC_BIN`, `PATH` or the user's pin say;
//! - where a harness has a switch that runs the administrator's hooks only
//!   (`allowManagedHooksOnly`), it is on unless `--allow-other-hooks` says
//!   otherwise: a hook of the project or the user can answer "allow" and skip
//!   the harness's own permission prompt, which is a loosening.
//!
//! The files are planned, merged, retracted and written by the same plan as
//! a project's, under `--root` (default `/`), so that a packager can lay the
//! tree out in a staging folder.

/// The operating system a managed tree is for: its paths differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Os {
    Linux,
    Macos,
    Windows,
}

impl Os {
    /// The system this hookc runs on, where it has managed paths.
    pub fn host() -> Option<Os> {
        match std::env::consts::OS {
            "linux" => Some(Os::Linux),
            "macos" => Some(Os::Macos),
            "windows" => Some(Os::Windows),
            _ => None,
        }
    }

    /// hookc's own folder on a managed machine. On Windows it is under
    /// Program Files, which only administrators may write by default (any
    /// user may add files to a folder under ProgramData).
    pub fn hookc_dir(self) -> &'static str {
        match self {
            Os::Linux => "/etc/hookc",
            Os::Macos => "/Library/Application Support/hookc",
            Os::Windows => r"C:\Program Files\hookc",
        }
    }

    /// Where a managed tree goes on the system itself (`--root`'s default).
    pub fn system_root(self) -> &'static str {
        match self {
            Os::Linux | Os::Macos => "/",
            Os::Windows => r"C:\",
        }
    }

    /// The system's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Os::Linux => "Linux",
            Os::Macos => "macOS",
            Os::Windows => "Windows",
        }
    }

    /// The hookc managed hooks run when `--hookc` does not say.
    pub fn default_hookc(self) -> &'static str {
        match self {
            Os::Linux | Os::Macos => "/usr/local/bin/hookc",
            Os::Windows => r"C:\Program Files\hookc\hookc.exe",
        }
    }

    /// Whether `path` is an absolute, plain path on this system: no `.`
    /// or `..` part. On Windows: a drive letter and a backslash after it,
    /// no `/` (which `cmd.exe` and PowerShell read alike only sometimes),
    /// and none of `"`, `%`, `'`, `` ` `` and `$`, which a hook command's
    /// quoting would have to change.
    pub fn is_plain_absolute(self, path: &str) -> bool {
        let (rest, separator) = match self {
            Os::Linux | Os::Macos => match path.strip_prefix('/') {
                Some(rest) => (rest, '/'),
                None => return false,
            },
            Os::Windows => match windows_drive(path) {
                Some(rest) if !path.contains(['/', '"', '%', '\'', '`', '$']) => (rest, '\\'),
                _ => return false,
            },
        };
        !rest.split(separator).any(|p| p == ".." || p == ".")
    }
}

/// An absolute path on a managed machine, per system.
#[derive(Debug, Clone, Copy)]
pub struct Paths {
    pub linux: &'static str,
    pub macos: &'static str,
    pub windows: OnWindows,
}

/// A harness's administrator file on Windows, or why hookc writes none.
#[derive(Debug, Clone, Copy)]
pub enum OnWindows {
    At(&'static str),
    /// hookc's hooks cannot guard from there: why, in a clause.
    Not(&'static str),
}

impl Paths {
    pub fn on(&self, os: Os) -> Option<&'static str> {
        match (os, self.windows) {
            (Os::Linux, _) => Some(self.linux),
            (Os::Macos, _) => Some(self.macos),
            (Os::Windows, OnWindows::At(file)) => Some(file),
            (Os::Windows, OnWindows::Not(_)) => None,
        }
    }

    /// Why there is no file on `os`, where there is none.
    pub fn missing_on(&self, os: Os) -> Option<&'static str> {
        match (os, self.windows) {
            (Os::Windows, OnWindows::Not(why)) => Some(why),
            _ => None,
        }
    }
}

/// Where a harness reads the administrator file hookc writes its hooks
/// into, and what that file can and cannot do.
#[derive(Debug, Clone, Copy)]
pub struct Layer {
    pub file: Paths,
    /// What the file is to the harness, for the book and `doctor`
    /// ("a drop-in of managed-settings.d").
    pub what: &'static str,
    /// The switch that keeps every hook but the administrator's from
    /// running, if the harness has one.
    pub only_managed: Option<Switch>,
    /// How a user or a project can still switch the hooks of this layer
    /// off, where the harness gives the administrator no way to stop it
    /// (said as a warning on every managed build).
    pub not_enforced: Option<&'static str>,
}

impl Layer {
    /// The file on `os`, where hookc writes one there.
    pub fn on(&self, os: Os) -> Option<&'static str> {
        self.file.on(os)
    }
}

/// A harness's administrator-hooks-only switch.
#[derive(Debug, Clone, Copy)]
pub struct Switch {
    /// The key, set to `true`.
    pub key: &'static str,
    /// The file that holds it, where that is not the layer's own (Copilot
    /// CLI takes only hooks in its policy folder).
    pub elsewhere: Option<Paths>,
}

impl Switch {
    /// In the layer's own file.
    pub const fn here(key: &'static str) -> Switch {
        Switch {
            key,
            elsewhere: None,
        }
    }
}

/// One managed build.
#[derive(Debug, Clone)]
pub struct Install {
    pub os: Os,
    /// The hookc every managed hook runs: absolute, and root's to change.
    pub hookc: String,
    /// Whether to turn on each harness's administrator-hooks-only switch.
    pub only_managed: bool,
}

impl Install {
    /// hookc's folder relative to the tree's root (`etc/hookc`).
    pub fn hookc_dir(&self) -> String {
        tree_path(self.os.hookc_dir())
    }

    /// The path in the tree of the file `paths` names on this system. Only
    /// asked of a harness whose layer has a file there (`compile` leaves
    /// the others out).
    pub fn tree_file(&self, paths: Paths) -> String {
        tree_path(
            paths
                .on(self.os)
                .expect("a managed build asks only for files its system has"),
        )
    }

    /// The compiled policy's absolute path on the managed machine.
    pub fn policy(&self) -> String {
        self.absolute(&format!("{}/policy.json", self.hookc_dir()))
    }

    /// The absolute path, on the managed machine, of an artifact's path in the tree.
    pub fn absolute(&self, rel: &str) -> String {
        match self.os {
            Os::Linux | Os::Macos => format!("/{rel}"),
            Os::Windows => format!(r"C:\{}", rel.replace('/', r"\")),
        }
    }
}

/// An absolute path on the managed machine as a path in the tree (under
/// `--root`): `/etc/hookc` is `etc/hookc`, and `C:\Program Files\hookc` is
/// `Program Files/hookc` (the tree stands for the system drive).
pub fn tree_path(absolute: &str) -> String {
    match windows_drive(absolute) {
        Some(rest) => rest.replace('\\', "/"),
        None => absolute.trim_start_matches('/').to_owned(),
    }
}

/// What follows `C:\` in an absolute Windows path.
fn windows_drive(path: &str) -> Option<&str> {
    let bytes = path.as_bytes();
    (bytes.len() > 3 && bytes[0].is_ascii_alphabetic() && &bytes[1..3] == b":\\")
        .then(|| &path[3..])
}

/// The folder of an administrator file that holds everything of its
/// harness's administrator layer: `/etc/claude-code` for
/// `/etc/claude-code/managed-settings.d/50-hookc.json`, the one folder under
/// `/etc`, `/Library/Application Support` or `/Library/Managed Preferences`;
/// on Windows under `C:\Program Files`, or two under `C:\ProgramData`
/// (`C:\ProgramData\OpenAI\Codex`: a vendor's folder, then its product's).
pub fn administrator_folder(file: &str) -> &str {
    for (base, depth, separator) in [
        ("/etc/", 1, '/'),
        ("/Library/Application Support/", 1, '/'),
        ("/Library/Managed Preferences/", 1, '/'),
        (r"C:\Program Files\", 1, '\\'),
        (r"C:\ProgramData\", 2, '\\'),
    ] {
        if let Some(rest) = file.strip_prefix(base) {
            let end = rest
                .match_indices(separator)
                .nth(depth - 1)
                .map_or(file.len(), |(i, _)| base.len() + i);
            return &file[..end];
        }
    }
    file
}

#[cfg(test)]
mod tests {
    use super::administrator_folder;

    #[test]
    fn the_administrator_folder_is_the_one_under_the_system_folder() {
        assert_eq!(
            administrator_folder("/etc/claude-code/managed-settings.d/50-hookc.json"),
            "/etc/claude-code"
        );
        assert_eq!(
            administrator_folder("/etc/codex/requirements.toml"),
            "/etc/codex"
        );
        assert_eq!(
            administrator_folder("/Library/Application Support/GeminiCli/settings.json"),
            "/Library/Application Support/GeminiCli"
        );
        assert_eq!(administrator_folder("/opt/x/y.json"), "/opt/x/y.json");
        assert_eq!(
            administrator_folder(r"C:\Program Files\ClaudeCode\managed-settings.d\50-hookc.json"),
            r"C:\Program Files\ClaudeCode"
        );
        assert_eq!(
            administrator_folder(r"C:\ProgramData\OpenAI\Codex\requirements.toml"),
            r"C:\ProgramData\OpenAI\Codex"
        );
    }

    #[test]
    fn a_windows_path_is_laid_out_under_the_root_as_the_system_drive() {
        use super::{Os, tree_path};
        assert_eq!(
            tree_path(r"C:\Program Files\hookc\policy.json"),
            "Program Files/hookc/policy.json"
        );
        assert_eq!(tree_path("/etc/hookc/policy.json"), "etc/hookc/policy.json");
        let install = super::Install {
            os: Os::Windows,
            hookc: Os::Windows.default_hookc().to_owned(),
            only_managed: true,
        };
        assert_eq!(
            install.absolute(&install.hookc_dir()),
            Os::Windows.hookc_dir()
        );
        assert!(Os::Windows.is_plain_absolute(r"D:\Tools\hookc.exe"));
        for bad in [
            r"\\server\share\hookc.exe",
            "C:/x/hookc.exe",
            r"C:\x\..\hookc.exe",
            "hookc.exe",
        ] {
            assert!(!Os::Windows.is_plain_absolute(bad), "{bad}");
        }
        assert!(Os::Linux.is_plain_absolute("/usr/local/bin/hookc"));
        assert!(!Os::Linux.is_plain_absolute("/usr/../bin/hookc"));
    }
}
