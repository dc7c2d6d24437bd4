//! The commands that lint files (`check`, `audit`, `cargo mcp-lint`) and describe the rules
//! (`rules`, `explain`): they gather the inputs and hand them to the engine.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::sync::Mutex;

use crate::baseline::{Matching, Mode};
use crate::cli::{AuditArgs, BaselineArgs, CargoCli, CheckArgs, FixArgs, ListFormat, OutputArgs};
use crate::rules::{Fixable, RuleMeta};
use crate::walk::{InputFormat, Kind};
use crate::{Env, engine, exit, fix, manifest, report, rules, use_color, walk};

pub fn run(args: &CheckArgs, env: &mut Env) -> io::Result<i32> {
    report_inputs(
        walk::collect(&args.paths, false),
        None,
        &args.output,
        &args.baseline,
        Some(&args.fix),
        env,
    )
}

/// `cargo mcp-lint`: `check` over the paths given, or else the package's (or workspace's)
/// sources as its manifests name them.
pub fn cargo(args: CargoCli, env: &mut Env) -> io::Result<i32> {
    let paths = match args.paths.is_empty() {
        true => match manifest::sources(args.manifest_path.as_deref(), &env.cwd) {
            Ok(paths) => paths,
            Err(error) => {
                writeln!(env.stderr, "mcp-lint: {error}")?;
                return Ok(exit::TROUBLE);
            }
        },
        false => args.paths,
    };
    let check = CheckArgs {
        paths,
        output: args.output,
        baseline: args.baseline,
        fix: args.fix,
    };
    run(&check, env)
}

pub fn audit(args: &AuditArgs, env: &mut Env) -> io::Result<i32> {
    let mut inputs = walk::collect(&args.files, true);
    if args.skip_non_transcripts {
        for input in &mut inputs.files {
            input.walked = true;
        }
    }
    report_inputs(
        inputs,
        args.input_format,
        &args.output,
        &args.baseline,
        None,
        env,
    )
}

