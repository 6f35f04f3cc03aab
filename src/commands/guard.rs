//! `hookc guard`: hand the process's streams to the runtime.

use crate::cli::GuardArgs;
use crate::runtime::{self, GuardRequest};

pub fn guard(args: &GuardArgs) -> i32 {
    let request = GuardRequest {
        harness: args.harness,
        event: args.event,
        policy: &args.policy,
        debug: args.debug.as_deref(),
    };
    runtime::run(
        &request,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}
