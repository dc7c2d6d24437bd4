// A hand-rolled gateway whose error enum carries its JSON-RPC code (`to_rpc_code`), rendered in
// one place with that code (`build_error_response(id, e.to_rpc_code(), ..)`): each variant
// built on the tools/call path is a protocol error where it is built, with its variant's code.
use serde_json::{Value, json};

pub enum GatewayError {
    Forbidden(String),
    UnknownServer(String),
    Upstream(String),
    NoMethod,
}

impl GatewayError {
    fn to_rpc_code(&self) -> i64 {
        match self {
            GatewayError::Forbidden(_) => -32001,
            GatewayError::UnknownServer(_) => -32602,
            GatewayError::Upstream(_) => -32603,
            Self::NoMethod => -32601,
        }
    }
}

pub struct Gateway {
    pub blocked: Vec<String>,
    pub servers: std::collections::HashMap<String, String>,
}

impl Gateway {
    pub async fn route(&self, id: Value, method: &str, params: Value) -> Value {
        match self.respond(method, params).await {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => build_error_response(id, e.to_rpc_code(), "the gateway refused the call"),
        }
    }

    async fn respond(&self, method: &str, params: Value) -> Result<Value, GatewayError> {
        match method {
            "tools/list" => Ok(json!({"tools": []})),
            "tools/call" => {
                let name = params["name"].as_str().unwrap_or_default();
                self.call_tool(name, &params["arguments"]).await
            }
            _ => Err(GatewayError::NoMethod),
        }
    }

    async fn call_tool(&self, name: &str, arguments: &Value) -> Result<Value, GatewayError> {
        if self.blocked.iter().any(|b| b == name) {
            return Err(GatewayError::Forbidden(format!("{name} is blocked by policy"))); //~ MCP102@24
        }
        let Some(server) = self.servers.get(name) else {
            return Err(GatewayError::UnknownServer(format!("unknown tool {name}: no server serves it"))); //~ MCP101@24
        };
        let answer = forward(server, name, arguments)
            .await
            .map_err(|e| GatewayError::Upstream(e.to_string()))?; //~ MCP104@26
        Ok(answer)
    }
}

async fn forward(_server: &str, _tool: &str, arguments: &Value) -> std::io::Result<Value> {
    Ok(arguments.clone())
}

fn build_error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