/// Checks the inputs (after fixing the Rust files, with `--fix`), renders one report, and
/// returns the exit status; with `--diff`, prints the fixes instead.
fn report_inputs(
    mut inputs: walk::Inputs,
    format: Option<InputFormat>,
    args: &OutputArgs,
    baseline: &BaselineArgs,
    fix: Option<&FixArgs>,
    env: &mut Env,
) -> io::Result<i32> {
    let mut config = match engine::settings(args, env) {
        Ok(config) => config,
        Err(status) => return Ok(status),
    };
    let baseline = match Mode::from_args(baseline, &env.cwd) {
        Ok(mode) => mode,
        Err(error) => {
            writeln!(env.stderr, "mcp-lint: {error}")?;
            return Ok(exit::TROUBLE);
        }
    };
    let paths: Vec<_> = inputs.files.iter().map(|i| i.path.clone()).collect();
    if let Err(error) = config.discover_nearer(&paths, &env.cwd) {
        report::render_config_error(&error, use_color(args.color, env), env.stderr)?;
        return Ok(exit::TROUBLE);
    }
    // The command line's `--input-format auto` undoes the configuration's.
    let format = format.or(config.input_format).unwrap_or(InputFormat::Auto);
    // Excludes hold for files named explicitly too, as pre-commit names every staged file;
    // a named file left out is said, once for all, so that "0 files" is not a mystery.
    let (excluded, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut inputs.files)
        .into_iter()
        .partition(|i| config.excluded(&i.path, &env.cwd));
    inputs.files = kept;
    let named: Vec<_> = excluded.iter().filter(|i| !i.walked).collect();
    if let (Some(first), false) = (named.first(), args.quiet) {
        let others = match named.len() {
            1 => String::new(),
            n => format!(" and {} other named files", n - 1),
        };
        writeln!(
            env.stderr,
            "mcp-lint: {}{others} excluded by the configuration's `exclude`, not checked",
            first.path.display()
        )?;
    }
    let mut trouble = !inputs.errors.is_empty();
    for error in &inputs.errors {
        writeln!(env.stderr, "mcp-lint: {error}")?;
    }
    if let Some(fix) = fix.filter(|f| f.fix || f.diff) {
        let rust = inputs.files.iter().filter(|i| i.kind == Kind::Rust);
        let rust: Vec<_> = rust.map(|i| i.path.clone()).collect();
        let baselined = match &baseline {
            Mode::Filter(baseline) => Some(baseline),
            _ => None,
        };
        let (cwd, unsafe_fixes) = (&env.cwd, fix.unsafe_fixes);
        let fixed = engine::fix_sources(&rust, &config, args, cwd, unsafe_fixes, baselined);
        if fix.diff {
            return show_fixes(&fixed, trouble, args.quiet, env);
        }
        trouble |= !write_fixes(&fixed, args.quiet, env)?;
    }
    // A baseline to write is written whole: those runs stay whole, and so do runs with named
    // pipes, which are read whole (below). One to filter by is applied as findings come.
    let streaming = !matches!(baseline, Mode::Write(_))
        && inputs.files.iter().all(|i| i.kind == Kind::Transcript)
        && inputs.streams.iter().all(|p| p.as_os_str() == "-");
    // Streams can be read once only: keep each whole for the transcript's two passes, unless
    // the audit streams (standard input is then read as it arrives).
    let mut streams = BTreeMap::new();
    for path in std::mem::take(&mut inputs.streams)
        .into_iter()
        .filter(|_| !streaming)
    {
        let mut bytes = Vec::new();
        let read = match path.as_os_str() == "-" {
            true => env.stdin.read_to_end(&mut bytes),
            false => File::open(&path).and_then(|mut pipe| pipe.read_to_end(&mut bytes)),
        };
        match read {
            Ok(_) => {
                streams.insert(path, bytes);
            }
            Err(error) => {
                trouble = true;
                writeln!(env.stderr, "mcp-lint: {}: {error}", path.display())?;
                inputs.files.retain(|i| i.path != path);
            }
        }
    }
    let show_progress = env.stderr_is_terminal && !args.quiet;
    let options = engine::options(args, env);
    let head = report::Head {
        profile: config.profile.name(),
        base: &env.cwd,
        clauses: &[],
        protocol_version: None,
    };
    // Written as judged: the report goes out as the files are audited.
    let mut stream = match streaming {
        true => Some(report::Stream::new(&mut *env.stdout, options, head)?),
        false => None,
    };
    let mut policy = engine::Policy {
        config: &config,
        args,
        baseline: match &baseline {
            Mode::Filter(baseline) => Some(Matching::new(baseline)),
            _ => None,
        },
    };
    let results = {
        let stderr = Mutex::new(&mut *env.stderr);
        let progress = |name: &str, bytes: usize| {
            if let Ok(mut stderr) = stderr.lock() {
                // Progress is a courtesy: a failed write must not stop the audit.
                let _ = write!(
                    stderr,
                    "\r\x1b[Kmcp-lint: auditing {name}: {} MiB read",
                    bytes >> 20
                );
            }
        };
        let progress = show_progress.then_some(&progress as _);
        match &mut stream {
            Some(stream) => {
                let results = engine::stream_inputs(
                    &inputs.files,
                    format,
                    &mut *env.stdin,
                    progress,
                    &mut policy,
                    stream,
                )?;
                results.into_iter().map(|r| r.map(|()| None)).collect()
            }
            None => {
                let results =
                    engine::check_inputs(&inputs.files, format, &streams, progress, &env.cwd);
                results.into_iter().map(|r| r.map(Some)).collect::<Vec<_>>()
            }
        }
    };
    if show_progress && inputs.files.iter().any(|i| i.kind == Kind::Transcript) {
        write!(env.stderr, "\r\x1b[K")?; // clear the progress line
    }
    let mut checked = Vec::new();
    for (input, result) in inputs.files.iter().zip(results) {
        match result {
            Ok(file) => checked.extend(file),
            Err(error) => {
                trouble = true;
                writeln!(env.stderr, "mcp-lint: {}: {error}", input.path.display())?;
            }
        }
    }
    match stream {
        Some(stream) => {
            let baselined = policy.baseline.map(|b| b.finish(&env.cwd));
            Ok(engine::status(trouble, stream.finish(baselined)?))
        }
        None => {
            drop(stream); // it borrowed stdout
            engine::conclude(checked, trouble, &config, args, &baseline, env, |_, _| {
                Ok(())
            })
        }
    }
}

/// `--diff`: the fixes as one unified diff on stdout, and what they come to on stderr. Exit
/// status 1 when something would change.
fn show_fixes(fixed: &engine::Fixed, trouble: bool, quiet: bool, env: &mut Env) -> io::Result<i32> {
    for (name, old, new) in &fixed.files {
        env.stdout
            .write_all(fix::diff::unified(name, old, new).as_bytes())?;
    }
    env.stdout.flush()?;
    if !quiet {
        let would = counted(fixed.applied, "fix", "fixes");
        writeln!(env.stderr, "mcp-lint: would apply {would}{}", notes(fixed))?;
    }
    Ok(match (trouble, fixed.files.is_empty()) {
        (true, _) => exit::TROUBLE,
        (false, false) => exit::FINDINGS,
        (false, true) => exit::CLEAN,
    })
}

