//! The MCP101-MCP105 family: a protocol error that answers a well-formed `tools/call`. Each
//! pass finds such errors once and asks [`classify_code`] or [`classify_answer`] which rule's
//! case it is; each rule module holds its predicates, and this module the words they share.

use std::sync::OnceLock;

use serde_json::Value;

use super::{mcp101, mcp102, mcp103, mcp104, mcp105};
use crate::evidence::{CodeError, ErrorAnswer, RootKind};
use crate::finding::{RuleMeta, Violation};
use crate::text::shorten;

pub struct ProtocolErrorRule {
    pub meta: &'static RuleMeta,
    /// The SEP-2145 case, as it reads in a message ("unknown tool").
    pub case: &'static str,
    /// The text the SEP recommends for the tool execution error that should replace it.
    pub fix_text: &'static str,
    /// Whether an error in code is this case.
    pub applies: fn(&CodeError) -> bool,
    /// Whether a recorded answer is this case.
    pub audit: fn(&ErrorAnswer) -> bool,
    /// The help of its findings in traffic when `fix_text` names no tool: made once, shared.
    pub wire_help: OnceLock<String>,
}

/// In code, most specific evidence first; MCP104 (any tool failure) takes what is left.
static IN_CODE: &[&ProtocolErrorRule] = &[
    &mcp102::RULE,
    &mcp105::RULE,
    &mcp101::RULE,
    &mcp103::RULE,
    &mcp104::RULE,
];

/// In traffic, what the transcript proves comes first: a name missing from the catalog
/// (MCP101), arguments that fail the inputSchema (MCP103); then the code and message.
static IN_TRAFFIC: &[&ProtocolErrorRule] = &[
    &mcp101::RULE,
    &mcp103::RULE,
    &mcp102::RULE,
    &mcp105::RULE,
    &mcp104::RULE,
];

/// The rule an error in code breaks; none where the SEP keeps the protocol error.
pub fn classify_code(error: &CodeError) -> Option<&'static ProtocolErrorRule> {
    if error.is_permitted() {
        return None;
    }
    IN_CODE.iter().copied().find(|r| (r.applies)(error))
}

/// The rule of this family with `code`.
pub fn by_code(code: &str) -> Option<&'static ProtocolErrorRule> {
    IN_CODE.iter().copied().find(|r| r.meta.code == code)
}

/// The rule a recorded protocol error breaks (the caller has set aside the codes the SEP
/// keeps).
pub fn classify_answer(answer: &ErrorAnswer) -> &'static ProtocolErrorRule {
    IN_TRAFFIC
        .iter()
        .copied()
        .find(|r| (r.audit)(answer))
        .unwrap_or(&mcp104::RULE)
}

/// The related label where an error leaves the root it was found in (`?`, `return`).
pub fn exit_label(root: RootKind) -> &'static str {
    match root {
        RootKind::RmcpHelper => {
            "and leaves this function here, for a tools/call handler to pass on"
        }
        RootKind::Converted => "and leaves this function here, for a tools/call handler to convert",
        _ => "and leaves the tools/call handler here",
    }
}
/// The related label where a failure that a conversion answers starts.
pub const STARTS_LABEL: &str = "a failure of this case starts here";
/// The related label where a helper builds the error.
pub const BUILT_LABEL: &str = "the protocol error is built here";

impl ProtocolErrorRule {
    /// The violation of an error in code, `written` as the user wrote it, reached through
    /// `via` ("via `helper` (src/x.rs:3)") where it is built elsewhere.
    pub fn in_code(&self, error: &CodeError, written: &str, via: Option<&str>) -> Violation {
        let code = error.code.map(|c| format!(" ({c})")).unwrap_or_default();
        let via = via.map(|v| format!(" {v}")).unwrap_or_default();
        Violation::new(
            self.meta,
            format!("{} answered with a JSON-RPC error{code}{via}", self.case),
            format!("`{written}` becomes a JSON-RPC error response"),
            Some(format!("{}\n{}", self.fix_in(error.root), self.meta.sep).into()),
        )
    }

