//! Every bad policy under `tests/ui/` with its rendered diagnostics pinned
//! next to it (plain theme, 80 columns). `SNAPSHOTS=overwrite` rewrites them.

use hookc::diag::Diagnostics;
use hookc::diag::render::{Style, human_all};

use crate::support::{golden, repo};

fn render(path: &std::path::Path) -> (String, Vec<String>) {
    let mut diags = Diagnostics::default();
    let rel = path.strip_prefix(repo()).unwrap();
    // cargo runs integration tests in the package root, so this relative
    // path is also the file name the diagnostics show.
    if let Some((file, policy)) = hookc::compile::load(rel, &mut diags) {
        hookc::compile::emit(&file, &policy, &mut diags);
    }
    let sorted = diags.into_sorted();
    let codes = sorted.iter().map(|d| d.code.name().to_owned()).collect();
    (human_all(&sorted, Style::PLAIN), codes)
}

#[test]
fn diagnostics_of_bad_policies_are_pinned() {
    let dir = repo().join("tests/ui");
    let mut seen = std::collections::BTreeSet::new();
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "kdl"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    for case in cases {
        let (text, codes) = render(&case);
        assert!(
            !text.is_empty(),
            "{} produced no diagnostics",
            case.display()
        );
        golden(&case.with_extension("stderr"), &text);
        seen.extend(codes);
    }
    // Every code a policy can trigger has a pinned example.
    for code in hookc::diag::Code::ALL {
        // `hookc lint` codes have their own fixtures (tests/fixtures/lint, tests/cli/lint.rs).
        // The build's own file checks have theirs in tests/cli/hostile_build.rs,
        // and its record of itself in tests/cli/shim.rs; the audit log's
        // tampering in tests/cli/audit_log.rs; a managed build's in
        // tests/cli/managed.rs; a `run` program the project lacks in
        // tests/cli/build.rs and tests/cli/extends.rs.
        if matches!(
            code.name(),
            "io" | "merge-failed"
                | "conflict"
                | "drift"
                | "manifest-invalid"
                | "unsafe-file"
                | "pin-failed"
                | "log-tampered"
                | "no-managed-layer"
                | "managed-not-enforced"
                | "run-missing"
        ) || code.name().starts_with("lint-")
        {
            continue;
        }
        assert!(
            seen.contains(code.name()),
            "no tests/ui case shows hookc::{}",
            code.name()
        );
    }
}
