//! mcp-lint: finds MCP servers that answer `tools/call` failures with JSON-RPC protocol errors
//! where SEP-2145 requires tool execution errors (`isError: true`).
//!
//! [`run`] is the whole program; the binary and the tests both call it.

mod baseline;
mod cli;
mod commands;
mod config;
mod engine;
mod evidence;
mod finding;
mod fingerprint;
mod pool;
mod probe;
mod record;
mod report;
pub mod rules;
mod serve;
mod source;
mod suppress;
mod text;
pub mod transcript;
mod walk;

use std::ffi::OsString;
use std::io::Write;

use clap::Parser;

use cli::{Cli, ColorChoice, Command};

/// Exit statuses of SPEC.md.
pub mod exit {
    /// No finding at level error.
    pub const CLEAN: i32 = 0;
    /// At least one finding at level error.
    pub const FINDINGS: i32 = 1;
    /// Usage, configuration, I/O or internal error.
    pub const TROUBLE: i32 = 2;
}

/// What the process gets from its surroundings.
pub struct Env<'a> {
    pub stdout: &'a mut dyn Write,
    /// `Send`: the progress of audits on worker threads is written here.
    pub stderr: &'a mut (dyn Write + Send),
    /// Whether stdout is a terminal (colour in `--color auto`).
    pub stdout_is_terminal: bool,
    /// Whether stderr is a terminal (progress of long audits is shown there).
    pub stderr_is_terminal: bool,
    /// `NO_COLOR` set to a non-empty value.
    pub no_color: bool,
    /// Read for an input named `-`.
    pub stdin: &'a mut dyn std::io::Read,
    /// The working directory: where configuration is looked for, and what paths are relative to.
    pub cwd: std::path::PathBuf,
}

/// Runs mcp-lint with `args` (the first one is the program name) and returns the exit status.
pub fn run<I, T>(args: I, env: &mut Env) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(cli::subcommand_first(args)) {
        Ok(cli) => cli,
        Err(error) => {
            let text = error.render().to_string();
            let out: &mut dyn Write = if error.use_stderr() {
                env.stderr
            } else {
                env.stdout
            };
            let _ = out.write_all(text.as_bytes());
            return if error.use_stderr() {
                exit::TROUBLE
            } else {
                exit::CLEAN
            };
        }
    };
    let result = match cli.command {
        None => commands::run(&cli.check, env),
        Some(Command::Check(args)) => commands::run(&args, env),
        Some(Command::Audit(args)) => commands::audit(&args, env),
        Some(Command::Probe(args)) => probe::run(&args, env),
        Some(Command::Record(args)) => record::run(&args, env),
        Some(Command::Mcp) => serve::run(env),
        Some(Command::Rules { format }) => commands::list_rules(format, env),
        Some(Command::Explain { rule }) => commands::explain(&rule, env),
    };
    match result {
        Ok(status) => status,
        // stdout closed early (`mcp-lint src/ | head`): not an error of ours.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::CLEAN,
        Err(e) => {
            let _ = writeln!(env.stderr, "mcp-lint: {e}");
            exit::TROUBLE
        }
    }
}

/// Whether human output is coloured: `--color always` wins, then `NO_COLOR`, then the terminal.
fn use_color(choice: ColorChoice, env: &Env) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => env.stdout_is_terminal && !env.no_color,
    }
}
