//! Secrets out of what hookc writes and shows, and control characters made
//! visible.
//!
//! [`redact`] replaces secret values in a command line (or any text) with
//! `***`, by their shapes: assignments to secret-looking names (`DB_PASS=…`,
//! also after `export`, `env`, `declare`), the values of secret-looking
//! options in every spelling (`--password=x`, `--password x`,
//! `--password<TAB>x`, `-password x`), the short options of the programs
//! that take a password by one (`sshpass -p`, `mysql -p`, `redis-cli -a`,
//! …), `curl -u user:pass`, credentials in URLs, key headers
//! (`Authorization:`, `Cookie:`, `X-Api-Key:`, any `*-Token:` or `*-Key:`),
//! `name=value` and `"name": "value"` pairs inside words, private key
//! blocks, the prefixes of common tokens (`ghp_`, `sk-`, `AKIA`, …) and long
//! random-looking words. A quoted string with spaces is read as a command
//! line of its own (`bash -c '…'`, `ssh host '…'`).
//!
//! Only literal text is hidden: a value that expands when the shell runs it
//! (`$DB_PASS`, `$(cat secret)`, a backtick) is shown, because it is not a
//! secret and hiding it could hide what the call runs.
//!
//! [`visible`] escapes what a terminal would not show as it is: control
//! characters and escape sequences (`\x1b`), bidirectional controls
//! (`\u{202e}`) and invisible characters, so the text the user reads is the
//! text that runs.

use std::sync::LazyLock;

use regex::Regex;

use crate::eval::Call;

/// How many characters of a command line a log record keeps.
pub const LOG_CHARS: usize = 300;

/// Names whose values are secrets when assigned (`DB_PASS=…`).
fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('-', "_");
    if matches!(n.as_str(), "pwd" | "oldpwd") {
        return false;
    }
    [
        "pass",
        "secret",
        "token",
        "key",
        "pwd",
        "auth",
        "credential",
        "cookie",
        "session",
        "private",
        "signature",
    ]
    .iter()
    .any(|w| n.contains(w))
        && !matches!(n.as_str(), "bypass" | "keyboard" | "passthrough")
        && n != "author"
        && !n.starts_with("author_")
        && !n.ends_with("_author")
}

/// Options whose value is a secret (`--password`, `-storepass`): the name
/// without its dashes.
fn secret_option(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('_', "-");
    // A flag that says where the secret comes from takes no secret.
    if [
        "-stdin", "-file", "-env", "-prompt", "-fd", "-cmd", "-command", "-type", "-method",
        "-helper", "-store", "-url",
    ]
    .iter()
    .any(|s| n.ends_with(s))
    {
        return false;
    }
    (n.contains("pass") && !n.contains("bypass") && !n.contains("passthrough"))
        || n.contains("secret")
        || n.contains("token")
        || n.ends_with("key")
        || n.contains("api-key")
        || n.contains("apikey")
        || n == "auth"
        || n.starts_with("auth-")
        || n.contains("credential")
        || n == "cookie"
        || n == "cookies"
}

/// Options whose value is `user:password` (the password is hidden).
fn user_option(runs: &dyn Fn(&str) -> bool, option: &str) -> bool {
    (runs("curl") && matches!(option, "-u" | "--user" | "-U" | "--proxy-user"))
        || (["wget", "http", "https", "xh"].iter().any(|p| runs(p))
            && matches!(option, "--user" | "-a" | "--auth"))
}

/// Short options of programs that take a password by one: the program, the
/// option's letter, whether a separate next word is the value too (not
/// only `-pVALUE`), and a word the command must hold (`docker login`).
const SHORT: &[(&str, char, bool, Option<&str>)] = &[
    ("sshpass", 'p', true, None),
    ("mysql", 'p', true, None),
    ("mysqldump", 'p', true, None),
    ("mysqladmin", 'p', true, None),
    ("mysqlimport", 'p', true, None),
    ("mysqlcheck", 'p', true, None),
    ("mysqlshow", 'p', true, None),
    ("mysqlsh", 'p', true, None),
    ("mariadb", 'p', true, None),
    ("mariadb-dump", 'p', true, None),
    ("mariadb-admin", 'p', true, None),
    ("mongo", 'p', true, None),
    ("mongosh", 'p', true, None),
    ("mongodump", 'p', true, None),
    ("mongorestore", 'p', true, None),
    ("mongoexport", 'p', true, None),
    ("mongoimport", 'p', true, None),
    ("redis-cli", 'a', true, None),
    ("sqlcmd", 'P', true, None),
    ("bcp", 'P', true, None),
    ("ldapsearch", 'w', true, None),
    ("ldapmodify", 'w', true, None),
    ("ldapadd", 'w', true, None),
    ("ldapdelete", 'w', true, None),
    ("ldappasswd", 'w', true, None),
    ("ldappasswd", 's', true, None),
    ("openssl", 'k', true, None),
    ("zip", 'P', true, None),
    ("unzip", 'P', true, None),
    ("7z", 'p', false, None),
    ("7za", 'p', false, None),
    ("rar", 'p', false, None),
    ("unrar", 'p', false, None),
    ("docker", 'p', true, Some("login")),
    ("podman", 'p', true, Some("login")),
    ("nerdctl", 'p', true, Some("login")),
    ("buildah", 'p', true, Some("login")),
    ("helm", 'p', true, Some("login")),
    ("oras", 'p', true, Some("login")),
    ("htpasswd", 'b', false, None),
];

