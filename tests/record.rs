//! `record --listen` in front of Streamable HTTP servers (one written here, and the fixture
//! server), and the redaction of what `record` and `probe --save` write.
#![cfg(unix)] // the proxy is stopped with SIGINT, as Ctrl-C stops it

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;

use common::{fixture_server, mcp_lint, record, run, temp};
use serde_json::{Value, json};

/// A request as the upstream got it: the request line, headers (lowercase names) and body.
struct Got {
    line: String,
    headers: Vec<(String, String)>,
}

/// A Streamable HTTP MCP server, one request a connection: `initialize` is answered as JSON
/// and opens session `s-1`; `tools/list` as an SSE stream in chunks (a priming event, a log
/// notification, then the answer split across two chunks); `tools/call` with a protocol
/// error; notifications with 202; GET with an SSE stream that ends with the connection;
/// DELETE with 200. Returns its URL and what it got.
fn upstream() -> (String, Arc<Mutex<Vec<Got>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&got);
    thread::spawn(move || {
        for stream in listener.incoming() {
            answer(stream.unwrap(), &log);
        }
    });
    (url, got)
}

fn answer(stream: TcpStream, log: &Mutex<Vec<Got>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        let Some((name, value)) = header.trim_end().split_once(':') else {
            break;
        };
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let line = line.trim_end().to_string();
    log.lock().unwrap().push(Got {
        line: line.clone(),
        headers,
    });
    let mut out = stream;
    let method = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|m| Some(m.get("method")?.as_str()?.to_string()));
    let json = |status: &str, extra: &str, body: &str| {
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    };
    let response = match (line.split(' ').next().unwrap(), method.as_deref()) {
        ("GET", _) => format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n{GET_STREAM}"
        ),
        ("DELETE", _) => json("200 OK", "", ""),
        (_, Some("initialize")) => json(
            "200 OK",
            "Mcp-Session-Id: s-1\r\n",
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"upstream","version":"1"}}}"#,
        ),
        (_, Some("tools/list")) => {
            write!(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n").unwrap();
            for chunk in SSE_CHUNKS {
                write!(out, "{:x}\r\n{chunk}\r\n", chunk.len()).unwrap();
                out.flush().unwrap();
            }
            "0\r\n\r\n".to_string()
        }
        (_, Some("tools/call")) => json(
            "200 OK",
            "",
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error"}}"#,
        ),
        _ => "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string(),
    };
    out.write_all(response.as_bytes()).unwrap();
}

/// The GET stream: one server notification, then the end of the connection.
const GET_STREAM: &str =
    "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";

const SSE_CHUNKS: [&str; 4] = [
    "id: 0\ndata: \n\n",
    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"listing\"}}\n\n",
    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"tools\":[{\"name\":\"login\",",
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"user\":{\"type\":\"string\"},\"password\":{\"type\":\"string\"}}}}]}}\r\n\r\n",
];

/// Starts `record --listen` on a free port in front of `upstream`, and returns it with the
/// URL its clients use, which it says first on stderr.
fn proxy(upstream: &str, transcript: &PathBuf, flags: &[&str]) -> (Child, String) {
    let mut child = Command::new(mcp_lint())
        .args(["record", "-o"])
        .arg(transcript)
        .args(["--listen", "127.0.0.1:0", "--upstream", upstream])
        .args(flags)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .strip_prefix("mcp-lint: recording ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no address said: {line}"));
    let expected = format!("{url} -> {upstream}\n");
    assert!(line.ends_with(&expected), "{line}");
    (child, url.to_string())
}

/// Stops the proxy as Ctrl-C does and returns its exit status and the rest of its stderr.
fn stop(mut child: Child) -> (i32, String) {
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (status.code().unwrap_or(-1), stderr)
}

/// The transcript's envelopes without their timestamps: `[dir, session, msg]`.
fn envelopes(transcript: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(transcript).unwrap();
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(v["ts"].is_string(), "{line}");
            json!([v["dir"], v["session"], v["msg"]])
        })
        .collect()
}

