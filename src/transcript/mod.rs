//! The transcript pass: audits recorded JSON-RPC traffic against SEP-2145.
//!
//! A transcript is read twice as a stream: first to rebuild the sessions and judge every
//! exchange ([`session::Auditor`]; each line scanned once by [`scan`], on a thread of its own
//! for line formats, see [`chunk`]), then to keep the text of just the lines the findings
//! point at, for rendering. Memory follows the requests in flight and the catalogs, not file
//! size.

mod catalog;
mod chunk;
mod document;
mod locate;
mod message;
pub mod read;
mod scan;
mod session;
pub mod write;

use std::collections::BTreeSet;
use std::io::{self, BufRead, Read};
use std::sync::Arc;

use crate::finding::{FileReport, Finding};
use crate::text::SourceText;
use crate::walk::InputFormat;
use document::Item;
use read::{Dir, Lines};
use session::{Auditor, Spot};

/// Opens the transcript from its start; called once per pass.
pub type Open<'a> = dyn Fn() -> io::Result<Box<dyn BufRead + 'a>> + 'a;

/// Told how many bytes of a long transcript have been read, every [`PROGRESS_EVERY`] bytes.
pub type Progress<'a> = Option<&'a (dyn Fn(usize) + Sync)>;

const PROGRESS_EVERY: usize = 64 << 20;

/// Audits one transcript named `name`.
pub fn audit(
    name: &str,
    open: &Open,
    format: InputFormat,
    progress: Progress,
) -> io::Result<FileReport> {
    let format = match format {
        InputFormat::Auto => sniff(open)?,
        format => format,
    };
    let (findings, wanted) = match format {
        InputFormat::Har | InputFormat::Inspector => judge_document(open, format)?,
        _ => chunk::judge_lines(open, format, progress)?,
    };
    let mut kept = Vec::with_capacity(wanted.len());
    if !wanted.is_empty() {
        let mut lines = Lines::new(open()?);
        for &number in &wanted {
            if !lines.skip_to(number)? {
                break;
            }
            let Some(line) = lines.next_line() else { break };
            let line = line?;
            let text = String::from_utf8_lossy(line.bytes).into_owned();
            kept.push((line.offset, line.number, text));
        }
    }
    Ok(FileReport::new(
        Arc::new(SourceText::from_lines(name, kept)),
        findings,
    ))
}

/// The format of a transcript, from its first non-blank line.
fn sniff(open: &Open) -> io::Result<InputFormat> {
    let mut lines = Lines::new(open()?);
    while let Some(line) = lines.next_line() {
        let line = line?;
        let text = String::from_utf8_lossy(line.bytes);
        if text.trim().is_empty() {
            continue;
        }
        return Ok(
            match (
                document::looks_like_document(&text),
                text.trim_start().starts_with('['),
            ) {
                (true, true) => InputFormat::Inspector,
                (true, false) => InputFormat::Har,
                (false, _) => read::detect(&text),
            },
        );
    }
    Ok(InputFormat::Jsonl)
}

/// The findings of a HAR capture or an Inspector export, held whole.
fn judge_document(open: &Open, format: InputFormat) -> io::Result<(Vec<Finding>, BTreeSet<usize>)> {
    let mut auditor = Auditor::default();
    let mut bytes = Vec::new();
    open()?.read_to_end(&mut bytes)?;
    let doc = match String::from_utf8(bytes) {
        Ok(doc) => doc,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            auditor.broken(
                format!("this file is not valid UTF-8 (byte {at}), so it was not checked"),
                Spot {
                    line: 1,
                    span: 0..0,
                },
            );
            return Ok(auditor.finish());
        }
    };
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(doc.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let spot = |span: std::ops::Range<usize>| Spot {
        line: line_starts.partition_point(|&s| s <= span.start),
        span,
    };
    let items = match format {
        InputFormat::Har => document::har(&doc),
        _ => document::inspector(&doc),
    };
    match items {
        Ok(items) => {
            for item in items {
                match item {
                    Item::Message { origin, msg, parts } => {
                        let at = spot(document::located(
                            origin.text,
                            origin.text_offset,
                            origin.path,
                        ));
                        for parts in &parts {
                            auditor.message(&origin, &parts.resolve(&msg), at.line);
                        }
                    }
                    Item::Broken {
                        message,
                        text,
                        text_offset,
                        path,
                    } => {
                        auditor.broken(message, spot(document::located(text, text_offset, path)));
                    }
                    Item::NotCaptured {
                        session,
                        id,
                        text,
                        text_offset,
                    } => {
                        let at = spot(document::located(text, text_offset, &["response"]));
                        let why =
                            |what: &str| format!("the capture holds no response body for {what}");
                        auditor.unverifiable(Dir::ServerToClient, session, Some(id), at, why);
                    }
                }
            }
        }
        Err(message) => auditor.broken(
            format!("{message}, so it was not checked"),
            Spot {
                line: 1,
                span: 0..0,
            },
        ),
    }
    Ok(auditor.finish())
}
