//! Code in another language that provably cannot run a program, open a
//! file or load code: `python3 -c 'print(1 + 1)'`, `node -e
//! 'console.log(process.version)'`, `perl -pi -e 's/foo/bar/' f`.
//!
//! hookc does not read Python, JavaScript or Perl, so code on an
//! interpreter's command line is opaque, and a guard with command patterns
//! refuses it. Agents write such one-liners all the time to print a version
//! or pick a field out of JSON; refusing them protects nothing (the agent
//! writes the same code to a file and runs that) and teaches the agent to
//! hide code in files. So a one-liner is *inert* when every name in it is on
//! a short list of names that compute and print, nothing more, and it has
//! none of the few constructs that reach other names through strings.
//!
//! The check is a scan of identifiers, not a parser: it may call harmless
//! code opaque (a name not on the list, an identifier inside a string), but
//! never the reverse, as long as each list holds only names that cannot
//! start a process, touch a file or evaluate a string:
//! - Python: no `open`, `exec`, `eval`, `compile`, `__import__`, `getattr`,
//!   `globals`, `vars`, no dunder names, and imports of a few pure modules
//!   only (`sys`, `json`, `math`, `re`, …; never `os`, `subprocess`,
//!   `importlib`, `operator`, which reaches attributes by string).
//! - JavaScript: no `require`, `import`, `Function`, `eval`, `globalThis`,
//!   `this`, `constructor`; no computed member access (`x["…"]`, which
//!   reaches any property by string) and no template literals.
//! - Perl: only substitutions and transliterations (`s/a/b/g`, `tr/a-z/A-Z/`)
//!   without the `e` flag and without `@{…}`/`${…}`/`(?{…})`, which run code.
//!
//! A module the interpreter imports can still come from a file the agent
//! wrote (Python puts the working directory first on its path), as a script
//! it runs can: that is the "files written earlier" gap of the security
//! chapter, not a reading of the line.

/// The language of an interpreter hookc can vet one-liners of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Python,
    JavaScript,
    Perl,
}

impl Language {
    /// The language of `program` (`python3.12`, `node`, `perl`), if hookc vets it.
    pub fn of(program: &str) -> Option<Language> {
        let versioned = |stem: &str| {
            program
                .strip_prefix(stem)
                .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
        };
        if versioned("python") {
            Some(Language::Python)
        } else if matches!(program, "node" | "nodejs") {
            Some(Language::JavaScript)
        } else if versioned("perl") {
            Some(Language::Perl)
        } else {
            None
        }
    }

    /// Options that load code from elsewhere before the one-liner runs
    /// (`perl -MModule`, `node --require m`): with any of them the call is
    /// not inert, whatever its code.
    pub fn loads_code(self, option: &str) -> bool {
        match self {
            Language::Python => false,
            Language::JavaScript => {
                matches!(option, "-r" | "--require" | "--import" | "--loader")
                    || option.starts_with("--require=")
                    || option.starts_with("--import=")
                    || option.starts_with("--loader=")
                    || option.starts_with("--experimental-loader")
            }
            Language::Perl => {
                option.starts_with("-M")
                    || option.starts_with("-m")
                    || option.starts_with("-I")
                    || option.starts_with("-x")
            }
        }
    }
}

/// Whether `code` in `language` can only compute and print.
pub fn inert(language: Language, code: &str) -> bool {
    match language {
        Language::Python => names_allowed(code, PYTHON, '#', false),
        Language::JavaScript => names_allowed(code, JAVASCRIPT, '\0', true),
        Language::Perl => perl_substitutions(code),
    }
}

/// Python names that compute and print. Modules: pure ones only; `sys` for
/// `argv`, `stdin`, `version`. Attribute names are checked like any name.
const PYTHON: &[&str] = &[
    // keywords
    "and",
    "or",
    "not",
    "in",
    "is",
    "if",
    "else",
    "elif",
    "for",
    "while",
    "break",
    "continue",
    "pass",
    "return",
    "lambda",
    "def",
    "None",
    "True",
    "False",
    "try",
    "except",
    "finally",
    "import",
    "from",
    "as",
    "del",
    "assert",
    "yield",
    // builtins
    "print",
    "len",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "dict",
    "set",
    "tuple",
    "frozenset",
    "range",
    "enumerate",
    "zip",
    "map",
    "filter",
    "sorted",
    "reversed",
    "sum",
    "min",
    "max",
    "abs",
    "round",
    "divmod",
    "pow",
    "repr",
    "format",
    "hex",
    "oct",
    "bin",
    "chr",
    "ord",
    "isinstance",
    "any",
    "all",
    "Exception",
    "ValueError",
    "KeyError",
    "IndexError",
    // modules
    "sys",
    "json",
    "math",
    "re",
    "string",
    "datetime",
    "textwrap",
    "itertools",
    "functools",
    "collections",
    "statistics",
    "decimal",
    "fractions",
    "base64",
    "hashlib",
    "unicodedata",
    // attributes
    "version",
    "version_info",
    "argv",
    "stdin",
    "stdout",
    "stderr",
    "exit",
    "maxsize",
    "read",
    "readline",
    "readlines",
    "write",
    "load",
    "loads",
    "dump",
    "dumps",
    "indent",
    "sort_keys",
    "get",
    "keys",
    "values",
    "items",
    "append",
    "extend",
    "pop",
    "join",
    "split",
    "strip",
    "lstrip",
    "rstrip",
    "replace",
    "lower",
    "upper",
    "startswith",
    "endswith",
    "find",
    "count",
    "sub",
    "match",
    "search",
    "findall",
    "group",
    "groups",
    "sqrt",
    "floor",
    "ceil",
    "pi",
    "now",
    "utcnow",
    "date",
    "today",
    "isoformat",
    "strftime",
    "encode",
    "decode",
    "hexdigest",
    "sha256",
    "sha1",
    "md5",
    "b64encode",
    "b64decode",
    "Counter",
    "defaultdict",
    "OrderedDict",
    "mean",
    "median",
    "dedent",
    "splitlines",
    "zfill",
    "ljust",
    "rjust",
    "center",
    "sep",
    "end",
    "file",
    "flush",
    "x",
    "y",
    "i",
    "j",
    "k",
    "v",
    "d",
    "s",
    "n",
    "line",
    "lines",
    "data",
    "key",
    "value",
    "item",
    "e",
    "a",
    "b",
    "c",
    "l",
    "r",
    "w",
    "m",
    "t",
    "p",
];

