//! `out/` is `policy.kdl` compiled: committed, and kept fresh by this test.
//! `SNAPSHOTS=overwrite cargo test` regenerates it.

use std::path::Path;

use crate::support::{Project, golden, repo};

#[test]
fn out_matches_a_fresh_build_of_the_bundled_policy() {
    let p = Project::bundled();
    p.build();
    let built = files(p.dir.path());
    let out = repo().join("out");
    for (rel, text) in &built {
        if rel == "policy.kdl" {
            continue;
        }
        golden(&out.join(rel), text);
        // Shims must be executable in out/ too, or `hookc check --out out` fails.
        let executable = |path: &Path| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(path).unwrap().permissions().mode() & 0o111 != 0
        };
        let want = executable(&p.dir.path().join(rel));
        if crate::support::overwrite() && want {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(out.join(rel), std::fs::Permissions::from_mode(0o755))
                .unwrap();
        }
        assert_eq!(
            executable(&out.join(rel)),
            want,
            "out/{rel}: executable bit differs from a build"
        );
    }
    if !crate::support::overwrite() {
        let expected: Vec<_> = built
            .iter()
            .map(|(r, _)| r.as_str())
            .filter(|r| *r != "policy.kdl")
            .collect();
        let committed: Vec<_> = files(&out).into_iter().map(|(r, _)| r).collect();
        assert_eq!(
            committed, expected,
            "out/ has files a build does not produce"
        );
    }
}

/// The bundled policy is the example every user reads first: it builds for
/// every harness without one warning (a guard a harness cannot run fully
/// says so with `allow-degraded`).
#[test]
fn the_bundled_policy_builds_without_warnings() {
    let p = Project::bundled();
    let run = p.build();
    assert_eq!(run.stderr, "", "the bundled policy's build warns");
}

fn files(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}
