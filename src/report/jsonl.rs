//! `--format jsonl`: one finding a line, the same objects as `json`'s `findings`, then one
//! `{"summary": {...}}` line with `json`'s summary. A line stands alone, so a consumer reads
//! findings before the run ends, and a writer can emit each as it is judged (#14).

use std::io::{self, Write};

use serde::Serialize;

use super::{Report, json};
use crate::finding::FileReport;

#[derive(Serialize)]
struct SummaryLine {
    summary: json::Summary,
}

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for file in &report.files {
        findings(file, out)?;
    }
    summary(json::summary(report), out)
}

/// The lines of a file's findings.
pub(super) fn findings(file: &FileReport, out: &mut dyn Write) -> io::Result<()> {
    for finding in json::file_findings(file) {
        line(out, &finding)?;
    }
    Ok(())
}

/// The last line.
pub(super) fn summary(summary: json::Summary, out: &mut dyn Write) -> io::Result<()> {
    line(out, &SummaryLine { summary })
}

/// One JSON value on a line of its own.
fn line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}
