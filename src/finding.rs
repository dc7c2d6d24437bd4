//! Plain data that flows from every check to the one renderer.

use std::ops::Range;
use std::sync::Arc;

use crate::rules::{Level, RuleMeta};
use crate::suppress::Suppression;
use crate::text::SourceText;

/// A secondary label, pointing at another place in the same file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Range<usize>,
    pub text: String,
}

/// A place in another file, by line: where a helper in another file builds the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elsewhere {
    /// As named to mcp-lint.
    pub file: String,
    /// 1-based.
    pub line: usize,
    pub text: String,
}

/// One violation. Spans are byte ranges into the file's text.
#[derive(Debug, Clone)]
pub struct Finding {
    pub rule: &'static RuleMeta,
    /// The rule's level, after the command line (`--deny warnings`) has had its say.
    pub level: Level,
    pub span: Range<usize>,
    pub message: String,
    /// Text of the primary label under the offending expression.
    pub label: String,
    pub help: Option<String>,
    pub related: Vec<Label>,
    /// Related places in other files (SARIF shows them; the message names them too).
    pub elsewhere: Vec<Elsewhere>,
    /// The JSON-RPC id of the `tools/call` concerned (transcripts only).
    pub request_id: Option<serde_json::Value>,
    /// Which part of its rule a finding is, where a profile turns parts off (MCP108's
    /// unknown-tool part under `mcp-2025-11-25`).
    pub aspect: Option<&'static str>,
}

impl Finding {
    /// A finding at the rule's default level, with no help or related labels yet.
    pub fn new(
        rule: &'static RuleMeta,
        span: Range<usize>,
        message: String,
        label: impl Into<String>,
    ) -> Self {
        Finding {
            rule,
            level: rule.level,
            span,
            message,
            label: label.into(),
            help: None,
            related: Vec::new(),
            elsewhere: Vec::new(),
            request_id: None,
            aspect: None,
        }
    }
}

/// Everything found in one input file.
#[derive(Debug)]
pub struct FileReport {
    pub source: Arc<SourceText>,
    pub findings: Vec<Finding>,
    /// The file's suppression comments, applied once levels are known.
    pub suppressions: Vec<Suppression>,
}

impl FileReport {
    pub fn new(source: Arc<SourceText>, findings: Vec<Finding>) -> Self {
        let mut report = FileReport {
            source,
            findings,
            suppressions: Vec::new(),
        };
        report.sort();
        report
    }

    /// Orders the findings by position and rule, and merges repeats.
    pub fn sort(&mut self) {
        let findings = &mut self.findings;
        findings.sort_by(|a, b| {
            (a.span.start, a.rule.code, a.span.end, &a.message).cmp(&(
                b.span.start,
                b.rule.code,
                b.span.end,
                &b.message,
            ))
        });
        // The same site reached from two roots is one finding; two findings that only share a place
        // (two unusable schemas reported at one tools/list) are not.
        findings.dedup_by(|a, b| {
            a.span == b.span && a.rule.code == b.rule.code && a.message == b.message
        });
    }
}