/// `[code, line, request_id, message]` of each finding of the audit of `path`.
fn findings(path: &Path) -> Vec<Value> {
    let out = run(&["audit", "--format", "json", path.to_str().unwrap()]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap().iter();
    findings
        .map(|f| json!([f["code"], f["line"], f["request_id"], f["message"]]))
        .collect()
}

#[test]
fn an_http_session_is_relayed_as_it_comes_and_recorded_message_by_message() {
    let (url, got) = upstream();
    let transcript = temp("http.jsonl");
    let (proxy, at) = proxy(&url, &transcript, &[]);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let post = |body: &str, session: bool| {
        let mut request = agent
            .post(&at)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer s3cret-header")
            .header("Connection", "X-Hop")
            .header("X-Hop", "1");
        if session {
            request = request.header("Mcp-Session-Id", "s-1");
        }
        let mut response = request.send(body).unwrap();
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get("mcp-session-id")
            .map(|v| v.to_str().unwrap().to_string());
        let body = response.body_mut().read_to_string().unwrap();
        (status, session, body)
    };
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
    let (status, session, body) = post(initialize, false);
    assert_eq!((status, session.as_deref()), (200, Some("s-1")));
    assert!(
        body.starts_with(r#"{"jsonrpc":"2.0","id":1,"result""#),
        "{body}"
    );
    let batch = r#"[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]"#;
    assert_eq!(post(batch, true), (202, None, String::new()));
    let (status, _, body) = post(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#, true);
    assert_eq!(
        (status, body),
        (200, SSE_CHUNKS.concat()),
        "SSE relayed byte for byte"
    );
    let call = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"login","arguments":{"user":"me","password":"hunter2"}}}"#;
    let (status, _, body) = post(call, true);
    assert_eq!(status, 200);
    assert!(body.contains("-32603"), "{body}");
    let mut get = agent
        .get(&at)
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", "s-1")
        .call()
        .unwrap();
    assert_eq!(get.status().as_u16(), 200);
    assert_eq!(get.body_mut().read_to_string().unwrap(), GET_STREAM);
    let delete = agent
        .delete(&at)
        .header("Mcp-Session-Id", "s-1")
        .call()
        .unwrap();
    assert_eq!(delete.status().as_u16(), 200);
    assert_eq!(stop(proxy), (0, String::new()));

    let got = got.lock().unwrap();
    let lines: Vec<&str> = got.iter().map(|g| g.line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "POST /mcp HTTP/1.1",
            "POST /mcp HTTP/1.1",
            "POST /mcp HTTP/1.1",
            "POST /mcp HTTP/1.1",
            "GET /mcp HTTP/1.1",
            "DELETE /mcp HTTP/1.1"
        ]
    );
    let first = &got[0].headers;
    let has = |name: &str| {
        first
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(has("authorization"), Some("Bearer s3cret-header"));
    assert_eq!(
        has("host"),
        url.strip_prefix("http://")
            .and_then(|u| u.strip_suffix("/mcp"))
    );
    assert_eq!(
        (
            has("x-hop"),
            has("connection").is_some_and(|c| c.contains("X-Hop"))
        ),
        (None, false)
    );
    drop(got);

    let session = json!("s-1");
    let c2s = |msg: &str| json!(["c2s", session, serde_json::from_str::<Value>(msg).unwrap()]);
    let s2c = |msg: &str| json!(["s2c", session, serde_json::from_str::<Value>(msg).unwrap()]);
    assert_eq!(
        envelopes(&transcript),
        [
            c2s(initialize),
            s2c(
                r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"upstream","version":"1"}}}"#
            ),
            c2s(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            c2s(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#),
            c2s(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#),
            s2c(
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"listing"}}"#
            ),
            s2c(
                r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"login","inputSchema":{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}}}}]}}"#
            ),
            c2s(
                r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"login","arguments":{"user":"me","password":"[redacted]"}}}"#
            ),
            s2c(r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error"}}"#),
            s2c(r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#),
        ]
    );
    let text = std::fs::read_to_string(&transcript).unwrap();
    assert!(
        !text.contains("hunter2") && !text.contains("s3cret"),
        "{text}"
    );

    let name = transcript.display();
    let out = run(&["audit", "--format", "concise", transcript.to_str().unwrap()]);
    assert_eq!(
        out.stdout,
        format!(
            "{name}:9:100: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `login` (id 4)\n\
             mcp-lint: 1 error, 0 warnings, 0 advice in 1 file (profile sep-2145)\n"
        )
    );
}

const CALLS: [&str; 4] = [
    "--call",
    r#"echo={"message":"hi","password":"hunter2"}"#,
    "--call",
    "fail={}",
];

#[test]
fn a_probe_through_the_proxy_audits_as_its_own_transcript_and_neither_holds_a_secret() {
    for flags in [
        &["--http", "--broken"][..],
        &["--http", "--broken", "--sse"],
    ] {
        let mut server = Command::new(fixture_server())
            .args(flags)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut url = String::new();
        BufReader::new(server.stdout.as_mut().unwrap())
            .read_line(&mut url)
            .unwrap();
        let (recorded, probed) = (temp("recorded.jsonl"), temp("probed.jsonl"));
        let (proxy, at) = proxy(url.trim(), &recorded, &[]);
        let mut args = vec!["probe", "--format", "json", "--url", &at];
        args.extend(["--header", "Authorization: Bearer s3cret-header"]);
        args.extend(["--save", probed.to_str().unwrap()]);
        args.extend(CALLS);
        let probe = run(&args);
        assert_eq!(stop(proxy), (0, String::new()));
        server.kill().unwrap();
        server.wait().unwrap();
        assert_eq!(probe.status, 1, "{}", probe.stderr);

        // The same findings on the same lines; columns differ by the `session` key.
        let audited = findings(&probed);
        assert_eq!(audited.len(), 11, "{flags:?}: {audited:?}");
        assert_eq!(findings(&recorded), audited, "{flags:?}");
        for path in [&recorded, &probed] {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(text.contains(r#""password":"[redacted]""#), "{flags:?}");
            assert!(
                !text.contains("hunter2") && !text.contains("s3cret"),
                "{flags:?}"
            );
        }
    }
}

#[test]
fn what_is_redacted_is_configurable_and_the_findings_stay() {
    let transcript = temp("stdio.jsonl");
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{"user":"me","api_key":"k-123"}}}"#,
        "\n"
    );
    let record = |flags: &[&str]| {
        let (status, _) = record(input.as_bytes(), flags, &["--broken"], &transcript);
        assert_eq!(status, 0);
        let text = std::fs::read_to_string(&transcript).unwrap();
        let audit = run(&["audit", "--format", "concise", transcript.to_str().unwrap()]);
        (text.lines().next().unwrap().to_string(), audit.stdout)
    };
    let (redacted, findings) = record(&["--redact", "USER"]);
    assert!(
        redacted.ends_with(r#""arguments":{"user":"[redacted]","api_key":"[redacted]"}}}}"#),
        "{redacted}"
    );
    let (kept, kept_findings) = record(&["--no-redact"]);
    assert!(
        kept.ends_with(&format!("\"msg\":{}}}", input.trim())),
        "{kept}"
    );
    let line_and_code = |out: &str| -> Vec<String> {
        out.lines()
            .map(|l| l.split_once(": ").map_or(l, |(_, rest)| rest).to_string())
            .collect()
    };
    assert_eq!(line_and_code(&findings), line_and_code(&kept_findings));
    assert!(findings.contains("MCP101"), "{findings}");
}

