//! A fast yes for the common case of MCP106: a tool's `structuredContent` checked against
//! its `outputSchema` on the scanned text, without building a `Value`. Only schemas made of
//! `type`, `properties`, `required`, `items` and `additionalProperties` (and annotations) are
//! checked so; a value this check does not surely accept goes the whole way (a `Value` and
//! jsonschema), which words the error. So a yes here must mean jsonschema says yes and the
//! text builds into a `Value`; a no only means "not sure".

use serde_json::Value;

use super::message::Json;
use super::scan::{Fault, Scanned, Scanner};

/// Deeper than this, a value is left to the whole check: serde_json stops building at 128.
const MAX_DEPTH: usize = 100;

/// A schema with more properties or required names than this is left to jsonschema: each
/// member of a value is looked up among them one by one (and required ones are a bit each).
const MAX_LISTED: usize = 64;

/// The JSON types, as bits of [`Plan::types`].
const NULL: u8 = 1;
const BOOLEAN: u8 = 1 << 1;
const INTEGER: u8 = 1 << 2;
const NUMBER: u8 = 1 << 3;
const STRING: u8 = 1 << 4;
const ARRAY: u8 = 1 << 5;
const OBJECT: u8 = 1 << 6;
const ANY: u8 = 0x7f;

/// Keywords that do not constrain a value.
const ANNOTATIONS: [&str; 9] = [
    "title",
    "description",
    "$comment",
    "examples",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
];

/// What a simple schema asks of a value.
#[derive(Debug)]
pub struct Plan {
    /// The JSON types it may have; none for the schema `false`.
    types: u8,
    /// At most [`MAX_LISTED`], as are the required names (one bit each while an object is read).
    properties: Vec<(String, Plan)>,
    required: Vec<String>,
    items: Option<Box<Plan>>,
    additional: Option<Box<Plan>>,
}

impl Plan {
    /// The plan of a schema that compiled, when it uses only what a plan checks.
    pub fn of(schema: &Value) -> Option<Plan> {
        let mut plan = Plan {
            types: ANY,
            properties: Vec::new(),
            required: Vec::new(),
            items: None,
            additional: None,
        };
        let schema = match schema {
            Value::Bool(accepts) => {
                plan.types = if *accepts { ANY } else { 0 };
                return Some(plan);
            }
            Value::Object(schema) => schema,
            _ => return None,
        };
        for (keyword, value) in schema {
            match keyword.as_str() {
                "type" => plan.types = types(value)?,
                "properties" => {
                    for (name, schema) in value.as_object()? {
                        plan.properties.push((name.clone(), Plan::of(schema)?));
                    }
                    if plan.properties.len() > MAX_LISTED {
                        return None;
                    }
                }
                "required" => {
                    for name in value.as_array()? {
                        plan.required.push(name.as_str()?.to_string());
                    }
                    if plan.required.len() > MAX_LISTED {
                        return None;
                    }
                }
                "items" if !value.is_array() => plan.items = Some(Box::new(Plan::of(value)?)),
                "additionalProperties" => plan.additional = Some(Box::new(Plan::of(value)?)),
                annotation if ANNOTATIONS.contains(&annotation) => {}
                _ => return None,
            }
        }
        Some(plan)
    }

    /// Whether `value` surely conforms (and builds into a `Value`); false when not sure.
    pub fn accepts(&self, value: Json) -> bool {
        let mut scanner = Scanner::new(value.text());
        self.walk(&mut scanner, 0).is_ok() && scanner.end().is_ok()
    }

