// A kodegen tool server: kodegen_server_http hands every tools/call to the rmcp `ToolRouter`
// the crate builds and registers its tools on, unchecked, so a name no tool has gets rmcp's
// -32602 "tool not found". Reported where each router is built, the `use`s in the function too.
use kodegen_server_http::{Managers, ServerBuilder, register_tool};
use rmcp::handler::server::router::{prompt::PromptRouter, tool::ToolRouter};

pub async fn serve() -> anyhow::Result<()> {
    ServerBuilder::new()
        .register_tools(|| async {
            let tool_router = ToolRouter::new(); //~ MCP108@31
            let (tool_router, prompt_router) =
                register_tool(tool_router, PromptRouter::new(), ListTool::new());
            Ok((tool_router, prompt_router, Managers::new()))
        })
        .serve()
        .await
}

pub async fn start_with_listener(listener: tokio::net::TcpListener) -> anyhow::Result<()> {
    use kodegen_server_http::ServerBuilder;
    use rmcp::handler::server::router::tool::ToolRouter;

    ServerBuilder::new()
        .register_tools(|| async {
            let tool_router = ToolRouter::new(); //~ MCP108@31
            Ok((tool_router, PromptRouter::new(), Managers::new()))
        })
        .listen(listener)
        .await
}
