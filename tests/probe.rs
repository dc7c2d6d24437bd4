//! `probe` and `record` against the fixture server (`examples/fixture-server.rs`), over stdio
#![cfg(unix)] // the servers run here are spawned with Unix tools (true, sleep, kill)
//! and Streamable HTTP, compliant and broken.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use common::{fixture_server, mcp_lint, record, run, temp};

const BROKEN: &str = "\
<probe>:13:61: MCP101 error unknown tool answered with a JSON-RPC error (-32602) for tools/call `mcp_lint_probe_unknown_tool` (id 6)
<probe>:15:61: MCP103 error invalid tool input answered with a JSON-RPC error (-32602) for tools/call `echo` (id 7)
<probe>:17:61: MCP103 error invalid tool input answered with a JSON-RPC error (-32602) for tools/call `echo` (id 8)
<probe>:19:61: MCP103 error invalid tool input answered with a JSON-RPC error (-32602) for tools/call `add` (id 9)
<probe>:21:61: MCP103 error invalid tool input answered with a JSON-RPC error (-32602) for tools/call `add` (id 10)
<probe>:23:86: MCP107 error malformed tools/call (no `params`) answered with a result (id 11)
<probe>:25:86: MCP107 error malformed tools/call (no `name`) answered with a result (id 12)
<probe>:27:86: MCP107 error malformed tools/call (`name` is not a string) answered with a result (id 13)
<probe>:29:86: MCP107 error malformed tools/call (`arguments` is not an object) answered with a result (id 14)
<probe>:33:147: MCP106 warning the success result of tools/call `echo` (id 16) has a structuredContent that is not an object
<probe>:35:61: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `fail` (id 17)
mcp-lint: 10 errors, 1 warning, 0 advice in 1 file (profile sep-2145)
";

const CALLS: [&str; 4] = ["--call", r#"echo={"message":"hi"}"#, "--call", "fail={}"];

#[test]
fn a_compliant_server_passes_every_clause_it_can_be_probed_for() {
    let server = fixture_server();
    let mut args = vec!["probe"];
    args.extend(CALLS);
    args.extend(["--", &server]);
    let out = run(&args);
    assert_eq!(out.stderr, "");
    assert_eq!(
        out.stdout,
        "\
SEP-2145 probe: 12 requests, protocol 2025-11-25
  unknown tool        pass        1 request
  unavailable tool    not probed  which tools are disabled cannot be seen from outside
  invalid input       pass        4 requests
  tool failure        pass        1 request
  output validation   pass        1 request
  malformed request   pass        4 requests
  unknown method      pass        1 request

mcp-lint: 0 errors, 0 warnings, 0 advice in 1 file (profile sep-2145)
"
    );
    assert_eq!(out.status, 0);
}

#[test]
fn a_broken_server_fails_each_clause_with_its_rule() {
    let server = fixture_server();
    let mut args = vec!["probe", "--format", "concise"];
    args.extend(CALLS);
    args.extend(["--", &server, "--broken"]);
    let out = run(&args);
    assert_eq!(out.stdout, BROKEN);
    assert_eq!(out.status, 1);

    let mut args = vec!["probe"];
    args.extend(CALLS);
    args.extend(["--", &server, "--broken"]);
    let out = run(&args);
    let table: Vec<&str> = out.stdout.lines().take(8).collect();
    assert_eq!(
        table,
        [
            "SEP-2145 probe: 12 requests, protocol 2025-11-25",
            "  unknown tool        FAIL        MCP101 at line 13",
            "  unavailable tool    not probed  which tools are disabled cannot be seen from outside",
            "  invalid input       FAIL        MCP103 at line 15, MCP103 at line 17, MCP103 at line 19, MCP103 at line 21",
            "  tool failure        FAIL        MCP104 at line 35",
            "  output validation   FAIL        MCP106 at line 33",
            "  malformed request   FAIL        MCP107 at line 23, MCP107 at line 25, MCP107 at line 27, MCP107 at line 29",
            "  unknown method      pass        1 request",
        ]
    );
}

/// Starts the fixture server on a loopback port and returns it with its URL.
fn http_server(flags: &[&str]) -> (Child, String) {
    let mut child = Command::new(fixture_server())
        .arg("--http")
        .args(flags)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut url)
        .unwrap();
    (child, url.trim().to_string())
}

#[test]
fn streamable_http_servers_are_probed_alike_with_json_and_sse_answers() {
    for flags in [&["--broken"][..], &["--broken", "--sse"]] {
        let (mut server, url) = http_server(flags);
        let mut args = vec!["probe", "--format", "concise", "--url", &url];
        args.extend(CALLS);
        let out = run(&args);
        server.kill().unwrap();
        server.wait().unwrap();
        assert_eq!(out.stdout, BROKEN, "{flags:?}");
        assert_eq!(out.status, 1);
    }
    let (mut server, url) = http_server(&["--sse"]);
    let out = run(&["probe", "--format", "concise", "--url", &url]);
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(
        out.stdout,
        "mcp-lint: 0 errors, 0 warnings, 0 advice in 1 file (profile sep-2145)\n"
    );
}

