//! `mcp-lint record -o FILE -- CMD ARGS...`: a transparent proxy in front of a stdio server.
//!
//! The host talks to mcp-lint as if it were the server: bytes go both ways unchanged, the
//! server's stderr is the proxy's, signals are forwarded, and the server's exit status is
//! returned.

use std::io::{self, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread;

use super::{RELAY_STACK_BYTES, SharedRecorder, record};
use crate::cli::RecordArgs;
use crate::transcript::read::Dir;
use crate::{Env, exit};

pub fn run(args: &RecordArgs, recorder: SharedRecorder, env: &mut Env) -> io::Result<i32> {
    let (program, rest) = args.command.split_first().expect("clap requires a command");
    let mut command = Command::new(program);
    command
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    #[cfg(unix)]
    {
        // Its own process group: a terminal's Ctrl-C reaches the server once, through us.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            let name = program.to_string_lossy();
            writeln!(env.stderr, "mcp-lint: cannot start `{name}`: {e}")?;
            return Ok(exit::TROUBLE);
        }
    };
    #[cfg(unix)]
    let signals = signals::forward(child.id())?;

    let mut server_in = child.stdin.take().expect("piped");
    let up = Arc::clone(&recorder);
    // Not joined: it may be blocked reading our stdin when the server exits.
    thread::Builder::new()
        .stack_size(RELAY_STACK_BYTES)
        .spawn(move || {
            let _ = relay(io::stdin().lock(), &mut server_in, &up, Dir::ClientToServer);
            // Dropping `server_in` closes the server's stdin: the host has gone.
        })?;
    let server_out = child.stdout.take().expect("piped");
    let relayed = relay(server_out, env.stdout, &recorder, Dir::ServerToClient);
    if relayed.is_err() {
        // The host closed our stdout: nobody is left to answer.
        let _ = child.kill();
    }
    let status = child.wait()?;
    #[cfg(unix)]
    signals.close();
    super::report_failure(&recorder, &args.output, env)?;
    Ok(exit_code(status))
}

/// Copies `from` to `to` as it arrives, recording each line. A line is recorded before the
/// chunk that completes it is passed on, so a request is in the file before its response.
fn relay(
    mut from: impl Read,
    to: &mut dyn Write,
    recorder: &SharedRecorder,
    dir: Dir,
) -> io::Result<()> {
    let mut buf = vec![0; 1 << 16];
    let mut line = Vec::new();
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let chunk = &buf[..n];
        let mut rest = chunk;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            line.extend_from_slice(&rest[..end]);
            record(recorder, |r| r.raw(dir, &line));
            line.clear();
            rest = &rest[end + 1..];
        }
        line.extend_from_slice(rest);
        to.write_all(chunk)?;
        to.flush()?;
    }
    record(recorder, |r| r.raw(dir, &line));
    Ok(())
}

fn exit_code(status: ExitStatus) -> i32 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return 128 + signal;
        }
    }
    status.code().unwrap_or(exit::TROUBLE)
}

#[cfg(unix)]
mod signals {
    use std::io;
    use std::thread;

    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};
    use signal_hook::iterator::{Handle, Signals};

    /// Sends the signals a host sends us on to the server, until the handle is closed.
    pub fn forward(pid: u32) -> io::Result<Handle> {
        let mut signals = Signals::new([SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2])?;
        let handle = signals.handle();
        let pid = pid as libc::pid_t;
        thread::spawn(move || {
            for signal in signals.forever() {
                // SAFETY: kill(2) takes plain integers and touches no memory of ours.
                unsafe { libc::kill(pid, signal) };
            }
        });
        Ok(handle)
    }
}
