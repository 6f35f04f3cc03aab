//! hookc's integration tests: one binary, one module per topic.

mod support;

mod build;
mod explain;
mod guard;
mod harness_antigravity;
mod harness_gemini;
mod harness_kimi;
mod harness_opencode;
mod out_dir;
mod shim;
mod ui;
