//! A line-per-message transcript is judged by two threads: this one reads lines, checks them
//! and finds their messages' parts, and the auditor's thread judges them in order. Lines go
//! across in chunks of about [`CHUNK_BYTES`], at most two chunks ahead, so memory stays flat;
//! spent chunks come back to be refilled. Scanning is the larger half: while the auditor's
//! thread waits for lines, the lines read are left for it to scan, so both stay busy.

use std::collections::BTreeSet;
use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, channel, sync_channel};

use super::message::{Parts, Span};
use super::read::{self, Dir, Lines, MAX_LINE_BYTES, Origin, Parsed};
use super::session::{Auditor, HeldLine, Spot};
use super::{Open, PROGRESS_EVERY, Progress};
use crate::finding::Finding;
use crate::walk::InputFormat;

const CHUNK_BYTES: usize = 1 << 20;

/// Read lines, as the auditor will take them.
#[derive(Default)]
struct Chunk {
    /// The texts of the lines, back to back.
    text: String,
    /// `None` for a line read while the auditor's thread waited: it scans the line itself.
    entries: Vec<(LineAt, Option<Entry>)>,
    /// The parts of the messages, as spans in their texts.
    parts: Vec<Parts<Span>>,
    /// The byte offset after its last line.
    end: usize,
    /// Once judged in a streamed audit: the findings no later line can precede, with the
    /// lines they are on, for the reading thread to release.
    released: (Vec<Finding>, Vec<HeldLine>),
}

/// Told, on the reading thread, the findings no later line can precede, with the lines they
/// are on, as they are judged (a streamed audit), then the rest at the end.
pub type Release<'a> = Option<&'a mut dyn FnMut(Vec<Finding>, Vec<HeldLine>) -> io::Result<()>>;

/// An entry's line: its number, byte offset, and where its text is in the chunk's.
type LineAt = (usize, usize, Range<usize>);

enum Entry {
    /// A message or a batch, whose parts are `parts` of the chunk's.
    Message {
        line: usize,
        origin: Origin<'static>,
        /// Where the origin's text is in the chunk's (the origin's own is empty).
        text: Range<usize>,
        parts: Range<usize>,
    },
    Broken {
        message: String,
        at: Spot,
    },
    Truncated {
        dir: Dir,
        session: Option<String>,
        id: Option<String>,
        at: Spot,
    },
}

/// The findings of a line-per-message transcript, and the lines they point at; with
/// `release`, findings are released as they are judged, and the rest are released at the end.
/// `eager`: a chunk goes to judging at every line, for input that arrives as it is written.
pub fn judge_lines(
    open: &Open,
    format: InputFormat,
    named: bool,
    progress: Progress,
    mut release: Release,
    eager: bool,
) -> io::Result<(Vec<Finding>, BTreeSet<usize>)> {
    let streamed = release.is_some();
    let (to_judge, to_read) = sync_channel::<Chunk>(2);
    let (spent, refill) = channel::<Chunk>();
    let waiting = AtomicBool::new(false);
    let waiting = &waiting;
    std::thread::scope(|scope| {
        // Schemas from the traffic are compiled and applied here, recursively: the stack is
        // the workers' own, not a spawned thread's 2 MiB.
        let judge = std::thread::Builder::new()
            .stack_size(crate::pool::WORKER_STACK_BYTES)
            .spawn_scoped(scope, move || {
                let mut auditor = match streamed {
                    true => Auditor::streamed(),
                    false => Auditor::default(),
                };
                while let Some(mut chunk) = next(&to_read, waiting) {
                    chunk.judge(format, &mut auditor, streamed);
                    if streamed {
                        chunk.released = auditor.release(chunk.end);
                    }
                    let _ = spent.send(chunk);
                }
                let judged = auditor.finish(format.describe(), named);
                if !streamed {
                    return judged;
                }
                // The rest goes back as a last chunk, after the others.
                let last = Chunk {
                    released: (judged.0, auditor.held()),
                    ..Chunk::default()
                };
                let _ = spent.send(last);
                (Vec::new(), BTreeSet::new())
            })?;
        let read = read_chunks(
            open,
            format,
            progress,
            (to_judge, waiting),
            &refill,
            &mut release,
            eager,
        );
        let judged = judge
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        read?;
        for chunk in refill.try_iter() {
            pass_on(chunk, &mut release)?;
        }
        Ok(judged)
    })
}

