// A hand-rolled server whose error constructor writes a code of its own (-32001, in the range
// JSON-RPC leaves to servers) through a generic one (`Self::error(id, -32001, ..)`): a
// tools/call arm answering `Err(e) => RpcResponse::storage_error(id, e)` is a conversion with that
// code, and each failure of the tool is reported where it starts.
use serde_json::{Value, json};

pub struct RpcResponse {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<Value>,
}

impl RpcResponse {
    pub fn success(id: Value, result: Value) -> Self {
        RpcResponse { id, result: Some(result), error: None }
    }

    pub fn error(id: Value, code: i64, message: impl Into<String>, data: Option<Value>) -> Self {
        let message = message.into();
        RpcResponse { id, result: None, error: Some(json!({"code": code, "message": message, "data": data})) }
    }

    pub fn storage_error(id: Value, message: impl Into<String>) -> Self {
        Self::error(id, -32001, message, None)
    }
}

pub struct Server;

impl Server {
    pub fn dispatch(&self, method: &str, id: Value, params: Value) -> RpcResponse {
        match method {
            "tools/call" => self.handle_tools_call(id, params),
            _ => RpcResponse::error(id, -32601, "Method not found", None),
        }
    }

    fn handle_tools_call(&self, id: Value, params: Value) -> RpcResponse {
        let name = params["name"].as_str().unwrap_or_default();
        match self.execute(name, &params["arguments"]) {
            Ok(text) => RpcResponse::success(id, json!({"content": [{"type": "text", "text": text}]})),
            Err(e) => RpcResponse::storage_error(id, e), //~ MCP101@23 MCP104@23
        }
    }

    fn execute(&self, name: &str, args: &Value) -> Result<String, String> {
        match name {
            "read" => {
                let path = args["path"].as_str().unwrap_or_default();
                std::fs::read_to_string(path).map_err(|e| format!("read failed: {e}")) //~ MCP104@59
            }
            other => Err(format!("Unknown tool: {other}")), //~ MCP101@26
        }
    }
}
