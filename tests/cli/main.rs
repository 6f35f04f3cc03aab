//! hookc's integration tests: one binary, one module per topic.

mod support;

mod book;
mod build;
mod console;
mod explain;
mod guard;
mod init;
mod out_dir;
mod output;
mod readme;
mod shim;
mod ui;
