// A hand-rolled server that names its method strings (`methods::TOOLS_CALL`) and answers with
// the reply and a status tag for its metrics. The tools/call arm is found through the
// constant; the status tag describes the reply and is no second error; the conversion
// `Err(Failure::Protocol(code, message))` writes the code each value carries, so the values
// built as `Failure::Protocol` are reported where they are built, and a `Failure::Tool`
// (answered with an isError result by the other arm) is not.
use serde_json::{Value, json};

pub mod methods {
    pub const INITIALIZE: &str = "initialize";
    pub const TOOLS_LIST: &str = "tools/list";
    pub const TOOLS_CALL: &str = "tools/call";
}

pub struct ErrorObject;

impl ErrorObject {
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;

    pub fn new(code: i64, message: impl Into<String>) -> Self {
        let _ = (code, message.into());
        ErrorObject
    }
}

pub struct Outgoing;

impl Outgoing {
    pub fn failure(id: Value, error: ErrorObject) -> Self {
        let _ = (id, error);
        Outgoing
    }

    pub fn success(id: Value, result: Value) -> Self {
        let _ = (id, result);
        Outgoing
    }

    pub fn to_vec(&self) -> Vec<u8> {
        Vec::new()
    }
}

pub enum CallStatus {
    Success,
    ToolFailure,
    ProtocolError(i64),
}

pub enum Failure {
    Protocol(i64, String),
    Tool(String),
}

pub struct Server;

impl Server {
    pub fn dispatch(&self, id: &Value, method: &str, params: &Value) -> (Vec<u8>, CallStatus) {
        match method {
            methods::INITIALIZE => (Outgoing::success(id.clone(), json!({})).to_vec(), CallStatus::Success),
            methods::TOOLS_LIST => (Outgoing::success(id.clone(), json!({"tools": []})).to_vec(), CallStatus::Success),
            methods::TOOLS_CALL => self.call_tool(id, params),
            _ => (Outgoing::success(id.clone(), json!({})).to_vec(), CallStatus::Success),
        }
    }

    fn call_tool(&self, id: &Value, params: &Value) -> (Vec<u8>, CallStatus) {
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
        if name != "run" {
            return (
                Outgoing::failure(
                    id.clone(),
                    ErrorObject::new(ErrorObject::INVALID_PARAMS, format!("Unknown tool: {name}")), //~ MCP101@21
                )
                .to_vec(),
                CallStatus::ProtocolError(ErrorObject::INVALID_PARAMS),
            );
        }
        let execution = match params.pointer("/arguments/command").and_then(Value::as_str) {
            Some(command) if command.is_empty() => Err(Failure::Tool("the command is empty".to_string())),
            Some(command) => std::process::Command::new(command)
                .output()
                .map_err(|e| Failure::Tool(e.to_string())),
            None => Err(Failure::Protocol(ErrorObject::INTERNAL_ERROR, "handler panicked".to_string())), //~ MCP104@25
        };
        match execution {
            Ok(output) => (
                Outgoing::success(id.clone(), json!({"content": [{"type": "text", "text": output.status.to_string()}]})).to_vec(),
                CallStatus::Success,
            ),
            Err(Failure::Tool(message)) => (
                Outgoing::success(id.clone(), json!({"content": [{"type": "text", "text": message}], "isError": true})).to_vec(),
                CallStatus::ToolFailure,
            ),
            Err(Failure::Protocol(code, message)) => (
                Outgoing::failure(id.clone(), ErrorObject::new(code, message)).to_vec(), //~ MCP104@47
                CallStatus::ProtocolError(code),
            ),
        }
    }
}
