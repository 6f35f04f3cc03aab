//! `hookc explain`: the long text of a diagnostic code.

use crate::diag::Code;
use crate::exit::ExitStatus;

pub fn explain(code: Option<&str>) -> ExitStatus {
    match code {
        None => {
            for code in Code::ALL {
                println!("{:<28} {}", code.to_string(), code.summary());
            }
            ExitStatus::Success
        }
        Some(name) => match name.parse::<Code>() {
            Ok(code) => {
                println!("{code}: {}\n\n{}", code.summary(), code.explanation());
                ExitStatus::Success
            }
            Err(()) => {
                let names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
                eprintln!(
                    "error: no diagnostic code `{name}`; {}",
                    crate::diag::suggest(name.trim_start_matches("hookc::"), &names)
                );
                ExitStatus::Error
            }
        },
    }
}