#[test]
fn a_server_that_hangs_or_dies_is_a_finding() {
    let server = fixture_server();
    let out = run(&[
        "probe",
        "--format",
        "concise",
        "--timeout",
        "2",
        "--call",
        "sleep={}",
        "--call",
        "crash={}",
        "--call",
        r#"echo={"message":"never sent"}"#,
        "--",
        &server,
    ]);
    assert_eq!(
        out.stdout,
        "\
<probe>:32:52: MCP104 error tools/call `sleep` (id 16) was never answered, though the server answered later requests
<probe>:35:52: MCP104 error tools/call `crash` (id 18) was never answered: the server exited (exit status: 3) while it ran
<probe>:36:52: MCP104 error tools/call `echo` (id 19) was never answered: the server exited (exit status: 3) while it ran
mcp-lint: 3 errors, 0 warnings, 0 advice in 1 file (profile sep-2145)
"
    );
    assert_eq!(
        out.stderr,
        "mcp-lint: the server exited (exit status: 3) during the probe\n"
    );
    assert_eq!(out.status, 1);
}

#[test]
fn hung_calls_are_waited_for_together_and_each_is_reported() {
    // Once `sleep` (id 16) goes unanswered and a ping (16) finds the server still there, the
    // other calls are in flight together: the two further hangs cost one timeout between
    // them, and each is still a call the server skipped.
    let server = fixture_server();
    let saved = temp("hung.jsonl");
    let mut args = vec!["probe", "--format", "concise", "--timeout", "1", "--save"];
    args.push(saved.to_str().unwrap());
    for call in [
        "sleep={}",
        "sleep={}",
        r#"echo={"message":"hi"}"#,
        "sleep={}",
    ] {
        args.extend(["--call", call]);
    }
    args.extend(["--", &server]);
    let out = run(&args);
    assert_eq!(
        out.stdout.replace(saved.to_str().unwrap(), "<probe>"),
        "\
<probe>:32:52: MCP104 error tools/call `sleep` (id 16) was never answered, though the server answered later requests
<probe>:35:52: MCP104 error tools/call `sleep` (id 18) was never answered, though the server answered later requests
<probe>:37:52: MCP104 error tools/call `sleep` (id 20) was never answered, though the server answered later requests
mcp-lint: 3 errors, 0 warnings, 0 advice in 1 file (profile sep-2145)
"
    );
    assert_eq!((out.stderr.as_str(), out.status), ("", 1));
    // The transcript is what went over the wire: the three calls sent before any answer.
    let transcript = std::fs::read_to_string(&saved).unwrap();
    let tail: Vec<String> = transcript
        .lines()
        .skip(31)
        .map(|line| {
            let line: serde_json::Value = serde_json::from_str(line).unwrap();
            let msg = &line["msg"];
            let what = msg["method"].as_str().unwrap_or("answer");
            format!("{} {} {}", line["dir"].as_str().unwrap(), what, msg["id"])
        })
        .collect();
    assert_eq!(
        tail,
        [
            "c2s tools/call 16",
            "c2s ping 17",
            "s2c answer 17",
            "c2s tools/call 18",
            "c2s tools/call 19",
            "c2s tools/call 20",
            "s2c answer 19",
            "c2s ping 21",
            "s2c answer 21",
        ]
    );
}

#[test]
fn probes_never_sent_are_not_probed_and_a_death_on_a_call_fails() {
    // B1: the server exits on the first tools/call (the unknown-tool probe).
    let server = fixture_server();
    let out = run(&["probe", "--color", "never", "--", &server, "--exit-on-call"]);
    let table: Vec<&str> = out.stdout.lines().take(8).collect();
    assert_eq!(
        table,
        [
            "SEP-2145 probe: 1 requests, protocol 2025-11-25",
            "  unknown tool        FAIL        MCP104 at line 12",
            "  unavailable tool    not probed  which tools are disabled cannot be seen from outside",
            "  invalid input       not probed  the server exited before this probe was sent",
            "  tool failure        not probed  no --call failed; name a failing call, or --explore, to probe it",
            "  output validation   not probed  no --call of a tool with an outputSchema succeeded; name one, or --explore",
            "  malformed request   not probed  the server exited before this probe was sent",
            "  unknown method      not probed  the server exited before this probe was sent",
        ],
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("MCP104(tool-failure-protocol-error)")
            && out.stdout.contains("was never answered: the server exited"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.status, 1,
        "the table fails a clause: so does the exit status"
    );
}

#[test]
fn an_answer_over_the_size_limit_is_not_held_and_is_named() {
    // B6: a 65 MiB `tools/list` answer over stdio is neither held in memory nor taken for
    // silence: the probe says what came.
    let server = r#"
import sys, json
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "big", "version": "1"}}}), flush=True)
    elif msg.get("method") == "tools/list":
        print('{"jsonrpc":"2.0","id":%d,"result":{"tools":[],"pad":"%s"}}' % (msg["id"], "x" * (65 << 20)), flush=True)
