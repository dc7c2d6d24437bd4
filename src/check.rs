//! The commands: `check`, `rules` and `explain`.

use std::collections::{HashMap, HashSet};
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::cli::{AuditArgs, CheckArgs, Deny, ListFormat, OutputArgs};
use crate::config::{self, Config};
use crate::finding::{FileReport, Finding};
use crate::report::{self, Report};
use crate::rules::{self, Level, PARSE_ERROR};
use crate::source::index::{self, CrateIndex, FileSummary};
use crate::text::SourceText;
use crate::transcript::{self, read::InputFormat};
use crate::walk::{Input, Kind};
use crate::{Env, exit, source, suppress, use_color, walk};

/// Larger Rust files are reported as not checked rather than parsed (generated code, data).
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// syn recurses once per nesting level, and jsonschema once per level of a schema from the
/// traffic; deeply nested input needs more than the default stack.
pub(crate) const WORKER_STACK_BYTES: usize = 256 << 20;

pub fn run(args: &CheckArgs, env: &mut Env) -> io::Result<i32> {
    report_inputs(
        walk::collect(&args.paths, false),
        InputFormat::Auto,
        &args.output,
        env,
    )
}

pub fn audit(args: &AuditArgs, env: &mut Env) -> io::Result<i32> {
    report_inputs(
        walk::collect(&args.files, true),
        args.input_format,
        &args.output,
        env,
    )
}

/// Checks the inputs, renders one report, and returns the exit status.
fn report_inputs(
    mut inputs: walk::Inputs,
    format: InputFormat,
    args: &OutputArgs,
    env: &mut Env,
) -> io::Result<i32> {
    let config = match settings(args, env) {
        Ok(config) => config,
        Err(status) => return Ok(status),
    };
    let format = match format {
        InputFormat::Auto => config.input_format.unwrap_or(InputFormat::Auto),
        format => format,
    };
    // Excludes hold for files named explicitly too, as pre-commit names every staged file.
    inputs.files.retain(|i| !config.excluded(&i.path, &env.cwd));
    let mut trouble = !inputs.errors.is_empty();
    for error in &inputs.errors {
        writeln!(env.stderr, "mcp-lint: {error}")?;
    }
    // Standard input can be read once only: keep it for the transcript's two passes.
    let stdin = match inputs.files.iter().any(|i| i.path.as_os_str() == "-") {
        true => Some(read_stdin()?),
        false => None,
    };
    let show_progress = env.stderr_is_terminal && !args.quiet;
    let checked = check_all(&inputs.files, format, stdin.as_deref(), show_progress);
    let mut report = Report::default();
    for (input, result) in inputs.files.iter().zip(checked) {
        match result {
            Ok(file) => report.files.push(file),
            Err(error) => {
                trouble = true;
                writeln!(env.stderr, "mcp-lint: {}: {error}", input.path.display())?;
            }
        }
    }
    if show_progress && inputs.files.iter().any(|i| i.kind == Kind::Transcript) {
        eprint!("\r\x1b[K"); // clear the progress line
    }
    conclude(report, trouble, &config, args, env, |_, _| Ok(()))
}

/// Applies the configuration to the findings, lets `preface` write what comes before them,
/// renders the report, and returns the exit status (trouble wins over findings).
pub(crate) fn conclude(
    mut report: Report,
    trouble: bool,
    config: &Config,
    args: &OutputArgs,
    env: &mut Env,
    preface: impl FnOnce(&Report, &mut dyn io::Write) -> io::Result<()>,
) -> io::Result<i32> {
    for file in &mut report.files {
        let name = file.source.name.clone();
        let path = Path::new(&name);
        suppress::apply(file, |rule| {
            config.level(rule, None, path, &env.cwd).is_some()
        });
        file.findings
            .retain_mut(|f| match config.level(f.rule, f.aspect, path, &env.cwd) {
                Some(level) => {
                    let denied = level == Level::Warning && args.deny == Some(Deny::Warnings);
                    f.level = if denied { Level::Error } else { level };
                    true
                }
                None => false,
            });
    }
    report.profile = config.profile.name();
    report.base = env.cwd.clone();
    let options = report::Options {
        format: args.format,
        color: use_color(args.color, env),
        quiet: args.quiet,
        statistics: args.statistics,
    };
    preface(&report, env.stdout)?;
    report.render(options, env.stdout)?;
    env.stdout.flush()?;
    Ok(if trouble {
        exit::TROUBLE
    } else if report.counts().errors > 0 {
        exit::FINDINGS
    } else {
        exit::CLEAN
    })
}