/// The next chunk to judge, `None` at the end; `waiting` is set while there is none yet.
fn next(to_read: &Receiver<Chunk>, waiting: &AtomicBool) -> Option<Chunk> {
    match to_read.try_recv() {
        Ok(chunk) => Some(chunk),
        Err(TryRecvError::Disconnected) => None,
        Err(TryRecvError::Empty) => {
            waiting.store(true, Ordering::Relaxed);
            let chunk = to_read.recv().ok();
            waiting.store(false, Ordering::Relaxed);
            chunk
        }
    }
}

/// Reads the lines into chunks for the auditor's thread, scanning those it reads while that
/// thread is busy (`waiting` is set while it is not). `eager`: each line is judged, and what
/// it settles released, before the next is read.
fn read_chunks(
    open: &Open,
    format: InputFormat,
    progress: Progress,
    (to_judge, waiting): (SyncSender<Chunk>, &AtomicBool),
    refill: &Receiver<Chunk>,
    release: &mut Release,
    eager: bool,
) -> io::Result<()> {
    let mut next_report = PROGRESS_EVERY;
    let mut lines = Lines::new(open()?);
    let mut chunk = Chunk::default();
    while let Some(line) = lines.next_line() {
        let line = line?;
        if let Some(report) = progress.filter(|_| line.offset >= next_report) {
            report(line.offset);
            next_report += PROGRESS_EVERY;
        }
        chunk.add(format, line, !waiting.load(Ordering::Relaxed));
        if eager || chunk.text.len() >= CHUNK_BYTES || chunk.entries.len() >= CHUNK_BYTES / 64 {
            if to_judge.send(std::mem::take(&mut chunk)).is_err() {
                break; // the auditor's thread panicked; the join says so
            }
            let judged = match eager {
                true => refill.recv().ok(),
                false => refill.try_recv().ok(),
            };
            if let Some(judged) = judged {
                chunk = pass_on(judged, release)?;
            }
        }
    }
    let _ = to_judge.send(chunk);
    Ok(())
}

/// A judged chunk, emptied for reuse once its findings are released.
fn pass_on(mut chunk: Chunk, release: &mut Release) -> io::Result<Chunk> {
    let (findings, lines) = std::mem::take(&mut chunk.released);
    if let (Some(release), false) = (release, findings.is_empty()) {
        release(findings, lines)?;
    }
    Ok(chunk)
}

impl Chunk {
    /// Adds a line; `scan`: finds its messages' parts now, else it is left unscanned.
    fn add(&mut self, format: InputFormat, line: read::Line, scan: bool) {
        self.end = line.offset + line.bytes.len() + 1;
        let start = self.text.len();
        let held = |text: &str| (line.number, line.offset, start..start + text.len());
        let at = Spot {
            line: line.number,
            span: line.offset..line.offset + line.bytes.len(),
        };
        if line.too_long {
            let message =
                format!("this line is longer than {MAX_LINE_BYTES} bytes, so it was not checked");
            let at = Spot {
                line: line.number,
                span: line.offset..line.offset,
            };
            let entry = (held(""), Some(Entry::Broken { message, at }));
            return self.entries.push(entry);
        }
        let text = match std::str::from_utf8(line.bytes) {
            Ok(text) => text,
            Err(e) => {
                let message = format!(
                    "this line is not valid UTF-8 (byte {}), so it was not checked",
                    e.valid_up_to()
                );
                let lossy = String::from_utf8_lossy(line.bytes);
                self.text.push_str(&lossy);
                let entry = (held(&lossy), Some(Entry::Broken { message, at }));
                return self.entries.push(entry);
            }
        };
        self.text.push_str(text);
        let held = held(text);
        match scan {
            true => {
                let entry = scanned(format, &self.text, &held, &mut self.parts);
                self.entries.extend(entry.map(|entry| (held, Some(entry))));
            }
            false => self.entries.push((held, None)),
        }
    }