/// JavaScript names that compute and print.
const JAVASCRIPT: &[&str] = &[
    // keywords
    "const",
    "let",
    "var",
    "if",
    "else",
    "for",
    "of",
    "in",
    "while",
    "return",
    "function",
    "true",
    "false",
    "null",
    "undefined",
    "typeof",
    "instanceof",
    "new",
    "break",
    "continue",
    // globals
    "console",
    "JSON",
    "Math",
    "Number",
    "String",
    "Boolean",
    "Array",
    "Object",
    "Date",
    "Set",
    "Map",
    "parseInt",
    "parseFloat",
    "isNaN",
    "process",
    // members
    "log",
    "error",
    "info",
    "warn",
    "table",
    "parse",
    "stringify",
    "max",
    "min",
    "floor",
    "ceil",
    "round",
    "abs",
    "sqrt",
    "pow",
    "random",
    "PI",
    "isArray",
    "from",
    "keys",
    "values",
    "entries",
    "now",
    "toISOString",
    "getTime",
    "length",
    "push",
    "pop",
    "map",
    "filter",
    "reduce",
    "join",
    "split",
    "trim",
    "toUpperCase",
    "toLowerCase",
    "slice",
    "includes",
    "startsWith",
    "endsWith",
    "replace",
    "padStart",
    "padEnd",
    "repeat",
    "concat",
    "indexOf",
    "forEach",
    "sort",
    "reverse",
    "toString",
    "toFixed",
    "version",
    "versions",
    "platform",
    "arch",
    "argv",
    "exit",
    "stdout",
    "write",
    "node",
    "v8",
    "x",
    "y",
    "i",
    "j",
    "k",
    "v",
    "d",
    "s",
    "n",
    "a",
    "b",
    "c",
    "e",
    "line",
    "data",
    "key",
    "value",
    "item",
];

/// What may come just before an expression (`k` standing for a keyword
/// such as `return`). `[` opens an array only there; anywhere else (after a
/// name, a number, a string, `)`, `]`, `}`, `.`) it is computed member
/// access, which can reach any property by a name built at run time.
const EXPRESSION_STARTS: &str = " (,=:?[!&|+-*%<>;{k";

/// Just past the end of the string whose quote is at `start`, skipping
/// escaped characters; `None` when it does not end.
fn string_end(chars: &[char], start: usize) -> Option<usize> {
    let quote = chars[start];
    let mut i = start + 1;
    while i < chars.len() && chars[i] != quote {
        if chars[i] == '\\' {
            i += 1;
        }
        i += 1;
    }
    (i < chars.len()).then_some(i + 1)
}

/// Every identifier of `code`, outside strings and comments, is in `allowed`.
/// `comment` starts a line comment (`'\0'`: none but `//`, for JavaScript).
/// With `javascript`, computed member access and template literals fail.
fn names_allowed(code: &str, allowed: &[&str], comment: char, javascript: bool) -> bool {
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    // The last significant character, to tell `x[0]` (access) from `[0]` (literal).
    let mut last = ' ';
    while i < chars.len() {
        let c = chars[i];
        if c == comment || (javascript && c == '/' && chars.get(i + 1) == Some(&'/')) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if javascript && (c == '`' || (c == '/' && chars.get(i + 1) == Some(&'*'))) {
            return false;
        }
        if c == '\'' || c == '"' {
            // Python's prefixes (`f"…"`) were read as a name already; an
            // f-string's `{…}` is code, so `f` is not on the list.
            let Some(end) = string_end(&chars, i) else {
                return false;
            };
            i = end;
            last = c;
            continue;
        }
        if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            if !allowed.contains(&name.as_str()) {
                return false;
            }
            // `k`: a keyword after which an expression starts (`return [1]`).
            last = if matches!(name.as_str(), "return" | "of" | "in" | "typeof" | "else") {
                'k'
            } else {
                'a'
            };
            continue;
        }
        if javascript && c == '[' && !EXPRESSION_STARTS.contains(last) {
            return false;
        }
        if !c.is_whitespace() {
            last = c;
        }
        i += 1;
    }
    true
}

