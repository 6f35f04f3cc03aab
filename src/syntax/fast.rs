//! The plain KDL that policies are written in, read quickly.
//!
//! The kdl crate parses all of KDL 2.0 and explains every mistake, but it
//! spends thousands of instructions on each byte: on a 1,000-guard policy its
//! parser was two thirds of `hookc build`. Policies use a small part of the
//! language: bare and quoted names, quoted and raw strings, whole numbers,
//! `#true`, `#false` and `#null`, type annotations, properties, blocks and
//! comments. This reader handles that part and gives up (`None`) at the first
//! thing outside it (slashdash, escaped newlines, multi-line strings, other
//! numbers, Unicode spacing, names outside ASCII) and at every error. The kdl
//! crate then reads the document, so a policy gets the same tree and the same
//! diagnostics whichever reader took it.
//!
//! "The same tree" includes every span the decoder reports: the tests below
//! compare the two readers on the KDL test suite and on random documents.

use std::ops::Range;

use kdl::{KdlDocument, KdlEntry, KdlIdentifier, KdlNode, KdlValue};

/// The document, or `None` when the kdl crate must read it.
pub fn parse(text: &str) -> Option<KdlDocument> {
    let mut reader = Reader {
        text,
        pos: 0,
        nodes: Vec::new(),
        entries: Vec::new(),
    };
    let document = reader.nodes()?;
    (reader.pos == text.len()).then_some(document)
}

struct Reader<'t> {
    text: &'t str,
    pos: usize,
    /// Nodes and entries read but not yet placed: each block takes its own
    /// off the end in one allocation of the exact size. A vector grown one
    /// push at a time keeps room for four, and KDL nodes and entries take a
    /// few hundred bytes each: that spare room was most of the memory a large
    /// policy's build peaked at, and shrinking each vector afterwards costs
    /// a reallocation per node.
    nodes: Vec<KdlNode>,
    entries: Vec<KdlEntry>,
}

/// A string token: its value and where it stands, quotes included.
struct Text {
    value: String,
    span: Range<usize>,
}

impl Text {
    fn identifier(self) -> KdlIdentifier {
        let mut identifier = KdlIdentifier::from(self.value);
        identifier.set_span(self.span);
        identifier
    }
}

