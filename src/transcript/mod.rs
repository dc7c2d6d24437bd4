//! The transcript pass: audits recorded JSON-RPC traffic against SEP-2145.
//!
//! A transcript is read twice as a stream: first to rebuild the sessions and judge every
//! exchange ([`session::Auditor`]; each line scanned once by [`scan`], on a thread of its own
//! for line formats, see [`chunk`]), then to keep the text of just the lines the findings
//! point at, for rendering. Memory follows the requests in flight and the catalogs, not file
//! size.

mod catalog;
mod chunk;
mod conform;
mod document;
pub mod era;
mod locate;
mod message;
pub mod read;
pub mod redact;
mod scan;
mod session;
pub mod sse;
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

/// Told, on the calling thread, each batch of a streamed audit's findings as they are judged:
/// no later finding can precede them; the report holds just the lines they are on.
pub type Sink<'a> = &'a mut dyn FnMut(FileReport) -> io::Result<()>;

/// Audits one transcript named `name`. Its format is detected from its content; `asked` (the
/// command line's or the configuration's `input-format`) decides only when the content shows
/// none, so one setting cannot make the files of other formats read as nothing. `named`: the
/// user named the file, rather than a directory it was found in (see [`Auditor::finish`]).
/// With a `sink`, the findings of a line-per-message transcript go to it as they are judged
/// (a line at a time when `eager`), and those returned are the rest.
pub fn audit(
    name: &str,
    open: &Open,
    asked: InputFormat,
    named: bool,
    progress: Progress,
    sink: Option<Sink>,
    eager: bool,
) -> io::Result<FileReport> {
    if let Some((why, help)) = not_text(open()?.fill_buf()?) {
        let mut findings = Vec::new();
        // An empty file a walk found is no transcript; a UTF-16 one is, unread.
        if named || help.is_some() {
            let mut auditor = Auditor::default();
            auditor.not_checked(why, help.map(Into::into));
            (findings, _) = auditor.finish("nothing", named);
        }
        return Ok(FileReport::new(
            Arc::new(SourceText::new(name, String::new())),
            findings,
        ));
    }
    let format = match (sniff(open)?, asked) {
        (Some(shown), _) => shown,
        (None, InputFormat::Auto) => InputFormat::Jsonl,
        (None, asked) => asked,
    };
    let (findings, wanted) = match format {
        InputFormat::Har | InputFormat::Inspector => judge_document(open, format, named)?,
        _ => {
            let mut release = sink.map(|sink| {
                move |findings, lines| {
                    let source = Arc::new(SourceText::from_lines(name, lines));
                    sink(FileReport::new(source, findings))
                }
            });
            let release = release.as_mut().map(|r| r as _);
            chunk::judge_lines(open, format, named, progress, release, eager)?
        }
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

/// Why the start of a file shows there is no UTF-8 transcript in it, with help: it is blank,
/// it starts with a UTF-16 byte order mark, or it holds a NUL byte (UTF-16 without a mark, or
/// a binary file).
fn not_text(head: &[u8]) -> Option<(String, Option<&'static str>)> {
    const CONVERT: Option<&str> =
        Some("convert it to UTF-8 first: `iconv -f utf-16 -t utf-8 FILE > FILE.utf8.jsonl`");
    if head.iter().all(u8::is_ascii_whitespace) {
        return Some((
            "this file is empty or blank: there was nothing to check".to_string(),
            None,
        ));
    }
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        let why = "this file is UTF-16 encoded (it starts with a UTF-16 byte order mark), so it was not checked";
        return Some((why.to_string(), CONVERT));
    }
    let at = memchr::memchr(0, &head[..head.len().min(4096)])?;
    let why = format!(
        "this file holds a NUL byte at byte {at}: it is UTF-16 or binary, not a UTF-8 transcript, so it was not checked"
    );
    Some((why, CONVERT))
}

/// Whether the start of an input, to its first non-blank line, opens a HAR capture or an
/// Inspector export: those are read whole, not a line at a time.
pub fn is_document(head: &[u8]) -> bool {
    let head = head.strip_prefix(read::BOM).unwrap_or(head);
    document::looks_like_document(&String::from_utf8_lossy(head))
}

/// The format a transcript's first non-blank line shows, if it shows one.
fn sniff(open: &Open) -> io::Result<Option<InputFormat>> {
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
                (true, true) => Some(InputFormat::Inspector),
                (true, false) => Some(InputFormat::Har),
                (false, _) => read::detect(&text),
            },
        );
    }
    Ok(None)
}

/// The findings of a HAR capture or an Inspector export, held whole.
fn judge_document(
    open: &Open,
    format: InputFormat,
    named: bool,
) -> io::Result<(Vec<Finding>, BTreeSet<usize>)> {
    let mut auditor = Auditor::default();
    let read_as = format.describe();
    let mut bytes = Vec::new();
    open()?.read_to_end(&mut bytes)?;
    if bytes.starts_with(read::BOM) {
        // Spans stay offsets in the file: the mark becomes a blank, which JSON allows.
        bytes.splice(..read::BOM.len(), *b"   ");
    }
    let doc = match String::from_utf8(bytes) {
        Ok(doc) => doc,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let message =
                format!("this file is not valid UTF-8 (byte {at}), so it was not checked");
            auditor.not_checked(message, None);
            return Ok(auditor.finish(read_as, named));
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
        // A walked file that is JSON of another shape (a `package.json`) is no transcript.
        Err(_) if !named && document::is_json(&doc) => return Ok((Vec::new(), BTreeSet::new())),
        Err(message) => auditor.not_checked(format!("{message}, so it was not checked"), None),
    }
    Ok(auditor.finish(read_as, named))
}
