//! The engine: runs the passes over the inputs, then decides what is reported. It applies
//! suppressions and the configuration's levels, renders one report through the chosen format,
//! and returns the exit status. The commands (`check`, `audit`, `probe`) drive it.

use std::collections::BTreeMap;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};

use crate::baseline::{self, Mode};
use crate::cli::{Deny, OutputArgs};
use crate::config::Config;
use crate::finding::{Applicability, FileReport, Finding, Level};
use crate::fingerprint::Fingerprints;
use crate::live::Live;
use crate::report::{self, Format, Report};
use crate::suppress::{self, Checked};
use crate::text::SourceText;
use crate::transcript;
use crate::walk::{Input, InputFormat, Kind};
use crate::{Env, exit, fingerprint, fix, pool, rules, source, use_color, walk};

/// How far the audit of a file is: its name and the bytes read so far.
pub type Progress<'a> = Option<&'a (dyn Fn(&str, usize) + Sync)>;

/// Checks every input, Rust files with the source pass and transcripts with the transcript
/// pass; results in input order. `streams` holds what was read of standard input (`-`) and
/// of pipes, by path.
pub fn check_inputs(
    files: &[Input],
    format: InputFormat,
    streams: &BTreeMap<PathBuf, Vec<u8>>,
    progress: Progress,
    cwd: &Path,
) -> Vec<Result<Checked, String>> {
    let of_kind = |kind| -> Vec<(usize, &PathBuf)> {
        let inputs = files
            .iter()
            .enumerate()
            .filter(move |(_, i)| i.kind == kind);
        inputs.map(|(n, i)| (n, &i.path)).collect()
    };
    let (rust, transcripts) = (of_kind(Kind::Rust), of_kind(Kind::Transcript));
    let paths: Vec<PathBuf> = rust.iter().map(|(_, p)| (*p).clone()).collect();
    let rust_results = source::check_files(&paths, cwd);
    let audits = pool::parallel(transcripts.len(), |i| {
        let name = transcripts[i].1.display().to_string();
        let report = progress.map(|p| move |bytes: usize| p(&name, bytes));
        let bytes = streams.get(transcripts[i].1);
        let stream = bytes.map(|bytes| move || decompressed(bytes.as_slice()));
        Some(audit_one(
            &files[transcripts[i].0],
            format,
            stream.as_ref().map(|o| o as &transcript::Open),
            report.as_ref().map(|r| r as &(dyn Fn(usize) + Sync)),
            None,
            false,
        ))
    });
    let mut results: Vec<Option<Result<Checked, String>>> = files.iter().map(|_| None).collect();
    for ((n, _), result) in rust.iter().zip(rust_results) {
        results[*n] = Some(result);
    }
    for ((n, _), result) in transcripts.iter().zip(audits) {
        results[*n] = result.map(|r| r.map(Checked::from));
    }
    let lost = || Err("internal error: the file was not checked; please report it".to_string());
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(lost))
        .collect()
}

/// A worker hands a file's findings over in batches of at least this many (but the last),
/// and a file audited ahead of its turn holds at most [`BATCHES_AHEAD`] of them: then its
/// audit waits, so memory stays flat whatever the findings of the files still to be written,
/// and a file with few findings can be audited far ahead.
const BATCH_FINDINGS: usize = 512;
const BATCHES_AHEAD: usize = 1;

/// What a worker sends of a file it audits: its findings in batches as they are judged, then
/// the rest.
enum Audited {
    Batch(Vec<FileReport>),
    Done(Result<FileReport, String>),
}

/// What a streamed audit's findings go through before they are written: the levels of the
/// configuration and the command line, and the baseline, if one is given.
pub struct Policy<'a> {
    pub config: &'a Config,
    pub args: &'a OutputArgs,
    pub baseline: Option<baseline::Matching<'a>>,
}

