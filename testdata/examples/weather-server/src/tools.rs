//! The tools. `forecast` gets it wrong three ways; `alerts` and `stations` get it right.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{ErrorData as McpError, tool, tool_router};
use serde::Deserialize;

#[derive(Deserialize, schemars::JsonSchema)]
pub struct ForecastArgs {
    /// Latitude in degrees.
    pub latitude: f64,
    /// Longitude in degrees.
    pub longitude: f64,
}

pub struct Weather {
    http: reqwest::Client,
}

#[tool_router(vis = "pub")]
impl Weather {
    pub fn new() -> Self {
        Weather { http: reqwest::Client::new() }
    }

    #[tool(description = "Forecast for a point")]
    async fn forecast(&self, Parameters(args): Parameters<ForecastArgs>) -> Result<CallToolResult, McpError> {
        if !(-90.0..=90.0).contains(&args.latitude) {
            return Err(McpError::invalid_params("latitude must be within [-90, 90]", None)); //~ MCP103@24
        }
        let url = format!("https://api.weather.gov/points/{},{}", args.latitude, args.longitude);
        let response = self
            .http
            .get(&url)
            .send()
            .await
            .map_err(|e| McpError::internal_error(format!("weather.gov: {e}"), None))?; //~ MCP104@26
        let text = response.text().await.map_err(|e| McpError::internal_error(e.to_string(), None))?; //~ MCP104@54
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    }

    #[tool(description = "Active alerts for a US state")]
    async fn alerts(&self, Parameters(state): Parameters<String>) -> Result<CallToolResult, McpError> {
        if state.len() != 2 {
            return Ok(CallToolResult::error(vec![ContentBlock::text(
                "Invalid input: alerts. `state` is a two-letter code such as CA.",
            )]));
        }
        match self.http.get(format!("https://api.weather.gov/alerts/active/area/{state}")).send().await {
            Ok(response) => Ok(CallToolResult::success(vec![ContentBlock::text(response.status().to_string())])),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!("Alerts unavailable: {e}. Retry later."))])),
        }
    }

    #[tool(description = "Observation stations near a point")]
    async fn stations(&self, Parameters(args): Parameters<ForecastArgs>) -> Result<String, String> {
        let url = format!("https://api.weather.gov/points/{},{}/stations", args.latitude, args.longitude);
        let response = self.http.get(&url).send().await.map_err(|e| format!("Station lookup failed: {e}"))?;
        response.text().await.map_err(|e| e.to_string())
    }
}
