//! The tools a session's latest `tools/list` announced, with their schemas compiled once, on
//! first use (a listing of 100k tools costs nothing until a tool is called).

use std::cell::{Cell, OnceCell};
use std::ops::Range;

use foldhash::{HashMap, HashSet};
use jsonschema::{PatternOptions, Validator};
use serde_json::Value;

use super::conform::Plan;
use super::message::Json;
use super::redact::MARKER;
use crate::finding::Violation;
use crate::rules::{self, mcp202::KnownTools};

pub type Compiled = Result<Validator, String>;

#[derive(Default)]
pub struct Catalog {
    tools: HashMap<String, Tool>,
    /// Names listed more than once, reported once each.
    repeated: HashSet<String>,
    known: OnceCell<KnownTools>,
    /// Where the listing's last page was answered, to report a bad schema.
    pub line: usize,
    pub span: Range<usize>,
    /// The listing's line, `(offset, text)`, in a streamed audit.
    pub held: Option<(usize, Box<str>)>,
}

pub struct Tool {
    pub input_schema: Option<Value>,
    pub output_schema: Option<Value>,
    input: OnceCell<Compiled>,
    output: OnceCell<Compiled>,
    /// The outputSchema checked on a value's text, when it compiled and is simple enough.
    output_plan: OnceCell<Option<Plan>>,
    /// Whether a call has asked for each schema, input then output: a bad one is reported
    /// at the first.
    asked: [Cell<bool>; 2],
}

impl Catalog {
    /// Adds the tools of one `tools/list` page; what is wrong with the page's tools, as
    /// violations. An `inputSchema` must say `type: "object"` at its root in every version;
    /// an `outputSchema` must be an object, but its root type is let be: a server may list
    /// for 2026-07-28 callers (per-request `_meta`), where any root is allowed, in a session
    /// begun as 2025-11-25.
    pub fn add_page(&mut self, result: &Value) -> Vec<Violation> {
        let Some(tools) = result.get("tools").and_then(Value::as_array) else {
            let message =
                "this tools/list result has no `tools` array, so the tools it lists are not known"
                    .to_string();
            return vec![rules::mcp001::unreadable(message)];
        };
        let mut problems = Vec::new();
        for tool in tools {
            let name = match tool.get("name") {
                Some(Value::String(name)) => name,
                other => {
                    let shown = other.map_or("(none)".to_string(), Value::to_string);
                    problems.push(rules::mcp402::invalid(&shown, "is not a string"));
                    continue;
                }
            };
            if !rules::mcp402::is_valid(name) {
                let why = "is not 1 to 128 of `A-Z a-z 0-9 _ - .`";
                problems.push(rules::mcp402::invalid(&format!("`{name}`"), why));
            }
            let schema = |key: &str| tool.get(key).filter(|v| !v.is_null()).cloned();
            let (input_schema, output_schema) = (schema("inputSchema"), schema("outputSchema"));
            for (which, schema, required) in [
                ("inputSchema", &input_schema, true),
                ("outputSchema", &output_schema, false),
            ] {
                if let Some(what) = schema.as_ref().and_then(|s| not_an_object(s, required)) {
                    problems.push(rules::mcp401::not_an_object(name, which, what));
                }
            }
            let listed = Tool {
                input_schema,
                output_schema,
                input: OnceCell::new(),
                output: OnceCell::new(),
                output_plan: OnceCell::new(),
                asked: Default::default(),
            };
            if self.tools.insert(name.clone(), listed).is_some()
                && self.repeated.insert(name.clone())
            {
                problems.push(rules::mcp403::duplicate(name));
            }
        }
        problems
    }

    /// Whether a schema that does not compile is still to be reported: that is done where
    /// it was listed, at the first call of its tool. The schemas no call asked for yet are
    /// compiled to know (a streamed audit).
    pub fn bad_schema_pending(&self) -> bool {
        self.tools.values().any(|t| {
            let schemas = [
                (&t.input, &t.input_schema, &t.asked[0]),
                (&t.output, &t.output_schema, &t.asked[1]),
            ];
            schemas
                .into_iter()
                .any(|(cell, schema, asked)| match schema {
                    Some(schema) if !asked.get() => cell.get_or_init(|| compile(schema)).is_err(),
                    _ => false,
                })
        })
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// The tools' names, made searchable on first use.
    pub fn known_tools(&self) -> &KnownTools {
        self.known
            .get_or_init(|| KnownTools::new(self.tools.keys()))
    }
}

impl Tool {
    /// The compiled `inputSchema`, and whether this call compiled it (to report a bad schema once).
    pub fn input(&self) -> Option<(&Compiled, bool)> {
        compiled(&self.input, self.input_schema.as_ref()?, &self.asked[0])
    }

