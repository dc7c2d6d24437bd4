//! `--format json`, version 1 of SPEC.md: one document, fields in the documented order.

use std::io::{self, Write};

use serde::Serialize;

use super::{ClauseVerdict, Counts, Report};
use crate::baseline::Baselined;
use crate::finding::{FileReport, Fix};
use crate::text::SourceText;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    profile: &'a str,
    findings: Vec<JsonFinding<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol_version: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    clauses: &'a [ClauseVerdict],
    summary: Summary,
}

/// A finding as `json` lists it and `jsonl` writes it on a line.
#[derive(Serialize)]
pub(super) struct JsonFinding<'a> {
    code: &'a str,
    rule: &'a str,
    level: &'a str,
    file: &'a str,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    message: &'a str,
    help: Option<&'a str>,
    request_id: Option<&'a serde_json::Value>,
    /// Only on a finding that has a fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix<'a>>,
}

/// A finding's fix: its edits, each a range of the file (bytes, and 1-based lines and
/// character columns, the end exclusive) and the text that replaces it.
#[derive(Serialize)]
pub(super) struct JsonFix<'a> {
    applicability: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

#[derive(Serialize)]
struct JsonEdit<'a> {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    content: &'a str,
}

impl<'a> JsonFix<'a> {
    fn new(fix: &'a Fix, source: &SourceText) -> Self {
        let edits = fix.edits.iter().map(|edit| {
            let (start, end) = source.range_positions(&edit.range);
            JsonEdit {
                start: edit.range.start,
                end: edit.range.end,
                line: start.line,
                column: start.column,
                end_line: end.line,
                end_column: end.column,
                content: &edit.text,
            }
        });
        JsonFix {
            applicability: fix.applicability.as_str(),
            edits: edits.collect(),
        }
    }
}

#[derive(Serialize)]
pub(super) struct Summary {
    files: usize,
    errors: usize,
    warnings: usize,
    advice: usize,
    /// `baselined` and `stale_baseline_entries`, with `--baseline` only.
    #[serde(flatten)]
    baseline: Option<Baselined>,
}

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let document = Document {
        version: 1,
        profile: report.profile,
        findings: findings(report).collect(),
        protocol_version: report.protocol_version.as_deref(),
        clauses: &report.clauses,
        summary: summary(report),
    };
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// Every finding of the report, in order.
pub(super) fn findings(report: &Report) -> impl Iterator<Item = JsonFinding<'_>> {
    report.files.iter().flat_map(file_findings)
}

/// The findings of one file, in order.
pub(super) fn file_findings(file: &FileReport) -> impl Iterator<Item = JsonFinding<'_>> {
    file.findings.iter().map(move |f| {
        let (start, end) = file.source.range_positions(&f.span);
        JsonFinding {
            code: f.rule.code,
            rule: f.rule.name,
            level: f.level.as_str(),
            file: &file.source.name,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            message: &f.message,
            help: f.help.as_deref(),
            request_id: f.request_id.as_ref(),
            fix: f.fix.as_ref().map(|fix| JsonFix::new(fix, &file.source)),
        }
    })
}

pub(super) fn summary(report: &Report) -> Summary {
    Summary::new(report.files.len(), report.counts(), report.baselined)
}

impl Summary {
    pub(super) fn new(files: usize, counts: Counts, baseline: Option<Baselined>) -> Self {
        Summary {
            files,
            errors: counts.errors,
            warnings: counts.warnings,
            advice: counts.advice,
            baseline,
        }
    }
}
