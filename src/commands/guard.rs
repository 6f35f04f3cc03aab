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
    let mut stdout = std::io::stdout().lock();
    let status = runtime::run(
        &request,
        &mut std::io::stdin().lock(),
        &mut stdout,
        &mut std::io::stderr().lock(),
    );
    if let Some(nonce) = std::env::var_os(runtime::NONCE_VAR) {
        runtime::prove(&nonce, &mut stdout);
    }
    status
}
