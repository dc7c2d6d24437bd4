// A hand-rolled JSON-RPC server (no SDK): the tools/call branch answers unknown tools with
// error objects, through a helper with named codes, a `json!` envelope and a struct literal.
use serde_json::{Value, json};

const METHOD_NOT_FOUND: i32 = -32601;
const INTERNAL_ERROR: i32 = -32603;

pub struct JsonRpcError {
    pub code: i32,
    pub message: String,
    pub data: Option<Value>,
}

pub struct JsonRpcResponse {
    pub jsonrpc: String,
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<JsonRpcError>,
}

pub struct Server;

fn error_response(id: Value, code: i32, message: String) -> JsonRpcResponse {
    JsonRpcResponse { jsonrpc: "2.0".into(), id, result: None, error: Some(JsonRpcError { code, message, data: None }) }
}

impl Server {
    pub fn handle(&self, method: &str, id: Value, params: Value) -> JsonRpcResponse {
        match method {
            "initialize" => self.ok(id, json!({"protocolVersion": "2025-11-25"})),
            "tools/list" => self.ok(id, json!({"tools": [{"name": "add"}]})),
            "tools/call" => self.handle_tools_call(id, params),
            _ => error_response(id, METHOD_NOT_FOUND, format!("Method not found: {method}")),
        }
    }

    fn handle_tools_call(&self, id: Value, params: Value) -> JsonRpcResponse {
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
        match name {
            "add" => self.ok(id, json!({"content": [{"type": "text", "text": "3"}]})),
            "legacy_add" => JsonRpcResponse {
                jsonrpc: "2.0".into(),
                id,
                result: None,
                error: Some(JsonRpcError { code: -32601, message: format!("Unknown tool: {}", name), data: None }), //~ MCP101@29
            },
            _ => error_response(id, METHOD_NOT_FOUND, format!("Unknown tool: {name}")), //~ MCP101@18
        }
    }

    fn ok(&self, id: Value, result: Value) -> JsonRpcResponse {
        JsonRpcResponse { jsonrpc: "2.0".into(), id, result: Some(result), error: None }
    }
}

pub fn handle_line(request: &Value) -> Value {
    let id = request["id"].clone();
    match request["method"].as_str().unwrap_or_default() {
        "ping" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
        "tools/call" => {
            let name = request["params"]["name"].as_str().unwrap_or_default();
            if name != "add" {
                return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": format!("Tool not found: {}", name)}}); //~ MCP101@24
            }
            json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "3"}]}})
        }
        _ => json!({"jsonrpc": "2.0", "id": id, "error": {"code": INTERNAL_ERROR, "message": "unsupported"}}),
    }
}
