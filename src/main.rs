use std::io::{IsTerminal, Write};

fn main() {
    let stdout = std::io::stdout();
    let mut stdout_lock = std::io::BufWriter::new(stdout.lock());
    let mut stderr = std::io::stderr();
    let status = {
        let mut env = mcp_lint::Env {
            stdout: &mut stdout_lock,
            stderr: &mut stderr,
            stdout_is_terminal: stdout.is_terminal(),
            stderr_is_terminal: std::io::stderr().is_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            stdin: &mut std::io::stdin(),
            cwd: std::env::current_dir().unwrap_or_default(),
        };
        mcp_lint::run(std::env::args_os(), &mut env)
    };
    let _ = stdout_lock.flush();
    std::process::exit(status);
}
