//! Plain data that flows from every check to the one renderer.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::text::SourceText;

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
    /// Which of its findings come with a fix (`--fix`).
    pub fix: Fixable,
    /// `rules/<CODE>.md`, printed by `explain`.
    pub doc: &'static str,
}

/// Whether a rule's findings come with a fix, and of which kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixable {
    Never,
    /// Where a rewrite is sure to be right; the others say why not.
    Sometimes(Applicability),
    Always(Applicability),
}

impl RuleMeta {
    /// The fix mcp-lint can apply for the rule (`none`, `safe` or `unsafe`), for
    /// `rules --format json`.
    pub fn fix(&self) -> &'static str {
        match self.fix {
            Fixable::Never => "none",
            Fixable::Sometimes(a) | Fixable::Always(a) => a.as_str(),
        }
    }

    /// Whether every finding has a fix (`always`), some do (`sometimes`), or none (`never`).
    pub fn fixable(&self) -> &'static str {
        match self.fix {
            Fixable::Never => "never",
            Fixable::Sometimes(_) => "sometimes",
            Fixable::Always(_) => "always",
        }
    }
}

/// Ruff's applicability: a safe fix keeps what the program does (and sends), an unsafe one
/// changes it on purpose and is applied only with `--unsafe-fixes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Applicability {
    Safe,
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One replacement: the bytes `range` of the file become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// The edits that resolve one finding, applied together or not at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// Sorted, not overlapping.
    pub edits: Vec<Edit>,
}

impl Fix {
    /// The bytes the fix touches, from its first edit's start to its last edit's end.
    pub fn extent(&self) -> Range<usize> {
        let start = self.edits.first().map_or(0, |e| e.range.start);
        start..self.edits.last().map_or(start, |e| e.range.end)
    }
}

/// What a rule says of one violation, before a pass places it: the rule owns these words.
#[derive(Debug, Clone)]
pub struct Violation {
    pub rule: &'static RuleMeta,
    pub message: String,
    /// Text of the primary label under the offending expression.
    pub label: String,
    pub help: Option<Help>,
}

/// A finding's help: most are the rule's own words, shared by all its findings rather than
/// copied into each.
pub type Help = Cow<'static, str>;

impl Violation {
    pub fn new(
        rule: &'static RuleMeta,
        message: String,
        label: impl Into<String>,
        help: Option<Help>,
    ) -> Violation {
        Violation {
            rule,
            message,
            label: label.into(),
            help,
        }
    }

    /// The violation as a finding at `span`.
    pub fn at(self, span: Range<usize>) -> Finding {
        let mut finding = Finding::new(self.rule, span, self.message, self.label);
        finding.help = self.help;
        finding
    }
}

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
    pub help: Option<Help>,
    pub related: Vec<Label>,
    /// Related places in other files (SARIF shows them; the message names them too).
    pub elsewhere: Vec<Elsewhere>,
    /// The JSON-RPC id of the `tools/call` concerned (transcripts only).
    pub request_id: Option<serde_json::Value>,
    /// Which part of its rule a finding is, where a profile turns parts off (MCP108's
    /// unknown-tool part under `mcp-2025-11-25`).
    pub aspect: Option<&'static str>,
    /// What the fingerprint keys on in place of the span's text, where that text changes
    /// between runs that find the same thing (a transcript's ids and timestamps).
    pub identity: Option<String>,
    /// Survives edits elsewhere in the file ([`crate::fingerprint`]); set once the findings
    /// to report are known.
    pub fingerprint: String,
    /// The rewrite that resolves it, where one is sure to be right (`--fix`).
    pub fix: Option<Fix>,
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
            identity: None,
            fingerprint: String::new(),
            fix: None,
        }
    }
}

/// Everything found in one input file.
#[derive(Debug)]
pub struct FileReport {
    pub source: Arc<SourceText>,
    pub findings: Vec<Finding>,
}

impl FileReport {
    pub fn new(source: Arc<SourceText>, findings: Vec<Finding>) -> Self {
        let mut report = FileReport { source, findings };
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