/// The configuration with the command line applied, or the exit status of a bad one (the
/// error is reported on stderr).
pub(crate) fn settings(args: &OutputArgs, env: &mut Env) -> Result<Config, i32> {
    let mut config = match Config::load(args.config.as_deref(), &env.cwd) {
        Ok(config) => config,
        Err(error) => {
            let _ = report::render_config_error(&error, use_color(args.color, env), env.stderr);
            return Err(exit::TROUBLE);
        }
    };
    if let Some(profile) = args.profile {
        config.profile = profile;
    }
    let levels = args
        .warn
        .iter()
        .map(|r| (r, Some(Level::Warning)))
        .chain(args.allow.iter().map(|r| (r, None)));
    for (name, level) in levels {
        let Some(rule) = rules::lookup(name) else {
            let hint = config::did_you_mean(name)
                .map(|h| format!("; {h}"))
                .unwrap_or_default();
            let _ = writeln!(
                env.stderr,
                "mcp-lint: {}{hint} (`mcp-lint rules` lists them)",
                config::unknown_rule(name)
            );
            return Err(exit::TROUBLE);
        };
        config.set_level(rule, level);
    }
    Ok(config)
}

fn read_stdin() -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)?;
    Ok(bytes)
}

/// Checks every file on a few worker threads; results come back in input order.
fn check_all(
    files: &[Input],
    format: InputFormat,
    stdin: Option<&[u8]>,
    show_progress: bool,
) -> Vec<Result<FileReport, String>> {
    // The crate facts come from every file of the crates involved, even when only some are
    // named (pre-commit names the staged files): a helper may live in an unchanged file.
    let context = crate_files(files);
    // Phase zero: the names each crate gives rmcp's error (`pub type McpError = ..`), and which
    // files mention anything this pass looks at: only those are parsed.
    let scans = parallel(context.len(), |i| {
        // Oversized files are not read here; phase two reports them without reading either.
        if std::fs::metadata(&context[i]).ok()?.len() > MAX_SOURCE_BYTES {
            return None;
        }
        let text = std::fs::read_to_string(&context[i]).ok()?;
        let matters = source::may_matter(&text, &[]);
        Some((
            index::crate_dir(&context[i]),
            index::rmcp_error_aliases(&text),
            matters,
            matters && source::may_report(&text),
        ))
    });
    // Helpers matter only to crates with something to report: the others are not summarized.
    let reporting: HashSet<&PathBuf> = scans
        .iter()
        .flatten()
        .filter(|scan| scan.3)
        .map(|scan| &scan.0)
        .collect();
    let mut aliases: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    for (dir, names, ..) in scans
        .iter()
        .flatten()
        .filter(|(_, names, ..)| !names.is_empty())
    {
        aliases
            .entry(dir.clone())
            .or_default()
            .extend(names.iter().cloned());
    }
    let none = HashSet::new();
    let crate_aliases = |path: &Path| aliases.get(&index::crate_dir(path)).unwrap_or(&none);
    let relevant: Vec<bool> = context
        .iter()
        .zip(&scans)
        .map(|(path, scan)| match scan {
            Some((dir, ..)) if !reporting.contains(dir) => false,
            Some((_, _, true, _)) => true,
            // Only a crate alias of rmcp's error would make it matter: read it again for those.
            Some((dir, _, false, _)) => aliases.get(dir).is_some_and(|names| {
                let text = std::fs::read_to_string(path).unwrap_or_default();
                source::may_matter(&text, &names.iter().map(String::as_str).collect::<Vec<_>>())
            }),
            None => true, // unreadable or oversized: reported in phase two
        })
        .collect();
    let relevant_paths: HashSet<&PathBuf> = context
        .iter()
        .zip(&relevant)
        .filter(|(_, r)| **r)
        .map(|(p, _)| p)
        .collect();
    // Phase one: what every relevant file's functions hand their callers, merged per crate.
    let mut summaries = parallel(context.len(), |i| match relevant[i] {
        true => summarize_one(&context[i], crate_aliases(&context[i])),
        false => None,
    });
    // A domain error with `From<X> for ErrorData` is often returned by functions of files
    // that mention nothing MCP (`fn fetch(..) -> Result<_, FetchError>`): summarize the
    // files that name such an `X` too, so `fetch(..)?` in a tool is seen converting.
    let mut converted: HashMap<&Path, Vec<&str>> = HashMap::new();
    for summary in summaries.iter().flatten() {
        let types = converted.entry(&summary.crate_dir).or_default();
        types.extend(summary.froms.iter().map(|(ty, _)| ty.as_str()));
    }
    let more = parallel(context.len(), |i| {
        let types = converted.get(index::crate_dir(&context[i]).as_path())?;
        if relevant[i] || types.is_empty() {
            return None;
        }
        let text = std::fs::read_to_string(&context[i]).ok()?;
        types
            .iter()
            .any(|ty| text.contains(ty))
            .then(|| summarize_one(&context[i], crate_aliases(&context[i])))?
    });
    summaries.extend(more);
    let unparsed: HashSet<&PathBuf> = context
        .iter()
        .zip(&summaries)
        .filter(|(_, s)| s.as_ref().is_some_and(|s| s.unparsed))
        .map(|(p, _)| p)
        .collect();
    let index = CrateIndex::build(summaries.into_iter().flatten().collect(), aliases);
    // Phase two: every file, with the crate's helpers known.
    let checked = parallel(files.len(), |i| {
        let input = &files[i];
        Some(match input.kind {
            Kind::Rust => {
                let relevant = relevant_paths.contains(&input.path);
                check_one(
                    &input.path,
                    &index,
                    relevant,
                    unparsed.contains(&input.path),
                )
            }
            Kind::Transcript => {
                let name = input.path.display().to_string();
                let report = move |bytes: usize| {
                    eprint!(
                        "\r\x1b[Kmcp-lint: auditing {name}: {} MiB read",
                        bytes >> 20
                    )
                };
                audit_one(&input.path, format, stdin, show_progress.then_some(&report))
            }
        })
    });
    let lost = || Err("internal error: the file was not checked; please report it".to_string());
    checked
        .into_iter()
        .map(|r| r.unwrap_or_else(lost))
        .collect()
}

