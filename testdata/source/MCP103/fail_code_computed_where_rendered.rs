// A hand-rolled dispatcher whose conversion computes the code from the error where it renders
// it (`let code = match .. { .. }`), and answers only requests that have an id: each failure
// of the tools/call handler is a protocol error where it starts.
use serde_json::{Value, json};

pub enum ToolError {
    Unknown(String),
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ToolError::Unknown(message) = self;
        f.write_str(message)
    }
}

fn error_response(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub struct Server;

impl Server {
    pub fn handle(&self, request: &Value) -> Value {
        let id = request.get("id").cloned();
        let result = match request["method"].as_str().unwrap_or_default() {
            "tools/list" => Ok(json!({"tools": []})),
            "tools/call" => self.call_tool(&request["params"]),
            method => Err(anyhow::anyhow!("unknown method {method}")),
        };
        match result {
            Ok(value) => json!({"jsonrpc": "2.0", "id": id, "result": value}),
            Err(e) => {
                let code = match e.downcast_ref::<ToolError>() {
                    Some(ToolError::Unknown(_)) => -32601,
                    None => -32603,
                };
                if let Some(id) = id {
                    error_response(id, code, e.to_string())
                } else {
                    Value::Null
                }
            }
        }
    }

    fn call_tool(&self, params: &Value) -> anyhow::Result<Value> {
        let name = params["name"].as_str().unwrap_or_default();
        match name {
            "shout" => {
                let text = params["arguments"]["text"]
                    .as_str()
                    .ok_or_else(|| anyhow::anyhow!("Missing required parameter 'text'"))?; //~ MCP103@36
                Ok(json!({"content": [{"type": "text", "text": text.to_uppercase()}]}))
            }
            other => Err(ToolError::Unknown(format!("Unknown tool: {other}")).into()), //~ MCP101@26
        }
    }
}
