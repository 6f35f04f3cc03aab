//! Merging hook entries into JSON / JSONC harness files (`.claude/settings.json`,
//! `.gemini/settings.json`, `.cursor/hooks.json`, `.codex/hooks.json`).
//!
//! The file is parsed with `jsonc-parser` into an AST with byte ranges; the merge is then a
//! list of text edits. Nothing outside the spliced ranges is re-serialised, which is how
//! comments, key order, spacing, CRLF, a BOM and a missing final newline survive.
//!
//! The edits are designed as exact inverses:
//!
//! * **Insertion** after the last remaining element `A` of an array (or member of an object)
//!   puts each new entry on its own line, `NL indent entry`, at the end of `A`'s line (after a
//!   comment that follows `A` on that line). If `A` had no comma, one is added right after `A`;
//!   if it had one (trailing-comma style), every inserted entry gets one too.
//! * **Removal** of an entry alone on its line deletes the line break in front of it, its
//!   indentation, the entry and its own comma; when the last entry goes and the array had no
//!   trailing comma, the comma of the last remaining entry goes too. An array (or object)
//!   left with nothing inside is written `[]` (`{}`), which is also what insertion starts from.
//!
//! Removal never deletes a comment (a comment a user wrote between hookc's entries stays), and
//! never deletes the line break that ends a `//` comment.
//! Merging is "remove every owned entry, then append the desired ones"; when the result means
//! the same JSON as the input, the input is returned unchanged, byte for byte.
//!
//! jsonc-parser's CST edits a tree and prints it again; its edits do not keep these
//! properties, so they are not used here. Appending a member first spreads a one-line object
//! over several lines, removing an element takes the comments on its line with it, inserting
//! trims blank lines at the start and end of the container, and inserted values follow the
//! file's trailing-comma style at every depth. Tried on this module's corpus (14 files, two
//! sets of entries), CST edits gave other bytes in 10 of 28 merges and 7 of 28 retractions.

use indexmap::IndexMap;
use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, CommentCollectionStrategy, ParseOptions};
use serde_json::Value;

use super::{
    Edit, MergeError, Merged, Shape, apply_edits, error_at, newline_of, pointer, split_bom,
};

/// Owned entries live in arrays that are the members of the object at `container` (e.g. ["hooks"]):
/// `hooks.PreToolUse: [ …entries… ]`. `desired` maps member name → the entries hookc wants there,
/// in order. `is_owned` recognises hookc's entries (it looks e.g. for a marker path in a command).
/// `ensure` lists top-level members hookc needs and adds only when absent (e.g. ("version", 1) for Cursor); it never changes an existing one.
///
/// * `existing: None` (no file): a fresh document, two-space indent, LF, final newline, ensure
///   members first, then the container; only non-empty arrays. Nothing desired → [`Merged::Empty`].
/// * Otherwise the text is parsed as JSONC (comments and trailing commas allowed; the caller
///   decides whether a harness forbids them). Every element that `is_owned` is removed from
///   every array member of the container, then the desired entries are appended at the end of
///   their member's array (member and container path are created at the end of their object
///   when missing). An array that held only owned entries is removed, and so is a container
///   object that held only such arrays (up to, not including, the root) — but only when
///   nothing is desired at all and no comment is inside; something that was empty before this
///   call (a user's `"hooks": {}`) is never removed.
/// * `ensure` members are added (at the end of the root object) only when some entry is desired.
/// * When the result means the same JSON as `existing`, `existing` is returned byte for byte.
/// * [`Merged::Empty`] is returned when this call removed hookc's entries and nothing is left but
///   an empty root object or the `ensure` members with their ensured values, without comments:
///   the file then holds nothing hookc did not create, and the caller may delete it. Pass the
///   same `ensure` when retracting so that such a file is recognised.
///
/// Errors (the file is then left alone): the text is not JSONC; the root or an object on the
/// `container` path is not an object; a member that should receive entries is not an array; a
/// key on the path or among the container's members is duplicated (which one a harness reads is
/// not something to guess).
pub fn merge_entries(
    existing: Option<&str>,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    ensure: &[(&str, Value)],
    is_owned: &dyn Fn(&Value) -> bool,
) -> Result<Merged, MergeError> {
    merge_impl(existing, container, desired, ensure, is_owned, true)
}

/// The owned entries currently in a file, per member (for conflict detection and `check`).
///
/// Only members holding at least one owned entry are listed, in file order; members that are
/// not arrays are skipped (they cannot hold entries). A missing container gives an empty map.
pub fn owned_entries(
    existing: &str,
    container: &[&str],
    is_owned: &dyn Fn(&Value) -> bool,
) -> Result<IndexMap<String, Vec<Value>>, MergeError> {
    let (bom, body) = split_bom(existing);
    let root = parse(existing, bom.len(), body)?;
    let Some(root) = root else {
        return Ok(IndexMap::new());
    };
    let chain = locate(existing, bom.len(), &root, container)?;
    Ok(owned_in(&chain, is_owned))
}

/// The owned entries under the container, per member holding any.
fn owned_in(chain: &Chain, is_owned: &dyn Fn(&Value) -> bool) -> IndexMap<String, Vec<Value>> {
    let mut out = IndexMap::new();
    let Some(object) = chain.container() else {
        return out;
    };
    for prop in &object.properties {
        if let ast::Value::Array(array) = &prop.value {
            let owned: Vec<Value> = array
                .elements
                .iter()
                .map(to_serde)
                .filter(|v| is_owned(v))
                .collect();
            if !owned.is_empty() {
                out.insert(prop.name.as_str().to_string(), owned);
            }
        }
    }
    out
}

/// [`merge_entries`] with the record of what hookc added to the file before (see [`Shape`]).
///
/// `prior: Some` makes retraction exact: only members in `prior.created` are removed when they
/// hold nothing else, the user's emptied objects and arrays get their inner whitespace back, and
/// the file is reported [`Merged::Empty`] only when hookc created it. Pass `Some(&Shape::default())`
/// for a file hookc has no record of. The record to keep for next time comes back with the
/// result (`None` when `prior` was `None`).
pub fn merge_entries_shaped(
    existing: Option<&str>,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    ensure: &[(&str, Value)],
    is_owned: &dyn Fn(&Value) -> bool,
    prior: Option<&Shape>,
) -> Result<(Merged, Option<Shape>), MergeError> {
    // No record (a manifest from before records were kept): one can start when hookc has
    // nothing in the file yet.
    let fresh = Shape::default();
    let prior = match prior {
        None if existing.is_none_or(|text| {
            owned_entries(text, container, is_owned).is_ok_and(|o| o.is_empty())
        }) =>
        {
            Some(&fresh)
        }
        prior => prior,
    };
    merge_core(existing, container, desired, ensure, is_owned, true, prior)
}

/// The whole merge; `shortcut: false` skips the "nothing changed, return the input" check so
/// tests can see that remove-then-append alone already reproduces an up-to-date file.
fn merge_impl(
    existing: Option<&str>,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    ensure: &[(&str, Value)],
    is_owned: &dyn Fn(&Value) -> bool,
    shortcut: bool,
) -> Result<Merged, MergeError> {
    merge_core(
        existing, container, desired, ensure, is_owned, shortcut, None,
    )
    .map(|(m, _)| m)
}

/// What a merge is asked to do (the arguments of [`merge_entries`]).
struct Request<'r> {
    container: &'r [&'r str],
    desired: &'r IndexMap<String, Vec<Value>>,
    ensure: &'r [(&'r str, Value)],
    is_owned: &'r dyn Fn(&Value) -> bool,
}

impl Request<'_> {
    fn wants_any(&self) -> bool {
        self.desired.values().any(|v| !v.is_empty())
    }
}

fn merge_core(
    existing: Option<&str>,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    ensure: &[(&str, Value)],
    is_owned: &dyn Fn(&Value) -> bool,
    shortcut: bool,
    prior: Option<&Shape>,
) -> Result<(Merged, Option<Shape>), MergeError> {
    let req = Request {
        container,
        desired,
        ensure,
        is_owned,
    };
    let Some(existing) = existing else {
        return Ok(merge_into_no_file(&req, prior));
    };
    let (bom, body) = split_bom(existing);
    let Some(root) = parse(existing, bom.len(), body)? else {
        return Ok(merge_into_no_document(existing, bom, body, &req, prior));
    };
    let chain = locate(existing, bom.len(), &root, container)?;
    check_members(existing, bom.len(), &chain, desired, is_owned)?;
    // A record describes the file hookc left behind; a file without any of hookc's entries
    // is not that file any more (replaced, or checked out from before hookc): start afresh.
    let fresh = Shape::default();
    let prior = match prior {
        Some(_) if owned_in(&chain, is_owned).is_empty() => Some(&fresh),
        prior => prior,
    };
    let (result_body, removed_any) = remove_then_append(body, &chain, &req, prior)?;
    let result_root = reparse(&result_body)?;
    let shape = prior.map(|p| {
        next_shape(
            p,
            &states(body, &root, container, ensure),
            &states(&result_body, &result_root, container, ensure),
        )
    });
    if shortcut && to_serde(&result_root) == to_serde(&root) {
        return Ok((Merged::Text(existing.to_string()), shape));
    }
    // Never hand back a file that does not say what was asked for.
    let check = locate(&result_body, 0, &result_root, container).map_err(|_| internal_error())?;
    if !owned_match(&check, desired, is_owned) {
        return Err(internal_error());
    }
    Ok(finish(
        bom,
        &result_body,
        &result_root,
        &req,
        removed_any,
        prior,
        shape,
    ))
}

/// No file: a fresh document, or nothing at all when nothing is wanted.
fn merge_into_no_file(req: &Request, prior: Option<&Shape>) -> (Merged, Option<Shape>) {
    if !req.wants_any() {
        return (Merged::Empty, prior.map(|_| Shape::default()));
    }
    let fresh = fresh_document(req.container, req.desired, req.ensure, "\n");
    let shape = prior.map(|_| Shape {
        file: true,
        created: created_in(&fresh, req.container, req.ensure),
        ..Shape::default()
    });
    (Merged::Text(fresh), shape)
}

/// An empty (or comment-only) file: nothing to remove; a fresh document goes after
/// whatever comments are there.
fn merge_into_no_document(
    existing: &str,
    bom: &str,
    body: &str,
    req: &Request,
    prior: Option<&Shape>,
) -> (Merged, Option<Shape>) {
    if !req.wants_any() {
        return (Merged::Text(existing.to_string()), prior.cloned());
    }
    let nl = newline_of(body);
    let kept = body.trim_end();
    let sep = if kept.is_empty() { "" } else { nl };
    let fresh = fresh_document(req.container, req.desired, req.ensure, nl);
    let shape = prior.map(|p| Shape {
        file: p.file,
        created: created_in(&fresh, req.container, req.ensure),
        before: Some(body.to_owned()),
        ..Shape::default()
    });
    (Merged::Text(format!("{bom}{kept}{sep}{fresh}")), shape)
}

