//! The rule registry: every rule's metadata is declared once, in its own module, next to its
//! check; its documentation lives in `rules/<CODE>.md` and is compiled in.

use std::fmt;

use crate::source::site::ErrorSite;
use crate::transcript::ErrorAnswer;

mod mcp001;
mod mcp002;
mod mcp003;
mod mcp101;
mod mcp102;
mod mcp103;
mod mcp104;
mod mcp105;
mod mcp106;
mod mcp107;
mod mcp108;
mod mcp201;
mod mcp202;
mod mcp301;
mod mcp302;

pub use mcp001::META as PARSE_ERROR;
pub use mcp002::META as UNUSED_SUPPRESSION;
pub use mcp003::META as INVALID_SUPPRESSION;
pub use mcp104::META as TOOL_FAILURE;
pub use mcp106::META as UNREPORTED_INVALID_OUTPUT;
pub use mcp107::META as MALFORMED_CALL;
pub use mcp108::{META as FRAMEWORK_DEFAULT, ROUTER_FIX, UNKNOWN_TOOL_ASPECT};
pub use mcp201::{HELP as VAGUE_HELP, META as VAGUE_TOOL_ERROR, vague_tool_error};
pub use mcp202::{KnownTools, META as TOOL_ERROR_LISTS_TOOLS, lists_tools};
pub use mcp301::META as UNANSWERED_CALL;
pub use mcp302::META as TRANSCRIPT_INTEGRITY;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Advice,
    Warning,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Advice => "advice",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str()) // honours widths, for the `rules` table
    }
}

/// What a user sees of a rule everywhere: codes are stable, names are kebab-case.
#[derive(Debug)]
pub struct RuleMeta {
    pub code: &'static str,
    pub name: &'static str,
    pub level: Level,
    /// Reported by the source pass (`check`).
    pub source: bool,
    /// Reported by the transcript pass (`audit`).
    pub transcript: bool,
    pub summary: &'static str,
    /// The SEP-2145 clause the rule enforces, quoted in every diagnostic.
    pub sep: &'static str,
    /// `rules/<CODE>.md`, printed by `explain`.
    pub doc: &'static str,
}

/// A rule of the MCP101-MCP105 family: a protocol error that answers a well-formed
/// `tools/call`. Each pass finds such errors once and asks each rule, in its order, whether
/// the error is its case: the source pass from the code ([`PROTOCOL_ERROR_RULES`]), the
/// transcript pass from the recorded exchange ([`PROTOCOL_ERROR_RULES_IN_TRAFFIC`]).
pub struct ProtocolErrorRule {
    pub meta: &'static RuleMeta,
    /// The SEP-2145 case, as it reads in a message ("unknown tool").
    pub case: &'static str,
    /// The text the SEP recommends for the tool execution error that should replace it.
    pub fix_text: &'static str,
    pub applies: fn(&ErrorSite) -> bool,
    pub audit: fn(&ErrorAnswer) -> bool,
}

/// Most specific evidence first; MCP104 (any tool failure) takes what is left.
pub static PROTOCOL_ERROR_RULES: [&ProtocolErrorRule; 5] = [
    &mcp102::RULE,
    &mcp105::RULE,
    &mcp101::RULE,
    &mcp103::RULE,
    &mcp104::RULE,
];

/// In traffic, what the transcript proves comes first: a name missing from the catalog
/// (MCP101), arguments that fail the inputSchema (MCP103); then the code and message.
pub static PROTOCOL_ERROR_RULES_IN_TRAFFIC: [&ProtocolErrorRule; 5] = [
    &mcp101::RULE,
    &mcp103::RULE,
    &mcp102::RULE,
    &mcp105::RULE,
    &mcp104::RULE,
];

/// Every rule, sorted by code.
pub static RULES: [&RuleMeta; 15] = [
    &mcp001::META,
    &mcp002::META,
    &mcp003::META,
    &mcp101::META,
    &mcp102::META,
    &mcp103::META,
    &mcp104::META,
    &mcp105::META,
    &mcp106::META,
    &mcp107::META,
    &mcp108::META,
    &mcp201::META,
    &mcp202::META,
    &mcp301::META,
    &mcp302::META,
];

/// Finds a rule by code (any case) or by name.
pub fn lookup(code_or_name: &str) -> Option<&'static RuleMeta> {
    RULES
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code_or_name) || r.name == code_or_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_unique_sorted_and_well_formed() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} then {}",
                pair[0].code,
                pair[1].code
            );
        }
        for rule in RULES {
            assert!(
                rule.code.len() == 6 && rule.code.starts_with("MCP"),
                "{}",
                rule.code
            );
            assert!(
                rule.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{} is not kebab-case",
                rule.name
            );
            assert_eq!(RULES.iter().filter(|r| r.name == rule.name).count(), 1);
            assert!(
                rule.source || rule.transcript,
                "{} runs in no pass",
                rule.code
            );
        }
    }

    #[test]
    fn docs_match_their_rule() {
        for rule in RULES {
            let first = rule.doc.lines().next().unwrap_or_default();
            assert_eq!(first, format!("# {}: {}", rule.code, rule.name));
            for section in [
                "## What it does",
                "## Why is this bad?",
                "## Example",
                "## Use instead",
                "## References",
            ] {
                assert!(rule.doc.contains(section), "{} lacks {section}", rule.code);
            }
            // The doc cites what the rule enforces ("SEP-2145", "JSON-RPC 2.0"); the MCP00x
            // rules are about mcp-lint's own input.
            let source = rule.sep.split([':', '(']).next().unwrap_or_default().trim();
            assert!(
                rule.code.starts_with("MCP00") || rule.doc.contains(source),
                "{} does not cite {source}",
                rule.code
            );
        }
    }

    #[test]
    fn every_doc_file_has_a_rule() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let expected: Vec<String> = RULES.iter().map(|r| format!("{}.md", r.code)).collect();
        assert_eq!(on_disk, expected);
    }

    #[test]
    fn lookup_accepts_code_and_name() {
        assert_eq!(lookup("mcp101").unwrap().code, "MCP101");
        assert_eq!(
            lookup("unknown-tool-protocol-error").unwrap().code,
            "MCP101"
        );
        assert!(lookup("MCP999").is_none());
    }

    #[test]
    fn every_protocol_error_rule_is_registered_in_both_orders() {
        for rule in PROTOCOL_ERROR_RULES {
            assert!(RULES.iter().any(|r| std::ptr::eq(*r, rule.meta)));
            assert!(
                PROTOCOL_ERROR_RULES_IN_TRAFFIC
                    .iter()
                    .any(|r| std::ptr::eq(r.meta, rule.meta))
            );
        }
    }
}
