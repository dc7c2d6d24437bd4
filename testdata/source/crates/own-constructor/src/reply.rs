// The crate's reply type, in a file that names nothing MCP: `Reply::failure(id, code, ..)`
// builds the error object from the code it is given, so its callers' codes are protocol errors.
use serde_json::Value;

pub struct Reply {
    pub id: Value,
    pub result: Option<Value>,
    pub error: Option<ReplyError>,
}

pub struct ReplyError {
    pub code: i32,
    pub message: String,
}

impl Reply {
    pub fn success(id: Value, result: Value) -> Reply {
        Reply { id, result: Some(result), error: None }
    }

    pub fn failure(id: Value, code: i32, message: String) -> Reply {
        Reply { id, result: None, error: Some(ReplyError { code, message }) }
    }
}
