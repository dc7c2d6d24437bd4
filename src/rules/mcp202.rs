use std::collections::HashSet;

use super::{Level, RuleMeta};

pub static META: RuleMeta = RuleMeta {
    code: "MCP202",
    name: "tool-error-lists-tools",
    level: Level::Warning,
    source: true,
    transcript: true,
    summary: "an error text that enumerates the server's tool names or leaks policy detail",
    sep: "SEP-2145: implementations should avoid enumerating available tool names in error text, and SHOULD avoid leaking policy details",
    doc: include_str!("../../rules/MCP202.md"),
};

/// How many other tools an error text may name before it counts as a list.
const MAX_NAMED: usize = 2;

/// Why an error text enumerates the server's tools, if it does: it introduces a list of
/// tools, or it names more than [`MAX_NAMED`] of `others` (the catalog less the called tool).
pub fn lists_tools(text: &str, others: &[&str]) -> Option<String> {
    let lower = text.to_lowercase();
    if [
        "available tools",
        "valid tools",
        "known tools",
        "tools are:",
        "did you mean one of",
    ]
    .iter()
    .any(|p| lower.contains(p))
    {
        return Some("enumerates the server's tools".to_string());
    }
    // The identifiers of the text, once: a name made of identifier characters is in the
    // text as a word exactly when it is one of them.
    let words: HashSet<&str> = text.split(|c: char| !is_ident(c)).collect();
    let mut named: Vec<&str> = others
        .iter()
        .copied()
        .filter(|n| n.len() >= 3)
        .filter(|n| match n.chars().all(is_ident) {
            true => words.contains(n),
            false => contains_word(text, n),
        })
        .collect();
    if named.len() <= MAX_NAMED {
        return None;
    }
    named.sort_unstable();
    Some(format!(
        "names {} other tools ({}, ...)",
        named.len(),
        named[..MAX_NAMED + 1].join(", ")
    ))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// `word` in `text`, not as part of a longer identifier.
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::lists_tools;

    #[test]
    fn lists_are_found_and_single_mentions_are_not() {
        let tools = ["get_weather", "get_alerts", "search_docs", "add"];
        assert!(lists_tools("Unknown tool: x. Available tools: a, b", &[]).is_some());
        assert!(
            lists_tools(
                "Unknown tool: x. Try get_weather, get_alerts or search_docs.",
                &tools
            )
            .is_some()
        );
        assert!(lists_tools("Unknown tool: x. Re-run tools/list and retry.", &tools).is_none());
        assert!(
            lists_tools(
                "get_weather_v2 and get_alerts_old and search_docs_x failed",
                &tools
            )
            .is_none()
        );
        let dotted = ["fs.read", "fs.write", "fs.list", "fs.stat"];
        assert!(lists_tools("No such tool. Try fs.read, fs.write or fs.list.", &dotted).is_some());
        assert!(lists_tools("fs.reader, fs.writes and fs.lister failed", &dotted).is_none());
    }
}