    /// Judges the chunk's lines in order, and empties it for reuse. `streamed`: the auditor
    /// is told each line, to keep the text of those its findings are on.
    fn judge(&mut self, format: InputFormat, auditor: &mut Auditor, streamed: bool) {
        for (held, entry) in self.entries.drain(..) {
            let entry = entry.or_else(|| scanned(format, &self.text, &held, &mut self.parts));
            let Some(entry) = entry else { continue };
            let (number, offset, line) = held;
            if streamed {
                auditor.at_line(number, offset, self.text.get(line).unwrap_or_default());
            }
            match entry {
                Entry::Message {
                    line,
                    origin,
                    text,
                    parts,
                } => {
                    let origin = Origin {
                        text: self.text.get(text).unwrap_or_default(),
                        ..origin
                    };
                    for parts in self.parts.get(parts).unwrap_or_default() {
                        auditor.message(&origin, &parts.resolve(origin.text), line);
                    }
                }
                Entry::Broken { message, at } => auditor.broken(message, at),
                Entry::Truncated {
                    dir,
                    session,
                    id,
                    at,
                } => auditor.unverifiable(dir, session, id, at, |what| {
                    format!("the recorder truncated {what}")
                }),
            }
        }
        self.text.clear();
        self.parts.clear();
    }
}

/// The entry of a line of `text` (a chunk's) once scanned, its messages' parts added to
/// `parts`; `None` for a line that holds no message.
fn scanned(
    format: InputFormat,
    text: &str,
    (number, offset, line): &LineAt,
    parts: &mut Vec<Parts<Span>>,
) -> Option<Entry> {
    let start = line.start;
    let text = text.get(line.clone()).unwrap_or_default();
    let at = || Spot {
        line: *number,
        span: *offset..offset + text.len(),
    };
    Some(match read::parse_line(format, text, *offset) {
        Parsed::Message {
            origin,
            parts: found,
        } => {
            let within = start + origin.text_offset - offset;
            let first = parts.len();
            parts.extend(found);
            Entry::Message {
                line: *number,
                text: within..within + origin.text.len(),
                origin: Origin {
                    dir: origin.dir,
                    session: origin.session,
                    text: "",
                    text_offset: origin.text_offset,
                    path: origin.path,
                },
                parts: first..parts.len(),
            }
        }
        Parsed::Skip => return None,
        Parsed::Broken(message) => Entry::Broken { message, at: at() },
        Parsed::Truncated { dir, session, id } => Entry::Truncated {
            dir,
            session,
            id,
            at: at(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The findings of a transcript judged in one chunk, its lines scanned on the reading
    /// thread's side (`scan`) or left for the auditor's.
    fn judged(path: &str, format: InputFormat, scan: bool) -> Vec<String> {
        let bytes = std::fs::read(path).unwrap();
        let mut lines = Lines::new(bytes.as_slice());
        let mut chunk = Chunk::default();
        while let Some(line) = lines.next_line() {
            chunk.add(format, line.unwrap(), scan);
        }
        let mut auditor = Auditor::streamed();
        chunk.judge(format, &mut auditor, true);
        let (findings, _) = auditor.finish(format.describe(), true);
        findings
            .iter()
            .map(|f| format!("{} {:?} {}", f.rule.code, f.span, f.message))
            .collect()
    }

    #[test]
    fn lines_the_auditor_scans_are_judged_as_those_scanned_for_it() {
        for (path, format) in [
            ("MCP001/fail_broken_lines.jsonl", InputFormat::Envelope),
            (
                "MCP106/fail_structured_content.jsonl",
                InputFormat::Envelope,
            ),
            ("formats/fail_claude_server.log", InputFormat::Claude),
            (
                "formats/fail_pagination_and_batch.jsonl",
                InputFormat::Envelope,
            ),
        ] {
            let path = format!("{}/testdata/transcripts/{path}", env!("CARGO_MANIFEST_DIR"));
            let scanned = judged(&path, format, true);
            assert!(!scanned.is_empty(), "{path}");
            assert_eq!(judged(&path, format, false), scanned, "{path}");
        }
    }
}
