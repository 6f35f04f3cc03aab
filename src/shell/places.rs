//! Places the guard finds where the line runs, named by words whose value
//! the shell knows only then: `$PWD` is where the line starts, `$(git
//! rev-parse --show-toplevel)` the top of the work tree there. Both the
//! reading of `cd` (`normalize`) and the files a line touches (`access`)
//! follow them, while the line does not redefine them.

/// A directory the shell names by a word whose value the guard can find
/// out where it runs: `"$PWD/x"` is `x` where the line starts, and `cd
/// "$(git rev-parse --show-toplevel)"` goes to the top of the work tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Where the line starts: `$PWD`, `${PWD}`, `$(pwd)`.
    Start,
    /// The top of the work tree where the line starts: `$(git rev-parse
    /// --show-toplevel)`.
    Top,
}

/// The words that name a [`Place`], as the analysis keeps them.
const PLACES: [(&str, Place); 6] = [
    ("${PWD}", Place::Start),
    ("$PWD", Place::Start),
    ("$(pwd)", Place::Start),
    ("`pwd`", Place::Start),
    ("$(git rev-parse --show-toplevel)", Place::Top),
    ("`git rev-parse --show-toplevel`", Place::Top),
];

/// The place `path` starts with, and the literal rest: `None` unless
/// nothing else in it expands (`$PWD/$f` is any file) and the rest cannot
/// make the word another (`$PWDX` is another variable).
pub fn place(path: &str) -> Option<(Place, &str, &str)> {
    let (word, place) = PLACES.iter().find(|(w, _)| path.starts_with(w))?;
    let rest = &path[word.len()..];
    let other_name = *word == "$PWD" && rest.starts_with(|c: char| c.is_alphanumeric() || c == '_');
    let expands = rest.contains(['$', '`', '*', '?', '[', '{', '~']) || rest.contains("<(");
    (!other_name && !expands).then_some((*place, word, rest))
}

/// Whether the line names the places only through the words of [`PLACES`],
/// so that they hold what the guard finds: it assigns no `PWD` (`PWD=x`,
/// `read PWD`, `${PWD:=x}`), changes no lookup of `pwd` or `git` (`PATH`,
/// `hash`, `enable`, a function or alias of that name), and points git at
/// no other repository (`GIT_DIR`, `GIT_WORK_TREE`).
pub fn places_hold(line: &str) -> bool {
    let count = |s: &str| line.matches(s).count();
    let pwd_words = count("${PWD}")
        + line
            .match_indices("$PWD")
            .filter(|(i, _)| !line[i + 4..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            .count();
    let pwd_commands = count("$(pwd)") + count("`pwd`");
    ["PATH", "GIT_", "hash", "enable", "alias", "()", "function"]
        .iter()
        .all(|w| !line.contains(w))
        && count("PWD") == pwd_words
        && count("pwd") == pwd_commands
}