/// Audits the transcripts, and writes each finding to `stream` as soon as no later one can
/// precede it, at the level the configuration gives it: memory does not grow with findings.
/// Named files are audited on worker threads, a few at a time (each on two threads of its own,
/// see `transcript::chunk`), while this thread writes the findings of one file after another.
/// Standard input is read on this thread as it arrives, at its turn (with `jsonl`, each of
/// its lines is judged before the next is read). Results in input order; an error writing the
/// output ends the run.
pub fn stream_inputs(
    files: &[Input],
    format: InputFormat,
    stdin: &mut dyn io::Read,
    progress: Progress,
    policy: &mut Policy,
    stream: &mut report::Stream,
) -> io::Result<Vec<Result<(), String>>> {
    let named: Vec<usize> = (0..files.len())
        .filter(|&n| files[n].path.as_os_str() != "-")
        .collect();
    let (senders, receivers): (Vec<_>, Vec<_>) = files
        .iter()
        .map(|_| sync_channel::<Audited>(BATCHES_AHEAD))
        .unzip();
    let (next, stop) = (AtomicUsize::new(0), AtomicBool::new(false));
    let worker = || {
        while let Some(&n) = named.get(next.fetch_add(1, Ordering::Relaxed)) {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let sent = &senders[n];
            let name = files[n].path.display().to_string();
            let report = progress.map(|p| |bytes: usize| p(&name, bytes));
            let progress = report.as_ref().map(|r| r as &(dyn Fn(usize) + Sync));
            let (mut batch, mut count) = (Vec::new(), 0);
            let mut sink = |file: FileReport| {
                count += file.findings.len();
                batch.push(file);
                if count < BATCH_FINDINGS {
                    return Ok(());
                }
                count = 0;
                let sent = sent.send(Audited::Batch(std::mem::take(&mut batch)));
                sent.map_err(|_| io::Error::other("the report was not written to its end"))
            };
            let rest = audit_one(&files[n], format, None, progress, Some(&mut sink), false);
            let _ = sent.send(Audited::Batch(batch));
            let _ = sent.send(Audited::Done(rest));
        }
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(named.len()) {
            std::thread::Builder::new()
                .stack_size(pool::WORKER_STACK_BYTES)
                .spawn_scoped(scope, worker)?;
        }
        let mut written = || {
            let mut results = Vec::with_capacity(files.len());
            for (input, received) in files.iter().zip(&receivers) {
                let stdin: Option<&mut dyn io::Read> = match input.path.as_os_str() == "-" {
                    true => Some(&mut *stdin),
                    false => None,
                };
                let written = write_one(input, received, stdin, format, progress, policy, stream);
                results.push(written?);
            }
            Ok(results)
        };
        let results = written();
        // Workers waiting to hand over a batch of a file that will not be written stop.
        stop.store(true, Ordering::Relaxed);
        drop(receivers);
        results
    })
}

/// Writes the findings of one input to `stream`, at its turn: those a worker sends, or, for
/// standard input (`stdin`), those of its audit here. The audit's result, or the error that
/// writing met, which ends the run.
fn write_one(
    input: &Input,
    received: &Receiver<Audited>,
    stdin: Option<&mut dyn io::Read>,
    format: InputFormat,
    progress: Progress,
    policy: &mut Policy,
    stream: &mut report::Stream,
) -> io::Result<Result<(), String>> {
    let cwd = stream.base();
    let name = input.path.display().to_string();
    let Policy {
        config,
        args,
        baseline,
    } = policy;
    // Only SARIF, GitLab and a baseline read fingerprints; the others need not count repeats.
    let mut prints = (matches!(args.format, Format::Sarif | Format::Gitlab) || baseline.is_some())
        .then(|| Fingerprints::new(&name, &cwd));
    // A failed write stops the audit, and the run: it is no fault of the file.
    let mut unwritten = None;
    let mut sink = |file: FileReport| {
        let mut file = leveled(file.into(), config, args, &cwd);
        if let Some(prints) = &mut prints {
            prints.assign(&mut file);
        }
        if let Some(baseline) = baseline.as_mut() {
            baseline.remove_known(&mut file);
        }
        stream
            .findings(&file)
            .and_then(|()| stream.flush())
            .inspect_err(|e| unwritten = Some(e.kind()))
    };
    let rest = match stdin {
        Some(stdin) => {
            let live = match Live::start(stdin) {
                Ok(live) => live,
                Err(e) => return Ok(Err(e.to_string())),
            };
            let report = progress.map(|p| |bytes: usize| p(&name, bytes));
            let progress = report.as_ref().map(|r| r as &(dyn Fn(usize) + Sync));
            let open = || decompressed(live.open());
            // A pipeline reads `jsonl` as it comes: each line of standard input is judged,
            // and its findings written, before the next is read.
            let eager = args.format == Format::Jsonl;
            audit_one(input, format, Some(&open), progress, Some(&mut sink), eager)
        }
        None => loop {
            match received.recv() {
                Ok(Audited::Batch(batch)) => {
                    if batch.into_iter().try_for_each(&mut sink).is_err() {
                        break Err(String::new());
                    }
                }
                Ok(Audited::Done(rest)) => break rest,
                Err(_) => break Err("internal error: the file was not audited".to_string()),
            }
        },
    };
    let rest = rest.and_then(|rest| sink(rest).map_err(|e| e.to_string()));
    if let Some(kind) = unwritten {
        return Err(kind.into());
    }
    match rest {
        Ok(()) => {
            if let Some(baseline) = &mut policy.baseline {
                baseline.checked(&name, &cwd);
            }
            stream.file_done(&name).map(Ok)
        }
        Err(error) => Ok(Err(error)),
    }
}