    pub fn output(&self) -> Option<(&Compiled, bool)> {
        compiled(&self.output, self.output_schema.as_ref()?, &self.asked[1])
    }

    /// Whether `content` surely conforms to the outputSchema, read on its text: most
    /// results do, and need no `Value`. A schema that does not compile is not asked for
    /// here, so it is still reported at the first call that asks ([`Tool::output`]).
    pub fn surely_conforms(&self, content: Json) -> bool {
        let Some(schema) = &self.output_schema else {
            return false;
        };
        let plan = self.output_plan.get_or_init(|| {
            let compiled = self.output.get_or_init(|| compile(schema));
            compiled.as_ref().ok().and_then(|_| Plan::of(schema))
        });
        plan.as_ref().is_some_and(|plan| plan.accepts(content))
    }
}

/// What a schema is instead of an object with `type: "object"` at its root; `required`: the
/// root must say `"object"` (a root without `type` is let be where it need not).
fn not_an_object(schema: &Value, required: bool) -> Option<&'static str> {
    let Value::Object(schema) = schema else {
        return Some(match schema {
            Value::String(_) => "is a string",
            Value::Array(_) => "is an array",
            Value::Bool(_) => "is a boolean",
            _ => "is a number",
        });
    };
    match schema.get("type") {
        Some(Value::String(t)) if t == "object" => None,
        Some(_) if required => Some("has a root `type` other than \"object\""),
        None if required => Some("has no root `type`"),
        _ => None,
    }
}

fn compiled<'c>(
    cell: &'c OnceCell<Compiled>,
    schema: &Value,
    asked: &Cell<bool>,
) -> Option<(&'c Compiled, bool)> {
    let fresh = !asked.replace(true);
    Some((cell.get_or_init(|| compile(schema)), fresh))
}

/// Compiles a schema from a transcript. No retriever is configured (jsonschema is built
/// without its resolve features), so a `$ref` to a URL or a file fails to compile instead of
/// being fetched; `pattern`s run on the linear-time `regex` engine, so none can hang us.
pub fn compile(schema: &Value) -> Compiled {
    jsonschema::options()
        .with_pattern_options(PatternOptions::regex())
        .build(schema)
        .map_err(|e| e.to_string())
}

/// The first way `instance` fails `validator`: `at /path: message (schema /path)`. A value
/// redacted when it was recorded is not judged: the secret it stands for was not seen.
pub fn first_error(validator: &Validator, instance: &Value) -> Option<String> {
    if validator.is_valid(instance) {
        return None; // the common case, without building an error iterator
    }
    let redacted = |e: &jsonschema::ValidationError| e.instance().as_str() == Some(MARKER);
    validator
        .iter_errors(instance)
        .find(|e| !redacted(e))
        .map(|e| {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() { "/".to_string() } else { at };
            format!("at `{at}`: {e} (schema `{}`)", e.schema_path())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn remote_and_file_refs_are_not_followed() {
        for target in ["https://example.com/schema.json", "file:///etc/passwd"] {
            let schema = json!({"type": "object", "properties": {"a": {"$ref": target}}});
            assert!(compile(&schema).is_err(), "{target} was resolved");
        }
    }

    #[test]
    fn catastrophic_patterns_run_in_linear_time() {
        let validator = compile(&json!({"type": "string", "pattern": "^(a+)+$"})).unwrap();
        let evil = format!("{}!", "a".repeat(100_000));
        assert!(first_error(&validator, &json!(evil)).is_some());
    }

    #[test]
    fn first_error_names_the_path() {
        let validator =
            compile(&json!({"type": "object", "properties": {"a": {"type": "integer"}}})).unwrap();
        let error = first_error(&validator, &json!({"a": "two"})).unwrap();
        assert!(error.starts_with("at `/a`: "), "{error}");
        assert!(first_error(&validator, &json!({"a": 2})).is_none());
    }

    #[test]
    fn a_redacted_value_is_not_judged() {
        let schema = json!({"type": "object", "properties": {"token": {"type": "string", "pattern": "^ghp_"}, "n": {"type": "integer"}}});
        let validator = compile(&schema).unwrap();
        assert!(first_error(&validator, &json!({"token": MARKER})).is_none());
        let error = first_error(&validator, &json!({"token": MARKER, "n": "x"})).unwrap();
        assert!(error.starts_with("at `/n`"), "{error}");
    }
}
