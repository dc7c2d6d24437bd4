//! Arguments derived from a tool's `inputSchema`: valid values to fill what a probe does not
//! break (and what `--explore` starts from), and the two ways a probe breaks it (a missing
//! required property, a wrong type).

use serde_json::{Map, Value, json};

/// Schemas nest; a hostile one nests without end.
pub const MAX_DEPTH: usize = 8;

/// Argument objects that each violate `schema` in one way, with what they do.
pub fn invalid_arguments(root: &Value) -> Vec<(String, Value)> {
    let schema = resolve(root, root);
    let properties = schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let property = |name: &str| {
        properties
            .and_then(|p| p.get(name))
            .map(|s| resolve(root, s))
    };
    let valid: Map<String, Value> = required
        .iter()
        .map(|name| {
            let value = property(name).map_or_else(|| json!("mcp-lint"), |s| sample(root, s, 0));
            (name.to_string(), value)
        })
        .collect();
    let mut cases = Vec::new();
    if let Some(first) = required.first() {
        let mut args = valid.clone();
        args.remove(*first);
        cases.push((
            format!("arguments without the required property `{first}`"),
            Value::Object(args),
        ));
    }
    // The first required property with a declared type, else the first declared one.
    let typed = |name: &&str| property(name).and_then(declared_type).is_some();
    let target = required
        .iter()
        .copied()
        .find(typed)
        .or_else(|| properties.and_then(|p| p.keys().map(String::as_str).find(|n| typed(n))));
    if let Some(name) = target {
        let expected = property(name).and_then(declared_type).expect("typed");
        let (wrong, given) = wrong_value(expected);
        let mut args = valid;
        args.insert(name.to_string(), wrong);
        cases.push((
            format!("`{name}` as {given} where the schema says {expected}"),
            Value::Object(args),
        ));
    }
    cases
}

/// `schema`, or what its local `$ref` (`#/$defs/Query`, `#/definitions/..`) points at, in
/// `root`; a ref elsewhere (a URL, a file) is never followed, and a chain of refs ends.
pub fn resolve<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    let mut schema = schema;
    for _ in 0..MAX_DEPTH {
        let Some(pointer) = schema.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match pointer.strip_prefix('#').and_then(|p| root.pointer(p)) {
            Some(target) => schema = target,
            None => break,
        }
    }
    schema
}

/// The one JSON type a schema declares (the first non-null of a list).
pub fn declared_type(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null"),
        _ => None,
    }
}

/// A value of another type than `expected`, and what it is.
fn wrong_value(expected: &str) -> (Value, &'static str) {
    match expected {
        "string" => (json!(12345), "a number"),
        "array" | "object" | "null" => (json!("mcp-lint"), "a string"),
        _ => (json!("not-a-number"), "a string"),
    }
}

/// A value `schema` (part of `root`) accepts, as far as a simple reading of it goes.
pub fn sample(root: &Value, schema: &Value, depth: usize) -> Value {
    let schema = resolve(root, schema);
    if let Some(value) = schema.get("const").or_else(|| schema.get("default")) {
        return value.clone();
    }
    let first = |key| schema.get(key).and_then(Value::as_array)?.first();
    if let Some(value) = first("enum").or_else(|| first("examples")) {
        return value.clone();
    }
    if depth < MAX_DEPTH
        && let Some(option) = first("anyOf").or_else(|| first("oneOf"))
    {
        return sample(root, option, depth + 1);
    }
    let number = |key| schema.get(key).and_then(Value::as_f64);
    match declared_type(schema) {
        Some("integer") => json!(number("minimum").map_or(1, |m| m.ceil() as i64)),
        Some("number") => json!(number("minimum").unwrap_or(1.0)),
        Some("boolean") => json!(true),
        Some("null") => Value::Null,
        Some("array") => {
            let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let item = match schema.get("items") {
                Some(items) if depth < MAX_DEPTH => sample(root, items, depth + 1),
                _ => json!("mcp-lint"),
            };
            Value::Array(vec![item; count.min(16) as usize])
        }
        Some("object") if depth < MAX_DEPTH => {
            Value::Object(required_object(root, schema, depth + 1))
        }
        Some("object") => json!({}),
        _ => sample_string(schema),
    }
}

pub fn required_object(root: &Value, schema: &Value, depth: usize) -> Map<String, Value> {
    let properties = schema.get("properties").and_then(Value::as_object);
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|name| {
            let value = properties
                .and_then(|p| p.get(name))
                .map_or_else(|| json!("mcp-lint"), |s| sample(root, s, depth));
            (name.to_string(), value)
        })
        .collect()
}

pub fn sample_string(schema: &Value) -> Value {
    let text = match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => "2026-01-01T00:00:00Z",
        Some("date") => "2026-01-01",
        Some("time") => "00:00:00Z",
        Some("email") => "probe@example.com",
        Some("uri" | "url") => "https://example.com/",
        Some("uuid") => "00000000-0000-4000-8000-000000000000",
        _ => "mcp-lint",
    };
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let padding = min.saturating_sub(text.len()).min(1024);
    json!(format!("{text}{}", "x".repeat(padding)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_one_thing_and_fills_the_rest() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 12},
                "days": {"type": "integer", "minimum": 3},
                "units": {"enum": ["metric", "imperial"]}
            },
            "required": ["units", "city", "days"]
        });
        let cases = invalid_arguments(&schema);
        assert_eq!(
            cases,
            [
                (
                    "arguments without the required property `units`".to_string(),
                    json!({"city": "mcp-lintxxxx", "days": 3})
                ),
                (
                    "`city` as a number where the schema says string".to_string(),
                    json!({"units": "metric", "city": 12345, "days": 3})
                ),
            ]
        );
    }

    #[test]
    fn optional_properties_get_a_wrong_type_only() {
        let schema = json!({"type": "object", "properties": {"n": {"type": ["null", "number"]}}});
        assert_eq!(
            invalid_arguments(&schema),
            [(
                "`n` as a string where the schema says number".to_string(),
                json!({"n": "not-a-number"})
            )]
        );
        assert!(invalid_arguments(&json!({"type": "object"})).is_empty());
        assert!(invalid_arguments(&json!(true)).is_empty());
    }

    #[test]
    fn hostile_schemas_end() {
        // As deep as serde_json parses (its limit is 128).
        let mut schema = json!({"type": "string"});
        for _ in 0..120 {
            schema = json!({"type": "object", "properties": {"a": schema}, "required": ["a"]});
        }
        let cases = invalid_arguments(&schema);
        assert_eq!(cases.len(), 2);
        let long = json!({"minItems": u64::MAX, "type": "array"});
        assert_eq!(sample(&long, &long, 0).as_array().map(Vec::len), Some(16));
        // A ref to itself ends too.
        let looped = json!({"$ref": "#"});
        assert!(invalid_arguments(&looped).is_empty());
    }

    #[test]
    fn local_refs_are_followed() {
        // B12: the required, typed property behind `$ref`/`$defs`, as Pydantic writes it.
        let schema = json!({
            "$defs": {"Query": {"type": "object", "properties": {"q": {"$ref": "#/$defs/Text"}}, "required": ["q"]},
                      "Text": {"type": "string"}},
            "$ref": "#/$defs/Query"
        });
        assert_eq!(
            invalid_arguments(&schema),
            [
                (
                    "arguments without the required property `q`".to_string(),
                    json!({})
                ),
                (
                    "`q` as a number where the schema says string".to_string(),
                    json!({"q": 12345})
                ),
            ]
        );
    }
}