/// A value that the shell expands: not a literal secret, and hiding it
/// could hide what runs (`$(…)`, `` ` ``, `$NAME`, `${…}`), outside single
/// quotes.
fn expands(raw: &str) -> bool {
    let mut single = false;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' => single = !single,
            '`' if !single => return true,
            '$' if !single
                && chars.peek().is_some_and(|n| {
                    *n == '(' || *n == '{' || *n == '_' || n.is_ascii_alphabetic()
                }) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// A value that looks like a credential by itself: a known token prefix or
/// a long run of letters and digits.
pub fn looks_secret(word: &str) -> bool {
    let w = word.trim_matches(|c| c == '"' || c == '\'');
    tokens(w).first() == Some(&(0, w.len()))
        || (w.len() >= 32
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+/=_-".contains(c))
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_alphabetic()))
}

/// The characters a token may continue with after its prefix.
#[derive(Clone, Copy)]
enum Tail {
    /// Letters and digits.
    Alnum,
    /// Letters, digits and `_`.
    Word,
    /// Letters, digits, `_` and `-`.
    Dash,
    /// Letters, digits, `_`, `-` and `.` (JWTs, SendGrid keys).
    Dotted,
    /// Capital letters and digits (AWS key ids).
    Upper,
    /// Hexadecimal digits.
    Hex,
}

impl Tail {
    fn takes(self, c: char) -> bool {
        match self {
            Tail::Alnum => c.is_ascii_alphanumeric(),
            Tail::Word => c.is_ascii_alphanumeric() || c == '_',
            Tail::Dash => c.is_ascii_alphanumeric() || c == '_' || c == '-',
            Tail::Dotted => c.is_ascii_alphanumeric() || "_-.".contains(c),
            Tail::Upper => c.is_ascii_uppercase() || c.is_ascii_digit(),
            Tail::Hex => c.is_ascii_hexdigit(),
        }
    }
}

/// Tokens by their prefixes: the prefix, what follows it, and at least how
/// many characters of that.
const TOKENS: &[(&str, Tail, usize)] = &[
    ("ghp_", Tail::Alnum, 8),
    ("gho_", Tail::Alnum, 8),
    ("ghu_", Tail::Alnum, 8),
    ("ghs_", Tail::Alnum, 8),
    ("ghr_", Tail::Alnum, 8),
    ("github_pat_", Tail::Word, 8),
    ("glpat-", Tail::Dash, 8),
    ("gldt-", Tail::Dash, 8),
    ("glrt-", Tail::Dash, 8),
    ("glptt-", Tail::Dash, 8),
    ("glsoat-", Tail::Dash, 8),
    ("sk-", Tail::Dash, 8),
    ("sk_live_", Tail::Alnum, 8),
    ("sk_test_", Tail::Alnum, 8),
    ("rk_live_", Tail::Alnum, 8),
    ("rk_test_", Tail::Alnum, 8),
    ("xoxa-", Tail::Dash, 8),
    ("xoxb-", Tail::Dash, 8),
    ("xoxp-", Tail::Dash, 8),
    ("xoxo-", Tail::Dash, 8),
    ("xoxs-", Tail::Dash, 8),
    ("xoxr-", Tail::Dash, 8),
    ("xapp-", Tail::Dash, 8),
    ("AKIA", Tail::Upper, 12),
    ("ASIA", Tail::Upper, 12),
    ("AGPA", Tail::Upper, 12),
    ("AIDA", Tail::Upper, 12),
    ("AROA", Tail::Upper, 12),
    ("ANPA", Tail::Upper, 12),
    ("AIza", Tail::Dash, 20),
    ("ya29.", Tail::Dash, 8),
    ("eyJ", Tail::Dotted, 8),
    ("npm_", Tail::Alnum, 16),
    ("pypi-", Tail::Dash, 16),
    ("hf_", Tail::Alnum, 16),
    ("dop_v1_", Tail::Hex, 16),
    ("shpat_", Tail::Hex, 16),
    ("shpss_", Tail::Hex, 16),
    ("shpca_", Tail::Hex, 16),
    ("shppa_", Tail::Hex, 16),
    ("glsa_", Tail::Word, 16),
    ("glc_", Tail::Word, 16),
    ("SG.", Tail::Dotted, 16),
    ("sq0atp-", Tail::Dash, 8),
    ("sq0csp-", Tail::Dash, 8),
];

