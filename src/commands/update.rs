//! `hookc update`: pin each policy `extends` names to the digest of what
//! its source holds now.
//!
//! The one command that fetches without a pin, since pinning is what it is
//! for. It rewrites only the `digest="…"` of each `extends` line (adding
//! one where there is none), so the rest of `policy.kdl`, comments and
//! layout included, stays byte for byte; the file is replaced atomically.

use crate::cli::UpdateArgs;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::exit::ExitStatus;
use crate::extends::{self, Source};
use crate::source::SourceFile;

use super::Ui;

pub fn update(args: &UpdateArgs, ui: &Ui) -> ExitStatus {
    let path = &args.policy;
    let shown = path.to_string_lossy().replace('\\', "/");
    let mut diags = Diagnostics::default();
    let text = match crate::disk::read_text(path) {
        Ok(Some(text)) => text,
        Ok(None) => {
            eprintln!(
                "error: cannot read {shown}: no such file; pass the policy with `--policy FILE`"
            );
            return ExitStatus::Error;
        }
        Err(e) => {
            eprintln!("error: cannot read {shown}: {e}; {}", e.help());
            return ExitStatus::Error;
        }
    };
    let file = SourceFile::new(shown.trim_start_matches("./"), text.clone());
    let Some(ast) = crate::syntax::read_policy(&file, &mut diags).filter(|_| !diags.has_errors())
    else {
        ui.report(diags);
        return ExitStatus::Failure;
    };
    if ast.extends.is_empty() {
        ui.say(&format!("{shown} extends no policy: nothing to pin"));
        return ExitStatus::Success;
    }
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    // Each edit: the byte range it replaces, and the new text.
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut said: Vec<String> = Vec::new();
    for decl in &ast.extends {
        let name = &decl.source.value;
        let fetched =
            Source::of(decl, &extends::Base::Dir(dir.to_owned())).and_then(|source: Source| {
                extends::fetch(&source).map_err(|why| {
                    (
                        decl.source.span,
                        format!("cannot read the policy `extends` names: {why}"),
                        "check the path, URL and rev".to_owned(),
                    )
                })
            });
        let bytes = match fetched {
            Ok((bytes, _)) => bytes,
            Err((at, what, help)) => {
                diags.push(
                    Diagnostic::new(Code::ExtendsSource, what)
                        .in_file(&file)
                        .label(at, "this source")
                        .help(help),
                );
                continue;
            }
        };
        let pin = extends::digest(&bytes);
        match &decl.digest {
            Some(old) if old.value == pin => said.push(format!("{name}: pinned already ({pin})")),
            Some(old) => {
                // The property's value, after `digest=`.
                let at = old.span.range();
                let entry = &text[at.clone()];
                let start = entry.find('=').map_or(0, |eq| {
                    eq + 1 + (entry[eq + 1..].len() - entry[eq + 1..].trim_start().len())
                });
                edits.push((at.start + start..at.end, format!("\"{pin}\"")));
                said.push(format!("{name}: {} → {pin}", old.value));
            }
            None => {
                // Right after the source: wherever the node's other
                // entries and its end are, that is a place for it.
                let end = decl.source.span.range().end;
                edits.push((end..end, format!(" digest=\"{pin}\"")));
                said.push(format!("{name}: pinned {pin}"));
            }
        }
    }
    if diags.has_errors() {
        ui.report(diags);
        return ExitStatus::Failure;
    }
    let mut new = text.clone();
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    for (range, with) in edits {
        new.replace_range(range, &with);
    }
    if new != text
        && let Err(e) = crate::write::write_atomic(path, new.as_bytes(), false)
    {
        eprintln!("error: cannot write {shown}: {e}");
        return ExitStatus::Error;
    }
    for line in said {
        ui.say(&line);
    }
    if new != text {
        ui.say(&format!(
            "wrote {shown}; run `hookc build` to write the hooks and policy.lock"
        ));
    }
    ExitStatus::Success
}
