//! Guard presets for `hookc init`: ordinary policy text in `presets/*.kdl`,
//! embedded in the binary. Each file is a valid policy on its own, every
//! guard carries examples, and the files go into a new `policy.kdl` as they
//! are, comments included, so users can read and edit them like their own.

/// One preset: a named, self-contained group of guards.
#[derive(Debug)]
pub struct Preset {
    /// What `hookc init --preset NAME` takes.
    pub name: &'static str,
    /// The policy text, starting with a one-line `// Title: summary` comment.
    pub text: &'static str,
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

    /// The names of the preset's guards, in file order.
    pub fn guards(&self) -> Vec<&'static str> {
        self.text
            .lines()
            .filter_map(|l| l.strip_prefix("guard \""))
            .filter_map(|l| l.split('"').next())
            .collect()
    }
}

/// Every preset, in the order `hookc init` writes them.
pub static ALL: &[Preset] = &[
    Preset {
        name: "git",
        text: include_str!("../presets/git.kdl"),
    },
    Preset {
        name: "filesystem",
        text: include_str!("../presets/filesystem.kdl"),
    },
    Preset {
        name: "secrets",
        text: include_str!("../presets/secrets.kdl"),
    },
    Preset {
        name: "lockfiles",
        text: include_str!("../presets/lockfiles.kdl"),
    },
    Preset {
        name: "publishing",
        text: include_str!("../presets/publishing.kdl"),
    },
];

/// The names of [`ALL`], for the command line's list of possible values.
pub const NAMES: &[&str] = &["git", "filesystem", "secrets", "lockfiles", "publishing"];

pub fn get(name: &str) -> Option<&'static Preset> {
    ALL.iter().find(|p| p.name == name)
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
    fn each_preset_says_what_it_is_and_has_guards() {
        for preset in ALL {
            assert!(preset.text.starts_with("// "), "{}", preset.name);
            assert!(!preset.guards().is_empty(), "{}", preset.name);
        }
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
}
