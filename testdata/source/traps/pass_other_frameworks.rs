// Another framework's `McpError` is not rmcp's: turbomcp turns a `#[tool]` fn's `Err` into an
// isError result. Matching on the name `McpError` alone would flag this.
use turbomcp::prelude::*;
use turbomcp::{McpError, McpResult};

#[derive(Clone)]
pub struct Calc;

#[server(name = "calc", version = "1.0.0")]
impl Calc {
    #[tool("Divide two numbers")]
    async fn divide(&self, a: f64, b: f64) -> McpResult<f64> {
        if b == 0.0 {
            return Err(McpError::invalid_params("division by zero"));
        }
        Ok(a / b)
    }
}
