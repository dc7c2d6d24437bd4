// A hand-rolled tools/call that converts the failures of a handler returning an alias of
// `anyhow::Result` (`type VtResult<T> = anyhow::Result<T>;`): each failure is reported where it
// starts, as for `anyhow::Result` written out.
use serde_json::{Value, json};

pub type VtResult<T> = anyhow::Result<T>;

pub struct Server;

pub fn tools_call(server: &Server, id: Value, params: &Value) -> Value {
    let name = params["name"].as_str().unwrap_or_default();
    match server.handle_tool_call(name, &params["arguments"]) {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err(error) => json!({ //~ MCP101@23 MCP104@23
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -1, "message": error.to_string()}
        }),
    }
}

impl Server {
    pub fn handle_tool_call(&self, name: &str, args: &Value) -> VtResult<Value> {
        match name {
            "file_report" => {
                let text = std::fs::read_to_string(args["path"].as_str().unwrap_or_default())?; //~ MCP104@28
                Ok(json!({"content": [{"type": "text", "text": text}]}))
            }
            other => Err(anyhow::anyhow!("Unknown tool: {other}")), //~ MCP101@26
        }
    }
}
