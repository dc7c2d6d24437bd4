use serde_json::{Value, json};

use crate::error::{McpError, McpResult};

pub struct Registry;

impl Registry {
    pub async fn call(name: &str, arguments: Option<Value>) -> McpResult<Value> {
        let args = arguments.unwrap_or(json!({}));
        match name {
            "record_get" => Self::record_get(args).await,
            _ => Err(McpError::ToolNotFound(name.to_string())),
        }
    }

    async fn record_get(args: Value) -> McpResult<Value> {
        let id = args
            .get("id")
            .and_then(|v| v.as_str())
            .ok_or_else(|| McpError::InvalidParams("id is required".into()))?; //~ MCP103@28
        if id.len() != 8 {
            return Err(McpError::InvalidParams(format!("Malformed id: {id}"))); //~ MCP103@24
        }
        match std::fs::read_to_string(id) {
            Ok(text) => Ok(json!({ "text": text })),
            Err(_) => Err(McpError::RecordNotFound(id.to_string())),
        }
    }
}
