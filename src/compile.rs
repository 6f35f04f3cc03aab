//! The front half of the pipeline: `policy.kdl` → [`ir::Policy`] → artifacts.

use std::path::Path;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{self, Artifact, EmitCx};
use crate::harness;
use crate::ir::Policy;
use crate::source::SourceFile;
use crate::{extends, resolve, syntax};

/// Read, parse, decode and resolve a policy file. `None` when it has errors
/// (they are in `diags`) or cannot be read.
pub fn load(path: &Path, diags: &mut Diagnostics) -> Option<(SourceFile, Policy)> {
    let (file, policy) = load_despite_examples(path, diags)?;
    (!diags.has_errors()).then_some((file, policy))
}

/// Like [`load`], but a policy whose only errors are failing examples is
/// still given (the failures reported in `diags`): `hookc why` explains it.
pub fn load_despite_examples(path: &Path, diags: &mut Diagnostics) -> Option<(SourceFile, Policy)> {
    let text = match crate::disk::read_text(path) {
        Ok(Some(text)) => text,
        Ok(None) => {
            diags.push(
                Diagnostic::new(
                    Code::Io,
                    format!("cannot read {}: no such file", path.display()),
                )
                .help("pass the policy with `--policy FILE`, or create one with `hookc init`"),
            );
            return None;
        }
        Err(e) => {
            diags.push(
                Diagnostic::new(Code::Io, format!("cannot read {}: {e}", path.display()))
                    .help(e.help()),
            );
            return None;
        }
    };
    let name = path.to_string_lossy().replace('\\', "/");
    let file = SourceFile::new(name.trim_start_matches("./"), text);
    let mut ast = syntax::read_policy(&file, diags)?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let before = diags.error_count();
    let extends = extends::layer(&file, &mut ast, &extends::Base::Dir(dir.to_owned()), diags);
    if diags.error_count() > before {
        // Guards missing or doubled would only add errors that mislead.
        return None;
    }
    let mut policy = resolve::resolve_despite_examples(&file, ast, diags)?;
    policy.extends = extends;
    Some((file, policy))
}

/// Parse, decode and resolve policy text; an `extends` is read from the
/// current folder.
pub fn compile_source(file: &SourceFile, diags: &mut Diagnostics) -> Option<Policy> {
    let mut ast = syntax::read_policy(file, diags)?;
    let extends = extends::layer(file, &mut ast, &extends::Base::Dir(".".into()), diags);
    let mut policy = resolve::resolve(file, ast, diags)?;
    policy.extends = extends;
    Some(policy)
}

/// Every artifact of every target harness, plus hookc's own compiled policy.
pub fn emit(file: &SourceFile, policy: &Policy, diags: &mut Diagnostics) -> Vec<Artifact> {
    let mut cx = EmitCx::new(file, diags);
    for id in &policy.targets {
        if let Some(harness) = harness::get(*id) {
            harness.emit(policy, &mut cx);
            if let (Some(at), Some((what, fix))) =
                (policy.windows, harness.on_windows(policy).gap())
            {
                cx.diags.push(
                    Diagnostic::new(Code::WindowsUnguarded, format!("{id} on Windows: {what}"))
                        .in_file(file)
                        .label(at, "the policy is for Windows too")
                        .help(fix),
                );
            }
        }
    }
    cx.whole(emit::POLICY_JSON, crate::policy_json::write(policy), false);
    if !policy.extends.is_empty() {
        cx.whole(emit::POLICY_LOCK, extends::lock(&policy.extends), false);
    }
    cx.into_artifacts()
}

/// A managed install's artifacts (see [`crate::managed`]): each target
/// harness's administrator file and shims, and the compiled policy in
/// hookc's folder of the managed machine. A harness without an
/// administrator layer is left out, with a warning.
pub fn emit_managed(
    file: &SourceFile,
    policy: &Policy,
    install: &crate::managed::Install,
    diags: &mut Diagnostics,
) -> Vec<Artifact> {
    let compiled = crate::policy_json::write(policy);
    let mut cx = EmitCx::new(file, diags);
    cx.managed_hookc = Some(emit::sh_word(&install.hookc));
    cx.managed_build = crate::policy_json::build_of(compiled.as_bytes()).map(str::to_owned);
    let mut left_out = Vec::new();
    for id in &policy.targets {
        match harness::get(*id) {
            Some(h)
                if let Some(layer) = h.managed_layer()
                    && layer.on(install.os).is_none() =>
            {
                // A layer that has no file on this system: the harness
                // cannot run hookc's hooks there (Windows).
                let what = layer
                    .file
                    .missing_on(install.os)
                    .unwrap_or("hookc has no administrator file for it on this system");
                cx.diags.push(
                    Diagnostic::new(
                        Code::NoManagedLayer,
                        format!(
                            "{} on {}: {what}; the managed install leaves it out",
                            h.profile().name,
                            install.os.name()
                        ),
                    )
                    .severity(crate::diag::Severity::Warning)
                    .help(format!(
                        "take `{}` out of this policy's `targets` for these machines, and guard it in WSL or per repository where it can run hookc (the book's platforms page)",
                        id.word()
                    )),
                );
            }
            Some(h) if let Some(layer) = h.managed_layer() => {
                h.emit_managed(policy, &mut cx, install);
                if let Some(how) = layer.not_enforced {
                    cx.diags.push(
                        Diagnostic::new(
                            Code::ManagedNotEnforced,
                            format!("{}: {how}", h.profile().name),
                        )
                        .severity(crate::diag::Severity::Warning)
                        .help("`hookc explain managed-not-enforced` says what to do where that matters"),
                    );
                }
            }
            Some(h) => left_out.push((h.profile().name, id.word())),
            None => {}
        }
    }
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|(name, _)| *name).collect();
        let words: Vec<String> = left_out.iter().map(|(_, w)| format!("`{w}`")).collect();
        cx.diags.push(
            Diagnostic::new(
                Code::NoManagedLayer,
                format!(
                    "no administrator layer hookc can write for {}; the managed install leaves {} out",
                    names.join(", "),
                    if names.len() == 1 { "it" } else { "them" }
                ),
            )
            .severity(crate::diag::Severity::Warning)
            .help(format!(
                "guard them per repository with `hookc build`, or take {} out of this policy's `targets`",
                words.join(", ")
            )),
        );
    }
    cx.whole(
        format!("{}/policy.json", install.hookc_dir()),
        compiled,
        false,
    );
    cx.into_artifacts()
}

/// The front end on hostile text: diagnostics or a policy, never a panic,
/// and every diagnostic renders (spans stay inside the text).
#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;
    use crate::diag::render::{Style, human};

    fn front_end(text: &str) {
        let file = SourceFile::new("policy.kdl", text);
        let mut diags = Diagnostics::default();
        if let Some(policy) = compile_source(&file, &mut diags) {
            let _ = emit(&file, &policy, &mut diags);
        }
        for d in diags.into_sorted() {
            let _ = human(&d, Style::PLAIN);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            crate::test_cases("HOOKC_FUZZ_CASES", 64)
        ))]

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            front_end(&text);
        }

        /// The bundled policy with a slice cut out and random text put in.
        #[test]
        fn mangled_policies_never_panic(at in 0usize..4000, len in 0usize..60, insert in "[\\PC\"#{};=()\\\\\n]{0,12}") {
            let text = include_str!("../policy.kdl");
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) { at -= 1; }
            let mut end = (at + len).min(text.len());
            while !text.is_char_boundary(end) { end -= 1; }
            front_end(&format!("{}{}{}", &text[..at], insert, &text[end..]));
        }
    }
}