/// Phase 1 takes out every owned entry (and what became empty because of that); phase 2
/// appends the desired entries to the stripped text, re-parsed so that the insertion sees
/// exactly what is left. Returns the new body and whether any owned entry was found.
fn remove_then_append(
    body: &str,
    chain: &Chain,
    req: &Request,
    prior: Option<&Shape>,
) -> Result<(String, bool), MergeError> {
    let wants_any = req.wants_any();
    let removal = Removal {
        prior,
        ensure: if wants_any { &[] } else { req.ensure },
    };
    let (edits, removed_any) = removal_edits(
        body,
        chain,
        req.container,
        req.desired,
        req.is_owned,
        &removal,
    );
    let stripped = apply_edits(body, edits);
    if !wants_any {
        return Ok((stripped, removed_any));
    }
    let reparsed = reparse(&stripped)?;
    let chain2 = locate(&stripped, 0, &reparsed, req.container).map_err(|_| internal_error())?;
    // The line break is the original's: removal may have taken out the first one.
    let nl = newline_of(body);
    let edits = insertion_edits(
        &stripped,
        &chain2,
        req.container,
        req.desired,
        req.ensure,
        nl,
        prior.is_some(),
    );
    Ok((apply_edits(&stripped, edits), removed_any))
}

/// The merged text, or [`Merged::Empty`] / the text the file held before hookc's document
/// when a retraction left nothing of the user's.
fn finish(
    bom: &str,
    result_body: &str,
    result_root: &ast::Value,
    req: &Request,
    removed_any: bool,
    prior: Option<&Shape>,
    shape: Option<Shape>,
) -> (Merged, Option<Shape>) {
    let wants_any = req.wants_any();
    if !wants_any
        && removed_any
        && prior.is_none_or(|p| p.file)
        && only_hookc_left(result_body, result_root, req.ensure)
    {
        // No file, nothing to remember (as when there is no file to begin with).
        return (Merged::Empty, shape.map(|_| Shape::default()));
    }
    if !wants_any
        && let Some(before) = prior.and_then(|p| p.before.as_deref())
        && only_hookc_document_after(result_body, result_root, req.ensure, before)
    {
        // The file held no document before hookc's: give back what it held.
        return (
            Merged::Text(format!("{bom}{before}")),
            shape.map(|_| Shape::default()),
        );
    }
    (Merged::Text(format!("{bom}{result_body}")), shape)
}

/// What is in a container hookc may touch: nothing but whitespace (kept), or more.
#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Empty(String),
    Full,
}

/// The state of every object and array hookc may add or fill, by JSON pointer: the root, the
/// objects on the container path, the container's members and the `ensure` members.
fn states(
    text: &str,
    root: &ast::Value,
    container: &[&str],
    ensure: &[(&str, Value)],
) -> std::collections::BTreeMap<String, State> {
    let mut out = std::collections::BTreeMap::new();
    let state = |open: usize, close: usize, items: usize| {
        let inside = &text[open + 1..close];
        if items == 0 && inside.chars().all(is_ws) {
            State::Empty(inside.to_string())
        } else {
            State::Full
        }
    };
    let ast::Value::Object(root_object) = root else {
        return out;
    };
    let mut object = root_object;
    out.insert(
        String::new(),
        state(
            object.range.start,
            object.range.end - 1,
            object.properties.len(),
        ),
    );
    for (k, _) in ensure {
        if object.properties.iter().any(|p| p.name.as_str() == *k) {
            out.insert(pointer(&[k]), State::Full);
        }
    }
    for (depth, segment) in container.iter().enumerate() {
        let Some(prop) = object
            .properties
            .iter()
            .find(|p| p.name.as_str() == *segment)
        else {
            return out;
        };
        let ast::Value::Object(next) = &prop.value else {
            return out;
        };
        object = next;
        out.insert(
            pointer(&container[..=depth]),
            state(
                object.range.start,
                object.range.end - 1,
                object.properties.len(),
            ),
        );
    }
    for prop in &object.properties {
        let mut path = container.to_vec();
        path.push(prop.name.as_str());
        let value = match &prop.value {
            ast::Value::Array(a) => state(a.range.start, a.range.end - 1, a.elements.len()),
            ast::Value::Object(o) => state(o.range.start, o.range.end - 1, o.properties.len()),
            _ => State::Full,
        };
        out.insert(pointer(&path), value);
    }
    out
}

/// The record after a merge: what hookc created before and is still there, what it created
/// now, and the user's empty containers it filled (kept while they hold hookc's entries).
fn next_shape(
    prior: &Shape,
    before: &std::collections::BTreeMap<String, State>,
    after: &std::collections::BTreeMap<String, State>,
) -> Shape {
    let mut created: Vec<String> = prior
        .created
        .iter()
        .filter(|p| after.contains_key(*p))
        .cloned()
        .collect();
    for p in after.keys() {
        if !p.is_empty() && !before.contains_key(p) && !created.contains(p) {
            created.push(p.clone());
        }
    }
    created.sort();
    let mut emptied = std::collections::BTreeMap::new();
    for (p, after_state) in after {
        if *after_state != State::Full || created.contains(p) {
            continue;
        }
        if let Some(w) = prior.emptied.get(p) {
            emptied.insert(p.clone(), w.clone());
        } else if let Some(State::Empty(w)) = before.get(p) {
            emptied.insert(p.clone(), w.clone());
        }
    }
    Shape {
        file: prior.file,
        created,
        emptied,
        before: prior.before.clone(),
    }
}

/// The members of a document hookc writes whole (see [`Shape::created`]).
fn created_in(fresh: &str, container: &[&str], ensure: &[(&str, Value)]) -> Vec<String> {
    reparse(fresh)
        .map(|r| states(fresh, &r, container, ensure))
        .map(|a| a.into_keys().filter(|p| !p.is_empty()).collect())
        .unwrap_or_default()
}

/// jsonc-parser options for harness files: JSONC, i.e. JSON plus comments and trailing
/// commas. The JSON5-ish extensions stay off, so whatever parses here is what a JSONC reader
/// (and, without comments, a JSON reader) accepts.
fn parse_options() -> ParseOptions {
    dialect_options(true, true)
}

/// jsonc-parser's options for a JSON dialect: comments and trailing commas as
/// asked, every JSON5-ish extension off. Lint reads each harness's files with
/// these too, so what lint accepts is what the merge reads.
pub fn dialect_options(comments: bool, trailing_commas: bool) -> ParseOptions {
    ParseOptions {
        allow_comments: comments,
        allow_trailing_commas: trailing_commas,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parses `body` (the text after a BOM of `bom_len` bytes); errors point into `full`.
fn parse<'a>(
    full: &str,
    bom_len: usize,
    body: &'a str,
) -> Result<Option<ast::Value<'a>>, MergeError> {
    let value = jsonc_parser::parse_to_ast(body, &CollectOptions::default(), &parse_options())
        .map(|r| r.value)
        .map_err(|e| {
            error_at(
                full,
                bom_len + e.range().start,
                format_args!("the file is not valid JSON: {}", e.kind()),
                "fix the syntax by hand, or move the file away so hookc can write a new one",
            )
        })?;
    if let Some(at) = value.as_ref().and_then(|v| raw_control_char(body, v)) {
        return Err(error_at(
            full,
            bom_len + at,
            format_args!("the file is not valid JSON: {CONTROL_CHAR}"),
            "write the character escaped (`\\n`, `\\t`, `\\u0001`); every harness refuses the file as it is",
        ));
    }
    Ok(value)
}

/// Why [`raw_control_char`] refuses a file.
pub const CONTROL_CHAR: &str = "a string holds a raw control character (U+0000 to U+001F)";

/// Where a string, key or value, holds a raw control character. jsonc-parser
/// takes one; every harness's reader refuses it (`JSON.parse`, serde_json, Go).
pub fn raw_control_char(text: &str, value: &ast::Value) -> Option<usize> {
    let in_literal = |r: jsonc_parser::common::Range| {
        text[r.start..r.end]
            .find(|c: char| c < ' ')
            .map(|k| r.start + k)
    };
    match value {
        ast::Value::StringLit(s) => in_literal(s.range),
        ast::Value::Array(a) => a.elements.iter().find_map(|e| raw_control_char(text, e)),
        ast::Value::Object(o) => o.properties.iter().find_map(|p| {
            let key = match &p.name {
                ast::ObjectPropName::String(s) => in_literal(s.range),
                ast::ObjectPropName::Word(_) => None,
            };
            key.or_else(|| raw_control_char(text, &p.value))
        }),
        _ => None,
    }
}

/// Parses text hookc produced itself; failing here is a bug, reported without touching the file.
fn reparse(text: &str) -> Result<ast::Value<'_>, MergeError> {
    match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &parse_options()) {
        Ok(r) => r.value.ok_or_else(internal_error),
        Err(_) => Err(internal_error()),
    }
}

fn internal_error() -> MergeError {
    MergeError {
        message: "internal error: hookc could not merge its entries into the file".to_string(),
        offset: 0,
        help: "this is a bug in hookc; please report it with a copy of the file".to_string(),
    }
}

/// The objects from the root down the `container` path, as far as they exist.
struct Chain<'t, 'a> {
    /// `objects[0]` is the root; `objects[k]` is the value of member `container[k-1]`.
    objects: Vec<&'t ast::Object<'a>>,
    /// `prop_index[k]` is the index of member `container[k]` within `objects[k]`.
    prop_index: Vec<usize>,
    /// How many segments the container path has.
    depth: usize,
}

impl<'t, 'a> Chain<'t, 'a> {
    /// The container object, when the whole path exists.
    fn container(&self) -> Option<&'t ast::Object<'a>> {
        (self.objects.len() == self.depth + 1).then(|| self.objects[self.depth])
    }
}

fn describe(value: &ast::Value) -> &'static str {
    match value {
        ast::Value::StringLit(_) => "a string",
        ast::Value::NumberLit(_) => "a number",
        ast::Value::BooleanLit(_) => "a boolean",
        ast::Value::Object(_) => "an object",
        ast::Value::Array(_) => "an array",
        ast::Value::NullKeyword(_) => "null",
    }
}

/// Finds the unique member `name` of `object`, refusing duplicates.
fn find_prop(
    full: &str,
    bom_len: usize,
    object: &ast::Object,
    name: &str,
) -> Result<Option<usize>, MergeError> {
    let mut found = None;
    for (i, prop) in object.properties.iter().enumerate() {
        if prop.name.as_str() == name {
            if found.is_some() {
                return Err(error_at(
                    full,
                    bom_len + prop.range.start,
                    format_args!("the key `{name}` appears more than once"),
                    "remove the duplicate; hookc does not guess which one the harness reads",
                ));
            }
            found = Some(i);
        }
    }
    Ok(found)
}

