// With rmcp 0.5 (see ../Cargo.lock), `Parameters<T>` and `Json<T>` tools rely on defaults
// that answer with -32602; `Parameters<JsonObject>` cannot fail to deserialize.
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::JsonObject;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Point {
    pub latitude: f64,
    pub longitude: f64,
}

pub struct Weather;

#[tool_router]
impl Weather {
    #[tool(description = "Forecast")]
    async fn forecast(&self, Parameters(point): Parameters<Point>) -> String { //~ MCP108@49
        format!("{},{}", point.latitude, point.longitude)
    }

    #[tool(description = "Where am I")]
    async fn locate(&self) -> Json<Point> { //~ MCP108@28
        Json(Point { latitude: 0.0, longitude: 0.0 })
    }

    #[tool(description = "Raw")]
    async fn raw(&self, Parameters(args): Parameters<JsonObject>) -> String {
        format!("{args:?}")
    }
}