    /// Reads one value, which conforms, or fails (any [`Fault`]: not sure).
    fn walk(&self, s: &mut Scanner, depth: usize) -> Scanned<()> {
        if depth > MAX_DEPTH {
            return Err(Fault::TooDeep);
        }
        let kind = match s.ahead().ok_or(Fault::NotJson)? {
            b'{' => OBJECT,
            b'[' => ARRAY,
            b'"' => STRING,
            b't' | b'f' => BOOLEAN,
            b'n' => NULL,
            _ => 0, // a number: which kind is known once it is read
        };
        if kind != 0 && self.types & kind == 0 {
            return Err(Fault::NotJson);
        }
        match kind {
            OBJECT => {
                let mut seen = 0u64;
                s.object(|s, key| {
                    let plan = self.properties.iter().find(|(name, _)| name == key);
                    match plan.map(|(_, plan)| plan).or(self.additional.as_deref()) {
                        Some(plan) => plan.walk(s, depth + 1)?,
                        None => any(s, depth + 1)?,
                    }
                    if let Some(k) = self.required.iter().position(|name| name == key) {
                        seen |= 1 << k;
                    }
                    Ok(true)
                })?;
                match seen.count_ones() as usize == self.required.len() {
                    true => Ok(()),
                    false => Err(Fault::NotJson),
                }
            }
            ARRAY => s
                .array(|s| match &self.items {
                    Some(plan) => plan.walk(s, depth + 1),
                    None => any(s, depth + 1),
                })
                .map(drop),
            0 => match number(s.value()?) & self.types {
                0 => Err(Fault::NotJson),
                _ => Ok(()),
            },
            _ => scalar(s),
        }
    }
}

/// Reads any value that builds into a `Value`.
fn any(s: &mut Scanner, depth: usize) -> Scanned<()> {
    if depth > MAX_DEPTH {
        return Err(Fault::TooDeep);
    }
    match s.ahead().ok_or(Fault::NotJson)? {
        b'{' => s.object(|s, _| any(s, depth + 1).map(|()| true)).map(drop),
        b'[' => s.array(|s| any(s, depth + 1)).map(drop),
        b'"' | b't' | b'f' | b'n' => scalar(s),
        _ => match number(s.value()?) {
            0 => Err(Fault::NotJson),
            _ => Ok(()),
        },
    }
}

/// Reads a string, boolean or null; a string with an escaped surrogate is left to serde_json,
/// which refuses a lone one.
fn scalar(s: &mut Scanner) -> Scanned<()> {
    let text = s.value()?.text();
    let surrogate = text.contains('\\')
        && text.as_bytes().windows(4).any(|w| {
            w[0] == b'\\' && w[1] == b'u' && w[2].eq_ignore_ascii_case(&b'd') && w[3] >= b'8'
        });
    match surrogate {
        true => Err(Fault::NotJson),
        false => Ok(()),
    }
}

/// The types a number surely has, by its text: `INTEGER | NUMBER` for a short integer (not
/// `-0`, which serde_json reads as a float), `NUMBER` for one without an exponent that cannot
/// overflow an f64, none when not sure.
fn number(number: Json) -> u8 {
    let text = number.text();
    let digits = text.strip_prefix('-').unwrap_or(text).as_bytes();
    if digits.len() <= 18 && text != "-0" && digits.iter().all(u8::is_ascii_digit) {
        return INTEGER | NUMBER;
    }
    let whole = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    match whole > 300 || digits.iter().any(|b| matches!(b, b'e' | b'E')) {
        true => 0,
        false => NUMBER,
    }
}