fn locate<'t, 'a>(
    full: &str,
    bom_len: usize,
    root: &'t ast::Value<'a>,
    container: &[&str],
) -> Result<Chain<'t, 'a>, MergeError> {
    let ast::Value::Object(root_object) = root else {
        return Err(error_at(
            full,
            bom_len + root.start(),
            format_args!(
                "the top level of the file is {}, not an object",
                describe(root)
            ),
            "hookc only merges into a file whose top level is a JSON object `{ … }`",
        ));
    };
    let mut chain = Chain {
        objects: vec![root_object],
        prop_index: Vec::new(),
        depth: container.len(),
    };
    for (k, segment) in container.iter().enumerate() {
        let current = chain.objects[k];
        let Some(index) = find_prop(full, bom_len, current, segment)? else {
            break;
        };
        let value = &current.properties[index].value;
        let ast::Value::Object(next) = value else {
            let path = container[..=k].join(".");
            return Err(error_at(
                full,
                bom_len + value.start(),
                format_args!("`{path}` is {}, not an object", describe(value)),
                format!(
                    "hookc keeps its entries in the object `{path}`; make it an object or remove it"
                ),
            ));
        };
        chain.prop_index.push(index);
        chain.objects.push(next);
    }
    Ok(chain)
}

/// Checks the members of the container that matter: no duplicate names, and every member
/// that is to receive entries, or is itself one of hookc's entries, is an array.
fn check_members(
    full: &str,
    bom_len: usize,
    chain: &Chain,
    desired: &IndexMap<String, Vec<Value>>,
    is_owned: &dyn Fn(&Value) -> bool,
) -> Result<(), MergeError> {
    let Some(object) = chain.container() else {
        return Ok(());
    };
    for prop in &object.properties {
        let name = prop.name.as_str();
        find_prop(full, bom_len, object, name)?;
        let wanted = desired.get(name).is_some_and(|v| !v.is_empty());
        let holds_owned = || is_owned(&to_serde(&prop.value));
        if !matches!(prop.value, ast::Value::Array(_)) && (wanted || holds_owned()) {
            return Err(error_at(
                full,
                bom_len + prop.value.start(),
                format_args!("`{name}` is {}, not an array", describe(&prop.value)),
                format!(
                    "hookc appends its entries to the array `{name}`; make it an array or remove it"
                ),
            ));
        }
    }
    Ok(())
}

/// The plain JSON value of an AST node.
fn to_serde(value: &ast::Value) -> Value {
    match value {
        ast::Value::StringLit(s) => Value::String(s.value.to_string()),
        ast::Value::NumberLit(n) => serde_json::from_str::<Value>(n.value)
            .unwrap_or_else(|_| Value::String(n.value.to_string())),
        ast::Value::BooleanLit(b) => Value::Bool(b.value),
        ast::Value::NullKeyword(_) => Value::Null,
        ast::Value::Array(a) => Value::Array(a.elements.iter().map(to_serde).collect()),
        ast::Value::Object(o) => Value::Object(
            o.properties
                .iter()
                .map(|p| (p.name.as_str().to_string(), to_serde(&p.value)))
                .collect(),
        ),
    }
}

/// Whether the owned entries of the checked text are exactly the desired ones.
fn owned_match(
    chain: &Chain,
    desired: &IndexMap<String, Vec<Value>>,
    is_owned: &dyn Fn(&Value) -> bool,
) -> bool {
    let found = owned_in(chain, is_owned);
    let wanted: IndexMap<&String, &Vec<Value>> =
        desired.iter().filter(|(_, v)| !v.is_empty()).collect();
    found.len() == wanted.len()
        && found
            .iter()
            .all(|(k, v)| wanted.get(k).is_some_and(|w| *w == v))
}

/// Whether what is left holds nothing but an empty root or the `ensure` members at their
/// ensured values, and no comment.
fn only_hookc_left(body: &str, root: &ast::Value, ensure: &[(&str, Value)]) -> bool {
    let ast::Value::Object(object) = root else {
        return false;
    };
    let only_ensured = object.properties.iter().all(|p| {
        ensure
            .iter()
            .any(|(k, v)| *k == p.name.as_str() && *v == to_serde(&p.value))
    });
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Separate,
        tokens: false,
    };
    let no_comments = jsonc_parser::parse_to_ast(body, &collect, &parse_options())
        .ok()
        .and_then(|r| r.comments)
        .is_none_or(|c| c.is_empty());
    only_ensured && no_comments
}

/// The file is `before` (comments and whitespace the user had) followed by a document with
/// nothing of the user's in it, as hookc wrote it after that text.
fn only_hookc_document_after(
    body: &str,
    root: &ast::Value,
    ensure: &[(&str, Value)],
    before: &str,
) -> bool {
    let ast::Value::Object(object) = root else {
        return false;
    };
    let (start, end) = (object.range.start, object.range.end);
    let document = &body[start..end];
    body[..start].trim_end() == before.trim_end()
        && body[end..].trim().is_empty()
        && reparse(document).is_ok_and(|r| only_hookc_left(document, &r, ensure))
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/// An array or object as a sequence: the positions of its brackets and the ranges of its
/// elements (or members, name through value).
struct Seq {
    open: usize,
    close: usize,
    items: Vec<(usize, usize)>,
}

impl Seq {
    fn of_object(o: &ast::Object) -> Seq {
        Seq {
            open: o.range.start,
            close: o.range.end - 1,
            items: o
                .properties
                .iter()
                .map(|p| (p.range.start, p.range.end))
                .collect(),
        }
    }

    fn of_array(a: &ast::Array) -> Seq {
        Seq {
            open: a.range.start,
            close: a.range.end - 1,
            items: a.elements.iter().map(|e| (e.start(), e.end())).collect(),
        }
    }

    /// The gaps between the brackets that are not items: whitespace, commas and comments.
    fn gaps(&self) -> Vec<(usize, usize)> {
        let mut gaps = Vec::with_capacity(self.items.len() + 1);
        let mut from = self.open + 1;
        for &(s, e) in &self.items {
            gaps.push((from, s));
            from = e;
        }
        gaps.push((from, self.close));
        gaps
    }

    /// Where the gap after item `i` ends.
    fn next_start(&self, i: usize) -> usize {
        self.items.get(i + 1).map_or(self.close, |&(s, _)| s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum GapToken {
    Comma(usize),
    /// A comment: where it ends, and whether it is a `//` comment (which ends at a line break).
    Comment {
        end: usize,
        line: bool,
    },
}

/// The commas and comments in a gap between values (a gap holds no strings, so `,` and
/// `/` can only be what they look like).
fn scan_gap(text: &str, from: usize, to: usize) -> Vec<GapToken> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = from;
    while i < to {
        match bytes[i] {
            b',' => {
                tokens.push(GapToken::Comma(i));
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..to].find(['\n', '\r']).map_or(to, |k| i + k);
                tokens.push(GapToken::Comment { end: i, line: true });
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..to].find("*/").map_or(to, |k| i + 2 + k + 2);
                tokens.push(GapToken::Comment {
                    end: i,
                    line: false,
                });
            }
            _ => i += 1,
        }
    }
    tokens
}

fn has_comment(text: &str, seq: &Seq) -> bool {
    seq.gaps().iter().any(|&(a, b)| {
        scan_gap(text, a, b)
            .iter()
            .any(|t| matches!(t, GapToken::Comment { .. }))
    })
}

/// Whether a `//` comment in the gap `from..to` is ended by the line break at `nl`.
fn line_comment_ends_at(text: &str, from: usize, to: usize, nl: usize) -> bool {
    scan_gap(text, from, to).iter().any(|t| {
        *t == GapToken::Comment {
            end: nl,
            line: true,
        }
    })
}

/// The comma after item `i`, if it has one.
fn comma_after(text: &str, seq: &Seq, i: usize) -> Option<usize> {
    scan_gap(text, seq.items[i].1, seq.next_start(i))
        .into_iter()
        .find_map(|t| match t {
            GapToken::Comma(at) => Some(at),
            GapToken::Comment { .. } => None,
        })
}

/// Whitespace as jsonc-parser skips it (it includes vertical tab and form feed).
fn is_ws(c: char) -> bool {
    c.is_whitespace()
}

/// Whitespace that does not break the line.
fn is_blank(c: char) -> bool {
    is_ws(c) && c != '\n' && c != '\r'
}

/// If a line break starts at `pos`, where it ends.
fn newline_at(text: &str, pos: usize) -> Option<usize> {
    let rest = &text[pos..];
    if rest.starts_with("\r\n") {
        Some(pos + 2)
    } else if rest.starts_with('\n') {
        Some(pos + 1)
    } else {
        None
    }
}

/// Start of the run of whitespace that ends at `pos`.
fn ws_back(text: &str, pos: usize) -> usize {
    text[..pos]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_ws(c))
        .last()
        .map_or(pos, |(i, _)| i)
}

/// Position of the line break that starts within `text[from..to]` (at its `\r` for CRLF).
fn first_newline(text: &str, from: usize, to: usize) -> Option<usize> {
    text[from..to].find('\n').map(|k| {
        let at = from + k;
        if at > from && text.as_bytes()[at - 1] == b'\r' {
            at - 1
        } else {
            at
        }
    })
}

fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

/// The indentation of the line `pos` is on.
fn line_indent(text: &str, pos: usize) -> &str {
    let start = line_start(text, pos);
    let len = text[start..]
        .find(|c: char| !is_blank(c))
        .unwrap_or(text.len() - start);
    &text[start..start + len]
}

/// Whether only whitespace precedes `pos` on its line.
fn starts_line(text: &str, pos: usize) -> bool {
    text[line_start(text, pos)..pos].chars().all(is_ws)
}

/// The file's indentation unit: how far the first member of the root object is indented
/// (the same inference as jsonc-parser's CST), two spaces when that says nothing.
fn indent_unit<'t>(text: &'t str, root: &ast::Object) -> &'t str {
    if let Some(first) = root.properties.first()
        && starts_line(text, first.range.start)
    {
        let indent = &text[line_start(text, first.range.start)..first.range.start];
        if !indent.is_empty() && indent.chars().all(|c| c == ' ' || c == '\t') {
            return indent;
        }
    }
    "  "
}

// ---------------------------------------------------------------------------------------------
// Removal

/// Edits that delete the items of `seq` marked in `remove`.
///
/// An item alone on its line goes with the line break in front of it (the exact inverse of
/// how [`append_items`] adds it); an item that shares its line goes with the spaces on one
/// side. Comments are never deleted, and a deleted line break is kept after all when it ends
/// a `//` comment that would otherwise swallow what follows.
fn remove_items(text: &str, seq: &Seq, remove: &[bool], empty_as: &str, edits: &mut Vec<Edit>) {
    if !remove.contains(&true) {
        return;
    }
    if remove.iter().all(|r| *r) && !has_comment(text, seq) {
        // Nothing of the user's inside: empty it completely (`[]`, `{}`), which is also the
        // shape hookc inserts into, or give back the whitespace the user had there.
        edits.push(Edit {
            start: seq.open + 1,
            end: seq.close,
            text: empty_as.to_string(),
        });
        return;
    }
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for i in 0..seq.items.len() {
        if remove[i] {
            item_ranges(text, seq, remove, i, &mut ranges);
        }
    }
    // The last item went without a trailing comma: the new last item must lose its comma.
    let last = seq.items.len() - 1;
    if remove[last]
        && comma_after(text, seq, last).is_none()
        && let Some(j) = (0..last).rev().find(|&j| !remove[j])
        && let Some(c) = comma_after(text, seq, j)
    {
        let end = seq.items[j].1;
        if text[end..c].chars().all(is_blank) {
            ranges.push((end, c + 1));
        } else {
            ranges.push((c, c + 1));
        }
    }
    push_deletions(text, seq, ranges, edits);
}

