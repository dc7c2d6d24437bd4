// rmcp's toolbox: a tool is a type with `ToolBase` and `AsyncTool` (or `SyncTool`). Its `Error`
// must be `Into<ErrorData>`, so every `Err` that `invoke` returns reaches the client as a
// JSON-RPC error, whatever the error type.
use std::borrow::Cow;

use rmcp::handler::server::router::tool::{AsyncTool, SyncTool, ToolBase};
use rmcp::model::ErrorData;

pub struct Handler {
    db: storage::Pool,
}

pub struct CountRows;

impl ToolBase for CountRows {
    type Parameter = CountRequest;
    type Output = CountResponse;
    type Error = ErrorData;

    fn name() -> Cow<'static, str> {
        "countRows".into()
    }
}

impl AsyncTool<Handler> for CountRows {
    async fn invoke(handler: &Handler, params: Self::Parameter) -> Result<Self::Output, Self::Error> {
        if params.table.is_empty() {
            return Err(ErrorData::invalid_params("table is required", None)); //~ MCP103@24
        }
        let rows = handler.db.count(&params.table).await?; //~ MCP104@20
        Ok(CountResponse { rows })
    }
}

pub struct Version;

impl SyncTool<Handler> for Version {
    fn invoke(handler: &Handler, _: Self::Parameter) -> Result<Self::Output, Self::Error> {
        Ok(handler.db.version()?) //~ MCP104@12
    }
}