/// Where tokens with known prefixes are in `text`: byte ranges, in order,
/// not overlapping. A token starts at the text's start or after a
/// character that cannot be part of a word.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = Vec::new();
    for (prefix, tail, min) in TOKENS {
        for (at, _) in text.match_indices(prefix) {
            let boundary = text[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_');
            if !boundary {
                continue;
            }
            let rest = &text[at + prefix.len()..];
            let len = rest.find(|c: char| !tail.takes(c)).unwrap_or(rest.len());
            if len >= *min {
                found.push((at, at + prefix.len() + len));
            }
        }
    }
    found.sort();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in found {
        match merged.last_mut() {
            Some(last) if a < last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    merged
}

/// `text` with every token [`tokens`] finds replaced by `***`.
fn hide_tokens(text: &str) -> String {
    let found = tokens(text);
    if found.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (a, b) in found {
        out.push_str(&text[copied..a]);
        out.push_str("***");
        copied = b;
    }
    out.push_str(&text[copied..]);
    out
}

/// `scheme://user:password@` and `scheme://token@`.
static URL_CREDENTIALS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^\s/@:'`]*)(?::([^\s/@'`]*))?@")
        .expect("the URL regex")
});

/// `Authorization: Bearer x`, `Cookie: a=b`, `X-Api-Key: x`, `X-Auth-Token: x`.
static HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|apikey",
        r"|x-auth[a-z0-9\-]*|[a-z0-9\-]*-(?:token|key|secret|signature|session|password))",
        r"(\s*:\s*)(?:(bearer|basic|token|digest|negotiate|bot|apikey|sso-key)\s+)?",
        r#"([^\s'"`][^'"`\r\n]*)"#,
    ))
    .expect("the header regex")
});

/// `password=x` inside a word: a query string, form data, a `-o` option.
static PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(^|[?&;,:\s{(])([A-Za-z0-9_.\-\[\]]+)=([^&;\s'"`,)}]+)"#).expect("the pair regex")
});

/// `"password": "x"` (JSON) inside a word.
static JSON_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"("([^"\\]*)"\s*:\s*")((?:[^"\\]|\\.)*)(")"#).expect("the JSON pair regex")
});

/// A private key block.
static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)(-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----)(.*?)(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)")
        .expect("the private key regex")
});

/// The secrets inside one word (or quoted string): URLs, headers, pairs,
/// tokens.
fn redact_inside(word: &str) -> String {
    // Each regex is compiled (once) and run only when the word holds what
    // it needs: most words hold none of it, and compiling costs.
    let mut s = word.to_owned();
    if s.contains("://") && s.contains('@') {
        s = url_credentials(&s);
    }
    let lower = s.to_ascii_lowercase();
    if s.contains(':')
        && [
            "auth",
            "cookie",
            "key",
            "token",
            "secret",
            "signature",
            "session",
            "password",
        ]
        .iter()
        .any(|w| lower.contains(w))
    {
        s = headers(&s);
    }
    if s.contains('=') {
        s = pairs(&s);
    }
    if s.contains('"') && s.contains(':') {
        s = json_pairs(&s);
    }
    hide_tokens(&s)
}

fn url_credentials(word: &str) -> String {
    URL_CREDENTIALS
        .replace_all(word, |c: &regex::Captures| {
            let scheme = &c[1];
            let user = &c[2];
            match c.get(3) {
                Some(p) if !expands(p.as_str()) => format!("{scheme}{user}:***@"),
                Some(_) => c[0].to_owned(),
                None if looks_secret(user) || user.len() >= 20 => format!("{scheme}***@"),
                None => c[0].to_owned(),
            }
        })
        .into_owned()
}

fn headers(before: &str) -> String {
    HEADER
        .replace_all(before, |c: &regex::Captures| {
            let value = &c[4];
            let start = c.get(0).map_or(0, |m| m.start());
            // `https://x-access-token:…@` is a URL's user, not a header.
            if expands(value) || value.starts_with("***") || before[..start].ends_with('/') {
                return c[0].to_owned();
            }
            let scheme = c
                .get(3)
                .map_or(String::new(), |m| format!("{} ", m.as_str()));
            format!("{}{}{scheme}***", &c[1], &c[2])
        })
        .into_owned()
}

fn pairs(s: &str) -> String {
    PAIR.replace_all(s, |c: &regex::Captures| {
        if secret_name(c[2].trim_start_matches('-')) && !expands(&c[3]) && &c[3] != "***" {
            format!("{}{}=***", &c[1], &c[2])
        } else {
            c[0].to_owned()
        }
    })
    .into_owned()
}

