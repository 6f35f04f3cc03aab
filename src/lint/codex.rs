//! `hookc lint` on Codex CLI's `config.toml`: the settings it knows come
//! from Codex's profile ([`FileFormat::CodexConfig`](crate::profile::FileFormat)).

use super::other::{parse, to_span};
use super::{FileReport, diag};
use crate::diag::Code;
use crate::source::SourceFile;

/// `settings`: the top-level keys Codex's profile lists for its `config.toml`.
pub fn lint_config(file: &SourceFile, settings: &[&str], report: &mut FileReport) {
    let Some(doc) = parse(file, "Codex", report) else {
        return;
    };
    for (k, _) in doc.as_table().iter() {
        if settings.contains(&k) || k.starts_with("experimental_") {
            continue;
        }
        let (key, _) = doc.as_table().get_key_value(k).expect("just listed");
        report.diags.push(
            diag(
                Code::LintUnknownKey,
                file,
                to_span(key.span()),
                format!("Codex's config has no setting `{k}` (`--strict-config` refuses the file)"),
                "unknown setting",
            )
            .help(
                match crate::diag::did_you_mean(k, settings.iter().copied()) {
                    Some(best) => format!("did you mean `{best}`?"),
                    None => {
                        "remove it; see Codex's configuration reference for the settings it knows"
                            .into()
                    }
                },
            ),
        );
    }
}
