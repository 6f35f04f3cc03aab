//! `.hookc/manifest.json`: what hookc wrote last time, so it can update and
//! retract exactly its own files and entries and nothing else.

use serde::{Deserialize, Serialize};

use crate::emit::{Artifact, Content};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Written by hookc, for people reading the file; never compared.
    pub generator: String,
    pub policy: String,
    pub files: Vec<Owned>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Owned {
    /// hookc owns the whole file.
    Whole { path: String },
    /// hookc owns entries of the arrays under `container` that contain `marker`.
    JsonEntries {
        path: String,
        container: Vec<String>,
        marker: String,
    },
}

impl Owned {
    pub fn path(&self) -> &str {
        match self {
            Owned::Whole { path } | Owned::JsonEntries { path, .. } => path,
        }
    }
}

impl Manifest {
    pub fn of(policy: &str, artifacts: &[Artifact]) -> Manifest {
        Manifest {
            generator: "hookc".to_owned(),
            policy: policy.to_owned(),
            files: artifacts
                .iter()
                .map(|a| match &a.content {
                    Content::Whole { .. } => Owned::Whole {
                        path: a.path.clone(),
                    },
                    Content::JsonEntries {
                        container, marker, ..
                    } => Owned::JsonEntries {
                        path: a.path.clone(),
                        container: container.clone(),
                        marker: marker.clone(),
                    },
                })
                .collect(),
        }
    }
}
