//! Guard presets: ordinary policy text in `presets/*.kdl`, embedded in the
//! binary. A policy takes one with `preset "git"` (optionally
//! `level="basic"|"standard"|"strict"`), which puts the preset's guards for
//! that level into the policy as if written there; `hookc init` writes those
//! lines, picking presets by what the repository holds.
//!
//! Each file starts with two comment lines (`// Title: summary` and
//! `// Allows: …`, what the preset deliberately lets through), and every
//! guard carries deny and allow examples, which the build runs. A guard
//! belongs to the `standard` level unless the line before it says
//! `// level: basic` (on at every level) or `// level: strict` (only there).

use std::path::Path;

/// How much of a preset a policy takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Level {
    /// Only what cannot be undone at all.
    Basic,
    /// The default: also what is usually a mistake.
    #[default]
    Standard,
    /// Also what is risky but sometimes intended; expect to be asked often.
    Strict,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Basic, Level::Standard, Level::Strict];

    pub fn word(self) -> &'static str {
        match self {
            Level::Basic => "basic",
            Level::Standard => "standard",
            Level::Strict => "strict",
        }
    }

    pub fn from_word(word: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.word() == word)
    }

    /// The level words, for help texts.
    pub const WORDS: &'static [&'static str] = &["basic", "standard", "strict"];
}

/// One preset: a named, self-contained group of guards.
#[derive(Debug)]
pub struct Preset {
    /// What `preset "NAME"` and `hookc init --preset NAME` take.
    pub name: &'static str,
    /// The policy text, starting with `// Title: summary` and `// Allows: …`.
    pub text: &'static str,
    /// What in a repository makes `hookc init` pick this preset: a file name
    /// (`Dockerfile`), a glob over file names (`*.tf`), or a directory
    /// (`k8s/`), looked for at the top and one directory down. Empty: every
    /// repository gets it.
    pub hints: &'static [&'static str],
}

impl Preset {
    /// The first comment line, without `// `: what the preset is about.
    pub fn summary(&self) -> &'static str {
        self.text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// "))
            .unwrap_or(self.name)
    }

    /// The `// Allows: …` line, without its prefix: what the preset
    /// deliberately lets through.
    pub fn allows(&self) -> &'static str {
        self.text
            .lines()
            .take(3)
            .find_map(|l| l.strip_prefix("// Allows: "))
            .unwrap_or("")
    }

    /// The names of the preset's guards, in file order, with the level each
    /// starts at.
    pub fn leveled(&self) -> Vec<(&'static str, Level)> {
        let mut out = Vec::new();
        let mut tag = None;
        for line in self.text.lines() {
            if let Some(word) = line.strip_prefix("// level: ") {
                tag = Some(Level::from_word(word.trim()).unwrap_or(Level::Strict));
            } else if let Some(rest) = line.strip_prefix("guard \"") {
                if let Some(name) = rest.split('"').next() {
                    out.push((name, tag.unwrap_or_default()));
                }
                tag = None;
            } else if !line.starts_with("//") {
                tag = None;
            }
        }
        out
    }

    /// Every guard of the preset, in file order.
    pub fn guards(&self) -> Vec<&'static str> {
        self.leveled().into_iter().map(|(g, _)| g).collect()
    }

    /// The guards a policy gets with `preset "NAME" level=LEVEL`.
    pub fn guards_at(&self, level: Level) -> Vec<&'static str> {
        self.leveled()
            .into_iter()
            .filter(|(_, l)| *l <= level)
            .map(|(g, _)| g)
            .collect()
    }
}

