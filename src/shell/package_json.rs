//! Finding the `package.json` files whose scripts a package manager runs,
//! as the manager finds them, within bounds.
//!
//! Every folder is given with the name the line would use for it (`web/`,
//! `../`), so that a line that writes one of these files before running it
//! is seen doing so (`written`).

use std::path::{Path, PathBuf};

/// The largest `package.json` read.
const MAX_BYTES: u64 = 1024 * 1024;
/// The most folders looked at for the packages of a workspace, and the
/// deepest below its root.
const MAX_FOLDERS: usize = 1000;
const MAX_DEPTH: usize = 6;

/// A folder the line may run in: where it is, and how the line names it
/// (empty, or ending in `/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    pub path: PathBuf,
    pub name: String,
}

impl Folder {
    pub fn new(path: &Path) -> Folder {
        Folder {
            path: path.to_path_buf(),
            name: String::new(),
        }
    }

    /// The folder `to` names from here, as `cd` (without `-P`) reaches it:
    /// `..` takes away the last name written, whatever links lie below.
    pub fn join(&self, to: &str) -> Folder {
        let (mut path, mut name) = if to.starts_with('/') {
            (PathBuf::from("/"), "/".to_owned())
        } else {
            (self.path.clone(), self.name.clone())
        };
        for part in to.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    path.pop();
                    name = match name.trim_end_matches('/').rsplit_once('/') {
                        _ if name == "/" => name,
                        _ if name.is_empty() || name.ends_with("../") => format!("{name}../"),
                        Some((head, _)) => format!("{head}/"),
                        None => String::new(),
                    };
                }
                part => {
                    path.push(part);
                    name = format!("{name}{part}/");
                }
            }
        }
        Folder { path, name }
    }
}

/// A `package.json` found.
#[derive(Debug)]
pub enum Found {
    /// Its name as the line would write it, where it is, and its text.
    File(String, PathBuf, String),
    /// None at or above the folder.
    Nothing,
    /// One is there, but not a regular file hookc can read (too large,
    /// unreadable): its name.
    Unreadable(String),
}

/// The nearest `package.json` at or above `folder`, as `npm run` finds
/// its package.
pub fn nearest(folder: &Folder) -> Found {
    let mut at = folder.clone();
    for _ in 0..64 {
        match read(&at) {
            Found::Nothing => {}
            found => return found,
        }
        if at.path.parent().is_none() {
            break;
        }
        at = at.join("..");
    }
    Found::Nothing
}

/// The `package.json` in `folder` itself.
fn read(folder: &Folder) -> Found {
    let path = folder.path.join("package.json");
    let name = format!("{}package.json", folder.name);
    match std::fs::metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Found::Nothing,
        Ok(m) if m.is_file() && m.len() <= MAX_BYTES => match std::fs::read_to_string(&path) {
            Ok(text) => Found::File(name, path, text),
            Err(_) => Found::Unreadable(name),
        },
        _ => Found::Unreadable(name),
    }
}

/// The largest settings file (`.npmrc`, `.yarnrc`) read.
const MAX_SETTINGS_BYTES: u64 = 64 * 1024;

/// Why hookc cannot read the scripts of the package in `package` as `sh`
/// would run them, when a settings file `runner` reads names another
/// program to run them with (`script-shell=…`, which npm, pnpm and yarn 1
/// honour): the project's (`.npmrc` and `.yarnrc` in the package's folder
/// and every folder above it), the user's (`~/.npmrc`, `~/.yarnrc`, or
/// `NPM_CONFIG_USERCONFIG`), the global ones (`/etc/npmrc`,
/// `/usr/local/etc/npmrc`, `/usr/etc/npmrc`, or `NPM_CONFIG_GLOBALCONFIG`),
/// or one hookc cannot read. An earlier call may have written any of them.
pub fn script_shell(runner: &str, package: &Path) -> Option<String> {
    if !honours_script_shell(runner) {
        return None;
    }
    let names: &[&str] = if runner == "yarn" {
        &[".npmrc", ".yarnrc"]
    } else {
        &[".npmrc"]
    };
    let mut files: Vec<PathBuf> = package
        .ancestors()
        .take(64)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .collect();
    // npm reads its variables in any case (`npm_config_userconfig`).
    let var = |name: &str| {
        std::env::var_os(name)
            .or_else(|| {
                std::env::vars_os()
                    .find(|(k, _)| k.to_str().is_some_and(|k| k.eq_ignore_ascii_case(name)))
                    .map(|(_, v)| v)
            })
            .map(PathBuf::from)
    };
    // pnpm's own: `scriptShell` in a `pnpm-workspace.yaml` of the package's
    // folder or one above it, and its global `rc` (checked with pnpm 10).
    if matches!(runner, "pnpm" | "pnpx") {
        files.extend(
            package
                .ancestors()
                .take(64)
                .map(|dir| dir.join("pnpm-workspace.yaml")),
        );
        let home = var("HOME");
        files.extend(
            var("XDG_CONFIG_HOME")
                .or_else(|| home.as_ref().map(|h| h.join(".config")))
                .into_iter()
                .chain(home.map(|h| h.join("Library/Preferences")))
                .map(|config| config.join("pnpm/rc")),
        );
    }
    for name in ["npm_config_script_shell", "yarn_script_shell"] {
        if var(name).is_some() && (runner == "yarn" || name.starts_with("npm")) {
            return Some(format!(
                "`{runner}` running its scripts with the program `{name}` names, which hookc does not read (run the script's command directly)"
            ));
        }
    }
    match (var("NPM_CONFIG_USERCONFIG"), var("HOME")) {
        (Some(user), _) => files.push(user),
        (None, Some(home)) => files.extend(names.iter().map(|n| home.join(n))),
        (None, None) => {}
    }
    match var("NPM_CONFIG_GLOBALCONFIG") {
        Some(global) => files.push(global),
        None => files
            .extend(["/etc/npmrc", "/usr/local/etc/npmrc", "/usr/etc/npmrc"].map(PathBuf::from)),
    }
    for file in files {
        let shown = file.display();
        let text = match std::fs::metadata(&file) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Ok(m) if m.is_file() && m.len() <= MAX_SETTINGS_BYTES => std::fs::read_to_string(&file),
            _ => {
                return Some(format!(
                    "`{runner}` reading its settings from `{shown}`, which hookc cannot read"
                ));
            }
        };
        let Ok(text) = text else {
            return Some(format!(
                "`{runner}` reading its settings from `{shown}`, which hookc cannot read"
            ));
        };
        let yaml = file.extension().is_some_and(|e| e == "yaml");
        if yaml && yaml_may_name_script_shell(&text) || text.lines().any(names_script_shell) {
            return Some(format!(
                "`{runner}` running its scripts with the program `{shown}` names (`script-shell`), which hookc does not read (run the script's command directly)"
            ));
        }
    }
    None
}

