//! Whether JavaScript's `RegExp` accepts a pattern with no flags.
//!
//! Claude Code, Gemini CLI, Kimi Code and Cursor compile hook matchers as
//! JavaScript regexes, so `hookc lint` judges a matcher by the ECMAScript
//! pattern grammar in its web-compatible form (Annex B, which every engine
//! these harnesses run on follows): without the `u` and `v` flags most
//! oddities are literal characters, and only a few shapes are errors.
//!
//! This is a recogniser, not a regex engine: it only says yes or no. It
//! stands in for the `regress` crate, the ECMAScript engine it is tested
//! against (see the tests below), because that crate's Unicode tables hold
//! some 8,300 pointers that the dynamic loader relocates at every start of
//! hookc, `hookc guard` included, for the one check that needs them.
//!
//! The errors, outside character classes:
//! - a quantifier with nothing to repeat (`*a`, `a**`, `^*`, `\b+`, `(?<=a)+`), and a
//!   whole braced quantifier standing alone (`{2}`); `{` that does not form
//!   one is a literal;
//! - `{n,m}` with `n > m`;
//! - unbalanced `(` or `)`; a group opened by `(?` that is not `(?:`,
//!   `(?=`, `(?!`, `(?<=`, `(?<!`, a named group `(?<name>` or a modifier
//!   group such as `(?i:` / `(?-s:` / `(?m-i:`;
//! - a `\` at the end;
//! - `\k` not followed by `<name>` of a group, where the pattern has named
//!   groups; one name used twice in the same alternative;
//! - a character class not closed, or a range whose ends are out of order
//!   (`[z-a]`).

use std::collections::HashMap;

/// Nesting and counting limits, those of the engine this is tested against.
const MAX_DEPTH: usize = 256;
const MAX_GROUPS: usize = 65_535;
const MAX_LOOPS: usize = 65_535;

/// Whether `RegExp(pattern)` compiles.
pub fn accepts(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let Some(names) = named_groups(&chars) else {
        return false;
    };
    let mut parser = Parser {
        s: &chars,
        at: 0,
        names: &names,
        groups: 0,
        loops: 0,
        depth: 0,
    };
    parser.disjunction().is_some() && parser.at == chars.len()
}

/// The names of the pattern's named groups, found before parsing because a
/// `\k<name>` may come before its group. `None`: a name repeats within one
/// alternative (`(?<a>x)(?<a>y)`; `(?<a>x)|(?<a>y)` is fine).
fn named_groups(s: &[char]) -> Option<Vec<String>> {
    // Where each name stands: the alternative taken at every enclosing
    // depth. Two places conflict when one path is a prefix of the other.
    let mut places: HashMap<String, Vec<Vec<usize>>> = HashMap::new();
    let mut path = vec![0usize];
    let mut at = 0;
    while let Some(&c) = s.get(at) {
        at += 1;
        match c {
            '\\' => at += 1,
            '[' => {
                while let Some(&c) = s.get(at) {
                    at += 1;
                    match c {
                        '\\' => at += 1,
                        ']' => break,
                        _ => {}
                    }
                }
            }
            '(' => {
                if s.get(at) == Some(&'?') {
                    at += 1;
                    if let Some((name, end)) = group_name(s, at) {
                        at = end;
                        places.entry(name).or_default().push(path.clone());
                    } else if s.get(at) == Some(&'<') {
                        at += 1;
                    }
                }
                path.push(0);
            }
            ')' if path.len() > 1 => {
                path.pop();
            }
            '|' => *path.last_mut().expect("the top level is always there") += 1,
            _ => {}
        }
    }
    for paths in places.values() {
        for (i, a) in paths.iter().enumerate() {
            for b in &paths[i + 1..] {
                let n = a.len().min(b.len());
                if a[..n] == b[..n] {
                    return None;
                }
            }
        }
    }
    Some(places.into_keys().collect())
}

/// A group name `<name>` at `at`: the name and where it ends. Names are
/// identifiers, which may spell characters as `\uXXXX` or `\u{X…}`.
fn group_name(s: &[char], at: usize) -> Option<(String, usize)> {
    if s.get(at) != Some(&'<') {
        return None;
    }
    let mut at = at + 1;
    let mut name = String::new();
    loop {
        let mut c = *s.get(at)?;
        at += 1;
        if c == '\\' && s.get(at) == Some(&'u') {
            let (value, end) = unicode_escape(s, at + 1)?;
            c = char::from_u32(value)?;
            at = end;
        }
        let ok = if name.is_empty() {
            unicode_ident::is_xid_start(c) || c == '$' || c == '_'
        } else if c == '>' {
            return Some((name, at));
        } else {
            unicode_ident::is_xid_continue(c) || matches!(c, '$' | '_' | '\u{200C}' | '\u{200D}')
        };
        if !ok {
            return None;
        }
        name.push(c);
    }
}