/// Every preset, in the order `hookc init` writes them.
pub static ALL: &[Preset] = &[
    Preset {
        name: "git",
        text: include_str!("../presets/git.kdl"),
        hints: &[],
    },
    Preset {
        name: "filesystem",
        text: include_str!("../presets/filesystem.kdl"),
        hints: &[],
    },
    Preset {
        name: "secrets",
        text: include_str!("../presets/secrets.kdl"),
        hints: &[],
    },
    Preset {
        name: "system",
        text: include_str!("../presets/system.kdl"),
        hints: &[],
    },
    Preset {
        name: "remote-code",
        text: include_str!("../presets/remote-code.kdl"),
        hints: &[],
    },
    Preset {
        name: "lockfiles",
        text: include_str!("../presets/lockfiles.kdl"),
        hints: &[
            "Cargo.lock",
            "package-lock.json",
            "npm-shrinkwrap.json",
            "yarn.lock",
            "pnpm-lock.yaml",
            "bun.lock",
            "bun.lockb",
            "poetry.lock",
            "uv.lock",
            "Pipfile.lock",
            "Gemfile.lock",
            "composer.lock",
            "go.sum",
            "flake.lock",
        ],
    },
    Preset {
        name: "publishing",
        text: include_str!("../presets/publishing.kdl"),
        hints: &[
            "Cargo.toml",
            "package.json",
            "pyproject.toml",
            "setup.py",
            "*.gemspec",
            "*.nuspec",
            "mix.exs",
        ],
    },
    Preset {
        name: "databases",
        text: include_str!("../presets/databases.kdl"),
        hints: &[
            "migrations/",
            "migrate/",
            "prisma/",
            "alembic/",
            "alembic.ini",
            "manage.py",
            "schema.sql",
            "*.sql",
            "knexfile.js",
            "knexfile.ts",
            "diesel.toml",
            "flyway.conf",
            "supabase/",
        ],
    },
    Preset {
        name: "cloud",
        text: include_str!("../presets/cloud.kdl"),
        hints: &[
            "serverless.yml",
            "samconfig.toml",
            "template.yaml",
            "cdk.json",
            "app.yaml",
            "cloudbuild.yaml",
            "azure-pipelines.yml",
            "*.bicep",
            "fly.toml",
        ],
    },
    Preset {
        name: "kubernetes",
        text: include_str!("../presets/kubernetes.kdl"),
        hints: &[
            "k8s/",
            "kubernetes/",
            "manifests/",
            "charts/",
            "helm/",
            "Chart.yaml",
            "kustomization.yaml",
            "skaffold.yaml",
            "helmfile.yaml",
        ],
    },
    Preset {
        name: "containers",
        text: include_str!("../presets/containers.kdl"),
        hints: &[
            "Dockerfile",
            "*.Dockerfile",
            "Containerfile",
            "docker-compose.yml",
            "docker-compose.yaml",
            "compose.yml",
            "compose.yaml",
            ".devcontainer/",
        ],
    },
    Preset {
        name: "infrastructure",
        text: include_str!("../presets/infrastructure.kdl"),
        hints: &[
            "*.tf",
            "*.tofu",
            "terragrunt.hcl",
            "Pulumi.yaml",
            "cdk.json",
            "cdktf.json",
            "terraform/",
        ],
    },
];

/// The names of [`ALL`], for the command line's list of possible values.
pub const NAMES: &[&str] = &[
    "git",
    "filesystem",
    "secrets",
    "system",
    "remote-code",
    "lockfiles",
    "publishing",
    "databases",
    "cloud",
    "kubernetes",
    "containers",
    "infrastructure",
];

pub fn get(name: &str) -> Option<&'static Preset> {
    ALL.iter().find(|p| p.name == name)
}

/// Entries read per directory while looking for hints: a repository with
/// more at its top is read no further (it is a guess, not a scan).
const MAX_ENTRIES: usize = 2000;

/// Why `hookc init` picks a preset for the repository at `root`: the hints
/// found (`Dockerfile`, `infra/main.tf`), empty for a preset every
/// repository gets; `None` when it does not pick it. Looks at the top and
/// one directory down (not into hidden directories other than the hint's,
/// `node_modules` or `target`), never follows a symbolic link, and reads
/// only names.
pub fn found(preset: &Preset, root: &Path) -> Option<Vec<String>> {
    if preset.hints.is_empty() {
        return Some(Vec::new());
    }
    let mut hits = Vec::new();
    let mut dirs = vec![(root.to_path_buf(), String::new())];
    let mut depth = 0;
    while depth < 2 && !dirs.is_empty() {
        let mut next = Vec::new();
        for (dir, prefix) in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.take(MAX_ENTRIES).flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                // file_type() does not follow symbolic links.
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                for hint in preset.hints {
                    let hit = match hint.strip_suffix('/') {
                        Some(d) => kind.is_dir() && name == d,
                        None => kind.is_file() && matches_name(hint, &name),
                    };
                    if hit {
                        let shown =
                            format!("{prefix}{name}{}", if kind.is_dir() { "/" } else { "" });
                        if !hits.contains(&shown) {
                            hits.push(shown);
                        }
                    }
                }
                if kind.is_dir()
                    && depth == 0
                    && !name.starts_with('.')
                    && name != "node_modules"
                    && name != "target"
                {
                    next.push((entry.path(), format!("{name}/")));
                }
            }
        }
        dirs = next;
        depth += 1;
    }
    (!hits.is_empty()).then_some(hits)
}

