// pmcp answers every `Err` of a `ToolHandler` with a JSON-RPC error (-32603), whatever the
// `pmcp::Error` holds; only `Error::tool_rejected` becomes an `isError` result. Its server
// builder answers an unknown tool with -32603 too (MCP108).
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{Value, json};

pub fn server() -> pmcp::Result<pmcp::Server> {
    pmcp::Server::builder() //~ MCP108@5
        .name("weather")
        .tool("forecast", Forecast)
        .build()
}

fn upstream(e: impl std::fmt::Display) -> Error {
    Error::Internal(e.to_string())
}

pub struct Forecast;

#[async_trait]
impl ToolHandler for Forecast {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let city = args["city"]
            .as_str()
            .ok_or_else(|| Error::validation("city is required"))?; //~ MCP103@28
        if city.len() > 100 {
            return Err(Error::tool_rejected("city names are shorter", None));
        }
        let body = reqwest::get(format!("https://wttr.in/{city}"))
            .await
            .map_err(upstream)?; //~ MCP104@22
        let text = body.text().await.map_err(upstream)?; //~ MCP104@46
        Ok(json!({ "forecast": text }))
    }
}