/// `--fix`: writes each fixed file atomically, and says what was fixed on stderr. False when
/// a file could not be written (said too).
fn write_fixes(fixed: &engine::Fixed, quiet: bool, env: &mut Env) -> io::Result<bool> {
    let mut written = true;
    for (name, _, new) in &fixed.files {
        if let Err(error) = fix::write::atomically(&env.cwd.join(name), new) {
            writeln!(
                env.stderr,
                "mcp-lint: {name}: cannot write the fixes: {error}"
            )?;
            written = false;
        }
    }
    if !quiet && (fixed.applied > 0 || fixed.unsafe_left > 0 || fixed.rejected > 0) {
        let fixes = counted(fixed.applied, "fix", "fixes");
        let files = match fixed.files.len() {
            0 => String::new(),
            n => format!(" in {}", counted(n, "file", "files")),
        };
        writeln!(
            env.stderr,
            "mcp-lint: applied {fixes}{files}{}",
            notes(fixed)
        )?;
    }
    Ok(written)
}

/// `1 fix`, `2 fixes`.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What `--unsafe-fixes` would add, and what was turned down, if anything.
fn notes(fixed: &engine::Fixed) -> String {
    let mut notes = String::new();
    match fixed.unsafe_left {
        0 => {}
        1 => notes.push_str("; 1 more fix is available with `--unsafe-fixes`"),
        n => notes.push_str(&format!(
            "; {n} more fixes are available with `--unsafe-fixes`"
        )),
    }
    match fixed.rejected {
        0 => {}
        1 => notes.push_str("; 1 fix was not applied: the code it makes does not pass the check"),
        n => notes.push_str(&format!(
            "; {n} fixes were not applied: the code they make does not pass the check"
        )),
    }
    notes
}

pub fn list_rules(format: ListFormat, env: &mut Env) -> io::Result<i32> {
    match format {
        ListFormat::Human => {
            for rule in rules::RULES {
                writeln!(
                    env.stdout,
                    "{:<7} {:<34} {:<8} {:<19} {:<17} {}",
                    rule.code,
                    rule.name,
                    rule.level,
                    passes(rule).join(", "),
                    fix_column(rule),
                    rule.summary
                )?;
            }
        }
        ListFormat::Json => {
            let list = catalog();
            serde_json::to_writer_pretty(&mut *env.stdout, &list)?;
            writeln!(env.stdout)?;
        }
    }
    Ok(exit::CLEAN)
}

/// The `rules` table's word on fixes: `-`, `safe fix`, `unsafe fix (some)`.
fn fix_column(rule: &RuleMeta) -> String {
    match rule.fix {
        Fixable::Never => "-".to_string(),
        Fixable::Always(a) => format!("{} fix", a.as_str()),
        Fixable::Sometimes(a) => format!("{} fix (some)", a.as_str()),
    }
}

/// The passes that report `rule`.
fn passes(rule: &RuleMeta) -> Vec<&'static str> {
    let passes = [(rule.source, "source"), (rule.transcript, "transcript")];
    passes
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, p)| *p)
        .collect()
}

/// The catalog as JSON: each rule's object (see [`rule_json`]).
pub fn catalog() -> Vec<serde_json::Value> {
    rules::RULES.iter().map(|r| rule_json(r)).collect()
}

/// A rule as `rules --format json` and `explain --format json` print it: its code, name,
/// default level, passes (as a list, and as the booleans `source` and `transcript` that came
/// first), summary, the SEP clause it enforces, which fix mcp-lint offers (`none`, `safe`,
/// `unsafe`) and for which findings (`never`, `sometimes`, `always`), and its documentation
/// (rules/<CODE>.md).
fn rule_json(rule: &RuleMeta) -> serde_json::Value {
    serde_json::json!({
        "code": rule.code, "name": rule.name, "level": rule.level.as_str(),
        "source": rule.source, "transcript": rule.transcript, "passes": passes(rule),
        "summary": rule.summary, "sep": rule.sep, "fix": rule.fix(),
        "fixable": rule.fixable(), "doc": rule.doc,
    })
}

pub fn explain(code_or_name: &str, format: ListFormat, env: &mut Env) -> io::Result<i32> {
    let Some(rule) = rules::lookup(code_or_name) else {
        writeln!(env.stderr, "mcp-lint: {}", rules::not_a_rule(code_or_name))?;
        return Ok(exit::TROUBLE);
    };
    match format {
        ListFormat::Human => env.stdout.write_all(rule.doc.as_bytes())?,
        ListFormat::Json => {
            serde_json::to_writer_pretty(&mut *env.stdout, &rule_json(rule))?;
            writeln!(env.stdout)?;
        }
    }
    Ok(exit::CLEAN)
}
