// A hand-rolled server whose own constructor builds the error object from the code it is
// given (`JsonRpcResponse::err(id, code, ..)` puts `code` in `JsonRpcError { code, .. }`):
// each call with a code in the tools/call handler is a protocol error, and the conversion of
// the tools' `Err(String)` is reported once per case among their failures, which are also
// reported where they start.
use serde_json::{Value, json};

pub struct JsonRpcResponse {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<JsonRpcError>,
}

pub struct JsonRpcError {
    pub code: i64,
    pub message: String,
}

impl JsonRpcResponse {
    pub fn ok(id: Value, result: Value) -> Self {
        Self { id, result: Some(result), error: None }
    }

    pub fn err(id: Value, code: i64, message: impl Into<String>) -> Self {
        Self {
            id,
            result: None,
            error: Some(JsonRpcError { code, message: message.into() }),
        }
    }
}

pub struct Server {
    pub allow_admin_tools: bool,
}

impl Server {
    pub fn handle(&self, method: &str, id: Value, params: Value) -> JsonRpcResponse {
        match method {
            "tools/list" => JsonRpcResponse::ok(id, json!({"tools": []})),
            "tools/call" => self.handle_tools_call(id, params),
            other => JsonRpcResponse::err(id, -32601, format!("method not found: {other}")),
        }
    }

    fn handle_tools_call(&self, id: Value, params: Value) -> JsonRpcResponse {
        let name = match params.get("name").and_then(|v| v.as_str()) {
            Some(n) => n.to_string(),
            None => return JsonRpcResponse::err(id, -32602, "missing tools/call.name"),
        };
        if name == "import" && !self.allow_admin_tools {
            return JsonRpcResponse::err(id, -32601, format!("tool {name} is disabled on this server")); //~ MCP102@20
        }
        let args = params.get("arguments").cloned().unwrap_or(Value::Null);
        let result = match name.as_str() {
            "search" => self.search(args),
            "import" => self.import(args),
            other => return JsonRpcResponse::err(id, -32602, format!("unknown tool: {other}")), //~ MCP101@29
        };
        match result {
            Ok(payload) => JsonRpcResponse::ok(id, json!({"content": [{"type": "text", "text": payload.to_string()}]})),
            Err(msg) => JsonRpcResponse::err(id, -32603, msg), //~ MCP103@25 MCP104@25
        }
    }

    fn search(&self, args: Value) -> Result<Value, String> {
        let query = args
            .get("query")
            .and_then(|v| v.as_str())
            .ok_or_else(|| "search.query is required".to_string())?; //~ MCP103@28
        Ok(json!({"query": query}))
    }

    fn import(&self, args: Value) -> Result<Value, String> {
        let path = args.get("path").and_then(|v| v.as_str()).unwrap_or(".");
        let text = std::fs::read_to_string(path).map_err(|e| format!("read failed: {e}"))?; //~ MCP104@62
        Ok(json!({"bytes": text.len()}))
    }
}
