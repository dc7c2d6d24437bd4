// The router of the tools in pass_new_rmcp.rs. With rmcp 3.11 (see ../Cargo.lock) their typed
// arguments are answered with isError results, wherever the tools live; an unknown tool still
// gets -32602 from the router.
use rmcp::{ServerHandler, tool_handler};

use crate::pass_new_rmcp::Weather;

#[tool_handler] //~ MCP108@1
impl ServerHandler for Weather {}
