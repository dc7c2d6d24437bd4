//! The tools a session's latest `tools/list` announced, with their schemas compiled once, on
//! first use (a listing of 100k tools costs nothing until a tool is called).

use std::cell::OnceCell;
use std::ops::Range;

use foldhash::HashMap;
use jsonschema::{PatternOptions, Validator};
use serde_json::Value;

use crate::rules::mcp202::KnownTools;

pub type Compiled = Result<Validator, String>;

#[derive(Default)]
pub struct Catalog {
    tools: HashMap<String, Tool>,
    known: OnceCell<KnownTools>,
    /// Where the listing's last page was answered, to report a bad schema.
    pub line: usize,
    pub span: Range<usize>,
}

pub struct Tool {
    pub input_schema: Option<Value>,
    pub output_schema: Option<Value>,
    input: OnceCell<Compiled>,
    output: OnceCell<Compiled>,
}

impl Catalog {
    /// Adds the tools of one `tools/list` page.
    pub fn add_page(&mut self, result: &Value) {
        let tools = result
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let schema = |key: &str| tool.get(key).filter(|v| !v.is_null()).cloned();
            self.tools.insert(
                name.to_string(),
                Tool {
                    input_schema: schema("inputSchema"),
                    output_schema: schema("outputSchema"),
                    input: OnceCell::new(),
                    output: OnceCell::new(),
                },
            );
        }
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
        compiled(&self.input, self.input_schema.as_ref()?)
    }

    pub fn output(&self) -> Option<(&Compiled, bool)> {
        compiled(&self.output, self.output_schema.as_ref()?)
    }
}

fn compiled<'c>(cell: &'c OnceCell<Compiled>, schema: &Value) -> Option<(&'c Compiled, bool)> {
    let fresh = cell.get().is_none();
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

/// The first way `instance` fails `validator`: `at /path: message (schema /path)`.
pub fn first_error(validator: &Validator, instance: &Value) -> Option<String> {
    if validator.is_valid(instance) {
        return None; // the common case, without building an error iterator
    }
    validator.iter_errors(instance).next().map(|e| {
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
}