/// The ranges that delete item `i` of `seq` (see [`remove_items`]).
fn item_ranges(text: &str, seq: &Seq, remove: &[bool], i: usize, ranges: &mut Vec<(usize, usize)>) {
    let (start, end) = seq.items[i];
    let comma = comma_after(text, seq, i);
    let adjacent_comma = comma.filter(|&c| text[end..c].chars().all(is_ws));
    if let Some(c) = comma
        && adjacent_comma.is_none()
    {
        // A comment sits between the item and its comma: keep the comment.
        ranges.push((c, c + 1));
    }
    let after = adjacent_comma.map_or(end, |c| c + 1);
    let rest = after
        + text[after..]
            .find(|c: char| !is_blank(c))
            .unwrap_or(text.len() - after);
    let line = line_start(text, start);
    if starts_line(text, start)
        && line > 0
        && (newline_at(text, rest).is_some() || rest == seq.close)
    {
        // Nothing else on its line(s): take the line break before it. (With `]` right
        // after it, as hookc appends to a one-line array, the bracket joins the line
        // before again.)
        let nl = if line >= 2 && text.as_bytes()[line - 2] == b'\r' {
            line - 2
        } else {
            line - 1
        };
        ranges.push((nl, if rest == seq.close { after } else { rest }));
    } else if starts_line(text, start) {
        // A comment or the next item follows on the line: it stays, indented as the
        // item was.
        ranges.push((start, rest));
    } else if !remove[..i].iter().any(|r| !*r) {
        // First remaining on a shared line (`[E, A]`): keep the space before, take the
        // space after.
        let next = rest.min(seq.next_start(i));
        ranges.push((
            start,
            if adjacent_comma.is_some() {
                next
            } else {
                after
            },
        ));
    } else {
        // After something on the same line (`[A, E]`): take the space before.
        ranges.push((ws_back(text, start), after));
    }
}

/// Deletes `ranges`, merged where they touch, keeping every line break that ends a `//`
/// comment.
fn push_deletions(text: &str, seq: &Seq, mut ranges: Vec<(usize, usize)>, edits: &mut Vec<Edit>) {
    ranges.sort();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    for (a, b) in merged {
        let ends_comment = seq
            .gaps()
            .iter()
            .any(|&(from, to)| line_comment_ends_at(text, from, to, a));
        let a = match newline_at(text, a) {
            Some(after_nl) if ends_comment && newline_at(text, b).is_none() => after_nl.min(b),
            _ => a,
        };
        edits.push(Edit::delete(a, b));
    }
}

/// What removal may take away besides hookc's entries.
struct Removal<'r> {
    /// The record of what hookc added (`None`: anything left holding nothing).
    prior: Option<&'r Shape>,
    /// `ensure` members to take away when hookc created them and they still hold the ensured value
    /// (empty while hookc still wants entries).
    ensure: &'r [(&'r str, Value)],
}

impl Removal<'_> {
    /// Whether an object or array that now holds nothing may go: hookc created it.
    fn may_remove(&self, path: &[&str]) -> bool {
        self.prior
            .is_none_or(|p| p.created.contains(&pointer(path)))
    }

    /// What to leave between the brackets of an emptied object or array.
    fn empty_as(&self, path: &[&str]) -> &str {
        self.prior
            .and_then(|p| p.emptied.get(&pointer(path)))
            .map_or("", String::as_str)
    }
}

/// Edits that remove every owned entry, plus the members and containers that held only
/// owned entries (with a record, only those hookc created). Returns whether any owned entry
/// was found.
fn removal_edits(
    text: &str,
    chain: &Chain,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    is_owned: &dyn Fn(&Value) -> bool,
    removal: &Removal,
) -> (Vec<Edit>, bool) {
    let mut edits = Vec::new();
    // `ensure` members hookc created, still as hookc wrote them, go when nothing is wanted.
    let root_object = chain.objects[0];
    let mut root_mask = ensure_mask(root_object, removal);
    let Some(container_object) = chain.container() else {
        remove_items(
            text,
            &Seq::of_object(root_object),
            &root_mask,
            removal.empty_as(&[]),
            &mut edits,
        );
        return (edits, false);
    };
    let wants_any = desired.values().any(|v| !v.is_empty());
    let (remove_members, removed_any) = member_removals(
        text,
        container_object,
        container,
        desired,
        is_owned,
        removal,
        &mut edits,
    );
    // Climb: an object whose every member goes (and that has no comment) goes itself, unless
    // it is the root, hookc still wants entries somewhere below it, or it was the user's.
    let mut level = chain.depth;
    let mut mask = remove_members;
    loop {
        let seq = Seq::of_object(chain.objects[level]);
        let all_go = !mask.is_empty() && mask.iter().all(|m| *m);
        if all_go
            && level > 0
            && !wants_any
            && !has_comment(text, &seq)
            && removal.may_remove(&container[..level])
        {
            edits.clear(); // all inside the member removed below
            level -= 1;
            mask = vec![false; chain.objects[level].properties.len()];
            mask[chain.prop_index[level]] = true;
            continue;
        }
        if level == 0 {
            for (m, r) in mask.iter_mut().zip(&root_mask) {
                *m |= *r;
            }
            root_mask.iter_mut().for_each(|r| *r = false);
        }
        remove_items(
            text,
            &seq,
            &mask,
            removal.empty_as(&container[..level]),
            &mut edits,
        );
        break;
    }
    if root_mask.contains(&true) {
        remove_items(
            text,
            &Seq::of_object(root_object),
            &root_mask,
            removal.empty_as(&[]),
            &mut edits,
        );
    }
    (edits, removed_any)
}

/// The root members that are `ensure` members hookc created and may take away.
fn ensure_mask(root_object: &ast::Object, removal: &Removal) -> Vec<bool> {
    root_object
        .properties
        .iter()
        .map(|p| {
            removal.prior.is_some()
                && removal.ensure.iter().any(|(k, v)| {
                    *k == p.name.as_str() && *v == to_serde(&p.value) && removal.may_remove(&[k])
                })
        })
        .collect()
}

/// Takes the owned entries out of the container's arrays. Returns which members go as a
/// whole (they held only owned entries, are not wanted and hookc may remove them), and
/// whether any owned entry was found.
fn member_removals(
    text: &str,
    object: &ast::Object,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    is_owned: &dyn Fn(&Value) -> bool,
    removal: &Removal,
    edits: &mut Vec<Edit>,
) -> (Vec<bool>, bool) {
    let mut removed_any = false;
    let mut remove_members = vec![false; object.properties.len()];
    for (i, prop) in object.properties.iter().enumerate() {
        let ast::Value::Array(array) = &prop.value else {
            continue;
        };
        let owned: Vec<bool> = array
            .elements
            .iter()
            .map(|e| is_owned(&to_serde(e)))
            .collect();
        if !owned.contains(&true) {
            continue;
        }
        removed_any = true;
        let seq = Seq::of_array(array);
        let wanted_here = desired
            .get(prop.name.as_str())
            .is_some_and(|v| !v.is_empty());
        let mut path = container.to_vec();
        path.push(prop.name.as_str());
        if owned.iter().all(|o| *o)
            && !wanted_here
            && !has_comment(text, &seq)
            && removal.may_remove(&path)
        {
            remove_members[i] = true;
        } else {
            remove_items(text, &seq, &owned, removal.empty_as(&path), edits);
        }
    }
    (remove_members, removed_any)
}

// ---------------------------------------------------------------------------------------------
// Insertion

/// Pretty-prints `value` the way serde_json's pretty printer does, but with the file's
/// indentation unit and newline, starting at `indent`.
fn pretty(value: &Value, indent: &str, unit: &str, nl: &str, out: &mut String) {
    match value {
        Value::Array(items) if !items.is_empty() => {
            let inner = format!("{indent}{unit}");
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(nl);
                out.push_str(&inner);
                pretty(item, &inner, unit, nl, out);
            }
            out.push_str(nl);
            out.push_str(indent);
            out.push(']');
        }
        Value::Object(members) if !members.is_empty() => {
            let inner = format!("{indent}{unit}");
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(nl);
                out.push_str(&inner);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                pretty(item, &inner, unit, nl, out);
            }
            out.push_str(nl);
            out.push_str(indent);
            out.push('}');
        }
        scalar_or_empty => out.push_str(&scalar_or_empty.to_string()),
    }
}

/// What to insert into a sequence: array elements, or object members.
enum NewItems<'v> {
    Elements(&'v [Value]),
    Members(Vec<(String, Value)>),
}

/// Where to append: the sequence, where its owner starts (the member `"name": [` or, for
/// the root, the brace itself), and how deep it is nested (the root object is 0).
struct Target {
    seq: Seq,
    anchor: usize,
    depth: usize,
}

/// The file's indentation unit and line break.
struct Style<'s> {
    unit: &'s str,
    nl: &'s str,
    /// Keep the whitespace inside an empty object or array hookc fills (there is a [`Shape`]
    /// record to give it back from on removal).
    keep_empty_inside: bool,
}

/// The indentation of the owner's line (`outer`) and of the new items.
fn indents(text: &str, target: &Target, unit: &str) -> (String, String) {
    let outer = if starts_line(text, target.anchor) {
        line_indent(text, target.anchor).to_string()
    } else {
        unit.repeat(target.depth)
    };
    let indent = match target.seq.items.last() {
        Some(&(start, _)) if starts_line(text, start) => {
            text[line_start(text, start)..start].to_string()
        }
        _ => format!("{outer}{unit}"),
    };
    (outer, indent)
}

/// The new items as text, each pretty-printed at `indent`.
fn render(new: &NewItems, indent: &str, unit: &str, nl: &str) -> Vec<String> {
    match new {
        NewItems::Elements(values) => values
            .iter()
            .map(|v| {
                let mut s = String::new();
                pretty(v, indent, unit, nl, &mut s);
                s
            })
            .collect(),
        NewItems::Members(members) => members
            .iter()
            .map(|(k, v)| {
                let mut s = Value::String(k.clone()).to_string();
                s.push_str(": ");
                pretty(v, indent, unit, nl, &mut s);
                s
            })
            .collect(),
    }
}