/// Audits a transcript: from `stream` where it was read from standard input or a pipe, else
/// from its file. `eager`: a stream is judged a line at a time, its findings going to `sink`
/// as they are judged.
fn audit_one(
    input: &Input,
    format: InputFormat,
    stream: Option<&transcript::Open>,
    progress: transcript::Progress,
    sink: Option<transcript::Sink>,
    eager: bool,
) -> Result<FileReport, String> {
    let (path, named) = (&input.path, !input.walked);
    let name = path.display().to_string();
    let audit = || -> io::Result<FileReport> {
        if let Some(stream) = stream {
            return transcript::audit(&name, stream, format, named, progress, sink, eager);
        }
        let open = || {
            let file = std::fs::File::open(path)?;
            decompressed(io::BufReader::with_capacity(1 << 16, file))
        };
        transcript::audit(&name, &open, format, named, progress, sink, false)
    };
    catch_unwind(AssertUnwindSafe(audit))
        .map_err(|_| "internal error while auditing this file; please report it".to_string())?
        .map_err(|e| e.to_string())
}

/// A file's findings with suppressions applied, at the levels the configuration and
/// `--deny` give them; those of rules turned off are dropped.
fn leveled(file: Checked, config: &Config, args: &OutputArgs, cwd: &Path) -> FileReport {
    let name = file.report.source.name.clone();
    let path = Path::new(&name);
    let mut file = suppress::apply(file, |rule| config.level(rule, None, path, cwd).is_some());
    file.findings
        .retain_mut(|f| match config.level(f.rule, f.aspect, path, cwd) {
            Some(level) => {
                let denied = level == Level::Warning && args.deny == Some(Deny::Warnings);
                f.level = if denied { Level::Error } else { level };
                true
            }
            None => false,
        });
    file
}

/// How many rounds of fixes a run makes at most: a fix that overlapped another, or failed
/// with others and is tried alone, waits for a later round (ruff bounds its rounds too).
const FIX_ROUNDS: usize = 16;

/// What `--fix` and `--diff` would make of the Rust files.
#[derive(Debug, Default)]
pub struct Fixed {
    /// Each changed file: its name as given, its text before and after, by name.
    pub files: Vec<(String, String, String)>,
    /// The fixes applied.
    pub applied: usize,
    /// Unsafe fixes left out for want of `--unsafe-fixes`.
    pub unsafe_left: usize,
    /// Fixes turned down: the code they make does not parse, or the check finds something
    /// new in it (a tool error that says nothing, MCP201).
    pub rejected: usize,
}