#[test]
fn a_secret_whose_schema_constrains_it_is_not_judged_by_its_marker() {
    use mcp_lint::transcript::redact::Redactor;
    // `token` must look like a GitHub token; call 2 gives a valid one, call 3 a bad `n`.
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"gh","inputSchema":{"type":"object","properties":{"token":{"type":"string","pattern":"^ghp_[A-Za-z0-9]{8}$"},"n":{"type":"integer"}},"required":["token"]}}]}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gh","arguments":{"token":"ghp_abcdefgh","n":1}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"GitHub refused the token"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gh","arguments":{"token":"ghp_abcdefgh","n":"x"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"n must be an integer"}}"#,
    ];
    let (original, redacted) = (temp("original.jsonl"), temp("redacted.jsonl"));
    std::fs::write(&original, lines.join("\n")).unwrap();
    let redactor = Redactor::new(&[]);
    let redacted_lines: Vec<String> = lines
        .iter()
        .map(|l| redactor.redact(l).into_owned())
        .collect();
    assert!(redacted_lines[2].contains(r#""token":"[redacted]""#));
    std::fs::write(&redacted, redacted_lines.join("\n")).unwrap();
    let found = findings(&original);
    let codes: Vec<Value> = found.iter().map(|f| json!([f[0], f[1], f[2]])).collect();
    assert_eq!(codes, [json!(["MCP104", 4, 2]), json!(["MCP103", 6, 3])]);
    assert_eq!(findings(&redacted), found);
}

#[test]
fn a_record_that_cannot_start_says_why() {
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                "ftp://example.com/mcp",
            ],
            "mcp-lint: --upstream `ftp://example.com/mcp`: not an http:// or https:// URL\n",
        ),
        (
            &[
                "--listen",
                "256.0.0.1:1",
                "--upstream",
                "http://127.0.0.1:1/mcp",
            ],
            "mcp-lint: cannot listen on 256.0.0.1:1: ",
        ),
        (&["--listen", "127.0.0.1:0"], "--upstream <URL>"),
        (
            &[
                "--listen",
                "127.0.0.1:0",
                "--upstream",
                "http://a/",
                "--",
                "true",
            ],
            "cannot be used with",
        ),
        (
            &["--no-redact", "--redact", "a", "--", "true"],
            "cannot be used with",
        ),
    ];
    for (flags, said) in cases {
        let mut args = vec!["record", "-o", "/dev/null"];
        args.extend(flags);
        let out = run(&args);
        assert_eq!(out.status, 2, "{flags:?}");
        assert!(out.stderr.contains(said), "{flags:?}: {}", out.stderr);
    }
}

#[test]
fn an_upstream_that_cannot_be_reached_is_a_bad_gateway_and_the_request_is_on_file() {
    let free = TcpListener::bind("127.0.0.1:0").unwrap();
    let upstream = format!("http://{}/mcp", free.local_addr().unwrap());
    drop(free);
    let transcript = temp("unreached.jsonl");
    let (proxy, at) = proxy(&upstream, &transcript, &[]);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let mut response = agent.post(&at).send(ping).unwrap();
    assert_eq!(response.status().as_u16(), 502);
    let body = response.body_mut().read_to_string().unwrap();
    assert!(
        body.starts_with("mcp-lint record: POST /mcp: the upstream failed: "),
        "{body}"
    );
    let (status, stderr) = stop(proxy);
    assert_eq!(status, 0);
    assert_eq!(
        stderr,
        format!(
            "mcp-lint: {}",
            body.strip_prefix("mcp-lint record: ").unwrap()
        )
    );
    assert_eq!(
        envelopes(&transcript),
        [json!([
            "c2s",
            null,
            serde_json::from_str::<Value>(ping).unwrap()
        ])]
    );
}
