// A hand-rolled server that registers a handler type per method (`"tools/call"` ->
// `ToolsCallHandler`): its `handle` is the tools/call handler. An unknown tool answered with
// -32601 is a protocol error; a call without `name` is a malformed request, for which one is
// right.
use std::collections::HashMap;

use serde_json::{Value, json};

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
}

pub trait CommandHandler {
    fn handle(&self, params: Option<&Value>) -> Result<Value, JsonRpcError>;
}

pub type Tool = fn(&Value) -> Value;

pub struct ToolsCallHandler {
    pub registry: HashMap<String, Tool>,
}

impl CommandHandler for ToolsCallHandler {
    fn handle(&self, params: Option<&Value>) -> Result<Value, JsonRpcError> {
        let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str) else {
            return Err(JsonRpcError {
                code: -32602,
                message: "Invalid params for tools/call: expected 'name'".to_string(),
            });
        };
        let arguments = params.and_then(|p| p.get("arguments")).cloned().unwrap_or(json!({}));
        match self.registry.get(name) {
            Some(tool) => Ok(json!({"content": [{"type": "text", "text": tool(&arguments)}]})),
            None => Err(JsonRpcError { //~ MCP101@25
                code: -32601,
                message: format!("Tool not found: {name}"),
            }),
        }
    }
}
