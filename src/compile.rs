//! The front half of the pipeline: `policy.kdl` → [`ir::Policy`] → artifacts.

use std::path::Path;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{self, Artifact, EmitCx};
use crate::harness;
use crate::ir::Policy;
use crate::source::SourceFile;
use crate::{resolve, syntax};

/// Read, parse, decode and resolve a policy file. `None` when it has errors
/// (they are in `diags`) or cannot be read.
pub fn load(path: &Path, diags: &mut Diagnostics) -> Option<(SourceFile, Policy)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            diags.push(
                Diagnostic::new(Code::Io, format!("cannot read {}: {e}", path.display()))
                    .help("pass the policy with `--policy FILE`, or create one with `hookc init`"),
            );
            return None;
        }
    };
    let name = path.to_string_lossy().replace('\\', "/");
    let file = SourceFile::new(name.trim_start_matches("./"), text);
    let policy = compile_source(&file, diags)?;
    Some((file, policy))
}

/// Parse, decode and resolve policy text.
pub fn compile_source(file: &SourceFile, diags: &mut Diagnostics) -> Option<Policy> {
    let ast = syntax::read_policy(file, diags)?;
    resolve::resolve(file, &ast, diags)
}

/// Every artifact of every target harness, plus hookc's own compiled policy.
pub fn emit(file: &SourceFile, policy: &Policy, diags: &mut Diagnostics) -> Vec<Artifact> {
    let mut cx = EmitCx::new(file, diags);
    for id in &policy.targets {
        if let Some(harness) = harness::get(*id) {
            harness.emit(policy, &mut cx);
        }
    }
    cx.whole(emit::POLICY_JSON, emit::json_text(policy), false);
    cx.into_artifacts()
}