/// Perl code that is only `s/…/…/flags` and `tr/…/…/` (or `y`) statements.
fn perl_substitutions(code: &str) -> bool {
    let mut rest = code.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let (op, parts) = if let Some(r) = rest.strip_prefix("tr") {
            (r, 2)
        } else if let Some(r) = rest.strip_prefix('s').or_else(|| rest.strip_prefix('y')) {
            (r, 2)
        } else {
            return false;
        };
        let mut chars = op.chars();
        let Some(delim) = chars.next() else {
            return false;
        };
        if !matches!(delim, '/' | '|' | '#' | ',' | '!' | ':' | '%') {
            return false;
        }
        let mut body = chars.as_str();
        for _ in 0..parts {
            let mut end = None;
            let mut escaped = false;
            for (at, ch) in body.char_indices() {
                if escaped {
                    escaped = false;
                } else if ch == '\\' {
                    escaped = true;
                } else if ch == delim {
                    end = Some(at);
                    break;
                }
            }
            let Some(end) = end else { return false };
            let part = &body[..end];
            if part.contains("@{")
                || part.contains("${")
                || part.contains("(?{")
                || part.contains("(??{")
            {
                return false;
            }
            body = &body[end + delim.len_utf8()..];
        }
        let flags_end = body
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(body.len());
        if !body[..flags_end].chars().all(|f| "gimsxcdr".contains(f)) {
            return false;
        }
        rest = body[flags_end..].trim_start();
        if let Some(r) = rest.strip_prefix(';') {
            rest = r.trim_start();
        } else if !rest.is_empty() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_that_computes_and_prints_is_inert() {
        for code in [
            "print(1 + 1)",
            "import sys; print(sys.version)",
            "import json,sys; print(json.load(sys.stdin)['name'])",
            "print(\"open('x')\")",
            "# os.system\nprint(len(sys.argv))",
        ] {
            assert!(inert(Language::Python, code), "{code}");
        }
    }

    #[test]
    fn python_that_can_reach_the_system_is_not() {
        for code in [
            "import os; os.system('git push --force')",
            "print(open('.env').read())",
            "__import__('os').system('x')",
            "exec('print(1)')",
            "eval(input())",
            "getattr(sys, 'modules')['os']",
            "import subprocess",
            "print(sys.modules)",
            "print(().__class__)",
            "print(f'{open(\".env\").read()}')",
            "print('unterminated",
        ] {
            assert!(!inert(Language::Python, code), "{code}");
        }
    }

    #[test]
    fn javascript_that_computes_and_prints_is_inert() {
        for code in [
            "console.log(process.version)",
            "console.log([1, 2].map(x => x * 2).join(','))",
            "const d = JSON.parse('{\"a\":1}'); console.log(d.a)",
            "for (const x of [1, 2]) console.log(x)",
        ] {
            assert!(inert(Language::JavaScript, code), "{code}");
        }
    }

    #[test]
    fn javascript_that_can_reach_the_system_is_not() {
        for code in [
            "require('child_process').execSync('git push --force')",
            "process['binding']('spawn_sync')",
            "Math['constr' + 'uctor']['constructor']('return process')()",
            "process.kill(1)",
            "new Function('x')()",
            "import('fs')",
            "console.log(`${process.env.HOME}`)",
            "globalThis.process",
            "(0, eval)('1')",
            "1['toString']",
            "({})['constructor']",
            "x = {}['constructor']",
        ] {
            assert!(!inert(Language::JavaScript, code), "{code}");
        }
    }

    #[test]
    fn perl_substitutions_are_inert_and_code_in_them_is_not() {
        for code in [
            "s/foo/bar/",
            "s/\\s+$//g; s|a|b|",
            "tr/a-z/A-Z/",
            "y/ab/cd/",
        ] {
            assert!(inert(Language::Perl, code), "{code}");
        }
        for code in [
            "s/x/system('rm -rf build')/e",
            "s/x/@{[system('id')]}/",
            "s/(?{ system('id') })//",
            "system('git push --force')",
            "print `id`",
            "s/x/y/; unlink 'f'",
            "",
        ] {
            assert!(!inert(Language::Perl, code), "{code}");
        }
    }

    #[test]
    fn options_that_load_code_are_known() {
        assert!(Language::Perl.loads_code("-MPOSIX"));
        assert!(Language::JavaScript.loads_code("--require=./x.js"));
        assert!(!Language::JavaScript.loads_code("-e"));
        assert_eq!(Language::of("python3.12"), Some(Language::Python));
        assert_eq!(Language::of("pythonista"), None);
    }
}
