//! A harness file with comments or trailing commas, where the harness reads
//! strict JSON, is not merged into: the harness would reject the whole file,
//! hookc's hooks with it, while the build reported them active.

use crate::support::{Project, bundled_for};

#[test]
fn build_refuses_a_claude_settings_file_claude_code_would_reject() {
    let p: Project = bundled_for("claude");
    let settings = "{\n  // the team's permissions\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"model\": \"x\"\n}\n";
    p.write(".claude/settings.json", settings);
    let build = p.hookc(&["build"]);
    assert_eq!(build.status, 2, "{}{}", build.stdout, build.stderr);
    assert!(
        build.stderr.contains("hookc::merge-failed"),
        "{}",
        build.stderr
    );
    assert!(
        build.stderr.contains("Claude Code rejects the whole file"),
        "{}",
        build.stderr
    );
    assert!(
        build.stderr.contains("remove the comments"),
        "{}",
        build.stderr
    );
    assert!(!build.stdout.contains("guards active"), "{}", build.stdout);
    assert_eq!(p.read(".claude/settings.json"), settings);

    // Trailing commas too; without either, the merge keeps the user's keys.
    let trailing = "{\n  \"model\": \"x\",\n}\n";
    p.write(".claude/settings.json", trailing);
    let build = p.hookc(&["build"]);
    assert_eq!(build.status, 2, "{}", build.stderr);
    assert_eq!(p.read(".claude/settings.json"), trailing);
    p.write(".claude/settings.json", "{\n  \"model\": \"x\"\n}\n");
    p.build();
    let merged: serde_json::Value = serde_json::from_str(&p.read(".claude/settings.json")).unwrap();
    assert_eq!(merged["model"], "x");
    assert!(merged["hooks"]["PreToolUse"].is_array());
}

/// Gemini CLI strips comments before it parses: there the merge goes ahead
/// and keeps them.
#[test]
fn build_merges_into_a_gemini_settings_file_with_comments_and_keeps_them() {
    let p: Project = bundled_for("gemini");
    p.write(
        ".gemini/settings.json",
        "{\n  // the team's model\n  \"model\": {\"name\": \"x\"}\n}\n",
    );
    p.build();
    let text = p.read(".gemini/settings.json");
    assert!(text.contains("// the team's model"), "{text}");
    assert!(text.contains("BeforeTool"), "{text}");
}