impl Reader<'_> {
    fn rest(&self) -> &[u8] {
        &self.text.as_bytes()[self.pos..]
    }

    fn peek(&self) -> Option<u8> {
        self.rest().first().copied()
    }

    /// Nodes up to a `}` or the end. The document's span runs from its first
    /// node to the end of its last, as the kdl crate has it.
    fn nodes(&mut self) -> Option<KdlDocument> {
        let first = self.nodes.len();
        self.line_space()?;
        let start = self.pos;
        let mut end = start;
        while !matches!(self.peek(), None | Some(b'}')) {
            let node = self.node()?;
            end = self.pos;
            self.nodes.push(node);
            if !self.terminator()? {
                break;
            }
            self.line_space()?;
        }
        let mut document = KdlDocument::new();
        *document.nodes_mut() = self.nodes.drain(first..).collect();
        document.set_span(start..end);
        Some(document)
    }

    /// `(type)? name entries* children?`, with the spaces after it: a node's
    /// span ends where its terminator starts.
    fn node(&mut self) -> Option<KdlNode> {
        let start = self.pos;
        let ty = self.type_annotation()?;
        if ty.is_some() {
            self.node_space()?;
        }
        if !self.at_string() {
            return None;
        }
        let mut node = KdlNode::new(self.string()?.identifier());
        let first = self.entries.len();
        if let Some(ty) = ty {
            node.set_ty(ty);
        }
        loop {
            let spaced = self.node_space()?;
            match self.peek() {
                Some(b'{') => {
                    node.set_children(self.children()?);
                    self.node_space()?;
                    break;
                }
                None | Some(b';' | b'}' | b'\n' | b'\r' | 0x0B | 0x0C) => break,
                Some(b'/') if self.rest().starts_with(b"//") => break,
                Some(_) if spaced => {
                    let entry = self.entry()?;
                    self.entries.push(entry);
                }
                Some(_) => return None,
            }
        }
        node.set_span(start..self.pos);
        *node.entries_mut() = self.entries.drain(first..).collect();
        Some(node)
    }

    fn children(&mut self) -> Option<KdlDocument> {
        self.pos += 1;
        let document = self.nodes()?;
        self.eat(b'}').then_some(document)
    }

    /// What ends a node: `;`, a newline or a `//` comment (`true`), or a `}`
    /// or the end of the text (`false`).
    fn terminator(&mut self) -> Option<bool> {
        match self.peek() {
            None | Some(b'}') => Some(false),
            Some(b';' | b'\n' | b'\r' | 0x0B | 0x0C) => {
                self.pos += 1;
                Some(true)
            }
            Some(b'/') if self.rest().starts_with(b"//") => {
                self.line_comment()?;
                Some(true)
            }
            _ => None,
        }
    }

    /// An argument, or a property `key=value`.
    fn entry(&mut self) -> Option<KdlEntry> {
        let start = self.pos;
        let mut entry = if self.at_string() {
            let string = self.string()?;
            let after = self.pos;
            self.node_space()?;
            if self.eat(b'=') {
                self.node_space()?;
                let mut entry = self.value()?;
                entry.set_name(Some(string.identifier()));
                entry
            } else {
                self.pos = after;
                KdlEntry::new(KdlValue::String(string.value))
            }
        } else {
            self.value()?
        };
        entry.set_span(start..self.pos);
        Some(entry)
    }

    /// `(type)? value`.
    fn value(&mut self) -> Option<KdlEntry> {
        let ty = self.type_annotation()?;
        if ty.is_some() {
            self.node_space()?;
        }
        let value = if self.at_string() {
            KdlValue::String(self.string()?.value)
        } else {
            let value = match self.peek()? {
                b'#' => self.keyword()?,
                b'0'..=b'9' | b'+' | b'-' => self.integer()?,
                _ => return None,
            };
            // A number or keyword cannot be a property's key.
            if self.peek() == Some(b'=') || !self.at_value_end() {
                return None;
            }
            value
        };
        let mut entry = KdlEntry::new(value);
        if let Some(ty) = ty {
            entry.set_ty(ty);
        }
        Some(entry)
    }

    /// `(name)`, without spaces inside the parentheses.
    fn type_annotation(&mut self) -> Option<Option<KdlIdentifier>> {
        if !self.eat(b'(') {
            return Some(None);
        }
        if !self.at_string() {
            return None;
        }
        let ty = self.string()?.identifier();
        self.eat(b')').then_some(Some(ty))
    }

    fn keyword(&mut self) -> Option<KdlValue> {
        let rest = self.rest();
        let (value, len) = if rest.starts_with(b"#true") {
            (KdlValue::Bool(true), 5)
        } else if rest.starts_with(b"#false") {
            (KdlValue::Bool(false), 6)
        } else if rest.starts_with(b"#null") {
            (KdlValue::Null, 5)
        } else {
            return None;
        };
        self.pos += len;
        Some(value)
    }

    /// A decimal integer without underscores.
    fn integer(&mut self) -> Option<KdlValue> {
        let start = self.pos;
        if matches!(self.peek(), Some(b'+' | b'-')) {
            self.pos += 1;
        }
        let digits = self
            .rest()
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        self.pos += digits;
        self.text[start..self.pos]
            .parse()
            .ok()
            .map(KdlValue::Integer)
    }

    /// Whether a string starts here: quoted, raw, or a bare identifier (which
    /// cannot start like a number).
    fn at_string(&self) -> bool {
        match self.rest() {
            [b'"', ..] | [b'#', b'"' | b'#', ..] => true,
            [b'0'..=b'9', ..] | [b'+' | b'-', b'0'..=b'9', ..] => false,
            [b, ..] => is_identifier_byte(*b),
            [] => false,
        }
    }

    /// The string [`at_string`](Self::at_string) saw, which must end where a
    /// value may end.
    fn string(&mut self) -> Option<Text> {
        let start = self.pos;
        let value = match self.peek()? {
            b'"' => self.quoted()?,
            b'#' => self.raw()?,
            _ => self.bare()?,
        };
        self.at_value_end().then_some(Text {
            value,
            span: start..self.pos,
        })
    }

    fn bare(&mut self) -> Option<String> {
        let rest = self.rest();
        // `.5`, `-.5` and `+.x` are numbers or errors depending on what follows.
        if matches!(rest, [b'.', ..] | [b'+' | b'-', b'.', ..]) {
            return None;
        }
        let len = rest.iter().take_while(|b| is_identifier_byte(**b)).count();
        let word = &self.text[self.pos..self.pos + len];
        // Bare keywords are errors in KDL 2.0.
        if matches!(word, "true" | "false" | "null" | "inf" | "-inf" | "nan") {
            return None;
        }
        self.pos += len;
        Some(word.to_owned())
    }

    /// `"…"` on one line, with the simple escapes and `\u{…}`.
    fn quoted(&mut self) -> Option<String> {
        if self.rest().starts_with(b"\"\"\"") {
            return None;
        }
        self.pos += 1;
        let mut value = String::new();
        let mut run = self.pos;
        loop {
            match self.peek()? {
                b'"' => {
                    value.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Some(value);
                }
                b'\\' => {
                    value.push_str(&self.text[run..self.pos]);
                    value.push(self.escape()?);
                    run = self.pos;
                }
                b' '..=b'~' => self.pos += 1,
                _ => self.string_char()?,
            }
        }
    }

    /// `\n` and its kind, after the backslash; `None` for a backslash before
    /// white space (a line continuation) or an unknown escape.
    fn escape(&mut self) -> Option<char> {
        self.pos += 1;
        let c = match self.peek()? {
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'\\' => '\\',
            b'"' => '"',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b's' => ' ',
            b'u' => {
                let rest = &self.rest()[1..];
                let digits = rest.iter().skip(1).take_while(|b| b.is_ascii_hexdigit());
                let len = digits.count();
                if rest.first() != Some(&b'{') || !(1..=6).contains(&len) {
                    return None;
                }
                if rest.get(1 + len) != Some(&b'}') {
                    return None;
                }
                let hex = &self.text[self.pos + 2..self.pos + 2 + len];
                let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                self.pos += 2 + len;
                c
            }
            _ => return None,
        };
        self.pos += 1;
        Some(c)
    }

    /// `#"…"#`, with any number of `#`, on one line.
    fn raw(&mut self) -> Option<String> {
        let hashes = self.rest().iter().take_while(|b| **b == b'#').count();
        self.pos += hashes;
        if !self.eat(b'"') || self.rest().starts_with(b"\"\"") {
            return None;
        }
        let start = self.pos;
        loop {
            if self.peek()? == b'"' {
                let closing = &self.rest()[1..];
                if closing.len() >= hashes && closing[..hashes].iter().all(|b| *b == b'#') {
                    let value = self.text[start..self.pos].to_owned();
                    self.pos += 1 + hashes;
                    return Some(value);
                }
                self.pos += 1;
            } else if matches!(self.peek(), Some(b' '..=b'~')) {
                self.pos += 1;
            } else {
                self.string_char()?;
            }
        }
    }

    /// Steps over one character a one-line string may hold literally.
    fn string_char(&mut self) -> Option<()> {
        let c = self.text[self.pos..].chars().next()?;
        if is_newline(c) || is_disallowed(c) {
            return None;
        }
        self.pos += c.len_utf8();
        Some(())
    }

    /// Whether what follows may end a string, number or keyword.
    fn at_value_end(&self) -> bool {
        match self.rest() {
            [] => true,
            [b'/', b'/' | b'*', ..] => true,
            [b, ..] => matches!(
                b,
                b'=' | b')' | b'{' | b'}' | b';' | b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C
            ),
        }
    }

    /// Spaces and `/* */` comments between the parts of a node; whether there
    /// were any.
    fn node_space(&mut self) -> Option<bool> {
        let start = self.pos;
        loop {
            match self.rest() {
                [b' ' | b'\t', ..] => self.pos += 1,
                [b'/', b'*', ..] => self.block_comment()?,
                // A line continuation, or Unicode spacing.
                [b'\\', ..] => return None,
                [b, ..] if !b.is_ascii() => return None,
                _ => return Some(self.pos > start),
            }
        }
    }

    /// Spaces, newlines and comments between nodes.
    fn line_space(&mut self) -> Option<()> {
        loop {
            match self.rest() {
                [b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C, ..] => self.pos += 1,
                [b'/', b'/', ..] => self.line_comment()?,
                [b'/', b'*', ..] => self.block_comment()?,
                // Slashdash, a line continuation, or Unicode spacing.
                [b'/' | b'\\', ..] => return None,
                [b, ..] if !b.is_ascii() => return None,
                _ => return Some(()),
            }
        }
    }

    /// `// …` and the newline that ends it.
    fn line_comment(&mut self) -> Option<()> {
        while let Some(c) = self.text[self.pos..].chars().next() {
            self.pos += c.len_utf8();
            match c {
                '\n' | '\r' | '\u{b}' | '\u{c}' => break,
                // Newlines the kdl crate also ends a comment at.
                '\u{85}' | '\u{2028}' | '\u{2029}' => return None,
                _ => {}
            }
        }
        Some(())
    }

    /// `/* … */`, nested.
    fn block_comment(&mut self) -> Option<()> {
        self.pos += 2;
        let mut depth = 1;
        while depth > 0 {
            match self.rest() {
                [] => return None,
                [b'*', b'/', ..] => {
                    depth -= 1;
                    self.pos += 2;
                }
                [b'/', b'*', ..] => {
                    depth += 1;
                    self.pos += 2;
                }
                _ => self.pos += 1,
            }
        }
        Some(())
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.pos += 1;
        }
        found
    }
}

