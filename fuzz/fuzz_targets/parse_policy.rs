//! Any text as `policy.kdl`: diagnostics or a policy, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let file = hookc::source::SourceFile::new("policy.kdl", text);
    let mut diags = hookc::diag::Diagnostics::default();
    if let Some(policy) = hookc::compile::compile_source(&file, &mut diags) {
        let _ = hookc::compile::emit(&file, &policy, &mut diags);
    }
    // Rendering must not panic on any span the front end produced.
    for d in diags.into_sorted() {
        let _ = hookc::diag::render::human(&d, hookc::diag::render::Style::PLAIN);
    }
});
