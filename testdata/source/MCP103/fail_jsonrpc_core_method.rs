// A server built on jsonrpc-core: the closure registered for "tools/call" and the method it
// passes the call to return jsonrpc-core's `Result`, whose every `Err` the framework sends as a
// JSON-RPC error. A missing argument and an unknown tool are protocol errors where they are
// built; params that are not an object are a malformed request, which may be one.
use jsonrpc_core::{Error as RpcError, IoHandler, Params, Value};
use serde_json::json;
use std::sync::Arc;

pub struct Server;

impl Server {
    fn call_tool(&self, params: Value) -> jsonrpc_core::Result<Value> {
        let tool_name = params.get("name").and_then(|v| v.as_str()).unwrap_or_default();
        let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
        match tool_name {
            "launch" => {
                let path = arguments
                    .get("path")
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| RpcError::invalid_params("Missing path"))?; //~ MCP103@36
                Ok(json!({ "content": [{ "type": "text", "text": path }] }))
            }
            _ => Err(RpcError::method_not_found()), //~ MCP101@22
        }
    }
}

pub fn register(io: &mut IoHandler, server: Arc<Server>) {
    io.add_method("tools/call", move |params: Params| {
        let server = server.clone();
        async move {
            match params {
                Params::Map(map) => server.call_tool(Value::Object(map)),
                _ => Err(RpcError::invalid_params("Expected object parameters")),
            }
        }
    });
}
