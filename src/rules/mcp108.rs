use std::fmt::Display;

use super::{Applicability, Fixable, Level, RuleMeta};
use crate::finding::Violation;

pub static META: RuleMeta = RuleMeta {
    code: "MCP108",
    name: "framework-default-protocol-error",
    level: Level::Error,
    source: true,
    transcript: false,
    summary: "a server that relies on an SDK default known to answer unknown/disabled tools or bad arguments with a protocol error",
    sep: "SEP-2145: servers MUST report tool resolution and input validation failures as Tool Execution Errors, whatever their SDK does by default",
    fix: Fixable::Sometimes(Applicability::Unsafe),
    doc: include_str!("../../rules/MCP108.md"),
};

/// The part of MCP108 about unknown and disabled tools, which the 2025-11-25 spec text allows.
pub const UNKNOWN_TOOL_ASPECT: &str = "unknown-tool";

/// How to answer unknown tools in front of rmcp's router.
const ROUTER_FIX: &str = "give this impl its own `call_tool` that first answers `Ok(CallToolResult::error(vec![Content::text(\"Unknown tool: <name>. Re-run tools/list and retry.\")]))` when `!self.tool_router.has_route(&request.name)`, then returns `self.tool_router.call(ToolCallContext::new(self, request, context)).await` (rmcp 1.4+ skips generating call_tool then; `mcp-lint explain MCP108` shows it whole)";

/// The unknown-tool part of the rule: an SDK default that answers a name no tool has with a
/// protocol error.
fn unknown_tool(message: String, label: &str, help: &str) -> Default {
    (violation(message, label, help), Some(UNKNOWN_TOOL_ASPECT))
}

/// A violation of MCP108, with the part of the rule it is (see [`UNKNOWN_TOOL_ASPECT`]).
pub type Default = (Violation, Option<&'static str>);

fn violation(message: String, label: &str, help: &str) -> Violation {
    let help = format!("{help}\n{}", META.sep);
    Violation::new(&META, message, label, Some(help.into()))
}

/// Why a default that only a newer rmcp changes has no fix: `--fix`, like ruff's and clippy's,
/// edits sources and leaves the manifest and lock file, whose changes need a human's review.
const UPGRADE_ONLY: &str = "no automatic fix: upgrading rmcp is the fix, and `--fix` edits Rust sources, never Cargo.toml or Cargo.lock";

/// A violation of a default that only upgrading rmcp changes.
fn upgrade_only(message: String, label: &str, help: &str) -> Violation {
    let help = format!("{help}\n{}\n{UPGRADE_ONLY}", META.sep);
    Violation::new(&META, message, label, Some(help.into()))
}

/// `#[tool_handler]` generates a `call_tool` that hands every call to rmcp's router.
pub fn router_generated() -> Default {
    let message = "unknown and disabled tools are answered by rmcp's tool router with a JSON-RPC error (-32602 \"tool not found\")";
    let label = "this generates a call_tool that hands every call to the router";
    unknown_tool(message.to_string(), label, ROUTER_FIX)
}

/// A hand-written `call_tool`, or a helper of it, that hands every call to rmcp's router
/// unchecked; `by` names that function.
pub fn router_delegated(by: &str) -> Default {
    let message = format!(
        "{by} hands every call to rmcp's tool router, which answers unknown and disabled tools with a JSON-RPC error (-32602 \"tool not found\")"
    );
    let help = ROUTER_FIX.replace(
        "give this impl its own `call_tool` that first answers",
        "first answer",
    );
    unknown_tool(message, "no name is checked before this", &help)
}

/// A server of another SDK (`router`: "tower-mcp's McpRouter") that answers unknown tools
/// with a protocol error.
pub fn sdk_router(router: &str) -> Default {
    let message = format!(
        "unknown tools are answered by {router} with a JSON-RPC error, not a tool execution error"
    );
    let label = "this server answers a tool name it does not know with a JSON-RPC error";
    let help = "answer a name no tool has yourself, before the router (a catch-all tool or a tools/call layer), with a result whose `isError` is true and whose text says `Unknown tool: <name>. Re-run tools/list and retry.`";
    unknown_tool(message, label, help)
}

/// pulseengine-mcp's `#[mcp_tools]`, whose generated `call_tool_impl` answers an unknown name
/// and arguments that do not deserialize with `invalid_params` (0.13).
pub fn pulseengine_generated() -> Default {
    let message = "unknown tools and arguments that do not deserialize are answered by pulseengine-mcp's generated call_tool_impl with a JSON-RPC error (-32602)";
    let label = "this generates a call_tool_impl that answers an unknown name or bad arguments with an error";
    let help = "answer tools/call yourself (the server's `call_tool`) instead of through `#[mcp_tools]`: a name no tool has with a `CallToolResult` whose `is_error` is `Some(true)` and whose text says `Unknown tool: <name>. Re-run tools/list and retry.`, and arguments that do not deserialize the same way";
    unknown_tool(message.to_string(), label, help)
}

/// `#[mcp_server]` (mcp-attr) without a `tools_call` of its own.
pub fn mcp_attr_generated() -> Default {
    let message = "unknown tools are answered by mcp-attr's generated tools_call with a JSON-RPC error (-32601 \"Tool not found\")";
    let label = "this generates a tools_call that answers an unknown name with an error";
    let help = "write `tools_call` yourself: answer a name no tool has with a `CallToolResult` whose `is_error` is true and whose text says `Unknown tool: <name>. Re-run tools/list and retry.`, and hand the others to the tools";
    unknown_tool(message.to_string(), label, help)
}

/// The label on each typed argument of [`arguments_before_1_8`].
pub const DESERIALIZED_BY_RMCP: &str = "deserialized by rmcp before the tool runs";
/// Its label on the `#[tool_handler]` it is reported at.
pub const ROUTES_TYPED_ARGUMENTS: &str = "routes calls to tools whose arguments rmcp deserializes";

/// `arguments` typed tool arguments, which rmcp before 1.8 deserializes into a protocol error.
pub fn arguments_before_1_8(version: &dyn Display, arguments: usize) -> Default {
    let whose = match arguments {
        1 => "a tool's typed argument".to_string(),
        n => format!("any of {n} typed tool arguments"),
    };
    let message = format!(
        "with rmcp {version}, arguments that do not deserialize into {whose} are answered with a JSON-RPC error (-32602)"
    );
    let help = "upgrade rmcp to 1.8 or later, which answers them with an isError result (one line of Cargo.toml fixes every tool); or take `Parameters<JsonObject>` and answer invalid arguments with `CallToolResult::error` yourself";
    (upgrade_only(message, DESERIALIZED_BY_RMCP, help), None)
}

/// A tool with an output schema, which rmcp 0.4-0.5 checks into a protocol error.
pub fn output_checks(version: &dyn Display) -> Default {
    let message = format!(
        "with rmcp {version}, structured output that does not match the tool's output schema is answered with a JSON-RPC error (-32602)"
    );
    let help =
        "upgrade rmcp to 0.6 or later, or answer a mismatch with `CallToolResult::error` yourself";
    (
        upgrade_only(message, "this tool declares an output schema", help),
        None,
    )
}