/// The code point of `\u` escape text at `at` (just after the `u`):
/// `{X…}` or four hex digits, a surrogate pair spelled as two escapes
/// joined; and where it ends. `None`: not an escape, so `\u` means `u`.
fn unicode_escape(s: &[char], at: usize) -> Option<(u32, usize)> {
    if s.get(at) == Some(&'{') {
        let close = at + 1 + s[at + 1..].iter().position(|&c| c == '}')?;
        let digits: String = s[at + 1..close].iter().collect();
        let value = u32::from_str_radix(&digits, 16).ok()?;
        return (value <= 0x10_FFFF).then_some((value, close + 1));
    }
    let high = hex4(s, at)?;
    let end = at + 4;
    if !(0xD800..=0xDBFF).contains(&high) || s.get(end..end + 2) != Some(&['\\', 'u']) {
        return Some((u32::from(high), end));
    }
    // A high surrogate followed by `\u`: the `\u` is taken even when what
    // follows does not complete the pair.
    let pair = hex4(s, end + 2)
        .and_then(|low| char::decode_utf16([high, low]).next()?.ok())
        .map(|c| (u32::from(c), end + 6));
    Some(pair.unwrap_or((u32::from(high), end + 2)))
}

fn hex4(s: &[char], at: usize) -> Option<u16> {
    let digits: String = s.get(at..at + 4)?.iter().collect();
    u16::from_str_radix(&digits, 16).ok()
}

/// One end of a class range: a code point, or a class such as `\d`, which
/// makes the `-` beside it a literal.
enum ClassAtom {
    Char(u32),
    Class,
}

