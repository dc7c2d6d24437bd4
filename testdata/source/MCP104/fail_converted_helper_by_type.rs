// Two pmcp tools call one helper of another error type: one converts its failure itself
// (`map_err`, reported there once per case), the other passes it on with `?`, which makes it
// a JSON-RPC error by type: both are reported.
use async_trait::async_trait;
use pmcp::{Error, RequestHandlerExtra, ToolHandler};
use serde_json::{Value, json};

async fn fetch(city: &str) -> anyhow::Result<String> {
    Ok(reqwest::get(format!("https://wttr.in/{city}")).await?.text().await?)
}

pub struct Forecast;

#[async_trait]
impl ToolHandler for Forecast {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let city = args["city"].as_str().unwrap_or("Paris");
        let text = fetch(city)
            .await
            .map_err(|e| Error::Internal(e.to_string()))?; //~ MCP104@26
        Ok(json!({ "forecast": text }))
    }
}

pub struct Raw;

#[async_trait]
impl ToolHandler for Raw {
    async fn handle(&self, args: Value, _extra: RequestHandlerExtra) -> pmcp::Result<Value> {
        let city = args["city"].as_str().unwrap_or("Paris");
        let text = fetch(city).await?; //~ MCP104@20
        Ok(json!({ "raw": text }))
    }
}
