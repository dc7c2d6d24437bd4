use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP108",
    name: "framework-default-protocol-error",
    level: Level::Error,
    source: true,
    transcript: false,
    summary: "a server that relies on an SDK default known to answer unknown/disabled tools or bad arguments with a protocol error",
    sep: "SEP-2145: servers MUST report tool resolution and input validation failures as Tool Execution Errors, whatever their SDK does by default",
    doc: include_str!("../../rules/MCP108.md"),
};

/// The part of MCP108 about unknown and disabled tools, which the 2025-11-25 spec text allows.
pub const UNKNOWN_TOOL_ASPECT: &str = "unknown-tool";

/// How to answer unknown tools in front of rmcp's router.
pub const ROUTER_FIX: &str = "give this impl its own `call_tool` that first answers `Ok(CallToolResult::error(vec![Content::text(\"Unknown tool: <name>. Re-run tools/list and retry.\")]))` when `!self.tool_router.has_route(&request.name)`, then returns `self.tool_router.call(ToolCallContext::new(self, request, context)).await` (rmcp 1.4+ skips generating call_tool then; `mcp-lint explain MCP108` shows it whole)";