fn json_pairs(s: &str) -> String {
    JSON_PAIR
        .replace_all(s, |c: &regex::Captures| {
            if secret_name(&c[2]) && !c[3].is_empty() && !expands(&c[3]) && &c[3] != "***" {
                format!("{}***{}", &c[1], &c[4])
            } else {
                c[0].to_owned()
            }
        })
        .into_owned()
}

/// One word of a command line, with where it is.
struct Word {
    start: usize,
    end: usize,
    /// The word is an operator (`;`, `&&`, `|`, `(`), not a word.
    operator: bool,
}

/// Splits a command line into words (quotes kept in them) and operators,
/// as a shell would at the top level: whitespace separates, quotes and
/// backslashes join.
fn words(text: &str) -> Vec<Word> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if matches!(c, b'\n' | b';' | b'&' | b'|' | b'(' | b')') {
            let start = i;
            i += 1;
            if matches!(c, b';' | b'&' | b'|') && bytes.get(i) == Some(&c) {
                i += 1;
            }
            out.push(Word {
                start,
                end: i,
                operator: true,
            });
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let mut quote: Option<u8> = None;
        while i < bytes.len() {
            let b = bytes[i];
            match quote {
                Some(q) if b == q => quote = None,
                Some(b'"') if b == b'\\' => i += 1,
                Some(_) => {}
                None if b == b'\\' => i += 1,
                None if b == b'\'' || b == b'"' => quote = Some(b),
                None if b.is_ascii_whitespace()
                    || matches!(b, b';' | b'&' | b'|' | b')')
                    || (b == b'('
                        && i > start
                        && bytes[i - 1] != b'$'
                        && bytes[i - 1] != b'<'
                        && bytes[i - 1] != b'>') =>
                {
                    break;
                }
                None => {}
            }
            i += 1;
        }
        out.push(Word {
            start,
            end: i.min(bytes.len()),
            operator: false,
        });
    }
    out
}

/// The word without its quotes and backslashes.
fn unquote(raw: &str) -> String {
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            Some('"') if c == '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            Some(_) => out.push(c),
            None if c == '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            None if c == '\'' || c == '"' => quote = Some(c),
            None => out.push(c),
        }
    }
    out
}

/// A quoted word's quote and inside (`'a b'` → `'`, `a b`), for reading it
/// as a command line of its own.
fn quoted(raw: &str) -> Option<(char, &str)> {
    let first = raw.chars().next()?;
    let inner = raw.strip_prefix(['\'', '"'])?.strip_suffix(first)?;
    Some((first, inner))
}

/// What the next word is, after an option that takes a secret.
#[derive(Clone, Copy, PartialEq)]
enum Next {
    Plain,
    Secret,
    /// `user:password`: the part after the first `:` (or `%`, `,`).
    UserPassword,
}

/// A command line (or any text) with secret values replaced by `***`.
pub fn redact(text: &str) -> String {
    if text.contains("PRIVATE KEY") {
        return redact_line(&PRIVATE_KEY.replace_all(text, "$1***$4"), 0);
    }
    redact_line(text, 0)
}

fn redact_line(text: &str, depth: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    // The words of the simple command so far, unquoted.
    let mut command: Vec<String> = Vec::new();
    let mut next = Next::Plain;
    for w in words(text) {
        out.push_str(&text[copied..w.start]);
        copied = w.end;
        let raw = &text[w.start..w.end];
        // An operator, or a substitution's start, begins another command.
        if w.operator
            || raw.starts_with("$(")
            || raw.starts_with('`')
            || raw.starts_with("<(")
            || raw.starts_with(">(")
        {
            command.clear();
            next = Next::Plain;
        }
        if w.operator {
            out.push_str(raw);
            continue;
        }
        out.push_str(&redact_word(raw, depth, &command, &mut next));
        command.push(program_name(&unquote(raw)));
    }
    out.push_str(&text[copied..]);
    out
}

/// The basename of a program word (`/usr/bin/mysql` → `mysql`), without
/// the `(`, `$(` or backtick before it.
fn program_name(word: &str) -> String {
    let w = word.trim_start_matches(['(', '$', '`', '{', '<', '>']);
    let w = w.rsplit('/').next().unwrap_or(w);
    w.trim_end_matches(".exe").to_owned()
}

/// Whether a word is `NAME=…`, with `NAME` a shell variable name.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let name_ok = !name.is_empty()
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    name_ok.then_some((name, value))
}

/// `raw` with `value` (a suffix of it) hidden, if it is literal.
fn hide_suffix(raw: &str, at: usize) -> String {
    let value = &raw[at..];
    if value.is_empty() || expands(value) || unquote(value) == "***" {
        return raw.to_owned();
    }
    format!("{}***", &raw[..at])
}