/// Every Rust file of the crates the Rust inputs belong to (a crate is the nearest directory
/// with a `Cargo.toml`), walked as `check` walks directories; each file once.
fn crate_files(files: &[Input]) -> Vec<PathBuf> {
    let rust = files.iter().filter(|i| i.kind == Kind::Rust);
    let mut dirs: Vec<PathBuf> = rust.clone().map(|i| index::crate_dir(&i.path)).collect();
    dirs.sort();
    dirs.dedup();
    // Compared as absolute paths, lexically: a stat per file of a large tree costs seconds.
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut seen = HashSet::new();
    let named = rust.map(|i| i.path.clone());
    let walked = walk::collect(&dirs, false)
        .files
        .into_iter()
        .map(|i| i.path);
    named
        .chain(walked)
        .filter(|p| seen.insert(config::normalize(&cwd.join(p))))
        .collect()
}

/// `work(i)` for every `i < count`, on a few worker threads; results in index order. A
/// worker that panics loses only its own results, which come back as `T::default()`.
fn parallel<T: Send + Default>(count: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count)
        .max(1);
    let mut results: Vec<T> = (0..count).map(|_| T::default()).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= count {
                                break;
                            }
                            done.push((i, work(i)));
                        }
                        done
                    })
                    .expect("spawning a worker thread")
            })
            .collect();
        for handle in handles {
            for (i, result) in handle.join().unwrap_or_default() {
                results[i] = result;
            }
        }
    });
    results
}

/// A Rust file's text, or the finding that says why it cannot be read as Rust.
fn read_source(path: &Path) -> Result<Result<Arc<SourceText>, FileReport>, String> {
    let name = path.display().to_string();
    let size = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if size > MAX_SOURCE_BYTES {
        let source = Arc::new(SourceText::new(name, String::new()));
        let message = format!(
            "file is {size} bytes, over the {MAX_SOURCE_BYTES}-byte limit, so it was not checked"
        );
        return Ok(Err(FileReport::new(source, vec![not_checked(message)])));
    }
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Ok(Arc::new(SourceText::new(name, text)))),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let source = Arc::new(SourceText::new(
                name,
                String::from_utf8_lossy(e.as_bytes()).into_owned(),
            ));
            let mut finding = not_checked(format!(
                "not valid UTF-8 (byte {at}), so it was not checked"
            ));
            finding.span = at..at;
            Ok(Err(FileReport::new(source, vec![finding])))
        }
    }
}

