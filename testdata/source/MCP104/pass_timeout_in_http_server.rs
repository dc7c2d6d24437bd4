// An rmcp server behind axum: a tools/call that runs past axum's `TimeoutLayer` is answered by
// axum with HTTP 408, before any JSON-RPC answer exists. Only tower-mcp turns a layer's
// timeout into a JSON-RPC error.
use std::time::Duration;

use axum::Router;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use tower_http::timeout::TimeoutLayer;

pub fn app(service: StreamableHttpService<crate::Server>) -> Router {
    Router::new()
        .nest_service("/mcp", service)
        .layer(TimeoutLayer::new(Duration::from_secs(30)))
}