"#;
    let out = run(&["probe", "--timeout", "20", "--", "python3", "-c", server]);
    assert_eq!(out.status, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "`tools/list` failed: the server answered with a message over 67108864 bytes"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn a_tool_answer_over_the_size_limit_is_unverifiable_over_every_transport() {
    // B18: a `tools/call` answered with 65 MiB is not a call "never answered" (MCP104) nor a
    // FAIL: what is known is that its answer could not be read (MCP001), and the clause it
    // was to test is not probed. Over stdio, HTTP with a JSON body, and HTTP with SSE alike.
    let call = ["--call", r#"echo={"message":"hi"}"#];
    let unread = "<probe>:32:52: MCP001 warning the answer to tools/call `echo` (id 16) is over 67108864 bytes, so it was not read and cannot be verified\n\
        mcp-lint: 0 errors, 1 warning, 0 advice in 1 file (profile sep-2145)\n";
    let server = fixture_server();
    let mut stdio = vec!["probe", "--format", "json"];
    stdio.extend(call);
    stdio.extend(["--", &server, "--oversize"]);
    let mut runs = vec![("stdio", run(&stdio))];
    for flags in [&["--oversize"][..], &["--oversize", "--sse"]] {
        let (mut server, url) = http_server(flags);
        let mut http = vec!["probe", "--format", "json", "--url", &url];
        http.extend(call);
        runs.push((if flags.len() == 1 { "json" } else { "sse" }, run(&http)));
        server.kill().unwrap();
        server.wait().unwrap();
    }
    for (transport, out) in runs {
        assert_eq!((out.status, out.stderr.as_str()), (0, ""), "{transport}");
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let findings = doc["findings"].as_array().unwrap();
        assert_eq!(findings.len(), 1, "{transport}: {findings:?}");
        assert_eq!(findings[0]["code"], "MCP001", "{transport}");
        assert_eq!(findings[0]["request_id"], 16, "{transport}");
        let validation = doc["clauses"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["clause"] == "output validation")
            .unwrap();
        assert_eq!(validation["verdict"], "not-probed", "{transport}");
        assert_eq!(
            validation["detail"], "the answer was over 67108864 bytes, so it was not read",
            "{transport}"
        );
    }
    let mut concise = vec!["probe", "--format", "concise"];
    concise.extend(call);
    concise.extend(["--", &server, "--oversize"]);
    assert_eq!(run(&concise).stdout, unread);
}

#[test]
fn what_came_instead_of_an_answer_is_named() {
    // B8: a server that writes garbage, or answers another id, is not "did not answer".
    let server = |answer: &str| {
        format!(
            "import sys, json\nfor line in sys.stdin:\n    m = json.loads(line)\n    print({answer}, flush=True)\n"
        )
    };
    for (answer, said) in [
        (
            r#""hello, world""#,
            "`initialize` failed: it wrote a line that is not JSON",
        ),
        (
            r#"json.dumps({"jsonrpc": "2.0", "id": 1001, "result": {}})"#,
            "`initialize` failed: it answered id 1001, but the request's id is 2",
        ),
    ] {
        let script = server(answer);
        let out = run(&["probe", "--timeout", "1", "--", "python3", "-c", &script]);
        assert_eq!(out.status, 2);
        assert!(out.stderr.contains(said), "{}", out.stderr);
    }
}

#[test]
fn a_call_of_no_listed_tool_is_an_unknown_tool_and_arguments_are_an_object() {
    // B16: `--call ghost={}` is not a passing tool failure; `--call echo=[1,2]` is refused.
    let server = fixture_server();
    let out = run(&[
        "probe", "--color", "never", "--call", "ghost={}", "--", &server,
    ]);
    assert!(
        out.stdout
            .contains("  unknown tool        pass        2 requests"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("  tool failure        not probed"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr
            .contains("--call ghost: no tool of that name is listed"),
        "{}",
        out.stderr
    );
    let out = run(&["probe", "--call", "echo=[1,2]", "--", &server]);
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "mcp-lint: --call echo: the arguments must be a JSON object\n"
    );
}

#[test]
fn an_http_refusal_says_what_to_do() {
    // B8: a 401 names --header, a 307 names where it points; neither is "did not answer".
    let script = r#"
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path.startswith("/auth"):
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Bearer realm="mcp"')
        else:
            self.send_response(307)
            self.send_header("Location", "/ok/mcp")
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut port = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut port)
        .unwrap();
    let base = format!("http://127.0.0.1:{}", port.trim());
    for (path, said) in [
        (
            "/auth/mcp",
            "HTTP 401: the server wants authorization (Bearer realm=\"mcp\"); pass it with --header",
        ),
        (
            "/moved/mcp",
            "HTTP 307: the server redirects to /ok/mcp; probe that URL with --url",
        ),
    ] {
        let url = format!("{base}{path}");
        let out = run(&["probe", "--timeout", "5", "--url", &url]);
        assert_eq!(out.status, 2);
        assert!(out.stderr.contains(said), "{}", out.stderr);
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn every_format_for_machines_carries_the_clause_verdicts() {
    // CI must see that a clause was never tested, not only what failed.
    let server = fixture_server();
    let json = run(&["probe", "--format", "json", "--", &server, "--broken"]);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let verdict = |doc: &serde_json::Value, clause: &str| {
        let clauses = doc.as_array().unwrap();
        let found = clauses.iter().find(|c| c["clause"] == clause).unwrap();
        found["verdict"].as_str().unwrap().to_string()
    };
    assert_eq!(verdict(&doc["clauses"], "unknown tool"), "fail");
    assert_eq!(verdict(&doc["clauses"], "unavailable tool"), "not-probed");
    assert_eq!(verdict(&doc["clauses"], "unknown method"), "pass");
    let sarif = run(&["probe", "--format", "sarif", "--", &server, "--broken"]);
    let doc: serde_json::Value = serde_json::from_str(&sarif.stdout).unwrap();
    let clauses = &doc["runs"][0]["properties"]["clauses"];
    assert_eq!(verdict(clauses, "invalid input"), "fail");
    let audit = run(&[
        "audit",
        "--format",
        "json",
        "testdata/transcripts/MCP104/fail_tool_failure.jsonl",
    ]);
    assert!(
        !audit.stdout.contains("\"clauses\""),
        "only a probe has clauses"
    );
}

#[test]
fn a_server_that_cannot_be_probed_is_trouble() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["probe", "--", "/nonexistent/server"],
            "mcp-lint: cannot start `/nonexistent/server`: No such file or directory (os error 2)\n",
        ),
        (
            &["probe", "--", "true"],
            "mcp-lint: the server exited (exit status: 0) before answering `initialize`\n\
             mcp-lint: the server exited (exit status: 0) on `server/discover`, as a server may that takes only `initialize` first; it was started again and opened with `initialize`\n",
        ),
        (
            &["probe", "--timeout", "0.2", "--", "sleep", "3"],
            "mcp-lint: the server did not answer `initialize` within 200ms\n",
        ),
        (
            &["probe", "--url", "http://127.0.0.1:9/mcp"],
            "mcp-lint: `initialize` failed: io: Connection refused (os error 111)\n",
        ),
        (
            &["probe", "--call", "echo", "--", "true"],
            "mcp-lint: --call `echo` is not TOOL=JSON\n",
        ),
        (
            &["probe", "--timeout", "0", "--", "true"],
            "mcp-lint: --timeout must be a positive number of seconds\n",
        ),
    ];
    for (args, stderr) in cases {
        let out = run(args);
        assert_eq!((out.status, out.stdout.as_str()), (2, ""), "{args:?}");
        assert_eq!(out.stderr, stderr, "{args:?}");
    }
}

#[test]
fn record_relays_bytes_unchanged_and_keeps_every_message() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        "\n",
        "not json at all\r\n",
        r#"{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"nope"}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    );
    let direct = Command::new(fixture_server())
        .args(["--broken"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let transcript = temp("relay.jsonl");
    let (status, relayed) = record(input.as_bytes(), &[], &["--broken"], &transcript);
    assert_eq!(status, 0);
    assert_eq!(relayed, direct.stdout);

    let text = std::fs::read_to_string(&transcript).unwrap();
    let lines: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["dir"].as_str().unwrap().to_string(), v["msg"].to_string())
        })
        .collect();
    // Each line is on file before it is passed on, so every answer follows what it answers;
    // how the two directions interleave is up to the scheduler.
    let (mut asked, mut answered) = (Vec::new(), 0);
    for (dir, msg) in &lines {
        match dir.as_str() {
            "c2s" => asked.push(msg.as_str()),
            _ => {
                answered += 1;
                assert!(
                    answered <= asked.len(),
                    "an answer before its request: {text}"
                );
            }
        }
    }
    assert_eq!((asked.len(), answered), (4, 4));
    assert_eq!(asked[1], r#""not json at all""#);
    // The message is kept as it was written, key order and all.
    assert!(text.contains(
        r#""msg":{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"nope"}}}"#
    ));

    let out = run(&["audit", "--format", "concise", transcript.to_str().unwrap()]);
    let name = transcript.display();
    let line_of = |dir: &str, needle: &str| {
        1 + lines
            .iter()
            .position(|(d, m)| d == dir && m.contains(needle))
            .unwrap()
    };
    let (not_json, refused) = (line_of("c2s", "not json"), line_of("s2c", r#""two""#));
    assert_eq!(
        out.stdout,
        format!(
            "{name}:{not_json}:52: MCP001 warning this is not a JSON-RPC message (not an object)\n\
             {name}:{refused}:61: MCP101 error unknown tool answered with a JSON-RPC error (-32602) for tools/call `nope` (id \"two\")\n\
             mcp-lint: 1 error, 1 warning, 0 advice in 1 file (profile sep-2145)\n"
        )
    );
}

#[test]
fn the_audit_of_a_recording_equals_the_audit_of_the_probe() {
    let (probed, recorded) = (temp("probed.jsonl"), temp("recorded.jsonl"));
    let server = fixture_server();
    let mut args = vec![
        "probe",
        "--format",
        "json",
        "--save",
        probed.to_str().unwrap(),
    ];
    args.extend(CALLS);
    args.extend(["--", mcp_lint(), "record", "-o", recorded.to_str().unwrap()]);
    args.extend(["--", &server, "--broken"]);
    let probe = run(&args);
    assert_eq!(probe.status, 1);
    let audit_of = |path: &PathBuf| {
        let out = run(&["audit", "--format", "json", path.to_str().unwrap()]);
        out.stdout.replace(path.to_str().unwrap(), "TRANSCRIPT")
    };
    let audited = audit_of(&probed);
    assert_eq!(audited, audit_of(&recorded));
    // The probe's document adds its clause verdicts; its findings are the audit's.
    let mut probe_doc: serde_json::Value =
        serde_json::from_str(&probe.stdout.replace(probed.to_str().unwrap(), "TRANSCRIPT"))
            .unwrap();
    let map = probe_doc.as_object_mut().unwrap();
    assert!(map.remove("clauses").is_some());
    assert_eq!(map.remove("protocol_version"), Some("2025-11-25".into()));
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&audited).unwrap(),
        probe_doc
    );
    assert_eq!(audited.matches("\"code\": \"MCP1").count(), 11, "{audited}");
}

