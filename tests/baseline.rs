//! Baselines end to end, as a user adopts mcp-lint on a project that already has findings:
//! `--write-baseline`, edits, then `--baseline`. Each test works on a copy of fixtures in its
//! own directory, run there as the binary.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

const SOURCE: &str = "testdata/source/MCP104/fail_tool_failure.rs";
const TRANSCRIPT: &str = "testdata/transcripts/MCP104/fail_tool_failure.jsonl";

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn lint(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    Run {
        status: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// A fresh directory holding `files` (fixture, name in the project).
fn project(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("baseline-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    for (fixture, to) in files {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(common::root().join(fixture), to).unwrap();
    }
    dir
}

fn edit(path: &Path, change: impl FnOnce(String) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, change(text)).unwrap();
}

/// `(file, line, code)` of each finding, and the summary, of a `--format json` run.
fn reported(run: &Run) -> (Vec<(String, u64, String)>, Value) {
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap().iter().map(|f| {
        let file = f["file"].as_str().unwrap().to_string();
        (file, f["line"].as_u64().unwrap(), f["code"].to_string())
    });
    (findings.collect(), doc["summary"].clone())
}

fn found(file: &str, line: u64, code: &str) -> (String, u64, String) {
    (file.to_string(), line, format!("\"{code}\""))
}

fn summary(files: u64, errors: u64, baselined: u64, stale: u64) -> Value {
    json!({"files": files, "errors": errors, "warnings": 0, "advice": 0,
           "baselined": baselined, "stale_baseline_entries": stale})
}

#[test]
fn code_that_moves_stays_baselined_and_code_that_changes_is_reported() {
    let dir = project("moved", &[(SOURCE, "src/server.rs")]);
    // The default command, on `.`: the file is named `./src/server.rs` in this run.
    let written = lint(&dir, &["--write-baseline", "mcp-lint-baseline.json"]);
    assert_eq!(
        written.status, 0,
        "findings of level error are recorded, not failed"
    );
    assert_eq!(written.stdout, "");
    assert_eq!(
        written.stderr,
        "mcp-lint: wrote 5 findings to the baseline mcp-lint-baseline.json\n"
    );
    let text = std::fs::read_to_string(dir.join("mcp-lint-baseline.json")).unwrap();
    let baseline: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(baseline["version"], 1);
    let entries = baseline["findings"].as_array().unwrap();
    let places: Vec<(&str, &str, u64)> = entries
        .iter()
        .map(|e| {
            let fingerprint = e["fingerprint"].as_str().unwrap();
            assert_eq!(fingerprint.len(), 32, "{fingerprint}");
            assert!(fingerprint.bytes().all(|b| b.is_ascii_hexdigit()));
            let file = e["file"].as_str().unwrap();
            (
                file,
                e["code"].as_str().unwrap(),
                e["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let lines = [25, 27, 31, 38, 41].map(|line| ("src/server.rs", "MCP104", line));
    assert_eq!(places, lines);
    assert_eq!(
        entries[0]["message"],
        "tool failure answered with a JSON-RPC error (-32603)"
    );
    let again = lint(&dir, &["--write-baseline", "again.json"]);
    assert_eq!(again.status, 0);
    assert_eq!(
        std::fs::read_to_string(dir.join("again.json")).unwrap(),
        text,
        "byte-identical for the same input"
    );

    // Lines and a function inserted above, every line re-indented, an offending expression
    // broken over two lines where it had a space: nothing new, whatever the file is named.
    let server = dir.join("src/server.rs");
    edit(&server, |text| {
        let text = text.replace(
            "(\"cache unreadable\", None)",
            "(\"cache unreadable\",\n                None)",
        );
        let indented: Vec<String> = text.lines().map(|l| format!("    {l}")).collect();
        format!(
            "// moved\n\nfn unrelated() {{}}\n\n{}\n",
            indented.join("\n")
        )
    });
    let checked = lint(
        &dir,
        &[
            "--baseline",
            "mcp-lint-baseline.json",
            "--format",
            "json",
            "src",
        ],
    );
    assert_eq!(checked.stderr, "");
    assert_eq!(reported(&checked), (vec![], summary(1, 0, 5, 0)));
    assert_eq!(checked.status, 0);

    // One offending expression changed: it is new, and its old entry is stale.
    edit(&server, |text| {
        text.replace("\"fetch timed out\"", "\"fetch took too long\"")
    });
    let changed = lint(
        &dir,
        &["--baseline", "mcp-lint-baseline.json", "--format", "json"],
    );
    assert_eq!(
        reported(&changed),
        (
            vec![found("./src/server.rs", 29, "MCP104")],
            summary(1, 1, 4, 1)
        )
    );
    assert_eq!(changed.status, 1, "what is reported counts");
    let human = lint(&dir, &["--baseline", "mcp-lint-baseline.json", "src"]);
    assert_eq!(human.status, 1);
    assert!(
        human.stdout.ends_with(
            "mcp-lint: 1 error, 0 warnings, 0 advice in 1 file (profile sep-2145); 4 baselined, 1 stale baseline entry\n"
        ),
        "{}",
        human.stdout
    );
}

#[test]
fn a_repeat_of_a_baselined_finding_is_new() {
    let dir = project("repeat", &[(SOURCE, "src/server.rs")]);
    assert_eq!(lint(&dir, &["--write-baseline", "b.json"]).status, 0);
    // The `slow` tool copied whole as `slower`, below it: the same expressions, twice.
    edit(&dir.join("src/server.rs"), |text| {
        let start = text
            .find("    #[tool(description = \"Report progress\")]")
            .unwrap();
        let end = text.rfind('}').unwrap();
        let copy = text[start..end].replace("fn slow(", "fn slower(");
        format!("{}\n{copy}}}\n", &text[..end])
    });
    let run = lint(&dir, &["--baseline", "b.json", "--format", "json", "src"]);
    assert_eq!(
        reported(&run),
        (
            vec![
                found("src/server.rs", 48, "MCP104"),
                found("src/server.rs", 51, "MCP104"),
            ],
            summary(1, 2, 5, 0)
        )
    );
    let concise = lint(
        &dir,
        &["--baseline", "b.json", "--format", "concise", "src"],
    );
    assert!(
        concise
            .stdout
            .contains("src/server.rs:48:24: MCP104 error tool failure"),
        "{}",
        concise.stdout
    );
}

#[test]
fn entries_that_match_nothing_are_counted_stale() {
    let files = [(SOURCE, "src/server.rs"), (SOURCE, "src/other.rs")];
    let dir = project("stale", &files);
    let written = lint(&dir, &["check", "--write-baseline", "b.json", "src"]);
    assert_eq!(written.status, 0);
    let json = |args: &[&str]| {
        let mut all = vec!["check", "--baseline", "b.json", "--format", "json"];
        all.extend(args);
        reported(&lint(&dir, &all))
    };
    // A run on one file (pre-commit names the staged ones) says nothing of the others.
    assert_eq!(json(&["src/server.rs"]), (vec![], summary(1, 0, 5, 0)));

    // The `slow` tool fixed, and other.rs deleted: 2 + 5 entries match nothing any more.
    edit(&dir.join("src/server.rs"), |text| {
        let start = text
            .find("    #[tool(description = \"Report progress\")]")
            .unwrap();
        let end = text.rfind('}').unwrap();
        format!("{}{}", &text[..start], &text[end..])
    });
    std::fs::remove_file(dir.join("src/other.rs")).unwrap();
    assert_eq!(json(&["src"]), (vec![], summary(1, 0, 3, 7)));
}

/// `ids` shifted and timestamps moved, as a new recording of the same session has them, with
/// a `ping` exchange before the calls.
fn rerecorded(text: String) -> String {
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut entry: Value = serde_json::from_str(line).unwrap();
        entry["ts"] = json!(format!("2027-01-05T08:00:{:02}.000Z", n));
        if let Some(id) = entry["msg"]["id"].as_u64() {
            entry["msg"]["id"] = json!(id + 100);
        }
        lines.push(entry.to_string());
        if n == 2 {
            let ping = json!({"jsonrpc": "2.0", "id": 99, "method": "ping"});
            lines.push(
                json!({"ts": "2027-01-05T08:00:02.500Z", "dir": "c2s", "msg": ping}).to_string(),
            );
            let pong = json!({"jsonrpc": "2.0", "id": 99, "result": {}});
            lines.push(
                json!({"ts": "2027-01-05T08:00:02.600Z", "dir": "s2c", "msg": pong}).to_string(),
            );
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn transcripts_are_baselined_by_tool_and_error_not_by_id() {
    let dir = project("transcript", &[(TRANSCRIPT, "session.jsonl")]);
    let written = lint(
        &dir,
        &["audit", "--write-baseline", "b.json", "session.jsonl"],
    );
    assert_eq!(written.status, 0);
    assert_eq!(
        written.stderr,
        "mcp-lint: wrote 3 findings to the baseline b.json\n"
    );

    let audit = || {
        let args = ["audit", "--baseline", "b.json", "--format", "json"];
        lint(&dir, &[&args[..], &["session.jsonl"]].concat())
    };
    edit(&dir.join("session.jsonl"), rerecorded);
    let run = audit();
    assert_eq!(reported(&run), (vec![], summary(1, 0, 3, 0)));
    assert_eq!(run.status, 0);

    // Another error from the same tool is a new finding.
    edit(&dir.join("session.jsonl"), |text| {
        text.replace("upstream timed out", "database unreachable")
    });
    let run = audit();
    assert_eq!(
        reported(&run),
        (
            vec![found("session.jsonl", 9, "MCP104")],
            summary(1, 1, 2, 1)
        )
    );
    assert_eq!(run.status, 1);
}

#[test]
fn an_input_that_was_not_checked_is_never_baselined() {
    let dir = project("mcp004", &[(SOURCE, "src/server.rs")]);
    std::fs::write(dir.join("src/broken.rs"), "fn broken( {\n").unwrap();
    let written = lint(&dir, &["--write-baseline", "b.json", "src"]);
    assert_eq!(written.status, 0);
    assert_eq!(
        written.stderr,
        "mcp-lint: wrote 5 findings to the baseline b.json\n"
    );
    let run = lint(&dir, &["--baseline", "b.json", "--format", "json", "src"]);
    let (findings, summary) = reported(&run);
    assert_eq!(findings, [found("src/broken.rs", 1, "MCP004")]);
    assert_eq!(summary["baselined"], 5);
    assert_eq!(run.status, 1);
}

#[test]
fn a_baseline_that_cannot_be_used_is_a_usage_error() {
    let dir = project("errors", &[(SOURCE, "src/server.rs")]);
    let fails = |args: &[&str], stderr: &str| {
        let run = lint(&dir, args);
        assert_eq!(run.status, 2, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with(stderr), "{args:?}: {}", run.stderr);
    };
    fails(
        &["--baseline", "missing.json"],
        "mcp-lint: --baseline missing.json: cannot read it: ",
    );
    std::fs::write(dir.join("empty.json"), "{\"version\": 1}").unwrap();
    fails(
        &["--baseline", "empty.json", "src"],
        "mcp-lint: --baseline empty.json: not an mcp-lint baseline (missing field `findings`",
    );
    std::fs::write(dir.join("v2.json"), "{\"version\": 2, \"findings\": []}").unwrap();
    fails(
        &["audit", "--baseline", "v2.json", "x.jsonl"],
        "mcp-lint: --baseline v2.json: baseline version 2 is not one this mcp-lint reads (version 1)\n",
    );
    fails(
        &["--baseline", "a.json", "--write-baseline", "b.json"],
        "error: the argument '--baseline <FILE>' cannot be used with '--write-baseline <FILE>'",
    );
    fails(
        &["--write-baseline", "no/such/dir/b.json", "src"],
        "mcp-lint: no/such/dir/b.json: ",
    );
}

/// A baseline is applied as the audit streams: a finding the baseline does not hold comes
/// out as soon as its exchange has gone in, before the input is closed.
#[test]
fn a_baselined_audit_streams_from_a_pipe() {
    let dir = project("piped", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    let call = |id: u32, tool: &str| {
        [
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Tool {tool} not found"}}}}"#
            ),
        ]
    };
    let mut known = vec![
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}"#.to_string(),
    ];
    known.extend(call(2, "nope"));
    std::fs::write(dir.join("known.jsonl"), known.join("\n") + "\n").unwrap();
    let written = Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["audit", "--write-baseline", "b.json", "-"])
        .current_dir(&dir)
        .stdin(std::fs::File::open(dir.join("known.jsonl")).unwrap())
        .output()
        .unwrap();
    assert_eq!(written.status.code(), Some(0));

    let lines: Vec<String> = known.into_iter().chain(call(3, "other")).collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let args = ["audit", "-", "--baseline", "b.json", "--format", "jsonl"];
    let out = common::piped(&dir, &args, &lines);
    let finding: Value = serde_json::from_str(&out.first).unwrap();
    assert_eq!(
        (&finding["code"], &finding["line"], &finding["request_id"]),
        (&json!("MCP101"), &json!(8), &json!(3))
    );
    let last: Value = serde_json::from_str(&out.rest).unwrap();
    assert_eq!(last, json!({"summary": summary(1, 1, 1, 0)}));
    assert_eq!(out.status, 1);
}
