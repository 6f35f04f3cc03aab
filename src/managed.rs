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
}

impl Os {
    /// The system this hookc runs on, where it has managed paths.
    pub fn host() -> Option<Os> {
        match std::env::consts::OS {
            "linux" => Some(Os::Linux),
            "macos" => Some(Os::Macos),
            _ => None,
        }
    }

    /// hookc's own folder on a managed machine.
    pub fn hookc_dir(self) -> &'static str {
        match self {
            Os::Linux => "/etc/hookc",
            Os::Macos => "/Library/Application Support/hookc",
        }
    }

    /// The hookc managed hooks run when `--hookc` does not say.
    pub fn default_hookc(self) -> &'static str {
        "/usr/local/bin/hookc"
    }
}

/// An absolute path on a managed machine, per system.
#[derive(Debug, Clone, Copy)]
pub struct Paths {
    pub linux: &'static str,
    pub macos: &'static str,
}

impl Paths {
    pub fn on(&self, os: Os) -> &'static str {
        match os {
            Os::Linux => self.linux,
            Os::Macos => self.macos,
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
    pub fn on(&self, os: Os) -> &'static str {
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

    /// The absolute path, on the managed machine, of an artifact's path in the tree.
    pub fn absolute(rel: &str) -> String {
        format!("/{rel}")
    }
}

/// An absolute path on the managed machine as a path in the tree (under `--root`).
pub fn tree_path(absolute: &str) -> String {
    absolute.trim_start_matches('/').to_owned()
}

/// The folder of an administrator file that holds everything of its
/// harness's administrator layer: `/etc/claude-code` for
/// `/etc/claude-code/managed-settings.d/50-hookc.json`, the one folder under
/// `/etc`, `/Library/Application Support` or `/Library/Managed Preferences`.
pub fn administrator_folder(file: &str) -> &str {
    for base in [
        "/etc/",
        "/Library/Application Support/",
        "/Library/Managed Preferences/",
    ] {
        if let Some(rest) = file.strip_prefix(base) {
            let end = rest.find('/').map_or(file.len(), |i| base.len() + i);
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
    }
}