struct Parser<'a> {
    s: &'a [char],
    at: usize,
    names: &'a [String],
    groups: usize,
    loops: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let hit = self.peek() == Some(c);
        self.at += usize::from(hit);
        hit
    }

    fn eat_str(&mut self, text: &str) -> bool {
        let n = text.chars().count();
        let hit = self
            .s
            .get(self.at..self.at + n)
            .is_some_and(|got| got.iter().copied().eq(text.chars()));
        if hit {
            self.at += n;
        }
        hit
    }

    /// Alternatives separated by `|`, up to a `)` or the end.
    fn disjunction(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.alternative()?;
        while self.eat('|') {
            self.alternative()?;
        }
        self.depth -= 1;
        Some(())
    }

    fn alternative(&mut self) -> Option<()> {
        while let Some(c) = self.peek() {
            let mut quantifiable = true;
            match c {
                ')' | '|' => break,
                '^' | '$' => {
                    self.at += 1;
                    quantifiable = false;
                }
                '\\' => {
                    self.at += 1;
                    match self.peek()? {
                        'b' | 'B' => {
                            self.at += 1;
                            quantifiable = false;
                        }
                        // `\c` and a letter is a control character; without
                        // the letter, `\` and `c` are themselves.
                        'c' => {
                            self.at += 1;
                            if self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                                self.at += 1;
                            }
                        }
                        _ => self.atom_escape()?,
                    }
                }
                '(' => {
                    if self.eat_str("(?=") || self.eat_str("(?!") {
                        self.disjunction()?;
                    } else if self.eat_str("(?<=") || self.eat_str("(?<!") {
                        quantifiable = false;
                        self.disjunction()?;
                    } else if self.eat_str("(?:") {
                        self.disjunction()?;
                    } else if !self.modifier_group()? {
                        self.at += 1;
                        self.groups += 1;
                        if self.groups > MAX_GROUPS {
                            return None;
                        }
                        if self.eat('?') {
                            let (_, end) = group_name(self.s, self.at)?;
                            self.at = end;
                        }
                        self.disjunction()?;
                    }
                    if !self.eat(')') {
                        return None;
                    }
                }
                '[' => self.class()?,
                // `{2}` with nothing before it; any other `{` is a literal.
                '{' if self.braced_quantifier().is_some() => return None,
                '*' | '+' | '?' => return None,
                _ => self.at += 1,
            }
            if let Some((min, max)) = self.quantifier() {
                if !quantifiable || max.is_some_and(|max| min > max) {
                    return None;
                }
                self.loops += 1;
                if self.loops > MAX_LOOPS {
                    return None;
                }
            }
        }
        Some(())
    }

    /// A modifier group such as `(?i:…)` at `(`; `Some(false)`: there is
    /// none here, `None`: an invalid one.
    fn modifier_group(&mut self) -> Option<bool> {
        if self.s.get(self.at + 1) != Some(&'?') {
            return Some(false);
        }
        let mut at = self.at + 2;
        match self.s.get(at) {
            None | Some('<') => return Some(false),
            Some(_) => {}
        }
        let (mut seen, mut minus, mut flag) = ([false; 3], false, false);
        loop {
            let c = *self.s.get(at)?;
            at += 1;
            match c {
                'i' | 'm' | 's' => {
                    let k = usize::from(c == 'm') + 2 * usize::from(c == 's');
                    if std::mem::replace(&mut seen[k], true) {
                        return None;
                    }
                    flag = true;
                }
                '-' if !minus => minus = true,
                ':' if flag => break,
                _ => return None,
            }
        }
        self.at = at;
        self.disjunction()?;
        Some(true)
    }

    /// A quantifier and its lazy `?`: the least and most repeats.
    fn quantifier(&mut self) -> Option<(usize, Option<usize>)> {
        let range = match self.peek()? {
            '*' => (0, None),
            '+' => (1, None),
            '?' => (0, Some(1)),
            '{' => {
                let range = self.braced_quantifier()?;
                self.eat('?');
                return Some(range);
            }
            _ => return None,
        };
        self.at += 1;
        self.eat('?');
        Some(range)
    }

    /// `{n}`, `{n,}` or `{n,m}` at `{`, taken whole, or nothing taken.
    fn braced_quantifier(&mut self) -> Option<(usize, Option<usize>)> {
        let start = self.at;
        self.at += 1;
        let range = self.number().and_then(|min| {
            let max = if self.eat(',') {
                self.number()
            } else {
                Some(min)
            };
            self.eat('}').then_some((min, max))
        });
        if range.is_none() {
            self.at = start;
        }
        range
    }

    /// Decimal digits, as a number that stops growing at `usize::MAX`.
    fn number(&mut self) -> Option<usize> {
        let start = self.at;
        let mut n = 0usize;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d as usize);
            self.at += 1;
        }
        (self.at > start).then_some(n)
    }

    /// After `\` outside a class (not `\b`, `\B`, `\c`).
    fn atom_escape(&mut self) -> Option<()> {
        match self.peek()? {
            'k' if !self.names.is_empty() => {
                let (name, end) = group_name(self.s, self.at + 1)?;
                self.at = end;
                self.names.contains(&name).then_some(())
            }
            // A back reference, an octal escape or the digit itself: a
            // literal digit either way, as are the digits after it.
            'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'k' | '1'..='9' => {
                self.at += 1;
                Some(())
            }
            _ => self.character_escape().map(drop),
        }
    }

    /// An escaped character after `\`: its code point.
    fn character_escape(&mut self) -> Option<u32> {
        let c = self.peek()?;
        self.at += 1;
        let value = match c {
            'f' => 0x0C,
            'n' => 0x0A,
            'r' => 0x0D,
            't' => 0x09,
            'v' => 0x0B,
            'x' => match self.s.get(self.at..self.at + 2) {
                Some(&[a, b]) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit() => {
                    self.at += 2;
                    a.to_digit(16)? * 16 + b.to_digit(16)?
                }
                _ => u32::from('x'),
            },
            'u' => match unicode_escape(self.s, self.at) {
                Some((value, end)) => {
                    self.at = end;
                    value
                }
                None => u32::from('u'),
            },
            '0'..='7' => self.octal(c),
            _ => u32::from(c),
        };
        Some(value)
    }

    /// A legacy octal escape whose first digit `first` was just taken.
    fn octal(&mut self, first: char) -> u32 {
        let digit = |c: Option<char>| {
            c.filter(|c| ('0'..='7').contains(c))
                .and_then(|c| c.to_digit(8))
        };
        let first = first.to_digit(8).expect("an octal digit");
        let Some(second) = digit(self.peek()) else {
            return first;
        };
        self.at += 1;
        if first > 3 {
            return first * 8 + second;
        }
        match digit(self.peek()) {
            Some(third) => {
                self.at += 1;
                first * 64 + second * 8 + third
            }
            None => first * 8 + second,
        }
    }

    /// A character class at `[`.
    fn class(&mut self) -> Option<()> {
        self.at += 1;
        self.eat('^');
        loop {
            match self.peek()? {
                ']' => {
                    self.at += 1;
                    return Some(());
                }
                _ => {
                    let first = self.class_atom()?;
                    if !self.eat('-') {
                        continue;
                    }
                    if let (ClassAtom::Char(a), Some(ClassAtom::Char(b))) =
                        (first, self.class_atom_or_end()?)
                        && a > b
                    {
                        return None;
                    }
                }
            }
        }
    }

    /// A class atom, or nothing at `]` or the end (`[a-]`).
    fn class_atom_or_end(&mut self) -> Option<Option<ClassAtom>> {
        match self.peek() {
            None | Some(']') => Some(None),
            Some(_) => self.class_atom().map(Some),
        }
    }

    fn class_atom(&mut self) -> Option<ClassAtom> {
        let c = self.peek()?;
        self.at += 1;
        if c != '\\' {
            return Some(ClassAtom::Char(u32::from(c)));
        }
        let atom = match self.peek()? {
            'b' => {
                self.at += 1;
                ClassAtom::Char(0x08)
            }
            'c' => match self.s.get(self.at + 1) {
                Some(&l) if l.is_ascii_alphanumeric() || l == '_' => {
                    self.at += 2;
                    ClassAtom::Char(u32::from(l) % 32)
                }
                // `\` alone; the `c` is the next atom.
                _ => ClassAtom::Char(u32::from('\\')),
            },
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                self.at += 1;
                ClassAtom::Class
            }
            _ => ClassAtom::Char(self.character_escape()?),
        };
        Some(atom)
    }
}

