//! A handler that mentions nothing of the protocol, with a method named as the store's.
use serde_json::{Value, json};

use super::validation::required;
use crate::error::Result;
use crate::store::Store;

pub struct CreateNote<'a> {
    pub store: &'a Store,
}

impl CreateNote<'_> {
    pub fn create_note(&self, args: Value) -> Result<Value> {
        let title = required(&args, "title")?;
        if title.len() > 100 {
            return Err(anyhow::anyhow!("title is over 100 characters").into()); //~ MCP103@24
        }
        let id = self.store.create_note(&title)?; //~ MCP104@18
        Ok(json!({"content": [{"type": "text", "text": format!("note {id}")}]}))
    }
}