#[test]
fn record_returns_the_server_status_and_forwards_signals() {
    let transcript = temp("crash.jsonl");
    let crash = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"crash","arguments":{}}}"#,
        "\n"
    );
    let (status, _) = record(crash.as_bytes(), &[], &[], &transcript);
    assert_eq!(status, 3);
    let text = std::fs::read_to_string(&transcript).unwrap();
    assert_eq!(text.lines().count(), 1, "the request is on file: {text}");

    let mut child = Command::new(mcp_lint())
        .args(["record", "-o"])
        .arg(temp("signal.jsonl"))
        .args(["--", "sleep", "30"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(128 + 15),
        "sleep died of the forwarded SIGTERM"
    );

    let out = Command::new(mcp_lint())
        .args(["record", "-o"])
        .arg(temp("none.jsonl"))
        .args(["--", "/nonexistent/server"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mcp-lint: cannot start `/nonexistent/server`: No such file or directory (os error 2)\n"
    );
}

#[test]
fn a_server_that_stops_answering_is_not_waited_on_for_every_probe() {
    // Answers initialize and tools/list, then neither reads nor answers: one call goes
    // unanswered, a ping confirms it, and nothing more is sent.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}'; read l; read l; echo '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","inputSchema":{"type":"object","required":["a"]}}]}}'; exec sleep 30"#;
    let out = run(&[
        "probe",
        "--format",
        "concise",
        "--timeout",
        "1",
        "--protocol-version",
        "2025-11-25",
        "--",
        "sh",
        "-c",
        script,
    ]);
    assert_eq!(
        out.stdout,
        "\
<probe>:6:52: MCP301 warning tools/call `mcp_lint_probe_unknown_tool` (id 3) has no response and no cancellation when the transcript ends
mcp-lint: 0 errors, 1 warning, 0 advice in 1 file (profile sep-2145)
"
    );
    assert_eq!(
        out.stderr,
        "mcp-lint: the server stopped answering (not even a ping) during the probe\n"
    );
}

/// The findings of a probe in JSON as (code, message without its request ids), in order.
fn findings_without_ids(stdout: &str) -> Vec<(String, String)> {
    let doc: serde_json::Value = serde_json::from_str(stdout).unwrap();
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let message = f["message"].as_str().unwrap();
            let message = message.split(" (id ").next().unwrap().to_string();
            (f["code"].as_str().unwrap().to_string(), message)
        })
        .collect()
}

