//! hookc's integration tests: one binary, one module per topic.

mod support;

mod build;
mod explain;
mod guard;
mod init;
mod out_dir;
mod output;
mod shim;
mod ui;
