//! The policy as written: structure decoded from KDL, names not yet resolved.
//!
//! Every leaf keeps its [`Span`] so that later stages (resolve, examples,
//! capability checks) can point into `policy.kdl`. Nothing here knows what a
//! valid event or tool is; that is `resolve`'s job.

use crate::source::{Span, Spanned};

pub type Text = Spanned<String>;

#[derive(Debug, Default)]
pub struct Policy {
    pub hookc_version: Option<Text>,
    pub targets: Option<Spanned<Vec<Text>>>,
    /// `platforms "linux" "macos" "windows"`: where the team runs its agents.
    pub platforms: Option<Spanned<Vec<Text>>>,
    pub timeout: Option<Spanned<i128>>,
    pub on_error: Option<Text>,
    /// `audit-log #true`: every decision goes to the user's audit log.
    pub audit_log: Option<Spanned<Scalar>>,
    /// `allow-once #true`: a refusal names a code the user can approve.
    pub allow_once: Option<Spanned<Scalar>>,
    /// `self-protection "off"`: no guards for hookc's own files.
    pub self_protection: Option<Text>,
    pub harnesses: Vec<HarnessBlock>,
    pub guards: Vec<GuardDecl>,
    /// `lint { allow "lint-matcher-unanchored" }`: levels for `hookc lint`.
    pub lint: Vec<LintLevelDecl>,
    /// `extends "org/policy.kdl" digest="sha256:…"`: policies this one
    /// builds on, in order.
    pub extends: Vec<ExtendsDecl>,
}

/// `extends SOURCE [rev=REF] [path=FILE] digest="sha256:HEX"`: a policy
/// this one builds on and may only tighten. SOURCE is a file path
/// (relative to this policy's folder) or a git URL (`git+URL`), whose
/// `rev` and `path` name the file in it.
#[derive(Debug, Clone)]
pub struct ExtendsDecl {
    pub source: Text,
    pub rev: Option<Text>,
    pub path: Option<Text>,
    pub digest: Option<Text>,
    /// The whole node: inherited guards point here.
    pub span: Span,
}

/// `allow "lint-x" "lint-y"` (or `warn`, `deny`) inside `lint { … }`.
#[derive(Debug)]
pub struct LintLevelDecl {
    pub level: Text,
    pub codes: Vec<Text>,
}

/// `harness "cursor" { loop-limit 3 }`: options for one harness.
#[derive(Debug)]
pub struct HarnessBlock {
    pub name: Text,
    pub options: Vec<HarnessOption>,
}

#[derive(Debug)]
pub struct HarnessOption {
    pub key: Text,
    pub value: Spanned<Scalar>,
}

/// A KDL scalar, kept loosely typed until a stage knows what it should be.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    String(String),
    Integer(i128),
    Float(f64),
    Bool(bool),
    Null,
}

impl Scalar {
    pub fn type_name(&self) -> &'static str {
        match self {
            Scalar::String(_) => "a string",
            Scalar::Integer(_) => "an integer",
            Scalar::Float(_) => "a number with a fraction",
            Scalar::Bool(_) => "a boolean",
            Scalar::Null => "#null",
        }
    }
}

#[derive(Debug)]
pub struct GuardDecl {
    pub name: Text,
    /// For a guard inherited through `extends`: where it is written (the
    /// source, and the line in it).
    pub from: Option<String>,
    /// With `from`: the digest of the file it is written in, so that the
    /// same guard reached through two policies (both built on one base) is
    /// taken once.
    pub pinned: Option<String>,
    /// The whole `guard` node, for labels that point at the guard itself.
    pub span: Span,
    pub event: Option<Text>,
    pub tools: Vec<ToolDecl>,
    pub commands: Vec<CommandDecl>,
    pub regexes: Vec<RegexDecl>,
    pub paths: Vec<Text>,
    /// The `access="…"` of each `path` line that gives one.
    pub path_access: Vec<Text>,
    pub opaque: Option<Text>,
    pub decisions: Vec<DecisionDecl>,
    pub message: Option<Text>,
    /// `run "scripts/check.py"`: the user's program that decides.
    pub run: Option<Text>,
    pub examples: Vec<ExampleDecl>,
    pub allow_degraded: Vec<Text>,
    /// `guard "name" untested="why" { … }`: no examples, on purpose.
    pub untested: Option<Text>,
    /// `override "never"`: `hookc allow-once` cannot let this guard's refusals through.
    pub override_: Option<Text>,
}

#[derive(Debug)]
pub enum ToolDecl {
    /// `tool "shell"`, or `tool (claude)"NotebookEdit"` for a harness's own name.
    Named { name: Text, harness: Option<Text> },
    /// `mcp "server" "tool"`; either may be a glob.
    Mcp { server: Text, tool: Text },
}

/// `command "git" "push" { flag "-f" "--force"; arg "+*" }`
#[derive(Debug)]
pub struct CommandDecl {
    pub span: Span,
    pub words: Vec<Text>,
    pub flags: Vec<Spanned<Vec<Text>>>,
    pub args: Vec<Text>,
}

/// `regex #"…"#`. `inner` is where the pattern's first character sits in the
/// file when that is known exactly (raw strings), so errors can point inside.
#[derive(Debug)]
pub struct RegexDecl {
    pub pattern: Text,
    pub inner: Option<usize>,
}

/// `deny "reason"`, `allow`, …: the node name is the decision.
#[derive(Debug)]
pub struct DecisionDecl {
    pub kind: Text,
    pub reason: Option<Text>,
    /// `rewrite "…" { replace #"regex"# "with" }`: the edits, in order.
    pub replaces: Vec<ReplaceDecl>,
}

/// `replace #"^git "# "git --no-pager "` inside `rewrite`.
#[derive(Debug)]
pub struct ReplaceDecl {
    pub span: Span,
    pub pattern: RegexDecl,
    pub with: Text,
}

/// `example "git push -f" expect="deny"`
#[derive(Debug)]
pub struct ExampleDecl {
    pub span: Span,
    pub command: Option<Text>,
    pub path: Option<Text>,
    pub text: Option<Text>,
    pub tool: Option<Text>,
    /// `server="payments" name="refund_all"`: the MCP tool an example calls.
    pub server: Option<Text>,
    pub name: Option<Text>,
    pub expect: Option<Text>,
}
