//! Runs mcp-lint in-process, the way the binary does.

#![allow(dead_code)] // each test crate uses part of this module

use std::path::{Path, PathBuf};

pub struct Output {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(args: &[&str]) -> Output {
    run_with(args, false, false)
}

pub fn run_with(args: &[&str], stdout_is_terminal: bool, no_color: bool) -> Output {
    run_on(args, stdout_is_terminal, false, no_color)
}

/// `stdout_is_terminal` and `stderr_is_terminal` say which outputs play a terminal.
pub fn run_on(
    args: &[&str],
    stdout_is_terminal: bool,
    stderr_is_terminal: bool,
    no_color: bool,
) -> Output {
    run_full(args, stdout_is_terminal, stderr_is_terminal, no_color, b"")
}

/// Runs mcp-lint with `stdin` as its standard input.
pub fn run_stdin(args: &[&str], stdin: &[u8]) -> Output {
    run_full(args, false, false, false, stdin)
}

/// Runs mcp-lint in the directory `cwd`.
pub fn run_in(cwd: &Path, args: &[&str]) -> Output {
    run_full_in(cwd, args, false, false, false, b"")
}

fn run_full(
    args: &[&str],
    stdout_is_terminal: bool,
    stderr_is_terminal: bool,
    no_color: bool,
    stdin: &[u8],
) -> Output {
    let root = root();
    run_full_in(
        &root,
        args,
        stdout_is_terminal,
        stderr_is_terminal,
        no_color,
        stdin,
    )
}

fn run_full_in(
    cwd: &Path,
    args: &[&str],
    stdout_is_terminal: bool,
    stderr_is_terminal: bool,
    no_color: bool,
    mut stdin: &[u8],
) -> Output {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = {
        let mut env = mcp_lint::Env {
            stdout: &mut stdout,
            stderr: &mut stderr,
            stdout_is_terminal,
            stderr_is_terminal,
            no_color,
            stdin: &mut stdin,
            cwd: cwd.to_path_buf(),
        };
        mcp_lint::run(
            std::iter::once("mcp-lint").chain(args.iter().copied()),
            &mut env,
        )
    };
    Output {
        status,
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

/// The repository root, so tests run from any directory.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The fields of a finding in `--format json` (and `jsonl`), in SPEC.md's order.
pub const FINDING_FIELDS: [&str; 11] = [
    "code",
    "rule",
    "level",
    "file",
    "line",
    "column",
    "end_line",
    "end_column",
    "message",
    "help",
    "request_id",
];

/// `(line, column, code)` of each finding in `--format json` output.
pub fn findings(json: &str) -> Vec<(String, usize, usize, String)> {
    let doc: serde_json::Value = serde_json::from_str(json).expect("valid JSON output");
    doc["findings"]
        .as_array()
        .expect("findings array")
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap() as usize,
                f["column"].as_u64().unwrap() as usize,
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The fixture server, which `cargo test` builds with the other examples.
pub fn fixture_server() -> String {
    let deps = std::env::current_exe().expect("test binary path");
    let profile_dir = deps.parent().and_then(|d| d.parent()).expect("target dir");
    let path = profile_dir.join("examples/fixture-server");
    assert!(path.exists(), "{} is built by `cargo test`", path.display());
    path.display().to_string()
}

pub fn mcp_lint() -> &'static str {
    env!("CARGO_BIN_EXE_mcp-lint")
}

/// A path in a directory of this test process's own, under cargo's scratch directory for
/// integration tests (in `target/`, so runs leave nothing behind in the system's temp dir).
pub fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mcp-lint-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `record` with `flags` in front of the fixture server with `input` as the host's
/// messages; its exit status and what it relayed to the host.
pub fn record(
    input: &[u8],
    flags: &[&str],
    server_flags: &[&str],
    transcript: &Path,
) -> (i32, Vec<u8>) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(mcp_lint())
        .args(["record", "-o"])
        .arg(transcript)
        .args(flags)
        .arg("--")
        .arg(fixture_server())
        .args(server_flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    (child.wait().unwrap().code().unwrap_or(-1), stdout)
}

/// What the binary wrote through a pipe: its first line, read while standard input was still
/// open, then the rest once it was closed; and its exit status.
pub struct Piped {
    pub first: String,
    pub rest: String,
    pub status: i32,
}

/// Runs the binary in `cwd` with `lines` written to its standard input, which stays open
/// until the first line of output has come: a run that waits for the end of its input fails
/// (after a minute), not hangs.
pub fn piped(cwd: &Path, args: &[&str], lines: &[&str]) -> Piped {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};

    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Read on a thread of its own, so that the wait can give up.
    let (sent, first) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        sent.send(line).unwrap();
        stdout
    });
    let Ok(first) = first.recv_timeout(std::time::Duration::from_secs(60)) else {
        child.kill().unwrap();
        panic!("no output before standard input was closed");
    };
    drop(stdin);
    let mut rest = String::new();
    reader.join().unwrap().read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap().code().unwrap();
    Piped {
        first,
        rest,
        status,
    }
}
