//! `--format json`, version 1 of SPEC.md: one document, fields in the documented order,
//! written a finding at a time.

use std::io::{self, Write};

use serde::Serialize;

use super::pretty::{MARKER, PrettyArray};
use super::{ClauseVerdict, Head, Tally, Writer};
use crate::baseline::Baselined;
use crate::finding::{Finding, Fix};
use crate::text::SourceText;

/// The document; `findings` is [`MARKER`] while it is printed around the findings.
#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    profile: &'a str,
    findings: [&'a str; 1],
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

/// The document, written a finding at a time.
#[derive(Default)]
pub struct Json(Option<PrettyArray>);

impl<'a> Document<'a> {
    fn new(head: &Head<'a>, summary: Summary) -> Self {
        Document {
            version: 1,
            profile: head.profile,
            findings: [MARKER],
            protocol_version: head.protocol_version,
            clauses: head.clauses,
            summary,
        }
    }
}

impl Writer for Json {
    fn start(&mut self, head: &Head, out: &mut dyn Write) -> io::Result<()> {
        let document = Document::new(head, Summary::new(&Tally::default()));
        self.0 = Some(PrettyArray::open(&document, out)?);
        Ok(())
    }

    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        match &mut self.0 {
            Some(array) => array.push(&JsonFinding::new(source, f), out),
            None => Ok(()),
        }
    }

    fn finish(self: Box<Self>, head: &Head, tally: &Tally, out: &mut dyn Write) -> io::Result<()> {
        match self.0 {
            Some(array) => array.close(&Document::new(head, Summary::new(tally)), out),
            None => Ok(()),
        }
    }
}

impl<'a> JsonFinding<'a> {
    pub(super) fn new(source: &'a SourceText, f: &'a Finding) -> Self {
        let (start, end) = source.range_positions(&f.span);
        JsonFinding {
            code: f.rule.code,
            rule: f.rule.name,
            level: f.level.as_str(),
            file: &source.name,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            message: &f.message,
            help: f.help.as_deref(),
            request_id: f.request_id.as_ref(),
            fix: f.fix.as_ref().map(|fix| JsonFix::new(fix, source)),
        }
    }
}

impl Summary {
    pub(super) fn new(tally: &Tally) -> Self {
        Summary {
            files: tally.files,
            errors: tally.counts.errors,
            warnings: tally.counts.warnings,
            advice: tally.counts.advice,
            baseline: tally.baselined,
        }
    }
}
