//! The front half of the pipeline: `policy.kdl` → [`ir::Policy`] → artifacts.

use std::path::Path;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::emit::{self, Artifact, EmitCx};
use crate::harness;
use crate::ir::Policy;
use crate::source::SourceFile;
use crate::{resolve, syntax};

/// Read, parse, decode and resolve a policy file. `None` when it has errors
/// (they are in `diags`) or cannot be read.
pub fn load(path: &Path, diags: &mut Diagnostics) -> Option<(SourceFile, Policy)> {
    let text = match crate::disk::read_text(path) {
        Ok(Some(text)) => text,
        Ok(None) => {
            diags.push(
                Diagnostic::new(
                    Code::Io,
                    format!("cannot read {}: no such file", path.display()),
                )
                .help("pass the policy with `--policy FILE`, or create one with `hookc init`"),
            );
            return None;
        }
        Err(e) => {
            diags.push(
                Diagnostic::new(Code::Io, format!("cannot read {}: {e}", path.display()))
                    .help(e.help()),
            );
            return None;
        }
    };
    let name = path.to_string_lossy().replace('\\', "/");
    let file = SourceFile::new(name.trim_start_matches("./"), text);
    let policy = compile_source(&file, diags)?;
    Some((file, policy))
}

/// `.hookc/policy.json`: compact JSON, one line per part, so that
/// `hookc guard` can read the head and the index of its event and then parse
/// only the guards the call can reach (see `runtime::load_policy`), and a
/// changed guard shows up as one changed line in `hookc check`:
///
/// ```text
/// {"format":2,"source":"policy.kdl",…,"targets":[…],"layout":{…,"build":"…"},"sum":"…",
/// "index":[
/// {"event":"pre-tool","programs":[["git",[0,1]]],…,"sum":"…"},
/// {"event":"prompt",…,"sum":"…"}
/// ],
/// "guards":[
/// {"name":"no-force-push",…,"sum":"…"},
/// {"name":"no-hard-reset",…,"sum":"…"}
/// ]}
/// ```
///
/// Every line ends with a digest (`"sum"`, see [`line_sum`]) that
/// `hookc guard` checks before it uses the line, so that a hand edit (a
/// guard changed, two lines swapped, a line from another build) is refused
/// rather than obeyed. The lines' digests are keyed with `layout.build`, a
/// digest of all of them, which the head's own digest covers.
pub fn policy_json(policy: &Policy) -> String {
    let head = Policy {
        guards: Vec::new(),
        ..policy.clone()
    };
    let head = serde_json::to_string(&head).expect("the IR serialises");
    let head = head
        .strip_suffix("\"guards\":[]}")
        .expect("guards is the last field of the IR");
    let lines = |parts: Vec<String>| {
        let mut text = parts.join(",\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text
    };
    let built = crate::eval::Index::build(&policy.guards);
    // Each line as an object without its closing brace, where its digest goes.
    let open = |json: String| json.strip_suffix('}').expect("an object").to_owned();
    let index: Vec<String> = built
        .iter()
        .map(|i| open(serde_json::to_string(i).expect("the index serialises")))
        .collect();
    let guards: Vec<String> = policy
        .guards
        .iter()
        .map(|g| open(serde_json::to_string(g).expect("the IR serialises")))
        .collect();
    let build = build_sum(index.iter().chain(&guards).map(String::as_bytes));
    // What the lines below hold, so that `hookc guard`, which reads only some
    // of them, still notices a line gone missing.
    let layout = serde_json::json!({
        "guards": policy.guards.len(),
        "indexed": built.iter().map(|i| i.event).collect::<Vec<_>>(),
        "build": build,
    });
    let sealed = |kind: u8, parts: Vec<String>| {
        parts
            .into_iter()
            .enumerate()
            .map(|(at, body)| {
                let sum = line_sum(&build, kind, at, body.as_bytes());
                format!("{body},\"sum\":\"{sum}\"}}")
            })
            .collect::<Vec<String>>()
    };
    let index = lines(sealed(b'i', index));
    let guards = lines(sealed(b'g', guards));
    let head = format!("{head}\"layout\":{layout},");
    let sum = line_sum(&build, b'h', 0, head.as_bytes());
    format!("{head}\"sum\":\"{sum}\",\n\"index\":[\n{index}],\n\"guards\":[\n{guards}]}}\n")
}

/// The digest of one line of `.hookc/policy.json`: FNV-1a (64 bits) of the
/// build's digest, the kind of line (`h`ead, `i`ndex, `g`uard), its position
/// and its text up to the digest. It tells a line `hookc build` wrote there
/// from any other; it is no secret (see the book's security chapter).
pub fn line_sum(build: &str, kind: u8, at: usize, body: &[u8]) -> String {
    let mut hash = Fnv::default();
    hash.write(build.as_bytes());
    hash.write(&[0, kind]);
    hash.write(&(at as u64).to_le_bytes());
    hash.write(body);
    format!("{:016x}", hash.0)
}

/// The digest of a whole build: of every index and guard line, in order.
fn build_sum<'a>(bodies: impl Iterator<Item = &'a [u8]>) -> String {
    let mut hash = Fnv::default();
    for body in bodies {
        hash.write(body);
        hash.write(b"\n");
    }
    format!("{:016x}", hash.0)
}

/// FNV-1a, 64 bits: the same on every platform and Rust version.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Parse, decode and resolve policy text.
pub fn compile_source(file: &SourceFile, diags: &mut Diagnostics) -> Option<Policy> {
    let ast = syntax::read_policy(file, diags)?;
    resolve::resolve(file, ast, diags)
}

/// Every artifact of every target harness, plus hookc's own compiled policy.
pub fn emit(file: &SourceFile, policy: &Policy, diags: &mut Diagnostics) -> Vec<Artifact> {
    let mut cx = EmitCx::new(file, diags);
    for id in &policy.targets {
        if let Some(harness) = harness::get(*id) {
            harness.emit(policy, &mut cx);
            if let (Some(at), Some((what, fix))) =
                (policy.windows, harness.on_windows(policy).gap())
            {
                cx.diags.push(
                    Diagnostic::new(Code::WindowsUnguarded, format!("{id} on Windows: {what}"))
                        .in_file(file)
                        .label(at, "the policy is for Windows too")
                        .help(fix),
                );
            }
        }
    }
    cx.whole(emit::POLICY_JSON, policy_json(policy), false);
    cx.into_artifacts()
}

/// The front end on hostile text: diagnostics or a policy, never a panic,
/// and every diagnostic renders (spans stay inside the text).
#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    use super::*;
    use crate::diag::render::{Style, human};

    fn front_end(text: &str) {
        let file = SourceFile::new("policy.kdl", text);
        let mut diags = Diagnostics::default();
        if let Some(policy) = compile_source(&file, &mut diags) {
            let _ = emit(&file, &policy, &mut diags);
        }
        for d in diags.into_sorted() {
            let _ = human(&d, Style::PLAIN);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            crate::test_cases("HOOKC_FUZZ_CASES", 64)
        ))]

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            front_end(&text);
        }

        /// The bundled policy with a slice cut out and random text put in.
        #[test]
        fn mangled_policies_never_panic(at in 0usize..4000, len in 0usize..60, insert in "[\\PC\"#{};=()\\\\\n]{0,12}") {
            let text = include_str!("../policy.kdl");
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) { at -= 1; }
            let mut end = (at + len).min(text.len());
            while !text.is_char_boundary(end) { end -= 1; }
            front_end(&format!("{}{}{}", &text[..at], insert, &text[end..]));
        }
    }
}