/// Whether `runner` runs its scripts with the program its settings name
/// (`script-shell`).
pub fn honours_script_shell(runner: &str) -> bool {
    matches!(runner, "npm" | "npx" | "pnpm" | "pnpx" | "yarn")
}

/// Whether a settings line sets `script-shell` (`script-shell=x`,
/// `script_shell = x`, yarn's `script-shell "x"`), in any case.
fn names_script_shell(line: &str) -> bool {
    let key: String = line
        .trim_start()
        .trim_start_matches('"')
        .chars()
        .take_while(|c| !matches!(c, '=' | ' ' | '\t' | '"'))
        .collect::<String>()
        .to_ascii_lowercase()
        .replace('_', "-");
    key == "script-shell"
}

/// Whether a `pnpm-workspace.yaml` may set `scriptShell`: it names it
/// (in any case, even in a comment), or holds a backslash, which a quoted
/// YAML key may spell it with (`"script\x53hell"`).
fn yaml_may_name_script_shell(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("scriptshell") || lower.contains("script-shell") || text.contains('\\')
}

/// Every `package.json` of the workspace `folder` belongs to: below the
/// nearest folder above it that declares one (`pnpm-workspace.yaml`, or a
/// `package.json` with `workspaces`), or its own package's. Every package
/// the workspace may list is among them; `None` when the tree is too large
/// to look through.
pub fn workspace(folder: &Folder) -> Option<Vec<Found>> {
    let root = workspace_root(folder);
    let mut found = Vec::new();
    let mut queue = vec![(root, 0)];
    let mut seen = 0;
    while let Some((at, depth)) = queue.pop() {
        seen += 1;
        if seen > MAX_FOLDERS {
            return None;
        }
        match read(&at) {
            Found::Nothing => {}
            file => found.push(file),
        }
        if depth == MAX_DEPTH {
            // Deeper folders may hold packages: they are not known.
            if has_folders(&at.path) {
                return None;
            }
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&at.path) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            // A name that is not UTF-8 cannot be followed by name.
            let name = name.to_str()?;
            if name == "node_modules" || name.starts_with('.') {
                continue;
            }
            if entry.path().is_dir() {
                queue.push((at.join(name), depth + 1));
            }
        }
    }
    Some(found)
}

fn has_folders(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            name != "node_modules" && !name.to_string_lossy().starts_with('.') && e.path().is_dir()
        })
    })
}

fn workspace_root(folder: &Folder) -> Folder {
    let mut at = folder.clone();
    let mut package = None;
    for _ in 0..64 {
        if at.path.join("pnpm-workspace.yaml").is_file() {
            return at;
        }
        if let Found::File(_, _, text) = read(&at) {
            if text.contains("\"workspaces\"") {
                return at;
            }
            package.get_or_insert_with(|| at.clone());
        }
        if at.path.parent().is_none() {
            break;
        }
        at = at.join("..");
    }
    package.unwrap_or_else(|| folder.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_named_as_the_line_names_it() {
        let here = Folder::new(Path::new("/srv/app"));
        let web = here.join("web");
        assert_eq!(web.path, Path::new("/srv/app/web"));
        assert_eq!(web.name, "web/");
        assert_eq!(web.join("..").name, "");
        assert_eq!(here.join("../other/./x").name, "../other/x/");
        assert_eq!(here.join("../other/./x").path, Path::new("/srv/other/x"));
        assert_eq!(here.join("/tmp").name, "/tmp/");
    }

    #[test]
    fn the_nearest_package_json_is_found_above() {
        let dir = std::env::temp_dir().join(format!("hookc-pkg-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("packages/web/src")).unwrap();
        std::fs::write(dir.join("package.json"), r#"{"workspaces":["packages/*"]}"#).unwrap();
        std::fs::write(dir.join("packages/web/package.json"), "{}").unwrap();
        let src = Folder::new(&dir.join("packages/web/src"));
        assert!(matches!(nearest(&src), Found::File(name, ..) if name == "../package.json"));
        let names: Vec<String> = workspace(&src)
            .unwrap()
            .into_iter()
            .filter_map(|f| match f {
                Found::File(name, ..) => Some(name),
                _ => None,
            })
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(
            names.contains(&"../../../package.json".to_owned()),
            "{names:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
