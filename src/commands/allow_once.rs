//! `hookc allow-once CODE`: the user lets one refused call through, from
//! their own terminal (see `crate::audit` for where approvals live and why).

use std::io::{BufRead, IsTerminal, Write};

use crate::audit::{self, Approval, Pending, Scope};
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
            args.code
        );
        return ExitStatus::Error;
    }
    // What the agent lacks: a terminal. Its shell calls are refused before
    // they get here; this is the second lock.
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return fail(
            "hookc allow-once needs your terminal (stdin and stderr): run it yourself in a terminal, not through the agent or a pipe".to_owned(),
        );
    }
    let Some(pending) = audit::read_pending(&code) else {
        return fail(format!(
            "no refused call with the code {code} is waiting: codes last an hour, and only for policies with `allow-once #true`"
        ));
    };
    let now = audit::now();
    if pending.refused + audit::PENDING_SECONDS < now {
        return fail(format!(
            "the call with the code {code} was refused more than an hour ago; let the agent try again for a fresh code"
        ));
    }
    let what = if args.session {
        "for the rest of this agent session (at most 8 hours)".to_owned()
    } else {
        "once, within 15 minutes".to_owned()
    };
    if !confirmed(&pending, &code, &what, now) {
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

/// Show the refused call on the terminal and ask for the code again:
/// whether the user typed it.
fn confirmed(pending: &Pending, code: &str, what: &str, now: u64) -> bool {
    let mut tty_out = std::io::stderr();
    let _ = writeln!(
        tty_out,
        "hookc refused this call {} ago:\n  harness: {}\n  tool:    {}\n  call:    {}\n  guards:  {}\n  project: {}",
        ago(now.saturating_sub(pending.refused)),
        pending.harness,
        pending.tool,
        pending.summary,
        pending.guards.join(", "),
        pending.root.as_deref().unwrap_or("?")
    );
    let _ = write!(
        tty_out,
        "Let exactly this call through {what}? Type the code again to confirm: "
    );
    let _ = tty_out.flush();
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).is_ok() && answer.trim() == code
}

/// The approval of the pending call: once (15 minutes) or for the session.
fn approval(pending: &Pending, code: String, session: bool, now: u64) -> Approval {
    Approval {
        code,
        harness: pending.harness,
        event: pending.event,
        tool: pending.tool.clone(),
        digest: pending.digest.clone(),
        scope: if session { Scope::Session } else { Scope::Once },
        session: pending.session.clone(),
        granted: now,
        expires: now
            + if session {
                audit::SESSION_SECONDS
            } else {
                audit::ONCE_SECONDS
            },
    }
}

fn ago(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min", secs / 60),
        _ => format!("{} h", secs / 3600),
    }
}
