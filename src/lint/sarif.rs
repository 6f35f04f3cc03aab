//! SARIF 2.1.0 output for `hookc lint --format sarif`.

use serde_json::{Value, json};

use crate::diag::{Code, Diagnostic, Severity};

pub fn report(diags: &[Diagnostic]) -> Value {
    let mut codes: Vec<Code> = diags.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|c| {
            json!({
                "id": c.to_string(),
                "name": c.name(),
                "shortDescription": { "text": c.summary() },
                "fullDescription": { "text": c.explanation() },
                "help": { "text": c.explanation(), "markdown": c.explanation() },
            })
        })
        .collect();
    let results: Vec<Value> = diags
        .iter()
        .map(|d| {
            let mut r = json!({
                "ruleId": d.code.to_string(),
                "ruleIndex": codes.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": { "text": match &d.help { Some(h) => format!("{} ({h})", d.message), None => d.message.clone() } },
            });
            if let Some(f) = &d.file {
                let region = d.labels.first().map(|l| {
                    let (sl, sc) = f.line_col(l.span.start);
                    let (el, ec) = f.line_col(l.span.start + l.span.len);
                    json!({
                        "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec,
                        "charOffset": l.span.start, "charLength": l.span.len,
                    })
                });
                let mut phys = json!({ "artifactLocation": { "uri": f.name.trim_start_matches("./") } });
                if let Some(region) = region {
                    phys["region"] = region;
                }
                r["locations"] = json!([{ "physicalLocation": phys }]);
            }
            r
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "hookc",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}