/// The part of a `user:password` word after the user hidden.
fn hide_password(raw: &str) -> String {
    match raw.find([':', '%']) {
        Some(at) => hide_suffix(raw, at + 1),
        None => raw.to_owned(),
    }
}

fn redact_word(raw: &str, depth: usize, command: &[String], next: &mut Next) -> String {
    let plain = unquote(raw);
    match std::mem::replace(next, Next::Plain) {
        Next::Secret => {
            return if expands(raw) || plain == "***" {
                raw.to_owned()
            } else {
                "***".to_owned()
            };
        }
        Next::UserPassword => return hide_password(raw),
        Next::Plain => {}
    }
    // Assignments: `DB_PASS=x`, also before a command and after `export`.
    if let Some((name, _)) = assignment(raw) {
        if secret_name(name) {
            return hide_suffix(raw, name.len() + 1);
        }
        return redact_inside(raw);
    }
    // The programs of the command so far (`sudo -u bob mysql` has both).
    let runs = |program: &str| command.iter().any(|w| w == program);
    // `--password=x`, `-storepass=x`, `--user=bob:x`.
    if plain.starts_with('-')
        && let Some(eq) = raw.find('=')
    {
        let option = &raw[..eq];
        let name = option.trim_start_matches('-');
        if secret_option(name) || looks_secret(&unquote(&raw[eq + 1..])) {
            return hide_suffix(raw, eq + 1);
        }
        if user_option(&runs, option) {
            return format!("{option}={}", hide_password(&raw[eq + 1..]));
        }
    }
    if plain.starts_with('-') && plain.len() > 1 && !plain.contains('=') {
        let name = plain.trim_start_matches('-');
        // `--password x`, `-password x`, `-pass x` (openssl, keytool).
        if (plain.starts_with("--") || name.len() > 2) && secret_option(name) {
            *next = Next::Secret;
            return raw.to_owned();
        }
        if user_option(&runs, &plain) {
            *next = Next::UserPassword;
            return raw.to_owned();
        }
        // `curl -ubob:x`.
        if runs("curl")
            && (plain.starts_with("-u") || plain.starts_with("-U"))
            && plain.len() > 2
            && !plain.starts_with("--")
        {
            return format!("{}{}", &raw[..2], hide_password(&raw[2..]));
        }
        // `sshpass -p x`, `mysql -px`, `redis-cli -a x`, `docker login -p x`.
        if !plain.starts_with("--") {
            let letter = plain.chars().nth(1).unwrap_or(' ');
            let fits = SHORT
                .iter()
                .find(|(p, l, _, needs)| runs(p) && *l == letter && needs.is_none_or(&runs));
            if let Some((_, _, separate, _)) = fits {
                if plain.len() == 2 {
                    if *separate {
                        *next = Next::Secret;
                    }
                    return raw.to_owned();
                }
                return hide_suffix(raw, 2);
            }
            // `smbclient -U user%password`.
            if runs("smbclient") && letter == 'U' {
                if plain.len() == 2 {
                    *next = Next::UserPassword;
                    return raw.to_owned();
                }
                return format!("-U{}", hide_password(&raw[2..]));
            }
        }
    }
    // `sqlplus scott/tiger@db`, `openssl … -passin pass:x`.
    if let Some(rest) = plain.strip_prefix("pass:")
        && !rest.is_empty()
        && !expands(raw)
    {
        return "pass:***".to_owned();
    }
    if runs("sqlplus")
        && let Some(slash) = raw.find('/')
        && !raw.starts_with('/')
    {
        let end = raw[slash..].find('@').map_or(raw.len(), |a| slash + a);
        if end > slash + 1 && !expands(&raw[slash + 1..end]) {
            return format!("{}/***{}", &raw[..slash], &raw[end..]);
        }
    }
    // A quoted string with spaces: read it as a command line too.
    if let Some((q, inner)) = quoted(raw)
        && depth < 4
        && inner.contains(char::is_whitespace)
    {
        let inside = redact_inside(&redact_line(inner, depth + 1));
        return format!("{q}{inside}{q}");
    }
    if looks_secret(&plain) && !expands(raw) && !plain.contains('/') && !plain.starts_with('-') {
        return "***".to_owned();
    }
    redact_inside(raw)
}

/// What a log record says about the call: the tool, the file names and the
/// redacted command line, cut at [`LOG_CHARS`] characters with a mark that
/// says how much is left out; never file contents or prompts.
pub fn summary(call: &Call) -> String {
    summarize(call, Some(LOG_CHARS), 5)
}

/// The whole call, redacted: what `hookc allow-once` shows.
pub fn full_summary(call: &Call) -> String {
    summarize(call, None, usize::MAX)
}