/// The bits of a `type`: one name or a list of them.
fn types(value: &Value) -> Option<u8> {
    let one = |name: &Value| match name.as_str()? {
        "null" => Some(NULL),
        "boolean" => Some(BOOLEAN),
        "integer" => Some(INTEGER),
        "number" => Some(NUMBER | INTEGER),
        "string" => Some(STRING),
        "array" => Some(ARRAY),
        "object" => Some(OBJECT),
        _ => None,
    };
    match value {
        Value::Array(names) => names
            .iter()
            .try_fold(0, |bits, name| Some(bits | one(name)?)),
        name => one(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::catalog::compile;
    use proptest::prelude::*;
    use serde_json::json;

    fn accepts(schema: &Value, text: &str) -> bool {
        Plan::of(schema)
            .expect("a simple schema")
            .accepts(Json::checked(text))
    }

    #[test]
    fn simple_schemas_have_plans_and_others_do_not() {
        let output = json!({"type": "object", "title": "Out", "properties": {"items": {"type": "array", "items": {"type": "integer"}}}, "required": ["items"], "additionalProperties": false});
        assert!(Plan::of(&output).is_some());
        assert!(Plan::of(&json!(true)).is_some());
        for schema in [
            json!({"type": "string", "minLength": 1}),
            json!({"format": "date"}),
            json!({"$ref": "#/$defs/a"}),
            json!({"items": [{"type": "string"}]}),
            json!({"properties": {"a": {"enum": [1]}}}),
            json!({"properties": (0..65).map(|n| (n.to_string(), json!(true))).collect::<serde_json::Map<_, _>>()}),
            json!(3),
        ] {
            assert!(Plan::of(&schema).is_none(), "{schema}");
        }
    }

    #[test]
    fn what_it_accepts_and_what_it_leaves_to_jsonschema() {
        let schema = json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "integer"}}, "q": {"type": ["string", "null"]}}, "required": ["items"]});
        assert!(accepts(&schema, r#"{"items": [1, -2, 3], "q": null}"#));
        assert!(accepts(
            &schema,
            r#"{"items": [], "extra": {"a": [1.5, true, "\n"]}}"#
        ));
        for unsure in [
            r#"{"q": "x"}"#,
            r#"{"items": [1.0]}"#,
            r#"{"items": [-0]}"#,
            r#"{"items": [1e2]}"#,
            r#"{"items": [12345678901234567890]}"#,
            r#"{"items": [], "q": 3}"#,
            r#"{"items": [], "extra": "\ud800"}"#,
            r#"{"items": [], "extra": 1e400}"#,
            r#"[]"#,
        ] {
            assert!(!accepts(&schema, unsure), "{unsure}");
        }
        let deep = format!(
            r#"{{"items": [], "x": {}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        assert!(!accepts(&schema, &deep));
        let closed =
            json!({"properties": {"a": {"type": "number"}}, "additionalProperties": false});
        assert!(accepts(&closed, r#"{"a": 1.25}"#));
        assert!(!accepts(&closed, r#"{"a": 1, "b": 2}"#));
        assert!(accepts(&closed, "7"));
        assert!(!accepts(&json!(false), "null"));
    }

    fn schemas() -> Vec<Value> {
        vec![
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "array", "items": {"type": "string"}}}, "required": ["a"]}),
            json!({"type": ["object", "array"], "additionalProperties": {"type": "number"}, "items": {"type": "boolean"}}),
            json!({"properties": {"a": {"type": "null"}, "b": false}, "additionalProperties": false}),
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"a": {"type": "integer"}}}),
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": {"type": "integer"}}),
        ]
    }

    /// JSON of the shapes the schemas above read, and ways around them.
    fn instance() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec![
            "1",
            "-0",
            "0",
            "1.0",
            "2.5",
            "1e3",
            "-7",
            "99999999999999999999",
            "1e400",
            "true",
            "null",
            "\"x\"",
            "\"\\ud800\"",
            "\"\\u00e9\"",
        ])
        .prop_map(str::to_string);
        leaf.prop_recursive(4, 24, 4, |inner| {
            let key = prop::sample::select(vec!["a", "b", "c"]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                prop::collection::vec((key, inner), 0..4).prop_map(|members| {
                    let members: Vec<String> = members
                        .iter()
                        .map(|(k, v)| format!("\"{k}\":{v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest! {
        // PROPTEST_CASES sets a longer run (README, "Fuzzing").
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2048)
        ))]

        #[test]
        fn a_yes_is_jsonschemas_yes(text in instance(), which in 0..5usize) {
            let schema = &schemas()[which];
            let validator = compile(schema).unwrap();
            if Plan::of(schema).unwrap().accepts(Json::checked(&text)) {
                let value: Value = serde_json::from_str(&text).unwrap();
                prop_assert!(validator.is_valid(&value), "{} {}", schema, text);
            }
        }
    }
}