/// Edits that append `new` at the end of `target` (see the module docs for the shape).
///
/// New items are indented like the last item when it starts its own line; otherwise one unit
/// deeper than the line the owner starts, or, when the owner does not start its line either,
/// by nesting depth. Computing it from the user's text alone (never from something hookc
/// wrote) keeps remove-then-append reproducing the same bytes.
fn append_items(text: &str, target: &Target, new: &NewItems, style: &Style, edits: &mut Vec<Edit>) {
    let Style { unit, nl, .. } = *style;
    let seq = &target.seq;
    let (outer, indent) = indents(text, target, unit);
    let rendered = render(new, &indent, unit, nl);
    let block = |trailing_comma: bool| {
        let mut s = String::new();
        for (i, item) in rendered.iter().enumerate() {
            s.push_str(nl);
            s.push_str(&indent);
            s.push_str(item);
            if trailing_comma || i + 1 < rendered.len() {
                s.push(',');
            }
        }
        s
    };
    let last_token_end = ws_back(text, seq.close);
    let line_end = first_newline(text, last_token_end, seq.close);
    match seq.items.last() {
        Some(&(_, last_end)) => {
            let trailing = comma_after(text, seq, seq.items.len() - 1).is_some();
            if !trailing {
                edits.push(Edit::insert(last_end, ","));
            }
            edits.push(Edit::insert(
                line_end.unwrap_or(last_token_end),
                block(trailing),
            ));
        }
        None if last_token_end == seq.open + 1 => {
            // Only whitespace inside (`[]`, `[ ]`, `[\n  ]`). It stays (removal gives it back
            // from the record of emptied containers): a line break and the closing bracket's
            // indentation follow the new items; spaces on one line stay after the bracket.
            let inside = &text[seq.open + 1..seq.close];
            if !style.keep_empty_inside {
                // No record to give it back from: replace it, so that the result is the
                // same as when inserting into the `[]` that removal leaves behind.
                edits.push(Edit {
                    start: seq.open + 1,
                    end: seq.close,
                    text: format!("{}{nl}{outer}", block(false)),
                });
            } else if inside.contains('\n') {
                edits.push(Edit::insert(seq.open + 1, block(false)));
            } else {
                edits.push(Edit::insert(
                    seq.close,
                    format!("{}{nl}{outer}", block(false)),
                ));
            }
        }
        None => match line_end {
            Some(at) => edits.push(Edit::insert(at, block(false))),
            // Only a comment inside, on the bracket's line (`{ /* c */ }`): with a record,
            // the items go right after it, and the bracket stays where it was, so that
            // removal (which takes an item's own line) gives back the very same text.
            None if style.keep_empty_inside => {
                edits.push(Edit::insert(last_token_end, block(false)));
            }
            None => edits.push(Edit::insert(
                last_token_end,
                format!("{}{nl}{outer}", block(false)),
            )),
        },
    }
}

/// Edits that add the desired entries (and the `ensure` members) to the stripped text.
fn insertion_edits(
    text: &str,
    chain: &Chain,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    ensure: &[(&str, Value)],
    nl: &str,
    keep_empty_inside: bool,
) -> Vec<Edit> {
    let style = Style {
        unit: indent_unit(text, chain.objects[0]),
        nl,
        keep_empty_inside,
    };
    // The object at `level` of the chain as a target.
    let object_target = |level: usize| Target {
        seq: Seq::of_object(chain.objects[level]),
        anchor: if level == 0 {
            chain.objects[0].range.start
        } else {
            chain.objects[level - 1].properties[chain.prop_index[level - 1]]
                .range
                .start
        },
        depth: level,
    };
    let mut edits = Vec::new();
    let root = chain.objects[0];
    let mut root_new: Vec<(String, Value)> = ensure
        .iter()
        .filter(|(k, _)| !root.properties.iter().any(|p| p.name.as_str() == *k))
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    if let Some(object) = chain.container() {
        let new_members = append_to_arrays(text, object, chain.depth, desired, &style, &mut edits);
        if !new_members.is_empty() {
            let target = object_target(chain.depth);
            append_items(
                text,
                &target,
                &NewItems::Members(new_members),
                &style,
                &mut edits,
            );
        }
    } else {
        let (depth, member) = missing_member(chain, container, desired);
        if depth == 0 {
            root_new.push(member);
        } else {
            let target = object_target(depth);
            append_items(
                text,
                &target,
                &NewItems::Members(vec![member]),
                &style,
                &mut edits,
            );
        }
    }
    if !root_new.is_empty() {
        append_items(
            text,
            &object_target(0),
            &NewItems::Members(root_new),
            &style,
            &mut edits,
        );
    }
    edits
}

/// Appends the desired entries to the container's arrays that exist; returns the members
/// still to add, in the order desired.
fn append_to_arrays(
    text: &str,
    object: &ast::Object,
    depth: usize,
    desired: &IndexMap<String, Vec<Value>>,
    style: &Style,
    edits: &mut Vec<Edit>,
) -> Vec<(String, Value)> {
    let mut new_members = Vec::new();
    for (name, entries) in desired.iter().filter(|(_, v)| !v.is_empty()) {
        match object.properties.iter().find(|p| p.name.as_str() == name) {
            Some(prop) => {
                if let ast::Value::Array(array) = &prop.value {
                    let target = Target {
                        seq: Seq::of_array(array),
                        anchor: prop.range.start,
                        depth: depth + 1,
                    };
                    append_items(text, &target, &NewItems::Elements(entries), style, edits);
                }
            }
            None => new_members.push((name.clone(), Value::Array(entries.clone()))),
        }
    }
    new_members
}

/// Where the container path stops existing (the depth of the deepest object on it), and
/// the member to add there: the rest of the path down to the desired arrays.
fn missing_member(
    chain: &Chain,
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
) -> (usize, (String, Value)) {
    let existing_depth = chain.objects.len() - 1;
    let mut value = desired_object(desired);
    for segment in container[existing_depth + 1..].iter().rev() {
        value = Value::Object([(segment.to_string(), value)].into_iter().collect());
    }
    (
        existing_depth,
        (container[existing_depth].to_string(), value),
    )
}

/// hookc's entries as one JSON object: each event with entries, in order.
fn desired_object(desired: &IndexMap<String, Vec<Value>>) -> Value {
    Value::Object(
        desired
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.clone(), Value::Array(v.clone())))
            .collect(),
    )
}

