// A hand-rolled dispatcher that answers each variant of its tools' error in an arm of its own
// (`Err(ToolError::Invalid(m)) => error(id, INVALID_PARAMS, m)`, `Err(ToolError::Internal(m))
// => error(id, INTERNAL_ERROR, m)`): each error a tool builds is the case of the arm that
// answers its variant, reported where it is built. An element check inside
// `.map(|v| ..).collect::<Result<_, _>>()?` is built in the closure.
use serde_json::{Value, json};

pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;

pub enum ToolError {
    Invalid(String),
    Internal(String),
}

fn error(id: &Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

pub struct Store {
    pub tags: Vec<String>,
}

impl Store {
    pub async fn handle(&mut self, id: &Value, request: &Value) -> Value {
        if request["method"] != "tools/call" {
            return json!({"jsonrpc": "2.0", "id": id, "result": {}});
        }
        let arguments = &request["params"]["arguments"];
        match self.tag(arguments).await {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(ToolError::Invalid(message)) => error(id, INVALID_PARAMS, message), //~ MCP103@49
            Err(ToolError::Internal(message)) => error(id, INTERNAL_ERROR, message), //~ MCP104@50
        }
    }

    async fn tag(&mut self, arguments: &Value) -> Result<Value, ToolError> {
        let tags: Vec<String> = arguments["tags"]
            .as_array()
            .ok_or_else(|| ToolError::Invalid("`tags` must be an array".into()))? //~ MCP103@28
            .iter()
            .map(|t| {
                t.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| ToolError::Invalid("`tags` must be strings".into())) //~ MCP103@36
            })
            .collect::<Result<_, _>>()?;
        save(&tags).map_err(|e| ToolError::Internal(format!("saving the tags: {e}")))?; //~ MCP104@33
        self.tags.extend(tags);
        Ok(json!({"content": [{"type": "text", "text": "tagged"}]}))
    }
}

fn save(tags: &[String]) -> std::io::Result<()> {
    std::fs::write("tags.txt", tags.join("\n"))
}