fn summarize_one(path: &Path, crate_aliases: &HashSet<String>) -> Option<FileSummary> {
    let source = read_source(path).ok()?.ok()?;
    catch_unwind(AssertUnwindSafe(|| {
        source::summarize(&source, path, crate_aliases)
    }))
    .ok()
}

/// Checks a Rust file; one that mentions nothing MCP-related (`relevant` false) was read
/// in phase zero and is not read again. A file without findings does not keep its text.
/// `unparsed`: phase one could not parse it, so it is parsed again to say why.
fn check_one(
    path: &Path,
    index: &CrateIndex,
    relevant: bool,
    unparsed: bool,
) -> Result<FileReport, String> {
    let name = || path.display().to_string();
    if !relevant {
        return Ok(FileReport::new(
            Arc::new(SourceText::new(name(), String::new())),
            Vec::new(),
        ));
    }
    let source = match read_source(path)? {
        Ok(source) => source,
        Err(unreadable) => return Ok(unreadable),
    };
    if !unparsed && !source::may_report(source.text()) {
        return Ok(FileReport::new(
            Arc::new(SourceText::new(name(), String::new())),
            Vec::new(),
        ));
    }
    let checked = catch_unwind(AssertUnwindSafe(|| source::check(&source, path, index)));
    let (findings, suppressions) = checked
        .map_err(|_| "internal error while checking this file; please report it".to_string())?;
    if findings.is_empty() && suppressions.is_empty() {
        return Ok(FileReport::new(
            Arc::new(SourceText::new(name(), String::new())),
            Vec::new(),
        ));
    }
    let mut report = FileReport::new(source, findings);
    report.suppressions = suppressions;
    Ok(report)
}

fn audit_one(
    path: &Path,
    format: InputFormat,
    stdin: Option<&[u8]>,
    progress: transcript::Progress,
) -> Result<FileReport, String> {
    let audit = || -> io::Result<FileReport> {
        if path.as_os_str() == "-" {
            let bytes = stdin.unwrap_or_default();
            let open = || -> io::Result<Box<dyn io::BufRead + '_>> { Ok(Box::new(bytes)) };
            return transcript::audit("-", &open, format, progress);
        }
        let open = || -> io::Result<Box<dyn io::BufRead>> {
            Ok(Box::new(io::BufReader::with_capacity(
                1 << 16,
                std::fs::File::open(path)?,
            )))
        };
        transcript::audit(&path.display().to_string(), &open, format, progress)
    };
    catch_unwind(AssertUnwindSafe(audit))
        .map_err(|_| "internal error while auditing this file; please report it".to_string())?
        .map_err(|e| e.to_string())
}

fn not_checked(message: String) -> Finding {
    Finding::new(&PARSE_ERROR, 0..0, message, "here")
}

pub fn list_rules(format: ListFormat, env: &mut Env) -> io::Result<i32> {
    match format {
        ListFormat::Human => {
            for rule in rules::RULES {
                let passes = match (rule.source, rule.transcript) {
                    (true, true) => "source, transcript",
                    (true, false) => "source",
                    _ => "transcript",
                };
                writeln!(
                    env.stdout,
                    "{:<7} {:<34} {:<8} {:<19} {}",
                    rule.code, rule.name, rule.level, passes, rule.summary
                )?;
            }
        }
        ListFormat::Json => {
            let list: Vec<serde_json::Value> = rules::RULES
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "code": r.code, "name": r.name, "level": r.level.as_str(),
                        "source": r.source, "transcript": r.transcript, "summary": r.summary,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut *env.stdout, &list)?;
            writeln!(env.stdout)?;
        }
    }
    Ok(exit::CLEAN)
}

pub fn explain(code_or_name: &str, env: &mut Env) -> io::Result<i32> {
    if let Some(rule) = rules::lookup(code_or_name) {
        env.stdout.write_all(rule.doc.as_bytes())?;
        return Ok(exit::CLEAN);
    }
    let hint = config::did_you_mean(code_or_name)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    writeln!(
        env.stderr,
        "mcp-lint: {}{hint} (`mcp-lint rules` lists them)",
        config::unknown_rule(code_or_name)
    )?;
    Ok(exit::TROUBLE)
}
