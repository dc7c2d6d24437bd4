//! `--format jsonl`: one finding a line, the same objects as `json`'s `findings`, then one
//! `{"summary": {...}}` line with `json`'s summary. A line stands alone, so a consumer reads
//! findings before the run ends, and a writer can emit each as it is judged (#14).

use std::io::{self, Write};

use serde::Serialize;

use super::json::{JsonFinding, Summary};
use super::{Head, Tally, Writer};
use crate::finding::Finding;
use crate::text::SourceText;

#[derive(Serialize)]
struct SummaryLine {
    summary: Summary,
}

pub struct Jsonl;

impl Writer for Jsonl {
    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        line(out, &JsonFinding::new(source, f))
    }

    fn finish(self: Box<Self>, _: &Head, tally: &Tally, out: &mut dyn Write) -> io::Result<()> {
        let summary = Summary::new(tally);
        line(out, &SummaryLine { summary })
    }
}

/// One JSON value on a line of its own.
fn line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    writeln!(out)
}
