//! Any bytes on `hookc guard`'s stdin, for every harness and event: no panic,
//! exit 0, 1 or 2 only, and nothing on stdout when it fails.
#![no_main]

use std::sync::LazyLock;

use hookc::harness;
use hookc::ir::Event;
use hookc::runtime::{GuardRequest, run};
use libfuzzer_sys::fuzz_target;

static PROJECT: LazyLock<tempfile::TempDir> = LazyLock::new(|| {
    let text = include_str!("../../policy.kdl");
    let file = hookc::source::SourceFile::new("policy.kdl", text);
    let mut diags = hookc::diag::Diagnostics::default();
    let mut policy = hookc::compile::compile_source(&file, &mut diags).expect("bundled policy compiles");
    policy.targets = harness::all().iter().map(|h| h.id()).collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".hookc")).unwrap();
    std::fs::write(dir.path().join(".hookc/policy.json"), serde_json::to_vec(&policy).unwrap()).unwrap();
    dir
});

fuzz_target!(|data: &[u8]| {
    let policy = PROJECT.path().join(".hookc/policy.json");
    let event = Event::ALL[data.first().copied().unwrap_or(0) as usize % Event::ALL.len()];
    for harness in harness::all() {
        let request = GuardRequest { harness: harness.id(), event, policy: &policy, debug: None };
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        let exit = run(&request, &mut &data[..], &mut stdout, &mut stderr);
        assert!(matches!(exit, 0..=2), "exit {exit}");
        if exit == 1 {
            assert!(stdout.is_empty());
        }
    }
});
