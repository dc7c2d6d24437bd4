// A tool whose work runs on the blocking pool: `match spawn_blocking(move || work(..)).await {
// Ok(result) => result, Err(join) => .. }` answers with the task's own result, so the task's
// conversion of the crate's errors (`Err(e) => Err(to_rmcp(e))`) is a protocol error for each
// case that reaches it, as is the join error. The task hands the tool's arguments whole to
// `reveal_key`, the tool's implementation: its failures are reported where they start too.
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ErrorData as RmcpError, tool, tool_router};
use serde_json::{Map, Value};

pub enum Kind {
    InvalidParams,
    Internal,
}

pub struct Failure {
    pub kind: Kind,
    pub message: String,
}

pub struct Server;

#[tool_router]
impl Server {
    #[tool(name = "reveal")]
    async fn reveal(&self, Parameters(args): Parameters<Map<String, Value>>) -> Result<Json<Value>, RmcpError> {
        self.dispatch(args).await
    }

    async fn dispatch(&self, args: Map<String, Value>) -> Result<Json<Value>, RmcpError> {
        match tokio::task::spawn_blocking(move || run_blocking(args)).await {
            Ok(result) => result,
            Err(join) => Err(RmcpError::internal_error(format!("worker failed: {join}"), None)), //~ MCP104@30
        }
    }
}

fn run_blocking(args: Map<String, Value>) -> Result<Json<Value>, RmcpError> {
    match reveal_key(&args) {
        Ok(value) => Ok(Json(value)),
        Err(e) => Err(to_rmcp(e)), //~ MCP103@23 MCP104@23
    }
}

fn to_rmcp(e: Failure) -> RmcpError {
    match e.kind {
        Kind::InvalidParams => RmcpError::invalid_params(e.message, None),
        Kind::Internal => RmcpError::internal_error(e.message, None),
    }
}

fn reveal_key(args: &Map<String, Value>) -> Result<Value, Failure> {
    let key = args.get("key").and_then(Value::as_str).ok_or_else(|| Failure { //~ MCP103@69
        kind: Kind::InvalidParams,
        message: "key is required".into(),
    })?;
    let text = std::fs::read_to_string(key).map_err(|e| Failure { kind: Kind::Internal, message: e.to_string() })?; //~ MCP104@57
    Ok(Value::String(text))
}
