//! Span-keeping JSON/JSONC reading for `hookc lint`: every node keeps its byte range.

use jsonc_parser::CollectOptions;
use jsonc_parser::ast::{Object, ObjectProp, Value};

use crate::source::Span;

pub use crate::profile::Dialect;

/// What the merge reads: JSON with comments and trailing commas, a leading
/// byte order mark skipped. Every harness's dialect takes as much or less, so
/// a file its harness reads is one the merge can edit.
pub const MERGE: Dialect = Dialect {
    comments: true,
    trailing_commas: true,
    bom: true,
};

/// `text` as [`parse`] should see it in `dialect`: a leading byte order mark
/// the dialect skips becomes three spaces, so every offset stays the file's.
pub fn readable(text: &str, dialect: Dialect) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) if dialect.bom => format!("   {rest}").into(),
        _ => text.into(),
    }
}

/// Parse JSON in the harness's `dialect`: what the harness rejects is an
/// error here. Pass the text through [`readable`] first.
pub fn parse(text: &str, dialect: Dialect) -> Result<Option<Value<'_>>, (Span, String)> {
    if text.starts_with('\u{feff}') {
        return Err((
            Span::new(0, 3),
            "the file starts with a byte order mark (U+FEFF)".to_string(),
        ));
    }
    let options = crate::merge::json::dialect_options(dialect.comments, dialect.trailing_commas);
    match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options) {
        Ok(result) => match result
            .value
            .as_ref()
            .and_then(|v| crate::merge::json::raw_control_char(text, v))
        {
            Some(at) => Err((
                Span::new(at, 1),
                crate::merge::json::CONTROL_CHAR.to_string(),
            )),
            None => Ok(result.value),
        },
        Err(e) => {
            let r = e.range();
            Err((
                Span::new(r.start, (r.end - r.start).max(1)),
                e.kind().to_string(),
            ))
        }
    }
}

pub fn span(value: &Value<'_>) -> Span {
    let r = match value {
        Value::StringLit(v) => v.range,
        Value::NumberLit(v) => v.range,
        Value::BooleanLit(v) => v.range,
        Value::Object(v) => v.range,
        Value::Array(v) => v.range,
        Value::NullKeyword(v) => v.range,
    };
    Span::new(r.start, r.end - r.start)
}

/// The key's own span (quotes included).
pub fn key_span(prop: &ObjectProp<'_>) -> Span {
    let r = match &prop.name {
        jsonc_parser::ast::ObjectPropName::String(s) => s.range,
        jsonc_parser::ast::ObjectPropName::Word(w) => w.range,
    };
    Span::new(r.start, r.end - r.start)
}

pub fn key<'a>(prop: &'a ObjectProp<'_>) -> &'a str {
    match &prop.name {
        jsonc_parser::ast::ObjectPropName::String(s) => &s.value,
        jsonc_parser::ast::ObjectPropName::Word(w) => w.value,
    }
}

pub fn get<'a, 'b>(object: &'a Object<'b>, name: &str) -> Option<&'a ObjectProp<'b>> {
    object.properties.iter().find(|p| key(p) == name)
}

pub fn type_name(value: &Value<'_>) -> &'static str {
    match value {
        Value::StringLit(_) => "a string",
        Value::NumberLit(_) => "a number",
        Value::BooleanLit(_) => "a boolean",
        Value::Object(_) => "an object",
        Value::Array(_) => "an array",
        Value::NullKeyword(_) => "null",
    }
}

pub fn as_str<'a>(value: &'a Value<'_>) -> Option<&'a str> {
    match value {
        Value::StringLit(s) => Some(&s.value),
        _ => None,
    }
}

pub fn as_f64(value: &Value<'_>) -> Option<f64> {
    match value {
        Value::NumberLit(n) => n.value.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_keys_and_values() {
        let text = "{ // c\n  \"a\": [1, \"x\"],\n}";
        let lenient = MERGE;
        let Some(Value::Object(o)) = parse(text, lenient).unwrap() else {
            panic!()
        };
        let p = get(&o, "a").unwrap();
        assert_eq!(&text[key_span(p).range()], "\"a\"");
        assert_eq!(&text[span(&p.value).range()], "[1, \"x\"]");
        assert!(parse("{", lenient).is_err());
    }

    /// Each dialect refuses what its harness's reader refuses, and no
    /// dialect takes JSON5.
    #[test]
    fn dialects_are_as_strict_as_the_readers() {
        let comment = "{ // c\n \"a\": 1 }";
        let trailing = "{ \"a\": [1,], }";
        let gemini = crate::harness::get(crate::ir::HarnessId::Gemini)
            .and_then(|h| h.profile().json.as_ref())
            .unwrap()
            .dialect;
        assert!(parse(comment, Dialect::STRICT).is_err());
        assert!(parse(trailing, Dialect::STRICT).is_err());
        assert!(parse(comment, gemini).is_ok());
        assert!(parse(trailing, gemini).is_err());
        for json5 in [
            "{ a: 1 }",
            "{ 'a': 1 }",
            "{ \"a\": 1 \"b\": 2 }",
            "{ \"a\": 0x1 }",
            "{ \"a\": NaN }",
        ] {
            assert!(parse(json5, MERGE).is_err(), "{json5}");
        }
        assert!(parse("{ \"a\": [1, 2] }", Dialect::STRICT).is_ok());
    }
}