/// Applies the fixes of the Rust files `paths` to their texts in memory, in rounds: each
/// round applies each file's fixes that do not overlap, and keeps the round only if the files
/// still parse and a new check finds the fixed findings gone and nothing new anywhere. A file
/// whose fixes fail together has them tried one at a time from then on; a fix that fails
/// alone is not tried again. Unsafe fixes are applied where `unsafe_fixes` (the command
/// line) or the configuration that holds for the file says so; findings the `baseline` has
/// are not reported, and not fixed. Nothing is written.
pub fn fix_sources(
    paths: &[PathBuf],
    config: &Config,
    args: &OutputArgs,
    cwd: &Path,
    unsafe_fixes: bool,
    baseline: Option<&baseline::Baseline>,
) -> Fixed {
    let check = |texts: &source::Texts| -> Vec<FileReport> {
        let checked = source::check_texts(paths, cwd, texts).into_iter().flatten();
        let mut reports: Vec<FileReport> = checked.map(|c| leveled(c, config, args, cwd)).collect();
        fingerprint::assign(&mut reports, cwd);
        reports
    };
    let unsafe_in =
        |file: &FileReport| unsafe_fixes || config.unsafe_fixes(Path::new(&file.source.name), cwd);
    let baselined = |f: &Finding| baseline.is_some_and(|b| b.has(f));
    let mut texts = source::Texts::default();
    let mut names = BTreeMap::new();
    let mut before = check(&texts);
    let (mut applied, mut rejected) = (0, Vec::new());
    // Files whose fixes failed together: tried a fix at a time from then on.
    let mut alone = std::collections::HashSet::new();
    for _ in 0..FIX_ROUNDS {
        // Each file's fixes of this round, and the text they make.
        let mut proposed = Vec::new();
        for file in &before {
            let mut chosen = fix::apply::select(file, unsafe_in(file), &rejected, baselined);
            if alone.contains(&file.source.name) {
                chosen.truncate(1);
            }
            if chosen.is_empty() {
                continue;
            }
            let identity = |f: &&Finding| fix::apply::identity(f, &file.source);
            let ids: Vec<String> = chosen.iter().map(identity).collect();
            let fixes: Vec<_> = chosen.iter().filter_map(|f| f.fix.as_ref()).collect();
            let text = fix::apply::apply(file.source.text(), &fixes);
            proposed.push((file.source.name.clone(), text, ids));
        }
        // Parsed on the pool, whose threads have the deep stacks deeply nested code needs.
        let parses = pool::parallel(proposed.len(), |i| {
            let (name, text, _) = &proposed[i];
            let source = SourceText::new(name.clone(), text.clone());
            source::syntax_error(&source).is_none()
        });
        let mut candidate = texts.by_path.clone();
        let mut fixed: BTreeMap<String, fix::apply::Counts> = BTreeMap::new();
        for ((name, text, ids), parses) in proposed.into_iter().zip(parses) {
            if !parses {
                rejected.extend(ids);
                continue;
            }
            let path = walk::normalize(&cwd.join(&name));
            names.insert(path.clone(), name.clone());
            candidate.insert(path, text);
            let counts = fixed.entry(name).or_default();
            for id in ids {
                *counts.entry(id).or_default() += 1;
            }
        }
        if fixed.is_empty() {
            break;
        }
        let candidate = source::Texts { by_path: candidate };
        let after = check(&candidate);
        let failing = fix::apply::failing(&before, &after, &fixed);
        if failing.is_empty() {
            applied += fixed.values().flat_map(|c| c.values()).sum::<usize>();
            (texts, before) = (candidate, after);
            continue;
        }
        // Nothing of the round is kept; the next tries the other files' fixes again.
        for name in failing {
            let counts = &fixed[&name];
            match counts.values().sum::<usize>() {
                1 => rejected.extend(counts.keys().cloned()),
                _ => {
                    alone.insert(name);
                }
            }
        }
    }
    let unsafe_left = before.iter().filter(|r| !unsafe_in(r));
    let unsafe_left = unsafe_left
        .flat_map(|r| &r.findings)
        .filter(|f| {
            !baselined(f)
                && f.fix
                    .as_ref()
                    .is_some_and(|x| x.applicability == Applicability::Unsafe)
        })
        .count();
    let mut files = Vec::new();
    for (path, name) in names {
        let (Some(new), Ok(old)) = (texts.by_path.remove(&path), std::fs::read_to_string(&path))
        else {
            continue;
        };
        if new != old {
            files.push((name, old, new));
        }
    }
    rejected.sort();
    rejected.dedup();
    Fixed {
        files,
        applied,
        unsafe_left,
        rejected: rejected.len(),
    }
}

