use crate::protocol::Response;
use serde_json::{Value, json};

pub struct ToolError(String);

pub fn definitions() -> Value {
    json!({ "tools": [{ "name": "lesson_get" }] })
}

pub fn call(params: &Value, id: Value) -> Response {
    let Some(name) = params["name"].as_str() else {
        return Response::error(id, -32602, "missing tool name");
    };
    let result = dispatch_tool(name, &params["arguments"]);
    match result {
        Ok(content) => Response::success(id, json!({ "content": [{ "type": "text", "text": content }] })),
        Err(e) => Response::error(id, -32000, &e.0), //~ MCP101@19 MCP103@19
    }
}

fn dispatch_tool(name: &str, args: &Value) -> Result<String, ToolError> {
    match name {
        "lesson_get" => lesson_get(args),
        "lesson_page" => lesson_page(args),
        _ => Err(ToolError(format!("Unknown tool: {name}"))), //~ MCP101@18
    }
}

fn lesson_get(args: &Value) -> Result<String, ToolError> {
    let id = args.get("id").and_then(Value::as_u64);
    let id = id.ok_or_else(|| ToolError("missing id".into()))?; //~ MCP103@31
    Ok(format!("lesson {id}"))
}

fn lesson_page(args: &Value) -> Result<String, ToolError> {
    let page = args["page"].as_u64().ok_or_else(|| ToolError("page must be a number".into()))?; //~ MCP103@52
    Ok(format!("page {page}"))
}
