//! The rule registry. Each rule is one module (`mcpNNN`): its metadata, its predicates over
//! evidence, and the words of its findings; its documentation lives in `rules/<CODE>.md` and
//! is compiled in. Adding a rule is its module, one line here, its doc and its fixtures.

pub use crate::finding::{Applicability, Fixable, Level, RuleMeta};

pub mod mcp001;
pub mod mcp002;
pub mod mcp003;
pub mod mcp004;
pub mod mcp101;
pub mod mcp102;
pub mod mcp103;
pub mod mcp104;
pub mod mcp105;
pub mod mcp106;
pub mod mcp107;
pub mod mcp108;
pub mod mcp201;
pub mod mcp202;
pub mod mcp301;
pub mod mcp302;
pub mod mcp401;
pub mod mcp402;
pub mod mcp403;
mod protocol_error;

pub use protocol_error::{
    BUILT_LABEL, ProtocolErrorRule, STARTS_LABEL, by_code, classify_answer, classify_code,
    exit_label,
};

/// A tool execution error as a hand-rolled server writes it, with `text` as JSON (quoted).
pub fn tool_error_json(text: &str) -> String {
    format!("{{\"content\": [{{\"type\": \"text\", \"text\": {text}}}], \"isError\": true}}")
}

/// A violation of a message-guidance rule (MCP201, MCP202). In code its help ends with the SEP
/// clause, as every source finding's does; in traffic the message names the request instead.
fn guidance(
    rule: &'static RuleMeta,
    message: String,
    label: &str,
    help: &'static str,
    in_code: bool,
) -> crate::finding::Violation {
    let help = match in_code {
        true => format!("{help}\n{}", rule.sep).into(),
        false => help.into(),
    };
    crate::finding::Violation::new(rule, message, label, Some(help))
}

/// What a user is told of a code or name no rule has.
pub fn unknown_rule(name: &str) -> String {
    format!("unknown rule `{name}`")
}

/// "did you mean `MCP101`?" for a misspelt code or name.
pub fn did_you_mean(wanted: &str) -> Option<String> {
    crate::text::closest(wanted, RULES.iter().flat_map(|r| [r.code, r.name]))
        .map(|c| format!("did you mean `{c}`?"))
}

/// The whole complaint about a code or name no rule has, with a suggestion.
pub fn not_a_rule(name: &str) -> String {
    let hint = did_you_mean(name)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    format!("{}{hint} (`mcp-lint rules` lists them)", unknown_rule(name))
}

/// Every rule, sorted by code.
pub static RULES: &[&RuleMeta] = &[
    &mcp001::META,
    &mcp002::META,
    &mcp003::META,
    &mcp004::META,
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
    &mcp401::META,
    &mcp402::META,
    &mcp403::META,
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
        for rule in RULES.iter().copied() {
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
        for rule in RULES.iter().copied() {
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
    fn a_near_miss_gets_a_suggestion() {
        let hint = |wanted| did_you_mean(wanted).unwrap_or_default();
        assert_eq!(hint("MCP10"), "did you mean `MCP101`?");
        assert_eq!(
            hint("unknown-tool"),
            "did you mean `unknown-tool-protocol-error`?"
        );
        assert_eq!(
            hint("tool-failure"),
            "did you mean `tool-failure-protocol-error`?"
        );
        assert_eq!(did_you_mean("MCP999"), None);
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
}
