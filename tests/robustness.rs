//! Bad input gets a diagnostic and the run goes on: never a panic, a hang or lost findings.

mod common;

use std::path::{Path, PathBuf};

const FAIL: &str = "testdata/source/MCP101/fail_rmcp_call_tool.rs";

/// A fresh directory under Cargo's per-test scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs on `bad` and a file with known findings; returns the codes and the status.
fn run_beside(bad: &Path) -> (Vec<(String, usize, usize, String)>, i32) {
    let out = common::run(&["--format", "json", bad.to_str().unwrap(), FAIL]);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    (common::findings(&out.stdout), out.status)
}

fn parse_errors(findings: &[(String, usize, usize, String)], file: &Path) -> usize {
    findings
        .iter()
        .filter(|f| f.0 == file.to_str().unwrap() && f.3 == "MCP004")
        .count()
}

#[test]
fn invalid_utf8_is_reported_at_the_first_bad_byte() {
    let file = scratch("utf8").join("latin1.rs");
    std::fs::write(&file, b"fn main() {}\n// caf\xe9\n").unwrap();
    let (findings, status) = run_beside(&file);
    assert_eq!(parse_errors(&findings, &file), 1);
    let bad = findings
        .iter()
        .find(|f| f.0 == file.to_str().unwrap())
        .unwrap();
    assert_eq!((bad.1, bad.2), (2, 7));
    assert_eq!(findings.len(), 4, "the other file's findings are kept");
    assert_eq!(status, 1);
}

#[test]
fn a_binary_file_named_rs_is_reported() {
    let file = scratch("binary").join("blob.rs");
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(&file, bytes).unwrap();
    let (findings, _) = run_beside(&file);
    assert_eq!(parse_errors(&findings, &file), 1);
    assert_eq!(findings.len(), 4);
}

#[test]
fn deep_nesting_is_reported_instead_of_overflowing_the_stack() {
    let file = scratch("deep").join("deep.rs");
    let n = 100_000;
    std::fs::write(
        &file,
        format!(
            "use rmcp::ErrorData;\nfn f() -> i32 {{ {}1{} }}\n",
            "(".repeat(n),
            ")".repeat(n)
        ),
    )
    .unwrap();
    let (findings, _) = run_beside(&file);
    assert_eq!(parse_errors(&findings, &file), 1);
    assert_eq!(findings.len(), 4);
}

#[test]
fn a_file_over_the_size_limit_is_reported_not_parsed() {
    let file = scratch("huge").join("huge.rs");
    let line =
        "const X: &str = \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\";\n";
    std::fs::write(&file, line.repeat((17 << 20) / line.len())).unwrap();
    let (findings, _) = run_beside(&file);
    assert_eq!(parse_errors(&findings, &file), 1);
}

#[test]
fn empty_files_and_hidden_target_and_tests_folders() {
    let dir = scratch("tree");
    for sub in ["src", "target", ".hidden", "tests"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::copy(FAIL, dir.join(sub).join("server.rs")).unwrap();
    }
    std::fs::write(dir.join("src/empty.rs"), "").unwrap();
    let out = common::run(&["--format", "json", dir.to_str().unwrap()]);
    let files: Vec<String> = common::findings(&out.stdout)
        .into_iter()
        .map(|f| f.0)
        .collect();
    let expected = dir.join("src/server.rs").to_str().unwrap().to_string();
    assert_eq!(files, vec![expected; 3]);
    let summary: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        summary["summary"]["files"], 2,
        "src/empty.rs and src/server.rs"
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_do_not_hang_the_walk() {
    let dir = scratch("loop");
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("a/back")).unwrap();
    std::fs::copy(FAIL, dir.join("a/server.rs")).unwrap();
    let out = common::run(&["--format", "json", dir.to_str().unwrap()]);
    assert_eq!(common::findings(&out.stdout).len(), 3);
    assert_eq!(
        out.status, 1,
        "a loop is skipped, not trouble: {}",
        out.stderr
    );
}

