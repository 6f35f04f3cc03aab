//! What a line does to its own later commands by writing files: a file it
//! sources after writing it, a program it copies, links or moves into place
//! under another name and then runs (`ln -s /bin/rm ./del && ./del -rf .`).
//! The access model ([`super::access`]) knows what each command writes; the
//! normaliser, which reads the line before that is known, does not, so the
//! checks run on the finished analysis.

use super::access::{self, Touch};
use super::lex::push_reason;
use super::normalize::{Analysis, SimpleCommand};
use super::pattern::normalize_arg;

/// Programs that put an existing file at a new name.
const RENAMERS: &[&str] = &[
    "cp", "gcp", "ln", "gln", "link", "mv", "gmv", "install", "ginstall", "rsync",
];

/// Mark the analysis opaque where the line runs a file it has just written
/// in a way no guard can read.
pub fn check(analysis: &mut Analysis) {
    let mut reasons = Vec::new();
    if !analysis.sourced.is_empty() {
        let writes: Vec<Touch> = access::touches(analysis)
            .into_iter()
            .filter(|t| t.access.writes())
            .collect();
        for file in &analysis.sourced {
            if writes.iter().any(|t| names(&t.path, file)) {
                reasons.push(format!(
                    "`{file}`, which the line writes and sources (hookc read it as it is now)"
                ));
            }
        }
    }
    let renamed = renamed_names(&analysis.commands);
    for cmd in &analysis.commands {
        if renamed.contains(&cmd.program) {
            reasons.push(format!(
                "`{}`, a program the line itself copies, links or moves into place",
                cmd.program
            ));
        }
    }
    for r in reasons {
        push_reason(&mut analysis.opaque, r);
    }
}

/// The last path component of every file a renaming program writes.
fn renamed_names(commands: &[SimpleCommand]) -> Vec<String> {
    let mut names = Vec::new();
    for cmd in commands
        .iter()
        .filter(|c| RENAMERS.contains(&c.program.as_str()))
    {
        let mut touches = Vec::new();
        access::command(cmd, &mut touches);
        for t in touches.iter().filter(|t| t.access.writes()) {
            let path = normalize_arg(&t.path);
            if let Some(name) = path.rsplit('/').next().filter(|n| !n.is_empty()) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// Whether the written path `written` (a file, a folder, or a glob) may be
/// the file `file`, both as written in the line.
fn names(written: &str, file: &str) -> bool {
    let strip = |p: &str| -> String {
        let p = normalize_arg(p);
        p.strip_prefix("./").unwrap_or(&p).to_owned()
    };
    let (written, file) = (strip(written), strip(file));
    written == file
        || file.starts_with(&format!("{written}/"))
        || (access::is_glob(&written)
            && globset::Glob::new(&written).is_ok_and(|g| g.compile_matcher().is_match(&file)))
}

#[cfg(test)]
mod tests {
    use crate::shell::analyze;

    fn opaque(line: &str) -> bool {
        analyze(line).is_opaque()
    }

    #[test]
    fn a_program_renamed_in_the_line_is_opaque() {
        assert!(opaque("ln -s /bin/rm ./del && ./del -rf ."));
        assert!(opaque("cp /usr/bin/git /tmp/g; /tmp/g push --force"));
        assert!(opaque("mv ./rm-copy ./tidy && ./tidy -rf ."));
        // A link to a document, a copy that keeps its name: nothing renamed runs.
        assert!(!opaque(
            "ln -s ../README.md docs/README.md && cat docs/README.md"
        ));
        assert!(!opaque("cp /usr/bin/git /tmp/ && /tmp/git status"));
    }
}
