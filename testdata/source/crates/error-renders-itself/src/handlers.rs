use serde_json::{Value, json};

use crate::error::Error;

pub struct Handlers {
    pub dir: std::path::PathBuf,
}

impl Handlers {
    pub async fn handle_tool_call(&self, name: &str, params: Value) -> Result<Value, Error> {
        match name {
            "read_note" => self.read_note(params).await,
            "list_notes" => self.list_notes().await,
            _ => Err(Error::MethodNotFound(format!("Unknown tool: {name}"))), //~ MCP101@22
        }
    }

    async fn read_note(&self, params: Value) -> Result<Value, Error> {
        let title = params["title"]
            .as_str()
            .ok_or_else(|| Error::InvalidParams("Missing title parameter".to_string()))?; //~ MCP103@28
        if title.len() > 200 {
            return Err(Error::InvalidParams(format!("title of {} bytes is too long", title.len()))); //~ MCP103@24
        }
        let text = std::fs::read_to_string(self.dir.join(title))?; //~ MCP104@20
        Ok(json!({"content": [{"type": "text", "text": text}]}))
    }

    async fn list_notes(&self) -> Result<Value, Error> {
        let names: Vec<String> = std::fs::read_dir(&self.dir)? //~ MCP104@34
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        Ok(json!({"content": [{"type": "text", "text": names.join("\n")}]}))
    }
}
