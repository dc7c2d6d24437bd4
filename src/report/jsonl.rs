//! `--format jsonl`: one finding a line, the same objects as `json`'s `findings`, then one
//! `{"summary": {...}}` line with `json`'s summary. A line stands alone, so a consumer reads
//! findings before the run ends, and a writer can emit each as it is judged (#14).

use std::io::{self, Write};

use serde::Serialize;

use super::{Report, json};

#[derive(Serialize)]
struct SummaryLine {
    summary: json::Summary,
}

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    for finding in json::findings(report) {
        line(out, &finding)?;
    }
    line(
        out,
        &SummaryLine {
            summary: json::summary(report),
        },
    )
}

/// One JSON value on a line of its own.
fn line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}
