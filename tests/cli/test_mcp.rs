//! `hookc test` sends MCP examples through the generated hooks of every
//! harness whose MCP tool names hookc knows, instead of marking them n/a.

use crate::support::{Project, path_with_hookc, run};

const POLICY: &str = r#"guard "no-refunds" {
    mcp "payments" "refund_*"
    deny "Do not refund from the agent; open a ticket for the payments team instead."
    example tool="mcp" server="payments" name="refund_all" expect="deny"
    example tool="mcp" server="payments" name="charge" expect="allow"
}
"#;

#[test]
fn mcp_examples_run_through_the_hooks_of_every_harness_that_names_mcp_tools() {
    let p = Project::new();
    p.write("policy.kdl", POLICY);
    let build = p.hookc(&["build"]);
    assert_eq!(build.status, 0, "{}", build.stderr);
    // The harnesses whose MCP calls the guard does not see, as the build
    // warns (their MCP naming is not established, their payloads carry no
    // MCP call, or, in Letta Code, MCP tools are called through the shell
    // tool): `hookc test` has no call of theirs to send.
    let unsupported = crate::support::unsupported_targets(&p);
    let unseen = &unsupported["no-refunds"];
    let r = run(
        std::process::Command::new(crate::support::HOOKC)
            .args(["test", "--format", "json"])
            .current_dir(p.dir.path())
            .env("HOME", p.path("home"))
            .env("PATH", path_with_hookc()),
        None,
    );
    assert_eq!(r.status, 0, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    // Every registered harness runs the examples through its hooks, or,
    // where listed as unable to, says "n/a" (never passes).
    for h in hookc::harness::all() {
        let profile = h.profile();
        let harness = profile.id.word();
        let named = !unseen.iter().any(|w| w == harness);
        for (case, expected) in [
            ("mcp payments/refund_all", "blocks"),
            ("mcp payments/charge", "proceeds"),
        ] {
            let row = rows
                .iter()
                .find(|r| r["harness"] == harness && r["case"] == case)
                .unwrap_or_else(|| panic!("no {harness} row for {case}"));
            if !named {
                assert!(
                    row["not_applicable"].is_string(),
                    "{harness} sends MCP calls the build warns it cannot see: {row:#}"
                );
                continue;
            }
            assert!(
                row["not_applicable"].is_null(),
                "{harness} sends no MCP call in `hookc test`, and the build does not warn that the guard misses MCP calls there: give it MCP payloads, or the build a warning: {row:#}"
            );
            assert_eq!(row["got"], expected, "{harness} {case}: {row:#}");
            assert_eq!(row["ok"], true, "{row:#}");
        }
        if !named {
            continue;
        }
        // The failure paths go through the MCP hook where that is the only one.
        let garbage = rows
            .iter()
            .find(|r| r["harness"] == harness && r["case"] == "garbage stdin")
            .unwrap();
        assert_eq!(garbage["got"], "blocks", "{garbage:#}");
    }
    let refused = rows
        .iter()
        .find(|r| r["harness"] == "claude" && r["case"] == "mcp payments/refund_all")
        .unwrap();
    assert!(
        refused["model_reads"]
            .as_str()
            .unwrap()
            .contains("open a ticket"),
        "{refused:#}"
    );
    // Antigravity's MCP names are not known: said, not failed.
    let na = rows
        .iter()
        .find(|r| r["harness"] == "antigravity" && r["case"] == "mcp payments/refund_all")
        .unwrap();
    assert!(na["not_applicable"].is_string(), "{na:#}");
    assert_eq!(v["failed"].as_u64().unwrap_or(0), 0, "{}", r.stdout);
}
