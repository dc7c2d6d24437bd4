// A hand-rolled server whose tools/call binds the tool's outcome first (`let dispatch = match
// name { .. };`), then passes its protocol-error half on with `dispatch?`: each
// `(code, message)` pair a tool builds is a protocol error where it is built; the tool's own
// failures (the inner `Err`) are answered with isError.
use serde_json::{Value, json};

const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;

fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

pub struct Server;

impl Server {
    pub fn handle(&mut self, id: Value, method: &str, params: &Value) -> Value {
        let result = match method {
            "tools/list" => Ok(json!({ "tools": [] })),
            "tools/call" => self.tools_call(params),
            _ => Err((METHOD_NOT_FOUND, "method not found".to_string())),
        };
        match result {
            Ok(value) => json!({ "jsonrpc": "2.0", "id": id, "result": value }),
            Err((code, message)) => error_response(id, code, &message),
        }
    }

    fn tools_call(&mut self, params: &Value) -> Result<Value, (i64, String)> {
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
        let args = params.get("arguments").cloned().unwrap_or(json!({}));
        let dispatch = match name {
            "remember" => self.remember(&args),
            _ => Err((INVALID_PARAMS, format!("unknown tool: {name}"))), //~ MCP101@22
        };
        Ok(match dispatch? {
            Ok(structured) => json!({ "content": [], "structuredContent": structured }),
            Err(failure) => json!({ "content": [{ "type": "text", "text": failure }], "isError": true }),
        })
    }

    fn remember(&mut self, args: &Value) -> Result<Result<Value, String>, (i64, String)> {
        let content = args
            .get("content")
            .and_then(Value::as_str)
            .ok_or((INVALID_PARAMS, "remember: 'content' is required".to_string()))?; //~ MCP103@20
        if content.len() > 4096 {
            return Ok(Err("remember: the store is full".to_string()));
        }
        Ok(Ok(json!({ "stored": content })))
    }
}