#[cfg(test)]
mod tests {
    use super::accepts;

    fn engine(pattern: &str) -> bool {
        regress::Regex::new(pattern).is_ok()
    }

    /// regress lets the assertions `\b` and `\B` take a quantifier, which
    /// ECMAScript does not (V8: "Nothing to repeat").
    fn engine_is_lenient(pattern: &str) -> bool {
        ["\\b", "\\B"].iter().any(|a| {
            pattern
                .match_indices(a)
                .any(|(i, _)| pattern[i + 2..].starts_with(['*', '+', '?', '{']))
        })
    }

    #[test]
    fn matchers_and_the_errors_javascript_reports() {
        for ok in [
            "Bash",
            "^(?:Bash|Edit)$",
            "mcp__github__.*",
            "Edit|Write",
            "(?i:Bash)",
            "(?<n>x)\\k<n>",
            "(?<a>x)|(?<a>y)",
            "[\\d-z]",
            "x{",
            "{",
            "]",
            "}",
            "a{2,}?",
            "(?=a)*",
            "\\c",
            "[\\c]",
            "\\k<x>",
            "\\p{L}",
            "\\u{1F600}",
            "[a-]",
            "\\1(a)",
        ] {
            assert!(accepts(ok), "{ok} should compile");
        }
        for bad in [
            "*",
            "a**",
            "^*",
            "(?<=a)+",
            "{2}",
            "a{2,1}",
            "Bash(",
            "Bash)",
            "(?P<n>a)",
            "(?x)",
            "(?-:a)",
            "(?ii:a)",
            "\\",
            "[",
            "[z-a]",
            "(?<a>x)(?<a>y)",
            "(?<n>x)\\k<m>",
            "(?<n>x)\\k",
            "u\\x)",
            "(?i)Bash",
            "\\b*",
            "a\\B{2}",
        ] {
            assert!(!accepts(bad), "{bad} should not compile");
        }
    }

    /// Every pattern the same verdict as a real ECMAScript engine: the
    /// matchers above, and random strings of the characters that matter.
    #[test]
    fn agrees_with_an_ecmascript_engine() {
        let cases = crate::test_cases("HOOKC_REGEX_CASES", 60_000);
        let alphabet: Vec<char> = "ab()[]{}*+?|^$\\.-,:=!<>dwsbkpPuxcimB0123789_Nn\u{e9}"
            .chars()
            .collect();
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut disagree = Vec::new();
        for _ in 0..cases {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 12) as usize + 1;
            let mut x = seed;
            let pattern: String = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    alphabet[(x >> 33) as usize % alphabet.len()]
                })
                .collect();
            let (ours, theirs) = (accepts(&pattern), engine(&pattern));
            if ours != theirs && !(theirs && engine_is_lenient(&pattern)) {
                disagree.push(pattern);
            }
        }
        assert!(
            disagree.is_empty(),
            "{} of {cases} patterns judged unlike the engine, e.g. {:?}",
            disagree.len(),
            &disagree[..disagree.len().min(20)]
        );
    }
}
