//! The arguments `--explore` calls a tool with: its required properties filled as
//! [`cases::sample`] fills them (optional ones left out), then every property filled, then
//! each property in turn set to one of its boundary values (empty and very long strings, zero,
//! negative and huge numbers, each enum value, a path and a URL that name nothing). Some break
//! a bound the schema sets (`minLength`, `minimum`, a `pattern`): the caller's validator
//! sets those aside.

use serde_json::{Value, json};

use super::cases::{self, MAX_DEPTH, declared_type, required_object, resolve, sample};

/// A very long string, and the longest any boundary string is.
const LONG: usize = 10_000;
/// The values taken from one `enum`.
const MAX_CHOICES: usize = 32;
/// The options taken from one `anyOf`/`oneOf`, and how deep such choices nest: a hostile
/// schema multiplies them.
const MAX_OPTIONS: usize = 8;
const MAX_OPTION_DEPTH: usize = 3;
/// The properties a schema may require, and those whose edges are tried: a tool of more is a
/// hostile or a generated one, and every argument object holds the required ones.
const MAX_PROPERTIES: usize = 256;
/// The argument objects generated for one tool, more than `--max-calls` would send.
const MAX_ARGUMENTS: usize = 1024;
/// A path and a URL that name nothing: `.invalid` is reserved never to resolve (RFC 2606).
const NO_PATH: &str = "/nonexistent/mcp-lint-probe";
const NO_URL: &str = "https://nothing.invalid/mcp-lint-probe";
const NO_HOST: &str = "nothing.invalid";
const NO_EMAIL: &str = "nobody@nothing.invalid";
/// Words in a property's name that make a string without a `format` a path, or a URL.
const PATH_WORDS: [&str; 4] = ["path", "file", "dir", "folder"];
const URL_WORDS: [&str; 2] = ["url", "uri"];

/// Argument objects for `root` (an inputSchema), in the order they are to be sent, each once
/// and at most [`MAX_ARGUMENTS`] of them; an error says why there are none.
pub fn arguments(root: &Value) -> Result<Vec<Value>, String> {
    let schema = resolve(root, root);
    let required = schema.get("required").and_then(Value::as_array);
    if required.is_some_and(|r| r.len() > MAX_PROPERTIES) {
        return Err(format!(
            "its inputSchema requires over {MAX_PROPERTIES} properties"
        ));
    }
    let base = required_object(root, schema, 0);
    let mut all = vec![Value::Object(base.clone())];
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        let properties = || properties.iter().take(MAX_PROPERTIES);
        let mut full = base.clone();
        for (name, property) in properties() {
            full.entry(name.as_str())
                .or_insert_with(|| sample(root, property, 0));
        }
        all.push(Value::Object(full));
        for (name, property) in properties() {
            for value in boundary(root, name, property, 0) {
                let mut args = base.clone();
                args.insert(name.clone(), value);
                all.push(Value::Object(args));
            }
        }
    }
    let mut unique: Vec<Value> = Vec::new();
    for args in all {
        if unique.len() == MAX_ARGUMENTS {
            break;
        }
        if !unique.contains(&args) {
            unique.push(args);
        }
    }
    Ok(unique)
}

/// The values at the edges of what `schema` (the property `name`, part of `root`) says.
fn boundary(root: &Value, name: &str, schema: &Value, depth: usize) -> Vec<Value> {
    let schema = resolve(root, schema);
    if let Some(value) = schema.get("const") {
        return vec![value.clone()];
    }
    let choices = |key| schema.get(key).and_then(Value::as_array);
    if let Some(values) = choices("enum") {
        return values.iter().take(MAX_CHOICES).cloned().collect();
    }
    if let Some(options) = choices("anyOf").or_else(|| choices("oneOf"))
        && depth < MAX_OPTION_DEPTH
    {
        let options = options.iter().take(MAX_OPTIONS);
        return options
            .flat_map(|option| boundary(root, name, option, depth + 1))
            .collect();
    }
    let bounds = ["minimum", "maximum"]
        .into_iter()
        .filter_map(|key| schema.get(key).filter(|v| v.is_number()).cloned());
    match declared_type(schema) {
        Some("string") => strings(name, schema),
        Some("integer") => [json!(0), json!(-1), json!(i64::MAX), json!(i64::MIN)]
            .into_iter()
            .chain(bounds)
            .collect(),
        Some("number") => [json!(0.0), json!(-1.5), json!(1e308), json!(-1e308)]
            .into_iter()
            .chain(bounds)
            .collect(),
        Some("boolean") => vec![json!(true), json!(false)],
        Some("array") => {
            let item = match schema.get("items") {
                Some(items) if depth < MAX_DEPTH => sample(root, items, depth + 1),
                _ => json!("mcp-lint"),
            };
            vec![json!([]), json!([item])]
        }
        Some("object") => vec![json!({}), sample(root, schema, depth)],
        _ => vec![sample(root, schema, depth)],
    }
}