    /// The concrete fix, in the SDK the handler is written for.
    fn fix_in(&self, root: RootKind) -> String {
        let text = self.fix_text;
        match root {
            RootKind::RmcpCallTool | RootKind::RmcpHelper => format!(
                "return `Ok(CallToolResult::error(vec![Content::text(\"{text}\")]))` (rmcp 3.x: add `.into()`)"
            ),
            RootKind::RmcpTool => format!(
                "return `Ok(CallToolResult::error(vec![Content::text(\"{text}\")]))`, or make the tool's error type `String`: rmcp sends `Err(String)` as an `isError` result"
            ),
            RootKind::McpAttrTool => format!(
                "return the failure as the tool's result, `Ok(CallToolResult {{ content: vec![Content::text(\"{text}\")], is_error: Some(true), .. }})` (a `#[tool]` may return `Result<CallToolResult>`): mcp-attr sends every `Err` of a `#[tool]` as a JSON-RPC error"
            ),
            RootKind::UltrafastTool => format!(
                "return `Ok(ToolResult {{ content: vec![ToolContent::text(\"{text}\".to_string())], is_error: Some(true) }})`: ultrafast-mcp sends every `Err` of `handle_tool_call` as a JSON-RPC error"
            ),
            RootKind::PmcpTool => format!(
                "return `Err(Error::tool_rejected(\"{text}\", None))`: pmcp (2.22 and later) answers it with an `isError` result, and sends every other `Err` of a tool handler as a JSON-RPC error"
            ),
            RootKind::RustMcpSdkCore => format!(
                "return `Ok(CallToolResult::with_error(CallToolError::from_message(\"{text}\")).into())`, or handle tools in `ServerHandler::handle_call_tool_request`, whose errors the SDK sends as `isError` results"
            ),
            RootKind::Converted => format!(
                "where the tools/call handler converts this error, answer with a tool execution error instead (rmcp: `Ok(CallToolResult::error(vec![Content::text(\"{text}\")]))`; JSON: `{}`)",
                super::tool_error_json(&format!("\"{text}\""))
            ),
            RootKind::KodegenTool => format!(
                "return the failure as the tool's result with `isError: true` (\"{text}\"): kodegen_mcp_schema's `ToolHandler` sends every `Err` of `Tool::execute` as a JSON-RPC error"
            ),
            RootKind::PulseengineTool => format!(
                "return the failure as the tool's result, a `CallToolResult` with `is_error: Some(true)` and the text \"{text}\": pulseengine-mcp's `#[mcp_tools]` sends every `Err` of a tool as a JSON-RPC error"
            ),
            RootKind::TurbomcpCallTool => format!(
                "return `Ok(ToolResult::error(\"{text}\"))`: turbomcp 3 sends every `Err` of a manual `call_tool` as a JSON-RPC error"
            ),
            RootKind::JsonRpcMethod => format!(
                "return `Ok(json!({}))` instead: jsonrpc-core sends every `Err` of a method as a JSON-RPC error",
                super::tool_error_json(&format!("\"{text}\""))
            ),
            RootKind::HandRolled => format!(
                "answer with a result instead: `{}`",
                super::tool_error_json(&format!("\"{text}\""))
            ),
        }
    }

    /// The violation of a recorded answer to tools/call `tool` with request id `id`.
    pub fn on_wire(&'static self, answer: &ErrorAnswer, tool: &str, id: &str) -> Violation {
        let code = answer.code.map_or("no code".to_string(), |c| c.to_string());
        let evidence = match (answer.tool_known, answer.input_error) {
            (Some(false), _) => format!("; `{tool}` is not in the latest tools/list"),
            (_, Some(e)) => format!("; the arguments fail the inputSchema {e}"),
            _ => String::new(),
        };
        let said = shorten(&format!("JSON-RPC error {code}: {}", answer.message), 100);
        let names_tool = ["<name>", "<tool_name>"]
            .iter()
            .any(|p| self.fix_text.contains(p));
        let help = match names_tool {
            true => self.wire_help(tool).into(),
            false => self
                .wire_help
                .get_or_init(|| self.wire_help(tool))
                .as_str()
                .into(),
        };
        Violation::new(
            self.meta,
            format!(
                "{} answered with a JSON-RPC error ({code}) for tools/call `{tool}` (id {id})",
                self.case
            ),
            format!("{said}{evidence}"),
            Some(help),
        )
    }

    /// What a recorded answer to tools/call `tool` should have been.
    fn wire_help(&self, tool: &str) -> String {
        let fix = self
            .fix_text
            .replace("<name>", tool)
            .replace("<tool_name>", tool);
        format!(
            "answer with a result instead: {}\n{}",
            super::tool_error_json(&Value::String(fix).to_string()),
            self.meta.sep
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::build::{answer, error};

    #[test]
    fn every_case_is_in_both_orders() {
        for rule in IN_CODE {
            assert!(IN_TRAFFIC.iter().any(|r| std::ptr::eq(r.meta, rule.meta)));
            assert!(
                super::super::RULES
                    .iter()
                    .any(|r| std::ptr::eq(*r, rule.meta))
            );
        }
        assert_eq!(IN_CODE.len(), IN_TRAFFIC.len());
    }

    #[test]
    fn permitted_errors_break_no_rule_and_the_rest_fall_to_mcp104() {
        assert!(classify_code(&error("internal_error", Some(-32042), None)).is_none());
        let rule = classify_code(&error("internal_error", Some(-32603), Some("disk full")));
        assert_eq!(rule.map(|r| r.meta.code), Some("MCP104"));
        assert_eq!(
            classify_answer(&answer(Some(-32603), "boom")).meta.code,
            "MCP104"
        );
    }

    #[test]
    fn the_words_name_the_case_the_code_and_the_fix() {
        let e = error("invalid_params", Some(-32602), Some("Unknown tool: x"));
        let v = mcp101::RULE.in_code(&e, "McpError::invalid_params", Some("via `f` (a.rs:3)"));
        assert_eq!(
            v.message,
            "unknown tool answered with a JSON-RPC error (-32602) via `f` (a.rs:3)"
        );
        assert!(
            v.help
                .unwrap()
                .contains("Unknown tool: <name>. Re-run tools/list")
        );
        let v = mcp101::RULE.on_wire(&answer(Some(-32602), "no"), "calc", "7");
        assert!(v.help.unwrap().contains("Unknown tool: calc."));
    }

    #[test]
    fn help_that_names_no_tool_is_made_once_and_shared() {
        let help = |tool: &str| {
            let v = mcp104::RULE.on_wire(&answer(Some(-32603), "boom"), tool, "1");
            match v.help {
                Some(std::borrow::Cow::Borrowed(help)) => help,
                other => panic!("an owned copy: {other:?}"),
            }
        };
        assert!(std::ptr::eq(help("a"), help("b")));
        assert!(help("a").starts_with("answer with a result instead: "));
    }
}
