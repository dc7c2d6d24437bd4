// A tower-mcp middleware sees every request before the router. Turning a tools/call away
// with `inner: Err(JsonRpcError::..)` is a protocol error where the SEP wants a tool
// execution error; an error for another request (here resources/read) is not judged.
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tower::Service;
use tower_mcp::router::{RouterRequest, RouterResponse};
use tower_mcp_types::{JsonRpcError, McpRequest};

#[derive(Clone)]
pub struct DenyList<S> {
    inner: S,
    denied: Vec<String>,
}

impl<S> Service<RouterRequest> for DenyList<S>
where
    S: Service<RouterRequest, Response = RouterResponse, Error = std::convert::Infallible>,
    S::Future: Send + 'static,
{
    type Response = RouterResponse;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<RouterResponse, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: RouterRequest) -> Self::Future {
        let id = req.id.clone();
        match &req.inner {
            McpRequest::CallTool(params) if self.denied.contains(&params.name) => {
                let reason = format!("tool {} is denied by policy", params.name);
                return Box::pin(async move {
                    Ok(RouterResponse {
                        id,
                        inner: Err(JsonRpcError::invalid_params(reason)), //~ MCP102@36
                    })
                });
            }
            McpRequest::ReadResource(params) if params.uri.starts_with("secret://") => {
                return Box::pin(async move {
                    Ok(RouterResponse {
                        id,
                        inner: Err(JsonRpcError::invalid_params("resource denied".to_string())),
                    })
                });
            }
            _ => {}
        }
        Box::pin(self.inner.call(req))
    }
}