/// A hint against a file name: exact, or `*` then a suffix.
fn matches_name(hint: &str, name: &str) -> bool {
    match hint.strip_prefix('*') {
        Some(suffix) => name.len() > suffix.len() && name.ends_with(suffix),
        None => name == hint,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_list_every_preset_in_order() {
        let names: Vec<_> = ALL.iter().map(|p| p.name).collect();
        assert_eq!(names, NAMES);
    }

    #[test]
    fn each_preset_says_what_it_is_what_it_allows_and_has_guards() {
        for preset in ALL {
            assert!(preset.text.starts_with("// "), "{}", preset.name);
            assert!(
                !preset.allows().is_empty(),
                "{}: no `// Allows:` line",
                preset.name
            );
            assert!(!preset.guards().is_empty(), "{}", preset.name);
            assert!(
                !preset.guards_at(Level::Basic).is_empty(),
                "{}: nothing at level basic",
                preset.name
            );
        }
    }

    #[test]
    fn level_tags_are_known_words_right_above_a_guard() {
        for preset in ALL {
            let lines: Vec<&str> = preset.text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if let Some(word) = line.strip_prefix("// level: ") {
                    assert!(
                        Level::from_word(word).is_some(),
                        "{}: unknown level `{word}`",
                        preset.name
                    );
                    assert!(
                        lines.get(i + 1).is_some_and(|l| l.starts_with("guard \"")),
                        "{}: `// level:` not right above a guard",
                        preset.name
                    );
                }
            }
        }
    }

    #[test]
    fn levels_nest() {
        let git = get("git").unwrap();
        let basic = git.guards_at(Level::Basic);
        let standard = git.guards_at(Level::Standard);
        let strict = git.guards_at(Level::Strict);
        assert!(basic.contains(&"no-force-push"));
        assert!(!basic.contains(&"no-stash-drop"));
        assert!(standard.contains(&"no-stash-drop"));
        assert!(!standard.contains(&"no-push-to-protected-branches"));
        assert!(strict.contains(&"no-push-to-protected-branches"));
        assert!(basic.iter().all(|g| standard.contains(g)));
        assert!(standard.iter().all(|g| strict.contains(g)));
        assert_eq!(strict, git.guards());
    }

    #[test]
    fn guard_names_are_unique_across_presets() {
        let mut seen = std::collections::HashSet::new();
        for preset in ALL {
            for guard in preset.guards() {
                assert!(seen.insert(guard), "guard `{guard}` is in two presets");
            }
        }
    }

    #[test]
    fn hints_are_found_at_the_top_and_one_down_and_links_are_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let docker = get("containers").unwrap();
        let infra = get("infrastructure").unwrap();
        assert_eq!(found(docker, dir.path()), None);
        assert_eq!(found(get("git").unwrap(), dir.path()), Some(vec![]));
        std::fs::write(dir.path().join("Dockerfile"), "FROM scratch\n").unwrap();
        std::fs::create_dir_all(dir.path().join("infra/modules")).unwrap();
        std::fs::write(dir.path().join("infra/main.tf"), "").unwrap();
        // Two down: not looked at.
        std::fs::write(dir.path().join("infra/modules/x.tf"), "").unwrap();
        assert_eq!(found(docker, dir.path()), Some(vec!["Dockerfile".into()]));
        assert_eq!(found(infra, dir.path()), Some(vec!["infra/main.tf".into()]));
        #[cfg(unix)]
        {
            let other = tempfile::tempdir().unwrap();
            std::fs::create_dir(other.path().join("k8s")).unwrap();
            std::os::unix::fs::symlink(other.path(), dir.path().join("linked")).unwrap();
            std::os::unix::fs::symlink(other.path().join("k8s"), dir.path().join("k8s")).unwrap();
            assert_eq!(found(get("kubernetes").unwrap(), dir.path()), None);
        }
    }
}
