// Tools written inside a `macro_rules!` body, one `#[tool]` per invocation entry: the body is
// read as items where it stands (`$name` as a name, the repetition once), so the tool's
// failure and argument check are reported on the lines of the macro.
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, Content, JsonObject};
use rmcp::{ErrorData as McpError, tool, tool_router};

pub struct Browser;

impl Browser {
    fn run(&self, _action: &str, _args: &JsonObject) -> Result<String, String> {
        Ok(String::new())
    }
}

macro_rules! browser_tools {
    ($($name:ident => $action:literal),* $(,)?) => {
        #[tool_router]
        impl Browser {
            $(
                #[tool(description = $action)]
                async fn $name(&self, Parameters(args): Parameters<JsonObject>) -> Result<CallToolResult, McpError> {
                    if args.is_empty() {
                        return Err(McpError::invalid_params("arguments are required", None)); //~ MCP103@36
                    }
                    let text = self
                        .run($action, &args)
                        .map_err(|e| McpError::internal_error(e, None))?; //~ MCP104@38
                    Ok(CallToolResult::success(vec![Content::text(text)]))
                }
            )*
        }
    };
}

browser_tools! {
    navigate => "navigate",
    click => "click",
}
