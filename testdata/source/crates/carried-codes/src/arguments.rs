// Argument helpers shared by the tools: a missing argument is a refusal with its own code.
use serde_json::{Map, Value};

use crate::framing::{INVALID_PARAMS, Refusal};

pub fn string<'a>(arguments: &'a Map<String, Value>, field: &str) -> Result<&'a str, Refusal> {
    arguments.get(field).and_then(Value::as_str).ok_or_else(|| Refusal { //~ MCP103@64
        code: INVALID_PARAMS,
        message: format!("the tool call is missing {field}"),
    })
}