#[cfg(unix)]
#[test]
fn symlinked_sources_are_walked() {
    // B15: a symlinked `src/` and a symlinked file are the server's code.
    let dir = scratch("links");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    std::fs::copy(FAIL, dir.join("real/server.rs")).unwrap();
    std::fs::create_dir_all(dir.join("crate")).unwrap();
    std::os::unix::fs::symlink(dir.join("real"), dir.join("crate/src")).unwrap();
    std::os::unix::fs::symlink(dir.join("real/server.rs"), dir.join("crate/link.rs")).unwrap();
    let out = common::run(&["--format", "json", dir.join("crate").to_str().unwrap()]);
    let files: Vec<String> = common::findings(&out.stdout)
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(files.len(), 6, "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("crate/src/server.rs")));
    assert!(files.iter().any(|f| f.ends_with("crate/link.rs")));
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

#[cfg(unix)]
#[test]
fn fifos_are_never_walked_nor_parsed_as_rust() {
    let dir = scratch("fifo");
    for name in ["pipe.rs", "pipe.jsonl"] {
        mkfifo(&dir.join(name));
    }
    std::fs::copy(FAIL, dir.join("server.rs")).unwrap();
    // Walked: skipped without a word, the other file checked.
    let out = common::run(&["--format", "json", dir.to_str().unwrap()]);
    assert_eq!(common::findings(&out.stdout).len(), 3);
    assert_eq!(out.stderr, "");
    // Named as a Rust source: refused, and the run goes on.
    let fifo = dir.join("pipe.rs");
    let out = common::run(&["--format", "json", fifo.to_str().unwrap(), FAIL]);
    assert_eq!(common::findings(&out.stdout).len(), 3);
    assert_eq!(
        out.stderr,
        format!(
            "mcp-lint: {}: not a regular file, so it was not read\n",
            fifo.display()
        )
    );
    assert_eq!(out.status, 2);
}

/// `mcp-lint audit <(zcat a.jsonl.gz) <(zcat b.jsonl.gz)`: each pipe is read as a stream, in
/// the order given. The writer fills the first pipe before it opens the second, so reading
/// them in sorted order (`a` before `b`) would wait forever.
#[cfg(unix)]
#[test]
fn named_pipes_are_audited_as_streams_in_the_order_given() {
    use std::io::Write;
    let dir = scratch("pipes");
    let (first, second) = (dir.join("b.jsonl"), dir.join("a.jsonl"));
    mkfifo(&first);
    mkfifo(&second);
    let transcripts = common::root().join("testdata/transcripts");
    let fail_104 = std::fs::read(transcripts.join("MCP104/fail_tool_failure.jsonl")).unwrap();
    let fail_101 = std::fs::read(transcripts.join("MCP101/fail_unknown_tool.jsonl")).unwrap();
    let writer = {
        let (first, second) = (first.clone(), second.clone());
        std::thread::spawn(move || {
            // gzip, as `<(cat x.jsonl.gz)` gives it: decompressed as it is read.
            let pipe = std::fs::File::create(&first).unwrap();
            let mut gz = flate2::write::GzEncoder::new(pipe, flate2::Compression::fast());
            gz.write_all(&fail_104).unwrap();
            gz.finish().unwrap();
            std::fs::write(&second, fail_101).unwrap();
        })
    };
    let (done, finished) = std::sync::mpsc::channel();
    let args = [first.clone(), second.clone()];
    std::thread::spawn(move || {
        let out = common::run(&[
            "audit",
            "--format",
            "concise",
            args[0].to_str().unwrap(),
            args[1].to_str().unwrap(),
        ]);
        let _ = done.send(out);
    });
    let out = finished
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the pipes were read in the order given");
    writer.join().unwrap();
    let lines: Vec<&str> = out.stdout.lines().collect();
    let (a, b) = (second.display(), first.display());
    assert_eq!(
        lines,
        [
            format!(
                "{a}:7:94: MCP101 error unknown tool answered with a JSON-RPC error (-32602) for tools/call `no_such_tool` (id 2)"
            ),
            format!(
                "{a}:10:94: MCP101 error unknown tool answered with a JSON-RPC error (-32602) for tools/call `gone` (id 3)"
            ),
            format!(
                "{b}:7:94: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `echo` (id 2)"
            ),
            format!(
                "{b}:9:94: MCP104 error tool failure answered with a JSON-RPC error (0) for tools/call `echo` (id 3)"
            ),
            format!(
                "{b}:10:57: MCP104 error tools/call `echo` (id 4) was never answered, though the server answered later requests"
            ),
            "mcp-lint: 5 errors, 0 warnings, 0 advice in 2 files (profile sep-2145)".to_string(),
        ]
    );
    assert_eq!((out.stderr.as_str(), out.status), ("", 1));
}

/// Files mcp-lint may not read: each is named on stderr (exit 2) and the rest is checked.
/// Root reads everything, so as root the run is made as `nobody` (setpriv, util-linux), from
/// a copy of the binary in a directory anyone can enter.
#[cfg(unix)]
#[test]
fn files_that_cannot_be_read_are_named_and_the_rest_is_checked() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("mcp-lint-unreadable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mode = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    mode(&dir, 0o755);
    let (server, locked, transcript) = (
        dir.join("server.rs"),
        dir.join("locked.rs"),
        dir.join("locked.jsonl"),
    );
    for file in [&server, &locked] {
        std::fs::copy(FAIL, file).unwrap();
    }
    std::fs::write(
        &transcript,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
    )
    .unwrap();
    let bin = dir.join("mcp-lint");
    std::fs::copy(env!("CARGO_BIN_EXE_mcp-lint"), &bin).unwrap();
    mode(&server, 0o644);
    mode(&bin, 0o755);
    mode(&locked, 0o000);
    mode(&transcript, 0o000);

    let privileged = std::fs::read(&locked).is_ok();
    let mut command = match privileged {
        true => {
            let mut setpriv = std::process::Command::new("setpriv");
            setpriv.args(["--reuid=65534", "--regid=65534", "--clear-groups"]);
            setpriv.arg(&bin);
            setpriv
        }
        false => std::process::Command::new(&bin),
    };
    let out = command
        .args(["--format", "concise"])
        .args([&locked, &server, &transcript])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(
        stderr,
        format!(
            "mcp-lint: {}: Permission denied (os error 13)\nmcp-lint: {}: Permission denied (os error 13)\n",
            transcript.display(),
            locked.display()
        ),
        "in path order"
    );
    let checked = stdout
        .lines()
        .filter(|l| l.starts_with(server.to_str().unwrap()));
    assert_eq!(checked.count(), 3, "{stdout}");
    assert_eq!(out.status.code(), Some(2));
}

/// The pre-commit hook passes every staged `*.json`: with `--skip-non-transcripts` an
/// Inspector export is audited, JSON of any other shape (or none) is skipped as a walk skips
/// it, and an export cut short is still MCP004.
#[test]
fn skip_non_transcripts_audits_inspector_exports_among_other_json() {
    let dir = scratch("json");
    let export = common::root().join("testdata/transcripts/formats/fail_inspector_export.json");
    let text = std::fs::read_to_string(&export).unwrap();
    let files = [
        ("export.json", text.as_str()),
        ("cut.json", &text[..300]),
        (
            "package.json",
            "{\n  \"name\": \"x\",\n  \"version\": \"1.0.0\"\n}\n",
        ),
        (
            "compact.json",
            "{\"compilerOptions\": {\"strict\": true}}\n",
        ),
        ("list.json", "[\n  1,\n  2\n]\n"),
        ("empty.json", ""),
    ];
    let mut args = vec!["audit", "--skip-non-transcripts", "--format", "json"];
    let paths: Vec<String> = files
        .iter()
        .map(|(name, text)| {
            std::fs::write(dir.join(name), text).unwrap();
            dir.join(name).display().to_string()
        })
        .collect();
    args.extend(paths.iter().map(String::as_str));
    let out = common::run(&args);
    let at = |name: &str| dir.join(name).display().to_string();
    assert_eq!(
        common::findings(&out.stdout),
        [
            (at("cut.json"), 1, 1, "MCP004".to_string()),
            (at("export.json"), 154, 18, "MCP101".to_string()),
            (at("export.json"), 179, 18, "MCP201".to_string()),
        ]
    );
    assert_eq!((out.status, out.stderr.as_str()), (1, ""));
    // Without the flag a named file that is no transcript is not checked, and says so.
    let out = common::run(&["audit", "--format", "json", &at("package.json")]);
    assert_eq!(
        common::findings(&out.stdout),
        [(at("package.json"), 1, 1, "MCP004".to_string())]
    );
}