/// The document hookc writes when there is no file yet.
fn fresh_document(
    container: &[&str],
    desired: &IndexMap<String, Vec<Value>>,
    ensure: &[(&str, Value)],
    nl: &str,
) -> String {
    let mut value = desired_object(desired);
    for segment in container.iter().rev() {
        value = Value::Object([(segment.to_string(), value)].into_iter().collect());
    }
    let mut root = serde_json::Map::new();
    for (k, v) in ensure {
        root.insert(k.to_string(), v.clone());
    }
    if let Value::Object(members) = value {
        for (k, v) in members {
            root.entry(k).or_insert(v);
        }
    }
    let mut out = String::new();
    pretty(&Value::Object(root), "", "  ", nl, &mut out);
    out.push_str(nl);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// hookc's entries carry this marker in their command, as the real callers do.
    const MARK: &str = "/.hookc/";

    fn owned(v: &Value) -> bool {
        v.to_string().contains(MARK)
    }

    fn entry(event: &str, matcher: &str) -> Value {
        json!({
            "matcher": matcher,
            "hooks": [{"type": "command", "command": format!("\"$CLAUDE_PROJECT_DIR\"{MARK}run {event}")}]
        })
    }

    fn desired(pairs: &[(&str, Vec<Value>)]) -> IndexMap<String, Vec<Value>> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    fn standard() -> IndexMap<String, Vec<Value>> {
        desired(&[
            (
                "PreToolUse",
                vec![
                    entry("PreToolUse", "Bash"),
                    entry("PreToolUse", "Edit|Write"),
                ],
            ),
            ("Stop", vec![entry("Stop", "")]),
        ])
    }

    fn merge(existing: Option<&str>, d: &IndexMap<String, Vec<Value>>) -> Merged {
        merge_entries(existing, &["hooks"], d, &[], &owned).unwrap()
    }

    fn text(m: Merged) -> String {
        match m {
            Merged::Text(t) => t,
            Merged::Empty => panic!("unexpected Merged::Empty"),
        }
    }

    fn retract(existing: &str) -> Merged {
        merge(Some(existing), &IndexMap::new())
    }

    /// Originals as users write them; none contains hookc's entries.
    fn corpus() -> Vec<String> {
        vec![
            "{\n  \"model\": \"opus\"\n}\n".to_string(),
            concat!(
                "{\n",
                "  // my settings\n",
                "  \"permissions\": {\"allow\": [\"Bash(ls:*)\"]},\n",
                "  \"hooks\": {\n",
                "    /* keep this one */\n",
                "    \"PreToolUse\": [\n",
                "      {\n",
                "        \"matcher\": \"Bash\",\n",
                "        \"hooks\": [{\"type\": \"command\", \"command\": \"echo mine\"}]\n",
                "      } // mine\n",
                "    ],\n",
                "    \"Notification\": []\n",
                "  },\n",
                "  \"env\": {\"A\": \"1\"}\n",
                "}\n"
            )
            .to_string(),
            "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"PreToolUse\": [\r\n      {\"matcher\": \"x\"}\r\n    ]\r\n  }\r\n}\r\n"
                .to_string(),
            "\u{feff}{\n  \"model\": \"opus\"\n}\n".to_string(),
            "{\n  \"model\": \"opus\"\n}".to_string(),
            "{\n  \"a\": [1, 2,],\n  \"hooks\": {\n    \"Stop\": [\n      {\"matcher\": \"\"},\n    ],\n  },\n}\n".to_string(),
            "{\"a\": 1, \"hooks\": {\"PreToolUse\": [{\"matcher\": \"x\", \"hooks\": []}]}}".to_string(),
            "{\n\t\"a\": 1,\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"matcher\": \"\"}\n\t\t]\n\t}\n}\n".to_string(),
            "{\n  \"名前\": \"値 ☃ é 🎉\",\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"ü\"}]}\n}\n".to_string(),
            "{\n  \"a\": 1 // trailing\n}\n".to_string(),
            "{\n  \"a\": 1,\n  // \"hooks\": {}\n}\n".to_string(),
            "{\n    \"a\": {\n        \"b\": [\n            1\n        ]\n    }\n}\n".to_string(),
            "{ \"hooks\": { \"PreToolUse\": [ {\"matcher\": \"x\"} ] } }\n".to_string(),
            "{\n  \"hooks\": {\n    \"Stop\": [\n      // nothing yet\n    ]\n  }\n}\n".to_string(),
        ]
    }

    fn other_desired() -> IndexMap<String, Vec<Value>> {
        desired(&[
            ("PreToolUse", vec![entry("PreToolUse", "Read")]),
            ("SessionStart", vec![entry("SessionStart", "startup")]),
        ])
    }

    #[test]
    fn fresh_file() {
        let out = text(merge(None, &standard()));
        let expected = r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookc/run PreToolUse"
          }
        ]
      },
      {
        "matcher": "Edit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookc/run PreToolUse"
          }
        ]
      }
    ],
    "Stop": [
      {
        "matcher": "",
        "hooks": [
          {
            "type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.hookc/run Stop"
          }
        ]
      }
    ]
  }
}
"#;
        assert_eq!(out, expected);
        // Equal to serde_json's own pretty printing.
        let value: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(out, serde_json::to_string_pretty(&value).unwrap() + "\n");
    }

    #[test]
    fn fresh_file_skips_empty_members_and_puts_ensure_first() {
        let d = desired(&[
            ("stop", vec![]),
            ("preToolUse", vec![json!({"command": "/x/.hookc/run"})]),
        ]);
        let out =
            text(merge_entries(None, &["hooks"], &d, &[("version", json!(1))], &owned).unwrap());
        assert_eq!(
            out,
            "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      {\n        \"command\": \"/x/.hookc/run\"\n      }\n    ]\n  }\n}\n"
        );
    }

    #[test]
    fn nothing_desired_and_no_file_is_empty() {
        assert_eq!(merge(None, &desired(&[("Stop", vec![])])), Merged::Empty);
    }

    #[test]
    fn keeps_comments_keys_and_hand_written_hook() {
        let orig = &corpus()[1];
        let out = text(merge(Some(orig), &standard()));
        let expected = concat!(
            "{\n",
            "  // my settings\n",
            "  \"permissions\": {\"allow\": [\"Bash(ls:*)\"]},\n",
            "  \"hooks\": {\n",
            "    /* keep this one */\n",
            "    \"PreToolUse\": [\n",
            "      {\n",
            "        \"matcher\": \"Bash\",\n",
            "        \"hooks\": [{\"type\": \"command\", \"command\": \"echo mine\"}]\n",
            "      }, // mine\n",
            "      {\n",
            "        \"matcher\": \"Bash\",\n",
            "        \"hooks\": [\n",
            "          {\n",
            "            \"type\": \"command\",\n",
            "            \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.hookc/run PreToolUse\"\n",
            "          }\n",
            "        ]\n",
            "      },\n",
            "      {\n",
            "        \"matcher\": \"Edit|Write\",\n",
            "        \"hooks\": [\n",
            "          {\n",
            "            \"type\": \"command\",\n",
            "            \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.hookc/run PreToolUse\"\n",
            "          }\n",
            "        ]\n",
            "      }\n",
            "    ],\n",
            "    \"Notification\": [],\n",
            "    \"Stop\": [\n",
            "      {\n",
            "        \"matcher\": \"\",\n",
            "        \"hooks\": [\n",
            "          {\n",
            "            \"type\": \"command\",\n",
            "            \"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.hookc/run Stop\"\n",
            "          }\n",
            "        ]\n",
            "      }\n",
            "    ]\n",
            "  },\n",
            "  \"env\": {\"A\": \"1\"}\n",
            "}\n"
        );
        assert_eq!(out, expected);
        // The user's hook stays first, hookc's come after it.
        let owned_now = owned_entries(&out, &["hooks"], &owned).unwrap();
        assert_eq!(owned_now, standard());
        assert_eq!(text(retract(&out)), *orig);
    }

    #[test]
    fn crlf_file_stays_crlf() {
        let orig = &corpus()[2];
        let out = text(merge(Some(orig), &standard()));
        assert!(
            !out.replace("\r\n", "").contains('\n'),
            "a bare LF slipped in:\n{out:?}"
        );
        assert!(out.starts_with("{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"PreToolUse\": [\r\n      {\"matcher\": \"x\"},\r\n      {\r\n"));
        assert_eq!(text(merge(Some(&out), &standard())), out);
        assert_eq!(text(retract(&out)), *orig);
    }

    #[test]
    fn bom_is_kept() {
        let orig = &corpus()[3];
        let out = text(merge(Some(orig), &standard()));
        assert!(out.starts_with("\u{feff}{\n  \"model\": \"opus\",\n  \"hooks\": {\n"));
        assert_eq!(out.matches('\u{feff}').count(), 1);
        assert_eq!(text(retract(&out)), *orig);
    }

    #[test]
    fn missing_final_newline_stays_missing() {
        let orig = &corpus()[4];
        let out = text(merge(Some(orig), &standard()));
        assert!(out.ends_with("  }\n}"), "{out:?}");
        assert_eq!(text(retract(&out)), *orig);
    }

    #[test]
    fn unicode_survives_and_is_written_raw() {
        let orig = &corpus()[8];
        let d = desired(&[(
            "PreToolUse",
            vec![json!({"matcher": "ünï☃ 🎉", "command": "/p/.hookc/run — ok"})],
        )]);
        let out = text(merge(Some(orig), &d));
        assert!(out.contains("\"名前\": \"値 ☃ é 🎉\""));
        assert!(out.contains("\"matcher\": \"ünï☃ 🎉\""), "{out}");
        assert_eq!(owned_entries(&out, &["hooks"], &owned).unwrap(), d);
        assert_eq!(text(retract(&out)), *orig);
    }

    #[test]
    fn idempotent_and_byte_stable() {
        for orig in corpus() {
            for d in [standard(), other_desired()] {
                let once = text(merge(Some(&orig), &d));
                let twice = text(merge(Some(&once), &d));
                assert_eq!(once, twice, "merging twice changed\n{orig}");
                // Without the "nothing changed" shortcut, remove-then-append alone must
                // reproduce the file as well.
                let redone =
                    text(merge_impl(Some(&once), &["hooks"], &d, &[], &owned, false).unwrap());
                assert_eq!(once, redone, "remove+append is not the identity on\n{once}");
            }
        }
    }

    #[test]
    fn up_to_date_file_is_returned_unchanged_even_if_formatted_differently() {
        let orig = concat!(
            "{\"hooks\": {\"Stop\": [ {\"matcher\": \"x\"},\n",
            "  {\"hooks\": [{\"command\": \"\\\"$CLAUDE_PROJECT_DIR\\\"/.hookc/run Stop\", \"type\": \"command\"}], \"matcher\": \"\"} ]}}"
        );
        let d = desired(&[("Stop", vec![entry("Stop", "")])]);
        assert_eq!(text(merge(Some(orig), &d)), orig);
    }

    #[test]
    fn changing_desired_entries_updates_only_them() {
        for orig in corpus() {
            let first = text(merge(Some(&orig), &standard()));
            let second = text(merge(Some(&first), &other_desired()));
            // Same bytes as if the new entries had been merged into the original directly.
            assert_eq!(second, text(merge(Some(&orig), &other_desired())), "{orig}");
            assert_eq!(
                owned_entries(&second, &["hooks"], &owned).unwrap(),
                other_desired()
            );
            assert_eq!(text(retract(&second)), orig);
        }
    }

    #[test]
    fn retraction_restores_the_original_bytes() {
        for orig in corpus() {
            for d in [
                standard(),
                other_desired(),
                desired(&[("Stop", vec![json!({"c": "/.hookc/"})])]),
            ] {
                let merged = text(merge(Some(&orig), &d));
                assert_ne!(merged, orig);
                assert_eq!(text(retract(&merged)), orig, "merged was:\n{merged}");
            }
        }
    }

    #[test]
    fn retraction_of_a_hookc_only_file_reports_empty() {
        let created = text(
            merge_entries(
                None,
                &["hooks"],
                &standard(),
                &[("version", json!(1))],
                &owned,
            )
            .unwrap(),
        );
        let back = merge_entries(
            Some(&created),
            &["hooks"],
            &IndexMap::new(),
            &[("version", json!(1))],
            &owned,
        )
        .unwrap();
        assert_eq!(back, Merged::Empty);
        assert_eq!(
            retract(&text(merge(Some("{}"), &standard()))),
            Merged::Empty
        );
        // A comment is the user's: the file is kept.
        let commented = text(merge(Some("// mine\n{}\n"), &standard()));
        assert_eq!(text(retract(&commented)), "// mine\n{}\n");
    }

    #[test]
    fn retraction_without_owned_entries_changes_nothing() {
        for orig in [
            "{}",
            "{\"hooks\": {}}",
            "{ }\n",
            "{\"hooks\": {\"Stop\": []}}",
        ] {
            assert_eq!(retract(orig), Merged::Text(orig.to_string()));
        }
    }

    #[test]
    fn a_users_empty_hooks_object_survives() {
        let orig = "{\n  \"hooks\": {}\n}\n";
        assert_eq!(text(retract(orig)), orig);
        // Entries next to a user's own empty event array: the empty array stays.
        let orig = "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n";
        let out = text(merge(
            Some(orig),
            &desired(&[("PreToolUse", vec![entry("PreToolUse", "x")])]),
        ));
        assert!(
            out.contains("\"Stop\": [],\n    \"PreToolUse\": ["),
            "{out}"
        );
        assert_eq!(text(retract(&out)), orig);
    }

    #[test]
    fn owned_entries_in_the_middle_move_to_the_end() {
        let orig = concat!(
            "{\n  \"hooks\": {\n    \"Stop\": [\n",
            "      {\"c\": \"/.hookc/ old\"},\n",
            "      {\"c\": \"mine\"}\n",
            "    ]\n  }\n}\n"
        );
        let d = desired(&[("Stop", vec![json!({"c": "/.hookc/ new"})])]);
        let out = text(merge(Some(orig), &d));
        assert_eq!(
            out,
            "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"c\": \"mine\"},\n      {\n        \"c\": \"/.hookc/ new\"\n      }\n    ]\n  }\n}\n"
        );
    }

    #[test]
    fn user_comments_between_owned_entries_are_kept() {
        let orig = concat!(
            "{\n  \"hooks\": {\n    \"Stop\": [\n",
            "      {\"c\": \"mine\"},\n",
            "      // note\n",
            "      {\"c\": \"/.hookc/ a\"}, /* inline */\n",
            "      {\"c\": \"/.hookc/ b\"}\n",
            "    ]\n  }\n}\n"
        );
        let out = text(retract(orig));
        assert_eq!(
            out,
            "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"c\": \"mine\"}\n      // note\n      /* inline */\n    ]\n  }\n}\n"
        );
        // A line comment never swallows what follows it.
        let orig = "{\"hooks\": {\"Stop\": [{\"c\": \"mine\"}, // note\n  {\"c\": \"/.hookc/\"}]}}";
        assert_eq!(
            text(retract(orig)),
            "{\"hooks\": {\"Stop\": [{\"c\": \"mine\"} // note\n]}}"
        );
        let orig = "{\"hooks\": {\"Stop\": [{\"c\": \"mine\"} // note\n  , {\"c\": \"/.hookc/\"}, {\"c\": \"x\"}]}}";
        assert_eq!(
            text(retract(orig)),
            "{\"hooks\": {\"Stop\": [{\"c\": \"mine\"} // note\n  , {\"c\": \"x\"}]}}"
        );
        assert!(jsonc_parser::parse_to_value(&out, &parse_options()).is_ok());
    }

    #[test]
    fn non_ascii_right_before_a_line_break() {
        let orig = "{\n  \"hooks\": {\n    \"Stop\": [ // café\n      {\"c\": \"/.hookc/\"} // é\n    ]\n  }\n}\n";
        let out = text(retract(orig));
        assert_eq!(
            out,
            "{\n  \"hooks\": {\n    \"Stop\": [ // café\n      // é\n    ]\n  }\n}\n"
        );
        let orig = "{\"a\": 1, // café\n  \"hooks\": {\"Stop\": [{\"c\": \"/.hookc/\"}]}}";
        assert_eq!(text(retract(orig)), "{\"a\": 1 // café\n}");
        let orig = "{\"a\": 1 // café\n}";
        let merged = text(merge(Some(orig), &standard()));
        assert_eq!(text(retract(&merged)), orig);
    }

    #[test]
    fn single_line_arrays() {
        let orig = "{\"hooks\": {\"Stop\": [{\"c\": \"/.hookc/ a\"}, {\"c\": \"mine\"}, {\"c\": \"/.hookc/ b\"}]}}";
        assert_eq!(
            text(retract(orig)),
            "{\"hooks\": {\"Stop\": [{\"c\": \"mine\"}]}}"
        );
        let orig = "{\"hooks\": {\"Stop\": [ {\"c\": \"/.hookc/ a\"}, {\"c\": \"/.hookc/ b\"}, {\"c\": \"mine\"} ]}}";
        assert_eq!(
            text(retract(orig)),
            "{\"hooks\": {\"Stop\": [ {\"c\": \"mine\"} ]}}"
        );
    }

    #[test]
    fn broken_json_is_an_error_at_the_fault() {
        let orig = "{\n  \"a\": 1\n  \"b\": 2\n}\n";
        let err = merge_entries(Some(orig), &["hooks"], &standard(), &[], &owned).unwrap_err();
        // jsonc-parser reports the missing comma right after the value that needs one.
        assert_eq!(err.offset, orig.find("1\n").unwrap() + 1);
        assert!(err.message.contains("line 2, column 9"), "{}", err.message);
        // Offsets count the BOM.
        let err =
            merge_entries(Some("\u{feff}{,}"), &["hooks"], &standard(), &[], &owned).unwrap_err();
        assert_eq!(err.offset, 4);
        let err = owned_entries("{\"hooks\": {\"Stop\": [}", &["hooks"], &owned).unwrap_err();
        assert!(err.offset >= 19, "{err:?}");
        let err =
            merge_entries(Some("{\"a\": 1} {"), &["hooks"], &standard(), &[], &owned).unwrap_err();
        assert_eq!(err.offset, 9);
    }

    #[test]
    fn wrong_shapes_are_errors_at_the_value() {
        let orig = "{\n  \"hooks\": []\n}\n";
        let err = merge_entries(Some(orig), &["hooks"], &standard(), &[], &owned).unwrap_err();
        assert_eq!(err.offset, orig.find('[').unwrap());
        assert!(
            err.message.contains("`hooks` is an array, not an object"),
            "{}",
            err.message
        );
        assert!(merge_entries(Some(orig), &["hooks"], &IndexMap::new(), &[], &owned).is_err());

        let orig = "{\"hooks\": {\"Stop\": {\"matcher\": \"\"}}}";
        let err = merge_entries(Some(orig), &["hooks"], &standard(), &[], &owned).unwrap_err();
        assert_eq!(err.offset, orig.find("{\"matcher").unwrap());

        let err = merge_entries(Some("[1]"), &["hooks"], &standard(), &[], &owned).unwrap_err();
        assert_eq!(err.offset, 0);

        let orig = "{\"hooks\": {}, \"hooks\": {}}";
        let err = merge_entries(Some(orig), &["hooks"], &standard(), &[], &owned).unwrap_err();
        assert_eq!(err.offset, 14);
    }

    #[test]
    fn wrong_shape_errors_even_when_retracting_a_container_that_is_not_an_object() {
        let err = merge_entries(
            Some("{\"hooks\": 3}"),
            &["hooks"],
            &IndexMap::new(),
            &[],
            &owned,
        )
        .unwrap_err();
        assert_eq!(err.offset, 10);
    }

    #[test]
    fn ensure_adds_only_missing_members() {
        let ensure = [("version", json!(1))];
        let d = desired(&[("preToolUse", vec![json!({"command": "/.hookc/ x"})])]);
        let out = text(
            merge_entries(
                Some("{\n  \"hooks\": {}\n}\n"),
                &["hooks"],
                &d,
                &ensure,
                &owned,
            )
            .unwrap(),
        );
        assert_eq!(
            out,
            "{\n  \"hooks\": {\n    \"preToolUse\": [\n      {\n        \"command\": \"/.hookc/ x\"\n      }\n    ]\n  },\n  \"version\": 1\n}\n"
        );
        let orig = "{\n  \"version\": 2\n}\n";
        let out = text(merge_entries(Some(orig), &["hooks"], &d, &ensure, &owned).unwrap());
        assert!(
            out.starts_with("{\n  \"version\": 2,\n  \"hooks\""),
            "{out}"
        );
        // Nothing desired: nothing ensured either.
        let out = merge_entries(Some("{}"), &["hooks"], &IndexMap::new(), &ensure, &owned).unwrap();
        assert_eq!(out, Merged::Text("{}".to_string()));
        // Both missing: ensure first.
        let out = text(merge_entries(Some("{\"a\": 1}"), &["hooks"], &d, &ensure, &owned).unwrap());
        assert!(
            out.starts_with("{\"a\": 1,\n  \"version\": 1,\n  \"hooks\": {"),
            "{out}"
        );
    }

    #[test]
    fn deeper_container_paths_are_created_and_removed() {
        let orig = "{\n  \"a\": {\n    \"x\": 1\n  }\n}\n";
        let d = desired(&[("E", vec![json!({"c": "/.hookc/"})])]);
        let out = text(merge_entries(Some(orig), &["a", "b", "c"], &d, &[], &owned).unwrap());
        assert_eq!(
            out,
            "{\n  \"a\": {\n    \"x\": 1,\n    \"b\": {\n      \"c\": {\n        \"E\": [\n          {\n            \"c\": \"/.hookc/\"\n          }\n        ]\n      }\n    }\n  }\n}\n"
        );
        let back =
            merge_entries(Some(&out), &["a", "b", "c"], &IndexMap::new(), &[], &owned).unwrap();
        assert_eq!(back, Merged::Text(orig.to_string()));
        // The root itself as the container.
        let out = text(merge_entries(Some("{\"x\": 1}\n"), &[], &d, &[], &owned).unwrap());
        assert_eq!(
            out,
            "{\"x\": 1,\n  \"E\": [\n    {\n      \"c\": \"/.hookc/\"\n    }\n  ]}\n"
        );
        let back = merge_entries(Some(&out), &[], &IndexMap::new(), &[], &owned).unwrap();
        assert_eq!(back, Merged::Text("{\"x\": 1}\n".to_string()));
    }

    #[test]
    fn empty_or_comment_only_file_gets_a_fresh_document() {
        let d = desired(&[("Stop", vec![json!({"c": "/.hookc/"})])]);
        let out = text(merge(Some(""), &d));
        assert_eq!(out, text(merge(None, &d)));
        let out = text(merge(Some("// settings\n"), &d));
        assert!(out.starts_with("// settings\n{\n  \"hooks\""), "{out}");
        assert_eq!(
            retract("// only a comment\n"),
            Merged::Text("// only a comment\n".to_string())
        );
    }

    #[test]
    fn owned_entries_lists_per_member() {
        let orig = "{\"hooks\": {\"A\": [{\"c\": \"mine\"}, {\"c\": \"/.hookc/ 1\"}], \"B\": [], \"C\": 3, \"D\": [{\"c\": \"/.hookc/ 2\"}]}}";
        let found = owned_entries(orig, &["hooks"], &owned).unwrap();
        assert_eq!(
            found,
            desired(&[
                ("A", vec![json!({"c": "/.hookc/ 1"})]),
                ("D", vec![json!({"c": "/.hookc/ 2"})])
            ])
        );
        assert!(owned_entries("{}", &["hooks"], &owned).unwrap().is_empty());
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        const EVENTS: [&str; 4] = ["PreToolUse", "PostToolUse", "Stop", "Notification"];

        /// Strings with the characters that need care: quotes, backslashes, control
        /// characters, line breaks, non-ASCII, comment openers.
        fn tricky() -> impl Strategy<Value = String> {
            proptest::string::string_regex("[a-z\"\\\\/*\n\r\t\u{1}é☃🎉\u{2028} ]{0,12}").unwrap()
        }

        fn entry() -> impl Strategy<Value = Value> {
            (tricky(), tricky(), proptest::option::of(0u32..1000)).prop_map(
                |(matcher, command, timeout)| {
                    let mut hook =
                        json!({"type": "command", "command": format!("{MARK}{command}")});
                    if let Some(t) = timeout {
                        hook["timeout"] = json!(t);
                    }
                    json!({"matcher": matcher, "hooks": [hook]})
                },
            )
        }

        fn desired_map() -> impl Strategy<Value = IndexMap<String, Vec<Value>>> {
            proptest::collection::vec(
                (0..EVENTS.len(), proptest::collection::vec(entry(), 0..3)),
                0..4,
            )
            .prop_map(|pairs| {
                pairs
                    .into_iter()
                    .map(|(e, v)| (EVENTS[e].to_string(), v))
                    .collect()
            })
        }

        fn value_of(text: &str) -> Value {
            jsonc_parser::parse_to_serde_value(
                text.trim_start_matches('\u{feff}'),
                &parse_options(),
            )
            .unwrap()
        }

        /// The user's part of a document: the document with hookc's entries taken out of the
        /// container's arrays, and arrays that held nothing else dropped.
        fn user_part(mut doc: Value) -> Value {
            if let Some(Value::Object(hooks)) = doc.get_mut("hooks") {
                for member in hooks.values_mut() {
                    if let Value::Array(items) = member {
                        items.retain(|v| !owned(v));
                    }
                }
            }
            doc
        }

        /// Whether `d` puts entries into an array the user left empty in `doc`.
        fn fills_user_empty(doc: &Value, d: &IndexMap<String, Vec<Value>>) -> bool {
            d.iter().any(|(k, v)| {
                !v.is_empty() && doc.get("hooks").and_then(|h| h.get(k)) == Some(&json!([]))
            })
        }

        /// Drops the empty arrays from `hooks` (what retraction does to the arrays it emptied).
        fn without_empty_arrays(mut doc: Value) -> Value {
            if let Some(Value::Object(hooks)) = doc.get_mut("hooks") {
                hooks.retain(|_, v| v != &json!([]));
            }
            doc
        }

        /// Between-token text a user might write: spaces, line breaks of both kinds, tabs,
        /// comments.
        const GAPS: [&str; 14] = [
            "",
            " ",
            "\n",
            "\n  ",
            "\r\n    ",
            "\t",
            " /* c */ ",
            " // c\n",
            "\n// line\n",
            "/**/",
            "\n\n    ",
            " // café\r\n  ",
            "/* é */\n",
            "\u{a0}\n\u{2003}",
        ];

        /// Writes `value` as JSONC with the gaps picked by `choices` (cycled) and, optionally,
        /// trailing commas.
        fn write_jsonc(value: &Value, choices: &[u8], trailing: bool) -> String {
            fn gap(choices: &[u8], next: &mut usize) -> &'static str {
                let g = GAPS[choices[*next % choices.len()] as usize % GAPS.len()];
                *next += 1;
                g
            }
            fn go(v: &Value, choices: &[u8], next: &mut usize, trailing: bool, out: &mut String) {
                let (open, close, items): (char, char, Vec<(Option<&String>, &Value)>) = match v {
                    Value::Array(a) => ('[', ']', a.iter().map(|x| (None, x)).collect()),
                    Value::Object(o) => ('{', '}', o.iter().map(|(k, x)| (Some(k), x)).collect()),
                    scalar => {
                        out.push_str(&scalar.to_string());
                        return;
                    }
                };
                out.push(open);
                for (i, (key, item)) in items.iter().enumerate() {
                    out.push_str(gap(choices, next));
                    if let Some(k) = key {
                        out.push_str(&Value::String((*k).clone()).to_string());
                        out.push_str(": ");
                    }
                    go(item, choices, next, trailing, out);
                    out.push_str(gap(choices, next));
                    if i + 1 < items.len() || trailing {
                        out.push(',');
                    }
                }
                out.push_str(gap(choices, next));
                out.push(close);
            }
            let mut out = String::new();
            let mut next = 0;
            go(value, choices, &mut next, trailing, &mut out);
            out.push_str(gap(choices, &mut next));
            out
        }

        fn user_entry() -> impl Strategy<Value = Value> {
            ("[a-z ]{0,6}", proptest::option::of("[a-z]{0,4}")).prop_map(|(m, c)| match c {
                Some(c) => json!({"matcher": m, "hooks": [{"type": "command", "command": c}]}),
                None => json!({"matcher": m}),
            })
        }

        fn user_doc() -> impl Strategy<Value = Value> {
            let hooks = proptest::collection::vec(
                (
                    0..EVENTS.len(),
                    proptest::collection::vec(user_entry(), 0..3),
                ),
                0..4,
            )
            .prop_map(|members| {
                Value::Object(
                    members
                        .into_iter()
                        .map(|(e, v)| (EVENTS[e].to_string(), Value::Array(v)))
                        .collect(),
                )
            });
            let other = prop_oneof![
                Just(json!(1)),
                Just(json!("x y")),
                Just(json!([1, "two", null])),
                Just(json!({"k": [true, false]})),
                Just(json!({})),
            ];
            (
                proptest::option::of(hooks),
                proptest::collection::vec((0..3usize, other), 0..3),
                any::<bool>(),
            )
                .prop_map(|(hooks, others, hooks_first)| {
                    let mut root = serde_json::Map::new();
                    let names = ["model", "env", "permissions"];
                    if hooks_first && let Some(h) = &hooks {
                        root.insert("hooks".to_string(), h.clone());
                    }
                    for (n, v) in others {
                        root.insert(names[n].to_string(), v);
                    }
                    if !hooks_first && let Some(h) = hooks {
                        root.insert("hooks".to_string(), h);
                    }
                    Value::Object(root)
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Arbitrary user files, formatted every which way: the merge invariants hold.
            #[test]
            fn merge_invariants_on_generated_files(
                doc in user_doc(),
                choices in proptest::collection::vec(any::<u8>(), 1..40),
                trailing in any::<bool>(),
                d in desired_map(),
            ) {
                let orig = write_jsonc(&doc, &choices, trailing);
                prop_assert_eq!(value_of(&orig), doc.clone());
                let out = text(merge(Some(&orig), &d));
                let wanted: IndexMap<String, Vec<Value>> =
                    d.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k.clone(), v.clone())).collect();
                prop_assert_eq!(owned_entries(&out, &["hooks"], &owned).unwrap(), wanted);
                let mine = user_part(value_of(&out));
                // The user's members are all there, in their order; only `hooks` may be new.
                let keys: Vec<&String> = mine.as_object().unwrap().keys().filter(|k| doc.get(k.as_str()).is_some()).collect();
                prop_assert_eq!(keys, doc.as_object().unwrap().keys().collect::<Vec<_>>());
                prop_assert!(mine.as_object().unwrap().keys().all(|k| doc.get(k).is_some() || k == "hooks"));
                for (k, v) in doc.as_object().unwrap() {
                    if k == "hooks" {
                        for (m, items) in v.as_object().unwrap() {
                            prop_assert_eq!(&mine["hooks"][m], items);
                        }
                    } else {
                        prop_assert_eq!(&mine[k], v);
                    }
                }
                prop_assert_eq!(text(merge(Some(&out), &d)), out.clone());
                let redone = text(merge_impl(Some(&out), &["hooks"], &d, &[], &owned, false).unwrap());
                prop_assert_eq!(&redone, &out);
                // With the record of what hookc added, retraction always gives back the
                // original bytes, and rebuilding is a no-op.
                let (shaped, shape) = merge_entries_shaped(Some(&orig), &["hooks"], &d, &[], &owned, Some(&Shape::default())).unwrap();
                let shaped = text(shaped);
                let (again, shape) = merge_entries_shaped(Some(&shaped), &["hooks"], &d, &[], &owned, shape.as_ref()).unwrap();
                prop_assert_eq!(&text(again), &shaped);
                let (back, _) = merge_entries_shaped(Some(&shaped), &["hooks"], &IndexMap::new(), &[], &owned, shape.as_ref()).unwrap();
                prop_assert_eq!(text(back), orig.clone());
                match retract(&out) {
                    Merged::Text(back) if back == orig => {}
                    back => {
                        // Only where hookc filled something the user had left empty.
                        let hooks_was_empty = doc.get("hooks") == Some(&json!({}));
                        let root_was_empty = doc == json!({});
                        prop_assert!(
                            fills_user_empty(&doc, &d) || hooks_was_empty || root_was_empty,
                            "retraction did not restore\n{}\nfrom\n{}\ngot {:?}", orig, out, back
                        );
                    }
                }
            }

            #[test]
            fn merge_keeps_the_user_part_and_is_stable(index in 0..corpus().len(), d in desired_map()) {
                let orig = &corpus()[index];
                let out = text(merge(Some(orig), &d));

                // It parses, and stays strict JSON when it was.
                let after = value_of(&out);
                if serde_json::from_str::<Value>(orig.trim_start_matches('\u{feff}')).is_ok() {
                    prop_assert!(serde_json::from_str::<Value>(out.trim_start_matches('\u{feff}')).is_ok(), "not JSON:\n{}", out);
                }

                // hookc's entries are exactly the desired ones.
                let wanted: IndexMap<String, Vec<Value>> =
                    d.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| (k.clone(), v.clone())).collect();
                prop_assert_eq!(owned_entries(&out, &["hooks"], &owned).unwrap(), wanted.clone());

                // Every member and element of the user's is unchanged, in the same order.
                let before = value_of(orig);
                let mine = user_part(after.clone());
                let (Value::Object(b), Value::Object(m)) = (&before, &mine) else { unreachable!() };
                let kept: Vec<&String> = m.keys().filter(|k| b.contains_key(*k)).collect();
                prop_assert_eq!(kept, b.keys().collect::<Vec<_>>());
                for (k, v) in b {
                    if k != "hooks" {
                        prop_assert_eq!(&m[k], v);
                    }
                }
                if let (Some(Value::Object(hb)), Some(Value::Object(hm))) = (b.get("hooks"), m.get("hooks")) {
                    let kept: Vec<&String> = hm.keys().filter(|k| hb.contains_key(*k)).collect();
                    prop_assert_eq!(kept, hb.keys().collect::<Vec<_>>());
                    for (k, v) in hb {
                        prop_assert_eq!(&hm[k], v);
                    }
                    for (k, v) in hm {
                        if !hb.contains_key(k) {
                            prop_assert_eq!(v, &json!([]), "new member {} holds user entries", k);
                        }
                    }
                }
                for k in m.keys() {
                    prop_assert!(b.contains_key(k) || k == "hooks");
                }

                // Merging again changes no byte; retracting gives the original back.
                prop_assert_eq!(text(merge(Some(&out), &d)), out.clone());
                let redone = text(merge_impl(Some(&out), &["hooks"], &d, &[], &owned, false).unwrap());
                prop_assert_eq!(&redone, &out);
                // Retraction restores the original, except where hookc filled an array the
                // user had left empty (`"Notification": []`): after retraction that array
                // held only hookc's entries, and goes like one hookc created.
                let filled_user_empty = fills_user_empty(&before, &d);
                let back = text(retract(&out));
                if filled_user_empty {
                    prop_assert_eq!(without_empty_arrays(value_of(&back)), without_empty_arrays(value_of(orig)));
                } else {
                    prop_assert_eq!(back, orig.clone());
                }
            }

            #[test]
            fn successive_merges_equal_one_merge(index in 0..corpus().len(), d1 in desired_map(), d2 in desired_map()) {
                let orig = &corpus()[index];
                let first = text(merge(Some(orig), &d1));
                let second = text(merge(Some(&first), &d2));
                let direct = text(merge(Some(orig), &d2));
                // The same JSON (a member hookc created earlier keeps its place, so member
                // order may differ), the same owned entries, and the same file after retraction.
                if fills_user_empty(&value_of(orig), &d1) {
                    // The array hookc filled before is now taken for one of its own.
                    prop_assert_eq!(without_empty_arrays(value_of(&second)), without_empty_arrays(value_of(&direct)));
                    return Ok(());
                }
                prop_assert_eq!(value_of(&second), value_of(&direct));
                prop_assert_eq!(
                    owned_entries(&second, &["hooks"], &owned).unwrap(),
                    owned_entries(&direct, &["hooks"], &owned).unwrap()
                );
                prop_assert_eq!(retract(&second), retract(&direct));
            }
        }
    }

    fn shaped(
        existing: Option<&str>,
        d: &IndexMap<String, Vec<Value>>,
        ensure: &[(&str, Value)],
        prior: Option<&Shape>,
    ) -> (Merged, Option<Shape>) {
        merge_entries_shaped(existing, &["hooks"], d, ensure, &owned, prior).unwrap()
    }

    #[test]
    fn with_a_record_retraction_gives_back_exactly_what_the_user_had() {
        let ensure = [("version", json!(1))];
        for original in [
            "{}",
            "{ }\n",
            "{\"hooks\": {}}\n",
            "{\n    \"hooks\" : { }\n}\n",
            "{\r\n\t\"hooks\": {\r\n\t\t\"PreToolUse\": [ ]\r\n\t}\r\n}\r\n",
            "{\"version\": 1, \"hooks\": {\"Stop\": [\n]}}",
            "{\"hooks\": {\"Stop\": []}} ",
            "{ /* c */ }",
        ] {
            let (m, shape) = shaped(Some(original), &standard(), &ensure, None);
            let merged = text(m);
            let (again, shape) = shaped(Some(&merged), &standard(), &ensure, shape.as_ref());
            assert_eq!(text(again), merged, "{original:?}");
            let (back, _) = shaped(Some(&merged), &IndexMap::new(), &ensure, shape.as_ref());
            assert_eq!(
                back,
                Merged::Text(original.to_string()),
                "{original:?}\n{merged}"
            );
        }
        // A file hookc created goes, `version` and all.
        let (m, shape) = shaped(None, &standard(), &ensure, None);
        let shape = shape.unwrap();
        assert!(
            shape.file && shape.created.contains(&"/version".to_string()),
            "{shape:?}"
        );
        let (back, _) = shaped(Some(&text(m)), &IndexMap::new(), &ensure, Some(&shape));
        assert_eq!(back, Merged::Empty);
    }

    #[test]
    fn inserting_into_an_empty_array_keeps_what_was_inside() {
        let d = desired(&[("PreToolUse", vec![entry("PreToolUse", "Bash")])]);
        let (m, _) = shaped(Some("{\"hooks\": {\"PreToolUse\": [ ]}}"), &d, &[], None);
        assert!(text(m).starts_with("{\"hooks\": {\"PreToolUse\": [ \n"));
        let (m, _) = shaped(Some("{\"hooks\": {\"PreToolUse\": [\n  ]}}"), &d, &[], None);
        assert!(text(m).ends_with("}\n  ]}}"));
    }
}
