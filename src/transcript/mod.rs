//! The transcript pass: audits recorded JSON-RPC traffic against SEP-2145.
//!
//! A transcript is read twice as a stream: first to rebuild the sessions and judge every
//! exchange ([`session::Auditor`]), then to keep the text of just the lines the findings point
//! at, for rendering. Memory follows the requests in flight and the catalogs, not file size.

mod catalog;
mod locate;
pub mod read;
mod session;

use std::io::{self, BufRead};
use std::sync::Arc;

use crate::finding::FileReport;
use crate::text::SourceText;
use read::{InputFormat, Lines, MAX_LINE_BYTES, Parsed};
use session::{Auditor, Spot};

/// What a recorded protocol error answering a well-formed `tools/call` proves; the
/// MCP101-MCP105 rules classify it (see [`crate::rules::PROTOCOL_ERROR_RULES_IN_TRAFFIC`]).
pub struct ErrorAnswer<'a> {
    /// Whether the tool is in the session's fresh catalog; `None` without one.
    pub tool_known: Option<bool>,
    /// How the arguments fail the tool's inputSchema, if they do.
    pub input_error: Option<&'a str>,
    pub code: Option<i64>,
    pub message: &'a str,
}

impl ErrorAnswer<'_> {
    /// Whether the error message, lower-cased, contains one of `needles`.
    pub fn message_mentions(&self, needles: &[&str]) -> bool {
        let message = self.message.to_lowercase();
        needles.iter().any(|n| message.contains(n))
    }
}

/// Opens the transcript from its start; called once per pass.
pub type Open<'a> = dyn Fn() -> io::Result<Box<dyn BufRead + 'a>> + 'a;

/// Audits one transcript named `name`.
pub fn audit(name: &str, open: &Open, format: InputFormat) -> io::Result<FileReport> {
    let mut auditor = Auditor::default();
    let mut format = format;
    for line in Lines::new(open()?) {
        let line = line?;
        let spot = Spot {
            line: line.number,
            span: line.offset..line.offset + line.bytes.len(),
        };
        if line.too_long {
            let message =
                format!("this line is longer than {MAX_LINE_BYTES} bytes, so it was not checked");
            auditor.broken(
                message,
                Spot {
                    line: line.number,
                    span: line.offset..line.offset,
                },
            );
            continue;
        }
        let text = match std::str::from_utf8(&line.bytes) {
            Ok(text) => text,
            Err(e) => {
                auditor.broken(
                    format!(
                        "this line is not valid UTF-8 (byte {}), so it was not checked",
                        e.valid_up_to()
                    ),
                    spot,
                );
                continue;
            }
        };
        if format == InputFormat::Auto {
            if text.trim().is_empty() {
                continue;
            }
            format = read::detect(text);
        }
        match read::parse_line(format, text, line.offset) {
            Parsed::Record(record) => auditor.record(&record, line.number),
            Parsed::Skip => {}
            Parsed::Broken(message) => auditor.broken(message, spot),
            Parsed::Truncated { dir, session, id } => auditor.truncated(dir, session, id, spot),
        }
    }
    let (findings, wanted) = auditor.finish();
    let mut kept = Vec::with_capacity(wanted.len());
    if !wanted.is_empty() {
        for line in Lines::new(open()?) {
            let line = line?;
            if wanted.contains(&line.number) {
                kept.push((
                    line.offset,
                    line.number,
                    String::from_utf8_lossy(&line.bytes).into_owned(),
                ));
                if kept.len() == wanted.len() {
                    break;
                }
            }
        }
    }
    Ok(FileReport::new(
        Arc::new(SourceText::from_lines(name, kept)),
        findings,
    ))
}
