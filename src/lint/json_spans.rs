//! Span-keeping JSON/JSONC reading for `hookc lint`: every node keeps its byte range.

use jsonc_parser::ast::{Object, ObjectProp, Value};
use jsonc_parser::{CollectOptions, ParseOptions};

use crate::source::Span;

/// Parse JSONC (comments and trailing commas allowed, as most harnesses read it).
pub fn parse(text: &str) -> Result<Option<Value<'_>>, (Span, String)> {
    match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default()) {
        Ok(result) => Ok(result.value),
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
        let Some(Value::Object(o)) = parse(text).unwrap() else {
            panic!()
        };
        let p = get(&o, "a").unwrap();
        assert_eq!(&text[key_span(p).range()], "\"a\"");
        assert_eq!(&text[span(&p.value).range()], "[1, \"x\"]");
        assert!(parse("{").is_err());
    }
}
