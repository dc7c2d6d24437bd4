use serde_json::Value;

use super::create::CreateNote;
use crate::error::Result;
use crate::store::Store;

pub struct Notes<'a> {
    pub store: &'a Store,
}

impl Notes<'_> {
    pub fn handle_note_operation(&self, name: &str, args: Value) -> Result<Value> {
        let result = match name {
            "create_note" => CreateNote { store: self.store }.create_note(args),
            _ => CreateNote { store: self.store }.create_note(Value::Null),
        };
        match result {
            Ok(value) => Ok(value),
            Err(e) => Err(e),
        }
    }
}
