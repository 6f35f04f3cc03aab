//! `.hookc/manifest.json`: what hookc wrote last time, so it can update and
//! retract exactly its own files and entries and nothing else.

use serde::{Deserialize, Serialize};

use crate::emit::{Artifact, Content, Scope};
use crate::merge::Shape;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Written by hookc, for people reading the file; never compared.
    pub generator: String,
    pub policy: String,
    pub files: Vec<Owned>,
    /// Project directories hookc made, relative to the project: a retraction
    /// removes a directory once empty only if it is listed here (or under
    /// `.hookc/`), so directories the user made stay.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dirs: Vec<String>,
}

/// One file hookc owns, or owns entries of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Owned {
    pub path: String,
    #[serde(flatten)]
    pub part: Part,
    /// Absent for project files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<UserBase>,
    /// A digest of what hookc owns in the file as it wrote it; a different
    /// digest on disk means someone edited hookc's part by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// What hookc added to a merged file besides its entries, so that
    /// retraction gives the file back as it was. Absent in manifests of
    /// older hookc versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<Shape>,
}

/// A user-level base directory, as in [`Scope::User`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UserBase {
    pub env: String,
    pub default: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Part {
    /// hookc owns the whole file.
    Whole,
    /// hookc owns entries of the arrays under `container` that contain `marker`,
    /// and added the `ensure` members where they were missing.
    JsonEntries {
        container: Vec<String>,
        marker: String,
        /// Top-level members hookc added when absent (Cursor's `version`):
        /// retraction needs them to tell a file that holds nothing else.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ensure: Vec<(String, serde_json::Value)>,
    },
    /// hookc owns the tables of the array of tables `key` that contain `marker`.
    TomlTables {
        key: String,
        header: String,
        marker: String,
    },
}

impl Manifest {
    pub fn of(policy: &str, artifacts: &[Artifact]) -> Manifest {
        Manifest {
            generator: "hookc".to_owned(),
            policy: policy.to_owned(),
            files: artifacts
                .iter()
                .map(|a| Owned {
                    path: a.path.clone(),
                    part: match &a.content {
                        Content::Whole { .. } => Part::Whole,
                        Content::JsonEntries {
                            container,
                            marker,
                            ensure,
                            ..
                        } => Part::JsonEntries {
                            container: container.clone(),
                            marker: marker.clone(),
                            ensure: ensure.clone(),
                        },
                        Content::TomlTables {
                            key,
                            header,
                            marker,
                            ..
                        } => Part::TomlTables {
                            key: key.clone(),
                            header: header.clone(),
                            marker: marker.clone(),
                        },
                    },
                    digest: None,
                    shape: None,
                    user: match a.scope {
                        Scope::Project => None,
                        Scope::User { env, default } => Some(UserBase {
                            env: env.to_owned(),
                            default: default.to_owned(),
                        }),
                    },
                })
                .collect(),
            dirs: Vec::new(),
        }
    }
}
