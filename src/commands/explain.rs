//! `hookc explain`: the long text of a diagnostic code.

use serde_json::json;

use crate::cli::Format;
use crate::diag::Code;
use crate::exit::ExitStatus;

pub fn explain(code: Option<&str>, format: Format) -> ExitStatus {
    let codes: Vec<Code> = match code {
        None => Code::ALL.to_vec(),
        Some(name) => match name.parse::<Code>() {
            Ok(code) => vec![code],
            Err(()) => {
                let names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
                let message = format!(
                    "no diagnostic code `{name}`; {} (`hookc explain` lists them all)",
                    crate::diag::suggest(name.trim_start_matches("hookc::"), &names)
                );
                eprintln!("error: {message}");
                if format == Format::Json {
                    println!(
                        "{}",
                        json!({"schema_version": 1, "command": "explain", "codes": [], "error": message})
                    );
                }
                return ExitStatus::Error;
            }
        },
    };
    match format {
        Format::Json => {
            let codes: Vec<_> = codes
                .iter()
                .map(|c| {
                    json!({
                        "code": c.to_string(),
                        "name": c.name(),
                        "severity": c.default_severity(),
                        "summary": c.summary(),
                        "explanation": crate::book::explanation(*c),
                    })
                })
                .collect();
            println!(
                "{}",
                json!({"schema_version": 1, "command": "explain", "codes": codes})
            );
        }
        Format::Human if code.is_none() => {
            // One column for the codes, as wide as the longest, so the
            // summaries line up whatever codes are added.
            let width = codes.iter().map(|c| c.to_string().len()).max().unwrap_or(0);
            for code in codes {
                println!("{:<width$}  {}", code.to_string(), code.summary());
            }
        }
        Format::Human => {
            for code in codes {
                println!(
                    "{code}: {}\n\n{}",
                    code.summary(),
                    crate::book::explanation(code)
                );
            }
        }
    }
    ExitStatus::Success
}