#[test]
fn a_2026_07_28_server_fails_the_clauses_its_2025_11_25_twin_fails() {
    // `server/discover` finds the new wire; without it (a method the older server does not
    // know) the probe falls back to `initialize`. The SEP's cases come out the same.
    let server = fixture_server();
    let probe = |flags: &[&str]| {
        let saved = temp(&format!("era{}.jsonl", flags.len()));
        let mut args = vec![
            "probe",
            "--format",
            "json",
            "--save",
            saved.to_str().unwrap(),
        ];
        args.extend(CALLS);
        args.extend(["--", &server, "--broken"]);
        args.extend(flags);
        let out = run(&args);
        assert_eq!((out.status, out.stderr.as_str()), (1, ""), "{flags:?}");
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let transcript = std::fs::read_to_string(&saved).unwrap();
        let methods: Vec<String> = transcript
            .lines()
            .take(4)
            .map(|l| {
                let l: serde_json::Value = serde_json::from_str(l).unwrap();
                let msg = &l["msg"];
                msg["method"].as_str().map_or_else(
                    || {
                        format!(
                            "answer {}",
                            if msg["error"].is_null() {
                                "result"
                            } else {
                                "error"
                            }
                        )
                    },
                    str::to_string,
                )
            })
            .collect();
        (
            doc["protocol_version"].clone(),
            methods,
            findings_without_ids(&out.stdout),
        )
    };
    let (old_version, old_start, old) = probe(&[]);
    let (new_version, new_start, new) = probe(&["--modern"]);
    assert_eq!(old_version, "2025-11-25");
    assert_eq!(
        old_start,
        [
            "server/discover",
            "answer error",
            "initialize",
            "answer result"
        ]
    );
    assert_eq!(new_version, "2026-07-28");
    assert_eq!(
        new_start,
        [
            "server/discover",
            "answer result",
            "tools/list",
            "answer result"
        ]
    );
    assert_eq!(new, old);
    assert_eq!(new.len(), 11);

    let out = run(&["probe", "--color", "never", "--", &server, "--modern"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .starts_with("SEP-2145 probe: 10 requests, protocol 2026-07-28\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_forced_protocol_version_is_spoken_without_discovery() {
    let server = fixture_server();
    let saved = temp("forced.jsonl");
    let out = run(&[
        "probe",
        "--format",
        "json",
        "--protocol-version",
        "2025-06-18",
        "--save",
        saved.to_str().unwrap(),
        "--",
        &server,
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["protocol_version"], "2025-06-18");
    let transcript = std::fs::read_to_string(&saved).unwrap();
    let first: serde_json::Value =
        serde_json::from_str(transcript.lines().next().unwrap()).unwrap();
    assert_eq!(first["msg"]["method"], "initialize");
    assert_eq!(first["msg"]["params"]["protocolVersion"], "2025-06-18");

    // A server of the new wire only has no `initialize` to be spoken to the old way.
    let out = run(&[
        "probe",
        "--protocol-version",
        "2025-11-25",
        "--",
        &server,
        "--modern",
    ]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr
            .starts_with("mcp-lint: the server refused `initialize`: "),
        "{}",
        out.stderr
    );
    let out = run(&["probe", "--protocol-version", "2027-01-01", "--", &server]);
    assert_eq!(out.status, 2);
    assert_eq!(
        out.stderr,
        "mcp-lint: --protocol-version 2027-01-01: the probe speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\n"
    );
}

#[test]
fn a_2026_07_28_server_over_http_is_probed_without_a_session() {
    // The fixture refuses (HTTP 400) a request with an Mcp-Session-Id, or whose
    // MCP-Protocol-Version, Mcp-Method or Mcp-Name headers do not repeat its body.
    let server = fixture_server();
    let mut stdio = vec!["probe", "--format", "json"];
    stdio.extend(CALLS);
    stdio.extend(["--", &server, "--broken", "--modern"]);
    let expected = findings_without_ids(&run(&stdio).stdout);
    assert_eq!(expected.len(), 11);
    for flags in [
        &["--broken", "--modern"][..],
        &["--broken", "--modern", "--sse"],
    ] {
        let (mut server, url) = http_server(flags);
        let mut args = vec!["probe", "--format", "json", "--url", &url];
        args.extend(CALLS);
        let out = run(&args);
        server.kill().unwrap();
        server.wait().unwrap();
        assert_eq!((out.status, out.stderr.as_str()), (1, ""), "{flags:?}");
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(doc["protocol_version"], "2026-07-28", "{flags:?}");
        assert_eq!(findings_without_ids(&out.stdout), expected, "{flags:?}");
    }
}

#[test]
fn a_server_that_ends_on_discovery_is_started_again_for_initialize() {
    // rmcp's servers exit, unanswered, on a first request that is not `initialize`.
    let server = fixture_server();
    let saved = temp("restarted.jsonl");
    let out = run(&[
        "probe",
        "--color",
        "never",
        "--save",
        saved.to_str().unwrap(),
        "--",
        &server,
        "--strict-initialize",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "mcp-lint: the server exited (exit status: 1) on `server/discover`, as a server may that takes only `initialize` first; it was started again and opened with `initialize`\n"
    );
    assert!(
        out.stdout
            .starts_with("SEP-2145 probe: 10 requests, protocol 2025-11-25\n"),
        "{}",
        out.stdout
    );
    let methods: Vec<String> = std::fs::read_to_string(&saved)
        .unwrap()
        .lines()
        .take(3)
        .map(|l| {
            let l: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {}", l["dir"].as_str().unwrap(), l["msg"]["method"])
        })
        .collect();
    assert_eq!(
        methods,
        ["c2s \"server/discover\"", "c2s \"initialize\"", "s2c null"]
    );
}

#[test]
fn a_call_answered_with_a_request_for_input_tests_nothing() {
    // 2026-07-28: `resultType: "input_required"` is not the call's result; the probe gives
    // no input, so the call is judged as no clause, and says so.
    let server = fixture_server();
    let out = run(&[
        "probe",
        "--color",
        "never",
        "--call",
        "confirm={}",
        "--",
        &server,
        "--modern",
    ]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        "mcp-lint: --call confirm: the server asks for input first (resultType `input_required`), which the probe does not give: the call tests nothing\n"
    );
    assert!(
        out.stdout.contains("  tool failure        not probed")
            && out.stdout.contains("  output validation   not probed"),
        "{}",
        out.stdout
    );
}

const EXPLORED: &str = "\
<probe>:33:153: MCP106 warning the success result of tools/call `echo` (id 16) has a structuredContent that is not an object; --explore sent {\"message\":\"mcp-lint\"}
<probe>:37:61: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `fail` (id 18); --explore sent {}
<probe>:39:145: MCP106 warning the success result of tools/call `echo` (id 19) has a structuredContent that is not an object; --explore sent {\"message\":\"\"}
<probe>:43:10145: MCP106 warning the success result of tools/call `echo` (id 21) has a structuredContent that is not an object; --explore sent {\"message\":\"xxxxxxxxxxxxxxxx…(10000 chars)\"}
<probe>:49:61: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `add` (id 24); --explore sent {\"a\":1e+308,\"b\":0.0}, shrunk from {\"a\":1e+308,\"b\":1.0} (2 failing calls)
mcp-lint: 11 errors, 3 warnings, 0 advice in 1 file (profile sep-2145)
";

#[test]
fn exploring_probes_tool_failure_and_output_without_a_call() {
    // `echo`, `add` and `fail` are read-only; `crash` is too, but destructive. The broken
    // `add` answers a sum past 2^53 with a protocol error: the call is shrunk, `b` to 0,
    // and the failing call it was shrunk from is not reported again.
    let server = fixture_server();
    let out = run(&[
        "probe",
        "--format",
        "concise",
        "--explore",
        "--",
        &server,
        "--broken",
    ]);
    let explored: Vec<&str> = out.stdout.lines().skip(9).collect();
    assert_eq!(explored.join("\n") + "\n", EXPLORED);
    assert_eq!((out.status, out.stderr.as_str()), (1, ""));
    let out = run(&[
        "probe",
        "--color",
        "never",
        "--explore",
        "--",
        &server,
        "--broken",
    ]);
    let rows: Vec<&str> = out.stdout.lines().skip(4).take(2).collect();
    assert_eq!(
        rows,
        [
            "  tool failure        FAIL        MCP104 at line 37, MCP104 at line 49",
            "  output validation   FAIL        MCP106 at line 33, MCP106 at line 39, MCP106 at line 43",
        ]
    );

    let out = run(&["probe", "--color", "never", "--explore", "--", &server]);
    assert_eq!((out.status, out.stderr.as_str()), (0, ""));
    let table: Vec<&str> = out.stdout.lines().take(6).collect();
    assert_eq!(
        table,
        [
            "SEP-2145 probe: 23 requests, protocol 2025-11-25",
            "  unknown tool        pass        1 request",
            "  unavailable tool    not probed  which tools are disabled cannot be seen from outside",
            "  invalid input       pass        4 requests",
            "  tool failure        pass        5 requests (--explore: 13 calls of 3 tools)",
            "  output validation   pass        3 requests (--explore: 13 calls of 3 tools)",
        ]
    );
}

#[test]
fn every_explored_call_is_of_a_read_only_tool_and_valid() {
    // The transcript is what went over the wire: after the SEP's probes (the unknown method
    // last), each call names a read-only tool, with arguments its inputSchema accepts. Both
    // protocol eras, and Streamable HTTP, send the same calls.
    let server = fixture_server();
    let explored_calls = |saved: &PathBuf| {
        let lines: Vec<serde_json::Value> = std::fs::read_to_string(saved)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut schemas = std::collections::BTreeMap::new();
        for line in &lines {
            for tool in line["msg"]["result"]["tools"]
                .as_array()
                .into_iter()
                .flatten()
            {
                schemas.insert(
                    tool["name"].as_str().unwrap().to_string(),
                    tool["inputSchema"].clone(),
                );
            }
        }
        let after = lines
            .iter()
            .position(|l| l["msg"]["method"] == "mcp-lint/no-such-method")
            .unwrap();
        let calls: Vec<(String, serde_json::Value)> = lines[after..]
            .iter()
            .filter(|l| l["dir"] == "c2s" && l["msg"]["method"] == "tools/call")
            .map(|l| {
                let params = &l["msg"]["params"];
                (
                    params["name"].as_str().unwrap().to_string(),
                    params["arguments"].clone(),
                )
            })
            .collect();
        for (name, arguments) in &calls {
            assert!(["echo", "add", "fail"].contains(&name.as_str()), "{name}");
            let validator = jsonschema::validator_for(&schemas[name]).unwrap();
            assert!(validator.is_valid(arguments), "{name} {arguments}");
        }
        calls
    };
    let mut runs = Vec::new();
    for flags in [&["--broken"][..], &["--broken", "--modern"]] {
        let saved = temp(&format!("explored{}.jsonl", flags.len()));
        let mut args = vec!["probe", "--explore", "--save", saved.to_str().unwrap()];
        args.extend(["--", &server]);
        args.extend(flags);
        assert_eq!(run(&args).status, 1, "{flags:?}");
        runs.push(explored_calls(&saved));
    }
    let (mut http, url) = http_server(&["--broken", "--sse"]);
    let saved = temp("explored-http.jsonl");
    let out = run(&[
        "probe",
        "--format",
        "concise",
        "--explore",
        "--save",
        saved.to_str().unwrap(),
        "--url",
        &url,
    ]);
    http.kill().unwrap();
    http.wait().unwrap();
    let findings = out.stdout.replace(saved.to_str().unwrap(), "<probe>");
    assert!(findings.ends_with(EXPLORED), "{findings}");
    runs.push(explored_calls(&saved));
    assert_eq!(runs[0].len(), 10);
    assert!(runs.iter().all(|calls| *calls == runs[0]));
}

#[test]
fn exploring_is_bounded_and_the_tools_it_calls_can_be_named() {
    let server = fixture_server();
    let probe = |flags: &[&str]| {
        let mut args = vec!["probe", "--color", "never", "--explore"];
        args.extend(flags);
        args.extend(["--", &server]);
        let out = run(&args);
        let rows: Vec<String> = out
            .stdout
            .lines()
            .skip(4)
            .take(2)
            .map(str::to_string)
            .collect();
        (rows, out.stderr)
    };
    let (rows, stderr) = probe(&["--max-calls", "2"]);
    assert_eq!(
        rows,
        [
            "  tool failure        not probed  --explore: 2 calls of 3 tools, and no call failed",
            "  output validation   pass        1 request (--explore: 2 calls of 3 tools)",
        ]
    );
    assert_eq!(
        stderr,
        "mcp-lint: --explore: stopped at --max-calls 2; what was sent is judged\n"
    );
    // The time counts from the first call, which is always made.
    let (rows, stderr) = probe(&["--max-time", "0.000001"]);
    assert_eq!(
        rows[1],
        "  output validation   pass        1 request (--explore: 1 call of 3 tools)"
    );
    assert_eq!(
        stderr,
        "mcp-lint: --explore: stopped at --max-time 0.000001; what was sent is judged\n"
    );

    let skip_all = [
        "--skip-tool",
        "echo",
        "--skip-tool",
        "add",
        "--skip-tool",
        "fail",
    ];
    let (rows, stderr) = probe(&skip_all);
    assert_eq!(
        rows[0],
        "  tool failure        not probed  --explore: no tool is annotated readOnlyHint: true (and not destructiveHint); --allow-tool NAME calls one"
    );
    assert_eq!(stderr, "");
    let mut allowed = skip_all.to_vec();
    allowed.extend(["--allow-tool", "confirm", "--allow-tool", "ghost"]);
    let (rows, stderr) = probe(&allowed);
    assert_eq!(
        rows,
        [
            "  tool failure        not probed  --explore: 1 call of 1 tool, and no call failed",
            "  output validation   not probed  --explore: 1 call of 1 tool, and no call of a tool with an outputSchema succeeded",
        ]
    );
    assert_eq!(
        stderr,
        "mcp-lint: --explore: no tool named `ghost` is listed\n"
    );

    let out = run(&["probe", "--explore", "--max-time", "0", "--", &server]);
    assert_eq!(
        (out.status, out.stderr.as_str()),
        (
            2,
            "mcp-lint: --max-time must be a positive number of seconds\n"
        )
    );
    let out = run(&["probe", "--allow-tool", "sleep", "--", &server]);
    assert_eq!(out.status, 2);
    assert!(out.stderr.contains("--explore"), "{}", out.stderr);
}

#[test]
fn a_path_that_names_nothing_is_shrunk_and_a_tool_that_cannot_be_called_validly_is_said() {
    // `read` fails with a protocol error on a path under /nonexistent: the path --explore
    // generates is cut while it still fails. `bad`'s inputSchema is no schema, and no value
    // generated matches `zip`'s pattern: neither is called.
    let server = r#"
import sys, json
tools = [
    {"name": "read", "annotations": {"readOnlyHint": True}, "inputSchema": {"type": "object",
        "properties": {"path": {"type": "string"}, "lines": {"type": "integer", "minimum": 1}},
        "required": ["path"]}},
    {"name": "bad", "annotations": {"readOnlyHint": True},
        "inputSchema": {"type": "object", "properties": {"a": {"type": "nonsense"}}}},
    {"name": "zip", "annotations": {"readOnlyHint": True}, "inputSchema": {"type": "object",
        "properties": {"code": {"type": "string", "pattern": "^[0-9]{5}$"}}, "required": ["code"]}},
]
for line in sys.stdin:
    msg = json.loads(line)
    method, params = msg.get("method"), msg.get("params") or {}
    if "id" not in msg:
        continue
    answer = {"jsonrpc": "2.0", "id": msg["id"]}
    if method == "initialize":
        answer["result"] = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "files", "version": "1"}}
    elif method == "tools/list":
        answer["result"] = {"tools": tools}
    elif method == "tools/call" and not (isinstance(params.get("name"), str) and isinstance(params.get("arguments"), dict)):
        answer["error"] = {"code": -32602, "message": "Invalid params"}
    elif method == "tools/call" and params["name"] == "read" and str(params["arguments"].get("path")).startswith("/nonexistent"):
        answer["error"] = {"code": -32603, "message": "ENOENT: no such file or directory"}
    elif method == "tools/call":
        answer["result"] = {"content": [{"type": "text", "text": "read"}], "isError": params["name"] != "read"}
    else:
        answer["error"] = {"code": -32601, "message": "Method not found"}
    print(json.dumps(answer), flush=True)
"#;
    let out = run(&[
        "probe",
        "--format",
        "concise",
        "--explore",
        "--",
        "python3",
        "-c",
        server,
    ]);
    let explored: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("--explore"))
        .collect();
    assert_eq!(
        explored,
        [
            "<probe>:53:90: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `read` (id 26); --explore sent {\"path\":\"/nonexistent\"}, shrunk from {\"path\":\"/nonexistent/mcp-lint-probe\"} (4 failing calls)"
        ],
        "{}",
        out.stdout
    );
    let notes: Vec<&str> = out.stderr.lines().collect();
    assert!(
        notes[0].starts_with("mcp-lint: --explore: `bad` is not called: its inputSchema is no schema a call can be checked against ("),
        "{}",
        out.stderr
    );
    assert_eq!(
        notes[1..],
        [
            "mcp-lint: --explore: `zip` is not called: none of the arguments generated from its inputSchema is valid"
        ]
    );
}

#[test]
fn an_explored_call_that_hangs_or_kills_the_server_names_its_arguments() {
    let server = fixture_server();
    let only = |tool: &str| {
        let mut args = vec![
            "probe",
            "--format",
            "concise",
            "--timeout",
            "1",
            "--explore",
        ];
        args.extend([
            "--skip-tool",
            "echo",
            "--skip-tool",
            "add",
            "--skip-tool",
            "fail",
        ]);
        args.extend(["--allow-tool", tool, "--", &server]);
        run(&args)
    };
    let out = only("sleep");
    assert_eq!(
        out.stdout,
        "<probe>:32:52: MCP104 error tools/call `sleep` (id 16) was never answered, though the server answered later requests; --explore sent {}\n\
         mcp-lint: 1 error, 0 warnings, 0 advice in 1 file (profile sep-2145)\n"
    );
    let out = only("crash");
    assert_eq!(
        out.stdout,
        "<probe>:32:52: MCP104 error tools/call `crash` (id 16) was never answered: the server exited (exit status: 3) while it ran; --explore sent {}\n\
         mcp-lint: 1 error, 0 warnings, 0 advice in 1 file (profile sep-2145)\n"
    );
    assert_eq!(
        out.stderr,
        "mcp-lint: the server exited (exit status: 3) during the probe\n"
    );
}

#[test]
fn a_2026_07_28_listing_without_its_cache_hints_is_said() {
    // Each page of a new-era tools/list must carry `ttlMs` and `cacheScope`; no rule covers
    // them, so the probe says what is wrong on stderr.
    let server = r#"
import sys, json
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    answer = {"jsonrpc": "2.0", "id": msg["id"]}
    method = msg.get("method")
    if method == "server/discover":
        answer["result"] = {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}
    elif method == "tools/list":
        answer["result"] = {"tools": [], "cacheScope": "shared", "resultType": "complete"}
    else:
        answer["error"] = {"code": -32601, "message": "Method not found"}
    print(json.dumps(answer), flush=True)
"#;
    let out = run(&[
        "probe", "--format", "concise", "--", "python3", "-c", server,
    ]);
    assert_eq!(
        out.stderr,
        "mcp-lint: the tools/list answer (id 2) breaks 2026-07-28: `ttlMs` is missing\n\
         mcp-lint: the tools/list answer (id 2) breaks 2026-07-28: `cacheScope` is \"shared\", not \"public\" or \"private\"\n"
    );
}
