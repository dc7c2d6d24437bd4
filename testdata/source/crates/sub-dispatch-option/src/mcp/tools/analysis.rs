use serde_json::{Value, json};

use super::{McpError, make_error};

const TOOLS: &[&str] = &["get_block", "get_symbols"];

/// `None` when `name` is not one of this module's tools.
pub fn try_call(name: &str, args: &Value) -> Option<Result<Value, McpError>> {
    // `?` on an `Option` here is `None`: not this module's tool, not a failure.
    let name = TOOLS.iter().find(|tool| **tool == name)?;
    match *name {
        "get_block" => {
            let address = match args.get("address").and_then(Value::as_u64) {
                Some(address) => address,
                None => return Some(Err(make_error(-32602, "missing address"))), //~ MCP103@41
            };
            if address < 0x100 {
                return Some(Err(make_error(-32602, "zero page has no blocks"))); //~ MCP103@33
            }
            Some(Ok(json!({ "address": address })))
        }
        "get_symbols" => Some(get_symbols(args).map(|symbols| json!({ "symbols": symbols }))),
        _ => None,
    }
}

fn get_symbols(args: &Value) -> Result<Vec<String>, McpError> {
    let Some(filter) = args.get("filter").and_then(Value::as_str) else {
        return Err(make_error(-32602, "missing filter")); //~ MCP103@20
    };
    Ok(vec![filter.to_string()])
}
