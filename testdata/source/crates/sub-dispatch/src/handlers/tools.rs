use serde_json::{Value, json};

use super::notes::Notes;
use crate::error::Result;
use crate::store::Store;

pub fn call(name: &str, args: Value) -> Result<Value> {
    let store = Store { path: "notes".into() };
    match name {
        "create_note" => Notes { store: &store }.handle_note_operation(name, args),
        _ => Ok(json!({"content": [{"type": "text", "text": "unknown tool"}], "isError": true})),
    }
}
