//! Plugins run the tools; their errors are plain strings.
use rmcp::model::JsonObject;

pub fn call_plugin(name: &str, args: &JsonObject) -> Result<String, String> {
    if !name.starts_with("plugin_") {
        return Err(format!("Unknown tool: {name}. Re-run tools/list and retry."));
    }
    Ok(format!("{name}({args:?})"))
}
