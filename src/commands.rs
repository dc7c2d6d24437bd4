//! The commands that lint files (`check`, `audit`) and describe the rules (`rules`,
//! `explain`): they gather the inputs and hand them to the engine.

use std::io;
use std::sync::Mutex;

use crate::baseline::Mode;
use crate::cli::{AuditArgs, BaselineArgs, CheckArgs, ListFormat, OutputArgs};
use crate::walk::{InputFormat, Kind};
use crate::{Env, engine, exit, report, rules, use_color, walk};

pub fn run(args: &CheckArgs, env: &mut Env) -> io::Result<i32> {
    report_inputs(
        walk::collect(&args.paths, false),
        None,
        &args.output,
        &args.baseline,
        env,
    )
}

pub fn audit(args: &AuditArgs, env: &mut Env) -> io::Result<i32> {
    report_inputs(
        walk::collect(&args.files, true),
        args.input_format,
        &args.output,
        &args.baseline,
        env,
    )
}

/// Checks the inputs, renders one report, and returns the exit status.
fn report_inputs(
    mut inputs: walk::Inputs,
    format: Option<InputFormat>,
    args: &OutputArgs,
    baseline: &BaselineArgs,
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
    // Standard input can be read once only: keep it for the transcript's two passes.
    let stdin = match inputs.files.iter().any(|i| i.path.as_os_str() == "-") {
        true => {
            let mut bytes = Vec::new();
            env.stdin.read_to_end(&mut bytes)?;
            Some(bytes)
        }
        false => None,
    };
    let show_progress = env.stderr_is_terminal && !args.quiet;
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
        engine::check_inputs(
            &inputs.files,
            format,
            stdin.as_deref(),
            show_progress.then_some(&progress),
            &env.cwd,
        )
    };
    if show_progress && inputs.files.iter().any(|i| i.kind == Kind::Transcript) {
        write!(env.stderr, "\r\x1b[K")?; // clear the progress line
    }
    let mut checked = Vec::new();
    for (input, result) in inputs.files.iter().zip(results) {
        match result {
            Ok(file) => checked.push(file),
            Err(error) => {
                trouble = true;
                writeln!(env.stderr, "mcp-lint: {}: {error}", input.path.display())?;
            }
        }
    }
    engine::conclude(checked, trouble, &config, args, &baseline, env, |_, _| {
        Ok(())
    })
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
            let list = catalog();
            serde_json::to_writer_pretty(&mut *env.stdout, &list)?;
            writeln!(env.stdout)?;
        }
    }
    Ok(exit::CLEAN)
}

/// The catalog as JSON: each rule's code, name, level, passes and summary.
pub fn catalog() -> Vec<serde_json::Value> {
    rules::RULES
        .iter()
        .map(|r| {
            serde_json::json!({
                "code": r.code, "name": r.name, "level": r.level.as_str(),
                "source": r.source, "transcript": r.transcript, "summary": r.summary,
            })
        })
        .collect()
}

pub fn explain(code_or_name: &str, env: &mut Env) -> io::Result<i32> {
    if let Some(rule) = rules::lookup(code_or_name) {
        env.stdout.write_all(rule.doc.as_bytes())?;
        return Ok(exit::CLEAN);
    }
    writeln!(env.stderr, "mcp-lint: {}", rules::not_a_rule(code_or_name))?;
    Ok(exit::TROUBLE)
}
