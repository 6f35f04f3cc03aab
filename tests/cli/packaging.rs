//! The package manifests agree with the crate: one version everywhere, and
//! one npm package for each platform that the launcher knows and the release
//! workflow builds. Building the wheel and the npm packages and installing
//! them is tests/packaging/run (run by .ci/run).

use std::collections::{BTreeMap, BTreeSet};

use crate::support::repo;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn json(path: &str) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn toml(path: &str) -> toml_edit::DocumentMut {
    read(path).parse().unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn crate_version() -> String {
    toml("Cargo.toml")["package"]["version"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The directories of npm/ that hold a platform package (all but the launcher).
fn platforms() -> BTreeSet<String> {
    let platforms: BTreeSet<String> = std::fs::read_dir(repo().join("npm"))
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.path().join("package.json").is_file())
        .map(|entry| entry.file_name().into_string().unwrap())
        .filter(|name| name != "hookc")
        .collect();
    assert!(platforms.len() >= 5, "{platforms:?}");
    platforms
}

#[test]
fn every_package_carries_the_crates_version() {
    let version = crate_version();
    let launcher = json("npm/hookc/package.json");
    assert_eq!(launcher["name"], "hookc");
    assert_eq!(
        launcher["version"],
        version.as_str(),
        "npm/hookc/package.json"
    );
    let wanted: BTreeMap<String, serde_json::Value> = platforms()
        .iter()
        .map(|p| (format!("@hookc/cli-{p}"), version.clone().into()))
        .collect();
    let optional: BTreeMap<String, serde_json::Value> =
        serde_json::from_value(launcher["optionalDependencies"].clone()).unwrap();
    assert_eq!(
        optional, wanted,
        "the launcher depends on exactly one package per platform, at its own version"
    );
    for platform in platforms() {
        let path = format!("npm/{platform}/package.json");
        let package = json(&path);
        assert_eq!(package["name"], format!("@hookc/cli-{platform}"), "{path}");
        assert_eq!(package["version"], version.as_str(), "{path}");
    }
    // The wheel takes its version from Cargo.toml.
    let pyproject = toml("pyproject.toml");
    let project = &pyproject["project"];
    assert!(project.get("version").is_none(), "pyproject.toml");
    let dynamic = project["dynamic"].as_array().unwrap();
    assert!(dynamic.iter().any(|v| v.as_str() == Some("version")));
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
}

#[test]
fn each_platform_package_fits_its_platform_and_is_built_on_release() {
    let launcher = read("npm/hookc/bin/hookc");
    let supported: BTreeSet<String> = launcher
        .lines()
        .find_map(|line| line.strip_prefix("const SUPPORTED = ["))
        .expect("the launcher lists the platforms it supports")
        .trim_end_matches("];")
        .split(", ")
        .map(|p| p.trim_matches('"').to_owned())
        .collect();
    assert_eq!(supported, platforms(), "SUPPORTED in npm/hookc/bin/hookc");
    let workflow = read(".github/workflows/release.yml");
    for platform in platforms() {
        let package = json(&format!("npm/{platform}/package.json"));
        let (os, cpu) = platform.split_once('-').unwrap();
        assert_eq!(package["os"], serde_json::json!([os]), "{platform}");
        assert_eq!(package["cpu"], serde_json::json!([cpu]), "{platform}");
        let exe = if os == "win32" { "hookc.exe" } else { "hookc" };
        assert_eq!(package["files"], serde_json::json!([format!("bin/{exe}")]));
        assert_eq!(
            workflow.matches(&format!(" npm: {platform} }}")).count(),
            1,
            "release.yml builds the binary of {platform} once"
        );
    }
}

/// `.ci/run` runs the README's test command, and checks `out/` with the
/// hookc that command built: a `cargo run` there would compile the crate
/// and its dependencies again in another feature set.
#[test]
fn ci_checks_the_bundled_policy_with_the_binary_the_tests_built() {
    let ci = read(".ci/run");
    let lines: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert!(
        lines.iter().any(|l| l.ends_with("cargo test --locked")),
        "the README's test command"
    );
    assert!(
        !lines.iter().any(|l| l.contains("cargo run")),
        ".ci/run builds hookc again with cargo run"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("\"$hookc\" check --policy policy.kdl --out out")),
        ".ci/run checks out/ with the tests' hookc"
    );
    assert!(
        ci.contains("HOOKC_CI_CLEAN"),
        ".ci/run says where its caches stay and how to remove them"
    );
}

/// The Linux binaries are built static and not position-independent (a
/// PIE fixes up its pointers at every start, a cost on every hook call),
/// with the build step reading the flags from the matrix; and the bench
/// times the binary built the same way.
#[test]
fn linux_binaries_are_built_as_the_bench_times_them() {
    const FLAGS: &str = "-C relocation-model=static";
    let workflow = read(".github/workflows/release.yml");
    let entries: Vec<&str> = workflow
        .lines()
        .filter(|l| l.trim_start().starts_with("- { target:"))
        .collect();
    assert!(!entries.is_empty(), "release.yml has a build matrix");
    for entry in &entries {
        assert_eq!(
            entry.contains(&format!("rustflags: \"{FLAGS}\"")),
            entry.contains("-linux-musl"),
            "release.yml: {entry}"
        );
    }
    assert!(
        workflow.contains("RUSTFLAGS: ${{ matrix.rustflags }}"),
        "release.yml's build step takes the matrix's rustflags"
    );
    assert!(
        read("bench/run.sh").contains(&format!("RUSTFLAGS=\"{FLAGS}\"")),
        "bench/run.sh builds the static binary as release.yml does"
    );
}