fn summarize(call: &Call, cut: Option<usize>, max_paths: usize) -> String {
    let tool = call.tool.as_ref().map_or("", |t| t.native.as_str());
    let mut parts = vec![redact(tool)];
    if let Some(command) = &call.command {
        let line = redact(command);
        let line = match cut {
            Some(n) if line.chars().count() > n => {
                let kept: String = line.chars().take(n).collect();
                let left = line.chars().count() - n;
                format!("{kept}… [{left} more characters]")
            }
            _ => line,
        };
        parts.push(line);
    }
    for p in call.paths.iter().take(max_paths) {
        parts.push(redact(p));
    }
    if call.paths.len() > max_paths {
        parts.push(format!("… [{} more files]", call.paths.len() - max_paths));
    }
    if call.command.is_none() && call.paths.is_empty() && call.text.is_some() {
        parts.push("(text not recorded)".to_owned());
    }
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

/// Characters a terminal does not show as themselves: controls (C0, DEL,
/// C1), bidirectional controls, and invisible or separator characters.
fn hidden(c: char) -> bool {
    let u = u32::from(c);
    c.is_control()
        || matches!(
            u,
            0x00AD
                | 0x034F
                | 0x061C
                | 0x115F
                | 0x1160
                | 0x17B4
                | 0x17B5
                | 0x180B..=0x180F
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x206F
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xFFA0
                | 0xFFF9..=0xFFFB
                | 0x1D173..=0x1D17A
                | 0xE0000..=0xE0FFF
        )
}

/// `text` as a terminal should show it: each hidden character written as
/// an escape (`\x1b`, `\n`, `\u{202e}`). When any is escaped, backslashes
/// are doubled too, so an escape cannot be faked with plain text; the
/// second value says whether that happened.
pub fn visible(text: &str) -> (String, bool) {
    let any = text.chars().any(hidden);
    (escape(text, any), any)
}

/// Whether [`visible`] escapes anything in `text`.
pub fn needs_escapes(text: &str) -> bool {
    text.chars().any(hidden)
}

/// `text` with hidden characters escaped and, when `backslashes`,
/// backslashes doubled (as [`visible`] does when it escapes any).
pub fn escape(text: &str, backslashes: bool) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\\' if backslashes => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hidden(c) && u32::from(c) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", u32::from(c)));
            }
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// The non-ASCII letters of `text` that may pass for others (`о`, Cyrillic,
/// for `o`), as code points: the approval prompt names them.
pub fn lookalikes(text: &str) -> Vec<String> {
    let mut seen: Vec<char> = Vec::new();
    for c in text.chars() {
        if !c.is_ascii() && c.is_alphabetic() && !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.iter()
        .take(20)
        .map(|c| format!("{c} (U+{:04X})", u32::from(*c)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each shape: the line, the secret that must go, and a part that must stay.
    fn hides(line: &str, secret: &str, kept: &str) {
        let r = redact(line);
        assert!(
            !r.contains(secret),
            "`{line}` -> `{r}` still holds `{secret}`"
        );
        assert!(r.contains("***"), "`{line}` -> `{r}`");
        assert!(r.contains(kept), "`{line}` -> `{r}` lost `{kept}`");
    }

    #[test]
    fn assignments_to_secret_names() {
        hides(
            "DB_PASS=hunter2 ./migrate",
            "hunter2",
            "DB_PASS=*** ./migrate",
        );
        hides("export DB_PASS=hunter2", "hunter2", "export DB_PASS=***");
        hides(
            "export DB_PASSWORD='hunter 2'",
            "hunter",
            "export DB_PASSWORD=***",
        );
        hides("env GITHUB_TOKEN=abc123 gh pr list", "abc123", "gh pr list");
        hides(
            "declare -x API_SECRET=s3cr3t",
            "s3cr3t",
            "declare -x API_SECRET=***",
        );
        hides(
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENG aws s3 ls",
            "wJalrX",
            "aws s3 ls",
        );
        hides("echo API_TOKEN=abc123 > .env", "abc123", "> .env");
        hides("STRIPE_KEY=xyz987 npm start", "xyz987", "npm start");
        hides("sudo MYSQL_PWD=hunter2 mysql db", "hunter2", "mysql db");
        hides(
            "a=1; export SESSION_COOKIE=abc; b",
            "abc;",
            "SESSION_COOKIE=***",
        );
        // Not secrets: a name without a secret word, and a value that expands.
        assert_eq!(redact("PWD=/tmp ls"), "PWD=/tmp ls");
        assert_eq!(
            redact("export DB_PASS=$SECRET_FROM_ENV"),
            "export DB_PASS=$SECRET_FROM_ENV"
        );
        assert_eq!(redact("TOKEN=$(cat t) make"), "TOKEN=$(cat t) make");
    }

    #[test]
    fn credentials_in_urls() {
        hides(
            "curl https://bob:s3cret@example.com/x",
            "s3cret",
            "https://bob:***@example.com/x",
        );
        hides(
            "git clone https://x-access-token:gho_abcdefghijk@github.com/o/r",
            "gho_abc",
            "github.com/o/r",
        );
        hides(
            "psql postgres://app:pa55@db:5432/shop",
            "pa55",
            "postgres://app:***@db:5432/shop",
        );
        hides(
            "git remote add o https://ghp_abcdefghijklmnopqrstu@github.com/o/r",
            "ghp_abc",
            "@github.com",
        );
        assert_eq!(
            redact("git clone ssh://git@github.com/o/r"),
            "git clone ssh://git@github.com/o/r"
        );
    }

    #[test]
    fn curl_user_options() {
        hides(
            "curl -u bob:hunter2 https://api.example.com",
            "hunter2",
            "-u bob:***",
        );
        hides(
            "curl --user bob:hunter2 https://x",
            "hunter2",
            "--user bob:***",
        );
        hides(
            "curl --user=bob:hunter2 https://x",
            "hunter2",
            "--user=bob:***",
        );
        hides("curl -ubob:hunter2 https://x", "hunter2", "-ubob:***");
        hides("curl -U proxy:hunter2 https://x", "hunter2", "-U proxy:***");
        assert_eq!(redact("curl -u bob https://x"), "curl -u bob https://x");
    }

    #[test]
    fn key_headers() {
        hides(
            "curl -H 'X-Api-Key: abc123' https://x",
            "abc123",
            "'X-Api-Key: ***'",
        );
        hides(
            "curl -H \"Authorization: Bearer abc.def.ghi\" x",
            "abc.def",
            "Authorization: Bearer ***",
        );
        hides(
            "curl -H 'Authorization: Basic Ym9iOmh1bnRlcjI=' x",
            "Ym9i",
            "Authorization: Basic ***",
        );
        hides(
            "curl -H 'Cookie: session=abc; theme=dark' x",
            "abc",
            "'Cookie: ***'",
        );
        hides(
            "curl -H 'X-Auth-Token: t0k3n' x",
            "t0k3n",
            "X-Auth-Token: ***",
        );
        hides(
            "curl -H 'Private-Token: glx' x",
            "glx",
            "Private-Token: ***",
        );
        hides("curl -H 'X-Vault-Key:abcd' x", "abcd", "X-Vault-Key:***");
        hides(
            "curl --header 'X-Goog-Api-Key: AIzaSyD' x",
            "AIzaSyD",
            "X-Goog-Api-Key: ***",
        );
        hides(
            "wget --header='Authorization: token abc' x",
            "abc",
            "Authorization: token ***",
        );
    }

    #[test]
    fn password_options_in_every_spelling() {
        hides(
            "mysql -u root --password=hunter2 db",
            "hunter2",
            "--password=*** db",
        );
        hides(
            "mysql -u root --password hunter2 db",
            "hunter2",
            "--password *** db",
        );
        hides(
            "mysql -u root --password\thunter2 db",
            "hunter2",
            "--password\t*** db",
        );
        hides(
            "mysql --password 'hunter 2' db",
            "hunter",
            "--password *** db",
        );
        hides("tool --api-key abc123 run", "abc123", "--api-key *** run");
        hides(
            "tool --client-secret=abc run",
            "abc",
            "--client-secret=*** run",
        );
        hides(
            "gh auth login --with-token ghp_0123456789abcdefghij",
            "ghp_0123",
            "--with-token",
        );
        hides(
            "keytool -list -storepass changeit",
            "changeit",
            "-storepass ***",
        );
        hides(
            "openssl pkcs12 -in a.p12 -passin pass:hunter2",
            "hunter2",
            "-passin",
        );
        hides(
            "wget --http-password=hunter2 x",
            "hunter2",
            "--http-password=***",
        );
        hides(
            "docker login -u bob --password hunter2 ghcr.io",
            "hunter2",
            "ghcr.io",
        );
        // A flag that says where the password comes from takes none.
        assert_eq!(
            redact("docker login --password-stdin ghcr.io"),
            "docker login --password-stdin ghcr.io"
        );
        assert_eq!(
            redact("git commit --author 'A <a@b>' -m x"),
            "git commit --author 'A <a@b>' -m x"
        );
    }

    #[test]
    fn short_password_options_of_the_programs_that_have_them() {
        hides(
            "sshpass -p hunter2 ssh host",
            "hunter2",
            "sshpass -p *** ssh host",
        );
        hides(
            "sshpass -phunter2 ssh host",
            "hunter2",
            "sshpass -p*** ssh host",
        );
        hides("mysql -u root -phunter2 shop", "hunter2", "-p*** shop");
        hides("mysql -u root -p hunter2 shop", "hunter2", "-p *** shop");
        hides("/usr/bin/mysqldump -phunter2 shop", "hunter2", "-p***");
        hides("redis-cli -a hunter2 ping", "hunter2", "-a *** ping");
        hides("docker login -u bob -p hunter2", "hunter2", "-p ***");
        hides("smbclient //h/s -U bob%hunter2", "hunter2", "-U bob%***");
        hides("ldapsearch -x -w hunter2 -b dc=x", "hunter2", "-w ***");
        hides("sqlplus scott/tiger@orcl", "tiger", "scott/***@orcl");
        hides("sudo sshpass -p hunter2 ssh h", "hunter2", "ssh h");
        hides(
            "bash -c 'sshpass -p hunter2 ssh h'",
            "hunter2",
            "'sshpass -p *** ssh h'",
        );
        hides(
            "ssh h \"mysql -phunter2 db\"",
            "hunter2",
            "\"mysql -p*** db\"",
        );
        // `-p` of other programs is not a password.
        for line in [
            "mkdir -p src/a",
            "ssh -p 2222 host",
            "docker run -p 8080:80 img",
            "git add -p",
        ] {
            assert_eq!(redact(line), line);
        }
    }

    #[test]
    fn pairs_inside_words() {
        hides("curl 'https://x/api?api_key=abc123&q=1'", "abc123", "&q=1");
        hides(
            "curl -d 'user=bob&password=hunter2' x",
            "hunter2",
            "user=bob&password=***",
        );
        hides(
            "curl -d '{\"password\": \"hunter2\", \"user\": \"bob\"}' x",
            "hunter2",
            "\"user\": \"bob\"",
        );
        hides(
            "npm config set //registry.npmjs.org/:_authToken=abcd1234",
            "abcd1234",
            "_authToken=***",
        );
        assert_eq!(redact("make CFLAGS=-O2 all"), "make CFLAGS=-O2 all");
    }

    #[test]
    fn token_prefixes() {
        for token in [
            "ghp_0123456789abcdefghij",
            "github_pat_11ABCDEFG0123456789",
            "glpat-abcdefghij0123",
            "sk-proj-abcdefghij0123",
            "sk_live_abcdefghij0123",
            "xoxb-1234567890-abcdef",
            "AKIAIOSFODNN7EXAMPLE",
            "AIzaSyD-abcdefghijklmnopqrstu",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc",
            "npm_abcdefghijklmnop0123",
            "hf_abcdefghijklmnopqrst",
        ] {
            hides(
                &format!("echo {token} | tool login"),
                &token[4..],
                "| tool login",
            );
            hides(&format!("tool --data={token}"), &token[4..], "tool --data=");
        }
        // A long random run is a key; a path or a word is not.
        hides(
            "tool 7f3a9c21d4e5b6a7f8091a2b3c4d5e6f7a8b",
            "7f3a9c21d4",
            "tool",
        );
        assert_eq!(
            redact("cat src/some_module/with_a_long_name_123456789.rs"),
            "cat src/some_module/with_a_long_name_123456789.rs"
        );
    }

    #[test]
    fn private_key_blocks() {
        hides(
            "printf '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----' > k",
            "MIIEpAIBAAKCAQEA",
            "> k",
        );
    }

    #[test]
    fn plain_lines_are_left_alone() {
        for line in [
            "git push origin main",
            "cargo test --workspace -- --nocapture",
            "ls -la | grep key.rs",
            "echo \"hello world\" && exit 1",
            "grep -rn 'password' src/",
        ] {
            assert_eq!(redact(line), line);
        }
    }

    #[test]
    fn escapes_are_made_visible() {
        assert_eq!(visible("git status"), ("git status".to_owned(), false));
        let (v, escaped) = visible("echo ok\x1b[2K\rrm -rf ~");
        assert!(escaped);
        assert_eq!(v, "echo ok\\x1b[2K\\rrm -rf ~");
        assert_eq!(visible("a\u{202e}b").0, "a\\u{202e}b");
        assert_eq!(visible("a\u{200b}b").0, "a\\u{200b}b");
        assert_eq!(visible("a\u{9b}b").0, "a\\u{9b}b");
        // With an escape shown, a backslash is doubled: `\x1b` typed as text
        // reads differently from a real escape.
        assert_eq!(visible("\\x1b\x1b").0, "\\\\x1b\\x1b");
        assert_eq!(lookalikes("curl gооgle.com"), vec!["о (U+043E)".to_owned()]);
    }

    #[test]
    fn log_summaries_say_what_they_leave_out() {
        let call = Call {
            command: Some(format!("echo {}", "a".repeat(400))),
            ..Call::default()
        };
        let s = summary(&call);
        assert!(s.ends_with("… [105 more characters]"), "{s}");
        assert_eq!(full_summary(&call), format!("echo {}", "a".repeat(400)));
    }
}