/// An ASCII byte a bare identifier may hold.
fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_graphic()
        && !matches!(
            b,
            b'\\' | b'/' | b'(' | b')' | b'{' | b'}' | b'[' | b']' | b';' | b'"' | b'#' | b'='
        )
}

fn is_newline(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Code points KDL forbids anywhere in a document, and DEL.
fn is_disallowed(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}'
        | '\u{e}'..='\u{1f}'
        | '\u{7f}'
        | '\u{200e}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}'
    )
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;
    use std::path::Path;

    use kdl::{KdlDocument, KdlIdentifier};

    use super::parse;

    /// Everything the decoder reads from a document, spans included.
    fn outline(document: &KdlDocument) -> String {
        fn identifier(out: &mut String, what: &str, id: Option<&KdlIdentifier>) {
            if let Some(id) = id {
                let span = id.span();
                write!(
                    out,
                    " {what}={:?}@{}+{}",
                    id.value(),
                    span.offset(),
                    span.len()
                )
                .unwrap();
            }
        }
        fn walk(out: &mut String, document: &KdlDocument, depth: usize) {
            let span = document.span();
            writeln!(
                out,
                "{:depth$}document@{}+{}",
                "",
                span.offset(),
                span.len()
            )
            .unwrap();
            for node in document.nodes() {
                let span = node.span();
                write!(out, "{:depth$} node@{}+{}", "", span.offset(), span.len()).unwrap();
                identifier(out, "type", node.ty());
                identifier(out, "name", Some(node.name()));
                out.push('\n');
                for entry in node.entries() {
                    let span = entry.span();
                    write!(out, "{:depth$}  entry@{}+{}", "", span.offset(), span.len()).unwrap();
                    identifier(out, "key", entry.name());
                    identifier(out, "type", entry.ty());
                    writeln!(out, " {:?}", entry.value()).unwrap();
                }
                if let Some(children) = node.children() {
                    walk(out, children, depth + 2);
                }
            }
        }
        let mut out = String::new();
        walk(&mut out, document, 0);
        out
    }

    /// `Err` when the fast reader took `text` and read it unlike the kdl crate.
    fn compare(text: &str) -> Result<bool, String> {
        let Some(ours) = parse(text) else {
            return Ok(false);
        };
        match text.parse::<KdlDocument>() {
            Ok(theirs) if outline(&ours) == outline(&theirs) => Ok(true),
            Ok(theirs) => Err(format!(
                "{text:?}\nfast:\n{}kdl:\n{}",
                outline(&ours),
                outline(&theirs)
            )),
            Err(error) => Err(format!("{text:?}: the kdl crate rejects it: {error:?}")),
        }
    }

    fn check_all(texts: impl IntoIterator<Item = String>) -> (usize, usize) {
        let (mut taken, mut total) = (0, 0);
        let mut wrong = Vec::new();
        for text in texts {
            total += 1;
            match compare(&text) {
                Ok(true) => taken += 1,
                Ok(false) => {}
                Err(e) => wrong.push(e),
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {total} documents read unlike the kdl crate; first:\n{}",
            wrong.len(),
            wrong[0]
        );
        (taken, total)
    }

    #[test]
    fn reads_a_policy_as_the_kdl_crate_does() {
        let text = r###"
// A comment, then a node with a type, a property and children.
(doc)policy version=1 "two words" #"raw \d+"# ##"with "# inside"## {
    guard "no-rm" { match tool="Bash" /* inline */ ; deny "use trash" }
    empty {}
    spaced   {   }
    prop k = (t)"v" "k 2"=1; flag #true #false #null -7 +3 0
}
last-node "é … \u{1F600} \n\t\"\\" - --x a.b
"###;
        assert_eq!(check_all([text.to_owned()]), (1, 1));
    }

    #[test]
    fn the_bundled_policy_and_presets_take_the_fast_path() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = vec![root.join("policy.kdl")];
        for entry in std::fs::read_dir(root.join("presets")).unwrap() {
            files.push(entry.unwrap().path());
        }
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            assert_eq!(check_all([text]), (1, 1), "{}", file.display());
        }
    }

    #[test]
    fn gives_up_on_what_it_does_not_read() {
        for text in [
            "a /-b",
            "/-a\nb",
            "a \\\n b",
            "a \"\"\"\n  x\n  \"\"\"",
            "a 1.5",
            "a 0x1f",
            "a 1_000",
            "a #inf",
            "a\u{a0}b",
            "\u{feff}a",
            "é",
            "a \"\\q\"",
            "a \"x",
            "a {",
            "a }",
            "a true",
            "a .5",
            "a b(c)",
            "a \"\u{2028}\"",
            "a \"\u{200e}\"",
        ] {
            assert!(parse(text).is_none(), "{text:?}");
        }
    }

    /// The test documents of the KDL specification that ship with the kdl
    /// crate, copied into tests/fixtures so that no test reads the cargo
    /// cache: every one the fast reader takes, it reads as the crate does.
    #[test]
    fn agrees_with_the_kdl_test_suite() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap();
        let locked = lock
            .split("[[package]]")
            .find(|package| package.contains("\nname = \"kdl\"\n"))
            .and_then(|package| package.lines().find_map(|l| l.strip_prefix("version = ")))
            .expect("Cargo.lock pins the kdl crate");
        assert_eq!(
            locked.trim_matches('"'),
            KDL_SUITE_VERSION,
            "Cargo.lock pins another kdl than the test suite in tests/fixtures/kdl-test-suite \
             was copied from: copy that version's tests/test_cases/input there (SOURCE.md says how)"
        );
        let inputs = root.join("tests/fixtures/kdl-test-suite/input");
        let texts: Vec<String> = std::fs::read_dir(&inputs)
            .unwrap_or_else(|e| panic!("{}: {e}", inputs.display()))
            .map(|entry| std::fs::read(entry.unwrap().path()).unwrap())
            .filter_map(|bytes| String::from_utf8(bytes).ok())
            .collect();
        let (taken, total) = check_all(texts);
        assert!(total > 300 && taken > 100, "took {taken} of {total}");
    }

    /// The kdl crate version tests/fixtures/kdl-test-suite was copied from.
    const KDL_SUITE_VERSION: &str = "6.7.1";

    /// Random documents near the subset, and the same documents with a few
    /// characters changed.
    #[test]
    fn agrees_with_the_kdl_crate_on_random_documents() {
        let cases = crate::test_cases("HOOKC_KDL_CASES", 5_000);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut texts = Vec::with_capacity(2 * cases);
        for _ in 0..cases {
            let text = rng.document(0);
            let mut mutated: Vec<char> = text.chars().collect();
            for _ in 0..rng.below(3) + 1 {
                let c = rng.pick(MUTATIONS);
                let at = rng.below(mutated.len() + 1);
                match rng.below(3) {
                    0 if at < mutated.len() => mutated[at] = c,
                    1 if at < mutated.len() => {
                        mutated.remove(at);
                    }
                    _ => mutated.insert(at, c),
                }
            }
            texts.push(text);
            texts.push(mutated.into_iter().collect());
        }
        let (taken, total) = check_all(texts);
        assert!(taken * 4 > total, "took only {taken} of {total}");
    }

    const MUTATIONS: &[char] = &[
        ' ', '\n', '\r', '\t', '"', '#', '\\', '/', '*', '-', '+', '.', '=', '(', ')', '{', '}',
        ';', '0', '9', 'a', 'e', 'x', '_', 'é', '\u{a0}', '\u{85}', '\u{2028}', '\u{200e}',
        '\u{feff}', '\u{7f}', '\u{1}',
    ];

    /// Pieces of documents: the fast reader takes those in the first list, and
    /// gives up on those in the second.
    const NAMES: (&[&str], &[&str]) = (
        &[
            "a",
            "guard",
            "-",
            "--x",
            "a.b",
            "x1",
            "k-v",
            "\"quoted name\"",
            "\"\"",
            "#\"raw\"#",
        ],
        &["é", "true", "1a", ".x", "+.y", "a\u{a0}"],
    );

    const VALUES: (&[&str], &[&str]) = (
        &[
            "\"a b\"",
            "\"\\n\\t\\\\\\\"\\s\\b\\f\\r\"",
            "\"\\u{1F600}\\u{41}\"",
            "\"é … 日本\"",
            "#\"raw \\d+\"#",
            "##\"a\"#b\"##",
            "#\"\"#",
            "\"\"",
            "1",
            "-42",
            "+7",
            "0",
            "007",
            "#true",
            "#false",
            "#null",
            "bare",
            "-",
            "--x",
            "a.b",
            "(t)\"x\"",
            "(u)5",
            "(\"q\")#null",
            "(t) 1",
            "\"tab\tin\"",
        ],
        &[
            "( t)1",
            "1.5",
            "0x1f",
            "1_000",
            "1e3",
            "#inf",
            "#-inf",
            "#nan",
            "true",
            ".5",
            "\"\\q\"",
            "\"\\u{d800}\"",
            "\"\\u{110000}\"",
            "\"\\u{}\"",
            "\"a\u{2028}b\"",
            "\"a\u{200e}b\"",
            "\"a\u{7f}b\"",
            "#\"\"\"\n  x\n  \"\"\"#",
            "\"\"\"\n  x\n  \"\"\"",
            "\"x\"\"y\"",
            "a(b)",
            "#\"a\"##",
            "99999999999999999999999999999999999999999",
            "\"\\\n  cont\"",
        ],
    );

    const SPACES: (&[&str], &[&str]) = (
        &[" ", "  ", "\t", " /* c */ ", " /*/* n */*/ "],
        &[" \\\n ", "\u{3000}", "/- x "],
    );

    const BREAKS: (&[&str], &[&str]) = (
        &[
            "\n",
            ";",
            "; ",
            "\r\n",
            "\r",
            " // c\n",
            "\n\n",
            "\u{c}",
            "\u{b}",
            "/* x */\n",
        ],
        &["\u{85}", "\u{2028}", " // x\u{2029}y\n"],
    );

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn pick<T: Copy>(&mut self, from: &[T]) -> T {
            from[self.below(from.len())]
        }

        /// Mostly from the first list, one time in forty from the second.
        fn choose(&mut self, (plain, odd): (&[&'static str], &[&'static str])) -> &'static str {
            if self.below(40) == 0 {
                self.pick(odd)
            } else {
                self.pick(plain)
            }
        }

        fn document(&mut self, depth: usize) -> String {
            let mut out = String::new();
            if self.below(3) == 0 {
                out.push_str(self.pick(&["\n", " ", "// top\n", "/* c */\n", "  \n"]));
            }
            for _ in 0..self.below(if depth == 0 { 4 } else { 3 }) + usize::from(depth == 0) {
                if self.below(5) == 0 {
                    out.push_str(self.pick(&["(t)", "(\"ty\")", "(t) "]));
                }
                out.push_str(self.choose(NAMES));
                for _ in 0..self.below(4) {
                    out.push_str(self.choose(SPACES));
                    if self.below(3) == 0 {
                        out.push_str(self.pick(&[
                            "k=",
                            "\"k k\"=",
                            "k = ",
                            "x=",
                            "#\"r\"#=",
                            "k /* c */= ",
                        ]));
                    }
                    out.push_str(self.choose(VALUES));
                }
                if depth < 2 && self.below(3) == 0 {
                    out.push_str(self.pick(&[" {", "{", " {\n"]));
                    out.push_str(&self.document(depth + 1));
                    out.push('}');
                }
                if self.below(4) == 0 {
                    out.push_str(self.pick(&["  ", " /* t */", "\t"]));
                }
                out.push_str(self.choose(BREAKS));
            }
            out
        }
    }
}