/// `reader`, or what it decompresses to when it is gzip (by its magic bytes, whatever the
/// name): log pipelines keep sessions compressed, read here as a stream.
fn decompressed<'r>(mut reader: impl io::BufRead + 'r) -> io::Result<Box<dyn io::BufRead + 'r>> {
    if reader.fill_buf()?.starts_with(&[0x1f, 0x8b]) {
        let gzip = flate2::bufread::MultiGzDecoder::new(reader);
        return Ok(Box::new(io::BufReader::with_capacity(1 << 16, gzip)));
    }
    Ok(Box::new(reader))
}

/// Applies suppressions, the configuration and the baseline to the findings, lets `preface`
/// add to the report and write what comes before the findings, renders the report (or writes
/// the baseline), and returns the exit status (trouble wins over findings).
pub fn conclude(
    checked: Vec<Checked>,
    trouble: bool,
    config: &Config,
    args: &OutputArgs,
    baseline: &Mode,
    env: &mut Env,
    preface: impl FnOnce(&mut Report, &mut dyn io::Write) -> io::Result<()>,
) -> io::Result<i32> {
    let mut report = Report::default();
    for file in checked {
        report.files.push(leveled(file, config, args, &env.cwd));
    }
    report.profile = config.profile.name();
    report.base = env.cwd.clone();
    fingerprint::assign(&mut report.files, &report.base);
    match baseline {
        Mode::Off => {}
        Mode::Filter(baseline) => {
            report.baselined = Some(baseline.apply(&mut report.files, &report.base));
        }
        Mode::Write(path) => {
            let status = if trouble { exit::TROUBLE } else { exit::CLEAN };
            return match baseline::write(path, &report.files, &report.base) {
                Ok(count) if !args.quiet => {
                    let s = if count == 1 { "" } else { "s" };
                    writeln!(
                        env.stderr,
                        "mcp-lint: wrote {count} finding{s} to the baseline {}",
                        path.display()
                    )?;
                    Ok(status)
                }
                Ok(_) => Ok(status),
                Err(e) => {
                    writeln!(env.stderr, "mcp-lint: {}: {e}", path.display())?;
                    Ok(exit::TROUBLE)
                }
            };
        }
    }
    let options = options(args, env);
    preface(&mut report, env.stdout)?;
    report.render(options, env.stdout)?;
    env.stdout.flush()?;
    Ok(status(trouble, report.counts()))
}

/// How the report is rendered.
pub fn options(args: &OutputArgs, env: &Env) -> report::Options {
    report::Options {
        format: args.format,
        color: use_color(args.color, env),
        quiet: args.quiet,
        statistics: args.statistics,
    }
}

/// The exit status: trouble wins over findings.
pub fn status(trouble: bool, counts: report::Counts) -> i32 {
    if trouble {
        exit::TROUBLE
    } else if counts.errors > 0 {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

/// The configuration with the command line applied, or the exit status of a bad one (the
/// error is reported on stderr).
pub fn settings(args: &OutputArgs, env: &mut Env) -> Result<Config, i32> {
    let mut config = match Config::load(args.config.as_deref(), &env.cwd) {
        Ok(config) => config,
        Err(error) => {
            let _ = report::render_config_error(&error, use_color(args.color, env), env.stderr);
            return Err(exit::TROUBLE);
        }
    };
    if let Some(profile) = args.profile {
        config.profile = profile;
        config.cli_profile = Some(profile);
    }
    let levels = args
        .warn
        .iter()
        .map(|r| (r, Some(Level::Warning)))
        .chain(args.allow.iter().map(|r| (r, None)));
    for (name, level) in levels {
        let Some(rule) = rules::lookup(name) else {
            let _ = writeln!(env.stderr, "mcp-lint: {}", rules::not_a_rule(name));
            return Err(exit::TROUBLE);
        };
        config.set_level(rule, level);
    }
    Ok(config)
}