/// The shortest and the longest string a string schema allows (up to [`LONG`]), and one
/// that names nothing where the format, or else the property's name, says what it names.
fn strings(name: &str, schema: &Value) -> Vec<Value> {
    let length = |key| {
        let length = schema.get(key).and_then(Value::as_u64)?;
        Some(usize::try_from(length).unwrap_or(LONG).min(LONG))
    };
    let shortest = length("minLength").unwrap_or(0);
    let longest = length("maxLength").unwrap_or(LONG).max(shortest);
    let mut values = vec![json!("x".repeat(shortest)), json!("x".repeat(longest))];
    let name = name.to_ascii_lowercase();
    let names = |words: &[&str]| words.iter().any(|w| name.contains(w));
    let nothing = match schema.get("format").and_then(Value::as_str) {
        Some("uri" | "url" | "uri-reference" | "iri" | "iri-reference") => json!(NO_URL),
        Some("hostname" | "idn-hostname") => json!(NO_HOST),
        Some("email" | "idn-email") => json!(NO_EMAIL),
        // A date, a time, a UUID: the format's own value, since "" and "xxx" are none.
        Some(_) => cases::sample_string(schema),
        None if names(&PATH_WORDS) => json!(NO_PATH),
        None if names(&URL_WORDS) => json!(NO_URL),
        None => return values,
    };
    values.push(nothing);
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_schemas_give_few_arguments_quickly() {
        let names: Vec<String> = (0..300).map(|i| format!("p{i}")).collect();
        let required = json!({"type": "object", "required": names});
        assert_eq!(
            arguments(&required),
            Err("its inputSchema requires over 256 properties".to_string())
        );
        let many: serde_json::Map<String, Value> = names
            .iter()
            .map(|n| (n.clone(), json!({"type": "integer"})))
            .collect();
        let wide = json!({"type": "object", "properties": many});
        assert_eq!(arguments(&wide).map(|a| a.len()), Ok(MAX_ARGUMENTS));
        // Choices within choices, 32 wide and without end, are cut to a few.
        let choices = json!({"$defs": {"x": {"anyOf": vec![json!({"$ref": "#/$defs/x"}); 32]}},
            "$ref": "#/$defs/x"});
        let values = boundary(&choices, "n", &choices, 0);
        assert_eq!(values.len(), MAX_OPTIONS.pow(MAX_OPTION_DEPTH as u32));
    }

    #[test]
    fn required_first_then_everything_then_each_property_at_its_edges() {
        let schema = json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer", "minimum": 1, "maximum": 10},
                "mode": {"enum": ["fast", "slow"]},
                "path": {"type": "string", "maxLength": 3}
            },
            "required": ["mode"]
        });
        let huge = i64::MAX;
        let tiny = i64::MIN;
        assert_eq!(
            arguments(&schema).unwrap(),
            [
                json!({"mode": "fast"}),
                json!({"mode": "fast", "count": 1, "path": "mcp-lint"}),
                json!({"mode": "fast", "count": 0}),
                json!({"mode": "fast", "count": -1}),
                json!({"mode": "fast", "count": huge}),
                json!({"mode": "fast", "count": tiny}),
                json!({"mode": "fast", "count": 1}),
                json!({"mode": "fast", "count": 10}),
                json!({"mode": "slow"}),
                json!({"mode": "fast", "path": ""}),
                json!({"mode": "fast", "path": "xxx"}),
                json!({"mode": "fast", "path": NO_PATH}),
            ]
        );
    }

    #[test]
    fn formats_and_names_say_what_names_nothing() {
        let strings_of = |name: &str, schema: Value| strings(name, &schema);
        assert_eq!(
            strings_of("target", json!({"format": "uri", "minLength": 2}))[..],
            [json!("xx"), json!("x".repeat(LONG)), json!(NO_URL)]
        );
        assert_eq!(
            strings_of("homepage_url", json!({}))[2],
            json!(NO_URL),
            "a URL by its name"
        );
        assert_eq!(
            strings_of("when", json!({"format": "date"}))[2],
            "2026-01-01"
        );
        assert_eq!(strings_of("query", json!({})).len(), 2);
        let unbounded = strings_of("q", json!({"minLength": u64::MAX}));
        assert_eq!(unbounded[0].as_str().map(str::len), Some(LONG));
    }

    #[test]
    fn numbers_arrays_and_choices() {
        let root = json!({});
        let of = |schema: Value| boundary(&root, "n", &schema, 0);
        assert_eq!(
            of(json!({"type": "number"})),
            [json!(0.0), json!(-1.5), json!(1e308), json!(-1e308)]
        );
        assert_eq!(
            of(json!({"type": "array", "items": {"type": "boolean"}})),
            [json!([]), json!([true])]
        );
        assert_eq!(
            of(json!({"anyOf": [{"type": "boolean"}, {"const": 3}]})),
            [json!(true), json!(false), json!(3)]
        );
        assert_eq!(arguments(&json!(true)), Ok(vec![json!({})]));
    }
}
