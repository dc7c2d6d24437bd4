//! mcp-lint: finds MCP servers that answer `tools/call` failures with JSON-RPC protocol errors
//! where SEP-2145 requires tool execution errors (`isError: true`).
//!
//! [`run`] is the whole program (and [`run_cargo`] the same as `cargo mcp-lint`); the binaries
//! and the tests call them.

mod baseline;
mod cli;
mod commands;
mod config;
mod engine;
mod evidence;
mod finding;
mod fingerprint;
mod fix;
mod live;
mod manifest;
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
use std::io::{IsTerminal, Write};

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
    let cli: Cli = match parse(cli::subcommand_first(args), env) {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    let result = match cli.command {
        None => commands::run(&cli.check, env),
        Some(Command::Check(args)) => commands::run(&args, env),
        Some(Command::Audit(args)) => commands::audit(&args, env),
        Some(Command::Probe(args)) => probe::run(&args, env),
        Some(Command::Record(args)) => record::run(&args, env),
        Some(Command::Mcp) => serve::run(env),
        Some(Command::Rules { format }) => commands::list_rules(format, env),
        Some(Command::Explain { rule, format }) => commands::explain(&rule, format, env),
    };
    status(result, env)
}

/// Runs `cargo mcp-lint`: cargo calls `cargo-mcp-lint mcp-lint ARGS...`, so the `mcp-lint`
/// after the program name is dropped (and may be left out when it is run by hand).
pub fn run_cargo<I, T>(args: I, env: &mut Env) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if args.get(1).is_some_and(|a| a == "mcp-lint") {
        args.remove(1);
    }
    match parse(args, env) {
        Ok(cli) => {
            let result = commands::cargo(cli, env);
            status(result, env)
        }
        Err(status) => status,
    }
}

/// The command line parsed, or the exit status once clap's message (an error, or `--help`
/// and `--version`, which succeed) is written.
fn parse<C: clap::Parser>(args: Vec<OsString>, env: &mut Env) -> Result<C, i32> {
    C::try_parse_from(args).map_err(|error| {
        let text = error.render().to_string();
        let out: &mut dyn Write = if error.use_stderr() {
            env.stderr
        } else {
            env.stdout
        };
        let _ = out.write_all(text.as_bytes());
        match error.use_stderr() {
            true => exit::TROUBLE,
            false => exit::CLEAN,
        }
    })
}

/// The exit status of a command's result; an I/O error is said on stderr.
fn status(result: std::io::Result<i32>, env: &mut Env) -> i32 {
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

/// The process around [`run`] or [`run_cargo`]: the real standard streams and working
/// directory, and the exit status. Each binary is this call and nothing else.
pub fn main(entry: fn(Vec<OsString>, &mut Env) -> i32) -> ! {
    let stdout = std::io::stdout();
    let mut stdout_lock = std::io::BufWriter::new(stdout.lock());
    let mut stderr = std::io::stderr();
    let status = {
        let mut env = Env {
            stdout: &mut stdout_lock,
            stderr: &mut stderr,
            stdout_is_terminal: stdout.is_terminal(),
            stderr_is_terminal: std::io::stderr().is_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            stdin: &mut std::io::stdin(),
            cwd: std::env::current_dir().unwrap_or_default(),
        };
        entry(std::env::args_os().collect(), &mut env)
    };
    let _ = stdout_lock.flush();
    std::process::exit(status);
}

/// Whether human output is coloured: `--color always` wins, then `NO_COLOR`, then the terminal.
fn use_color(choice: ColorChoice, env: &Env) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => env.stdout_is_terminal && !env.no_color,
    }
}
