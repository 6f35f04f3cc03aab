//! hookc's integration tests: one binary, one module per topic.

mod support;

mod agent_sdk;
mod book;
mod build;
mod build_summary;
mod console;
mod corpus;
mod cross_loading;
mod example_parity;
mod explain;
mod guard;
mod harness_antigravity;
mod harness_codex;
mod harness_copilot;
mod harness_cursor;
mod harness_gemini;
mod harness_kimi;
mod harness_opencode;
mod hostile;
mod hostile_build;
mod init;
mod lint;
mod out_dir;
mod output;
mod packaging;
mod policy_search;
mod precommit;
mod readme;
mod shim;
mod simulate;
mod test_cmd;
mod ui;
mod verdicts;
