//! `mcp-lint record`: a transparent proxy that writes every message it relays to FILE as
//! envelope JSONL, each line flushed at once, secrets redacted unless `--no-redact`. In front
//! of a stdio server ([`stdio`]) or, with `--listen`, of a Streamable HTTP one ([`http`]).

mod http;
mod stdio;
mod wire;

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter};
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::cli::RecordArgs;
use crate::transcript::write::{Recorder, timestamp_now};
use crate::{Env, exit};

/// The stack of a thread that records: redaction walks a message as deep as the audit reads
/// one (`scan::MAX_DEPTH`).
const RELAY_STACK_BYTES: usize = 16 << 20;

/// The recorder, and the first error writing it: a full disk must not stop the relay (the
/// client must not notice the proxy), so it is reported when the proxy ends.
type SharedRecorder = Arc<Mutex<(Recorder<BufWriter<File>>, Option<io::Error>)>>;

pub fn run(args: &RecordArgs, env: &mut Env) -> io::Result<i32> {
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(args.append)
        .truncate(!args.append)
        .open(&args.output);
    let file = match file {
        Ok(file) => file,
        Err(e) => {
            writeln!(env.stderr, "mcp-lint: {}: {e}", args.output.display())?;
            return Ok(exit::TROUBLE);
        }
    };
    let mut recorder = Recorder::new(BufWriter::new(file), args.redact.redactor());
    if args.append {
        // Runs appended to one file are told apart as sessions.
        recorder.session = Some(format!("record-{}-{}", timestamp_now(), std::process::id()));
    }
    let recorder: SharedRecorder = Arc::new(Mutex::new((recorder, None)));
    match (&args.listen, &args.upstream) {
        (Some(listen), Some(upstream)) => http::run(listen, upstream, args, recorder, env),
        _ => stdio::run(args, recorder, env),
    }
}

/// Writes with the recorder, unless an earlier write failed.
fn record(
    recorder: &SharedRecorder,
    write: impl FnOnce(&mut Recorder<BufWriter<File>>) -> io::Result<()>,
) {
    if let Ok(mut guard) = recorder.lock() {
        let (recorder, failed) = &mut *guard;
        if failed.is_none() {
            *failed = write(recorder).err();
        }
    }
}

/// Says so if the recording could not be written whole.
fn report_failure(recorder: &SharedRecorder, output: &Path, env: &mut Env) -> io::Result<()> {
    if let Some(error) = recorder.lock().ok().and_then(|mut r| r.1.take()) {
        writeln!(
            env.stderr,
            "mcp-lint: {}: the recording is incomplete: {error}",
            output.display()
        )?;
    }
    Ok(())
}
