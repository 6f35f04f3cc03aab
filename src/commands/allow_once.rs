//! `hookc allow-once CODE`: the user lets one refused call through, from
//! their own terminal (see `crate::audit` for where approvals live and why,
//! and `crate::audit::lineage` for what "their own terminal" is checked to be).

use std::io::{BufRead, Write};

use crate::audit::{self, Approval, Pending, PendingError, Scope, lineage, redact};
use crate::cli::AllowOnceArgs;
use crate::exit::ExitStatus;

pub fn allow_once(args: &AllowOnceArgs) -> ExitStatus {
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitStatus::Failure
    };
    let code = args.code.trim().to_ascii_lowercase();
    if !audit::valid_code(&code) {
        eprintln!(
            "error: `{}` is not a code hookc gives: 8 hexadecimal digits, as the refusal shows them (`hookc allow-once 7f3a9c21`)",
            audit::visible(&args.code).0
        );
        return ExitStatus::Error;
    }
    // What the agent lacks: a terminal of its own. Its shell calls are
    // refused before they get here; this is the second lock.
    let terminal = match lineage::own_terminal() {
        Ok(t) => t,
        Err(message) => return fail(message),
    };
    let pending = match audit::read_pending(&code) {
        Ok(p) => p,
        Err(PendingError::Missing) => {
            return fail(format!(
                "no refused call with the code {code} is waiting: codes last an hour, and only for policies with `allow-once #true`"
            ));
        }
        Err(PendingError::Forged) => {
            return fail(format!(
                "the record of the call with the code {code} was not written by hookc (its seal does not verify): something other than hookc wrote or changed it; nothing was approved"
            ));
        }
        Err(PendingError::State(e)) => return fail(e.to_string()),
        Err(PendingError::Io(e)) => return fail(format!("cannot read hookc's key: {e}")),
    };
    let now = audit::now();
    if pending.refused + audit::PENDING_SECONDS < now {
        return fail(format!(
            "the call with the code {code} was refused more than an hour ago; let the agent try again for a fresh code"
        ));
    }
    if let Err(message) = lineage::not_the_agents(&terminal, pending.lineage.as_ref()) {
        return fail(format!("{message}; nothing was approved"));
    }
    let what = if args.session {
        "for the rest of this agent session (at most 8 hours)".to_owned()
    } else {
        "once, within 15 minutes".to_owned()
    };
    if !confirmed(&terminal, &pending, &code, &what, now) {
        return fail("not confirmed; nothing was approved".to_owned());
    }
    let approval = approval(&pending, code.clone(), args.session, now);
    if let Err(e) = audit::write_approval(&approval) {
        return fail(format!("could not write the approval: {e}"));
    }
    if let Some(root) = &pending.root {
        audit::record_approval(root, &approval, &pending.summary);
    }
    println!("hookc: approved {code} {what}; tell the agent to run the same call again");
    ExitStatus::Success
}

/// The prompt: the refused call, whole, with every character a terminal
/// would not show as itself escaped, and what else the user should know
/// to read it.
pub fn prompt(pending: &Pending, now: u64) -> String {
    let v = |s: &str| audit::visible(s).0;
    let escaped = redact::needs_escapes(&pending.summary);
    let call: Vec<String> = pending
        .summary
        .split('\n')
        .map(|line| redact::escape(line, escaped))
        .collect();
    let mut text = format!(
        "hookc refused this call {} ago:\n  harness: {}\n  tool:    {}\n  project: {}\n",
        ago(now.saturating_sub(pending.refused)),
        pending.harness,
        v(&pending.tool),
        v(pending.root.as_deref().unwrap_or("?")),
    );
    if let Some(session) = &pending.session {
        text.push_str(&format!("  session: {}\n", v(session)));
    }
    text.push_str(&format!(
        "  guards:  {}\n  call ({} characters, shown whole):\n    {}\n",
        v(&pending.guards.join(", ")),
        pending.summary.chars().count(),
        // A line break of the call is shown as `\n` and then a new line.
        call.join("\\n\n    ")
    ));
    if escaped {
        text.push_str("  (characters a terminal would not show as they are are written as escapes: \\x1b for ESC, \\n for a line break, \\u{202e} for a right-to-left mark; a backslash of the call is written \\\\)\n");
    }
    if pending.summary.contains("***") {
        text.push_str("  (*** stands for a secret hookc does not keep: always literal text, never anything the shell expands or runs)\n");
    }
    let odd = redact::lookalikes(&pending.summary);
    if !odd.is_empty() {
        text.push_str(&format!(
            "  (non-ASCII letters in it, which may look like others: {})\n",
            odd.join(", ")
        ));
    }
    text
}

/// Show the refused call on the terminal and ask for the code again:
/// whether the user typed it.
fn confirmed(
    terminal: &lineage::Terminal,
    pending: &Pending,
    code: &str,
    what: &str,
    now: u64,
) -> bool {
    let question = format!(
        "{}Let exactly this call through {what}? Type the code again to confirm: ",
        prompt(pending, now)
    );
    let mut answer = String::new();
    #[cfg(unix)]
    {
        let mut out = &terminal.tty;
        let _ = out.write_all(question.as_bytes());
        let _ = out.flush();
        if std::io::BufReader::new(&terminal.tty)
            .read_line(&mut answer)
            .is_err()
        {
            return false;
        }
    }
    #[cfg(not(unix))]
    {
        let _ = terminal;
        let mut out = std::io::stderr();
        let _ = out.write_all(question.as_bytes());
        let _ = out.flush();
        if std::io::stdin().lock().read_line(&mut answer).is_err() {
            return false;
        }
    }
    answer.trim() == code
}

/// The approval of the pending call: once (15 minutes) or for the session,
/// for its project and session.
fn approval(pending: &Pending, code: String, session: bool, now: u64) -> Approval {
    let scope = if session { Scope::Session } else { Scope::Once };
    Approval {
        code,
        harness: pending.harness,
        event: pending.event,
        tool: pending.tool.clone(),
        digest: pending.digest.clone(),
        scope,
        session: pending.session.clone(),
        root: pending.root.clone(),
        granted: now,
        expires: now + scope.seconds(),
    }
}

fn ago(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min", secs / 60),
        _ => format!("{} h", secs / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Event, HarnessId};

    fn pending(summary: &str) -> Pending {
        Pending {
            code: "1234abcd".into(),
            harness: HarnessId::Claude,
            event: Event::PreTool,
            tool: "Bash".into(),
            digest: "d".into(),
            summary: summary.into(),
            guards: vec!["no-force-push".into()],
            session: Some("s1".into()),
            root: Some("/p".into()),
            refused: 100,
            lineage: None,
        }
    }

    #[test]
    fn the_prompt_shows_the_call_whole_and_escaped() {
        let long = format!("Bash git push --force origin {}", "b".repeat(5000));
        let p = prompt(&pending(&long), 103);
        assert!(p.contains(&"b".repeat(5000)), "cut");
        let p = prompt(&pending("Bash echo ok\x1b[2K\rgit push -f\u{202e}"), 103);
        assert!(
            !p.contains('\x1b') && !p.contains('\r') && !p.contains('\u{202e}'),
            "{p}"
        );
        assert!(p.contains("echo ok\\x1b[2K\\rgit push -f\\u{202e}"), "{p}");
        assert!(p.contains("written as escapes"), "{p}");
        let p = prompt(&pending("Bash a\nb"), 103);
        assert!(p.contains("a\\n\n    b"), "{p}");
        let p = prompt(&pending("Bash mysql --password=*** db"), 103);
        assert!(p.contains("never anything the shell expands"), "{p}");
    }
}
