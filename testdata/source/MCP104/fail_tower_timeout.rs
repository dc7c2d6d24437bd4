// tower-mcp answers a request whose tower layers fail with a JSON-RPC error: its transports
// and `CatchError` turn the layer's error into -32603. A tools/call that runs past a
// `TimeoutLayer` gets a protocol error, where the SEP wants a tool execution error.
use std::time::Duration;

use tower::ServiceBuilder;
use tower::timeout::TimeoutLayer;
use tower_mcp::{McpRouter, StdioTransport};

pub async fn serve(router: McpRouter) -> Result<(), tower_mcp::BoxError> {
    StdioTransport::new(router)
        .layer(ServiceBuilder::new().layer(TimeoutLayer::new(Duration::from_secs(30)))) //~ MCP104@44
        .run()
        .await
}
