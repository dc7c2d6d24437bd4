//! Hostile transcripts and property tests: whatever the input, mcp-lint reports and goes on,
//! never panics, never hangs. The property tests run a few hundred cases in CI; set
//! PROPTEST_CASES=100000 for a longer run (README, "Fuzzing").

mod common;

use std::path::PathBuf;

use proptest::prelude::*;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn audit(path: &std::path::Path) -> (i32, Vec<String>) {
    let out = common::run(&["audit", "--format", "json", path.to_str().unwrap()]);
    let codes = common::findings(&out.stdout)
        .into_iter()
        .map(|f| f.3)
        .collect();
    (out.status, codes)
}

#[test]
fn json_nested_100k_deep_is_a_broken_line_not_a_crash() {
    let file = scratch("nested").join("nested.jsonl");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let call =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}"#;
    let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#;
    std::fs::write(&file, format!("{deep}\n{call}\n{error}\n")).unwrap();
    let (status, codes) = audit(&file);
    assert_eq!(
        codes,
        ["MCP001", "MCP104"],
        "the broken line is reported, the next ones audited"
    );
    assert_eq!(status, 1);
}

#[test]
fn a_broken_har_entry_list_ends_the_walk_instead_of_looping() {
    let file = scratch("har").join("broken.har");
    std::fs::write(&file, "{\"log\": {\"entries\": [}]}}\n").unwrap();
    let out = common::run(&[
        "audit",
        "--input-format",
        "har",
        "--format",
        "json",
        file.to_str().unwrap(),
    ]);
    let codes: Vec<String> = common::findings(&out.stdout)
        .into_iter()
        .map(|f| f.3)
        .collect();
    assert_eq!(codes, ["MCP004"]);
    assert_eq!(
        out.status, 1,
        "the capture was not checked at all: an error"
    );
}

#[test]
fn a_batch_of_millions_is_reported_not_held() {
    let file = scratch("batch").join("batch.jsonl");
    let batch = format!("[{}{{}}]\n", "{},".repeat(8_000_000));
    let call =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}"#;
    let error = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#;
    std::fs::write(&file, format!("{batch}{call}\n{error}\n")).unwrap();
    let out = common::run(&["audit", "--format", "concise", file.to_str().unwrap()]);
    assert_eq!(
        out.stdout.lines().take(2).collect::<Vec<_>>(),
        [
            format!(
                "{}:1:1: MCP001 warning this line is a batch of more than 10000 messages, so it was not checked",
                file.display()
            ),
            format!(
                "{}:3:33: MCP104 error tool failure answered with a JSON-RPC error (-32603) for tools/call `x` (id 1)",
                file.display()
            ),
        ]
    );
}

#[test]
fn schemas_nested_as_deep_as_json_is_read_are_compiled_and_applied() {
    // 60 levels of `properties` are 121 levels of JSON; inside a tools/list result that is
    // close to the 128 levels serde_json builds (deeper is MCP001, "cannot be read").
    let nest =
        |inner: String, level: &dyn Fn(String) -> String| (0..60).fold(inner, |i, _| level(i));
    let schema = nest(r#"{"type":"integer"}"#.to_string(), &|inner| {
        format!(r#"{{"type":"object","properties":{{"a":{inner}}},"required":["a"]}}"#)
    });
    let wrong = nest(r#""x""#.to_string(), &|inner| format!(r#"{{"a":{inner}}}"#));
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_string(),
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"deep","inputSchema":{schema},"outputSchema":{schema}}}]}}}}"#
        ),
        format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"deep","arguments":{wrong}}}}}"#
        ),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deep","arguments":{}}}"#
            .to_string(),
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"result":{{"content":[],"structuredContent":{wrong}}}}}"#
        ),
    ];
    let file = scratch("deep-schema").join("deep.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (_, codes) = audit(&file);
    assert_eq!(
        codes,
        ["MCP103", "MCP106"],
        "both checked against the 60-level schema"
    );
}

#[test]
fn a_line_over_the_limit_is_skipped_without_holding_it() {
    let file = scratch("long").join("long.jsonl");
    let mut text = String::from("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"pad\":\"");
    text.push_str(&"a".repeat(65 << 20));
    text.push_str("\"}}\n");
    std::fs::write(&file, text).unwrap();
    let (_, codes) = audit(&file);
    assert_eq!(
        codes,
        ["MCP004"],
        "its one line was all there was: nothing was checked"
    );
}

#[test]
fn a_catalog_of_100k_tools_is_cheap_until_a_tool_is_called() {
    let file = scratch("catalog").join("catalog.jsonl");
    let tools: Vec<String> = (0..100_000)
        .map(|i| format!(r#"{{"name":"t{i}","inputSchema":{{"type":"object","properties":{{"n":{{"type":"integer"}}}}}}}}"#))
        .collect();
    let lines = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_string(),
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{}]}}}}"#, tools.join(",")),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t99999","arguments":{"n":"x"}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}"#.to_string(),
    ];
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let (_, codes) = audit(&file);
    assert_eq!(
        codes,
        ["MCP103"],
        "the call's arguments were validated against t99999's schema"
    );
}

/// The fixtures, as seeds for mutation.
fn seeds(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(common::root().join(dir)).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            for inner in std::fs::read_dir(&path).unwrap() {
                let inner = inner.unwrap().path();
                if inner.extension().is_some_and(|e| e == ext) {
                    out.push(std::fs::read(inner).unwrap());
                }
            }
        }
    }
    out.sort();
    out
}

/// A seed with a slice replaced by arbitrary bytes.
fn mutated(seeds: Vec<Vec<u8>>) -> impl Strategy<Value = Vec<u8>> {
    (
        0..seeds.len(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<u8>(), 0..64),
    )
        .prop_map(move |(which, at, len, noise)| {
            let mut bytes = seeds[which].clone();
            let start = at.index(bytes.len() + 1);
            let end = (start + len.index(32)).min(bytes.len());
            bytes.splice(start..end, noise);
            bytes
        })
}

/// `PROPTEST_CASES` when it is set (the long run), else a quick run for CI. An explicit
/// `cases` would hide the variable.
fn cases(quick: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(quick)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    #[test]
    fn audit_never_panics_on_mutated_transcripts(bytes in mutated(seeds("testdata/transcripts", "jsonl"))) {
        let file = scratch("prop-audit").join("t.jsonl");
        std::fs::write(&file, &bytes).unwrap();
        let (status, _) = audit(&file);
        prop_assert!(status == 0 || status == 1);
    }

    #[test]
    fn check_never_panics_on_mutated_sources(bytes in mutated(seeds("testdata/source", "rs"))) {
        let file = scratch("prop-check").join("s.rs");
        std::fs::write(&file, &bytes).unwrap();
        let out = common::run(&["--format", "json", file.to_str().unwrap()]);
        prop_assert!(out.status == 0 || out.status == 1, "{}", out.stderr);
    }
}

#[test]
fn the_response_to_an_unreadable_request_is_not_a_stray() {
    // B17: the request's line is nested past what is read; its response must not be reported
    // as answering an id never requested (MCP302).
    let file = scratch("unreadable-request").join("t.jsonl");
    let deep = format!("{}{}", "[".repeat(2000), "]".repeat(2000));
    let request = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"x","arguments":{{"a":{deep}}}}}}}"#
    );
    let answer = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"ok"}]}}"#;
    std::fs::write(&file, format!("{request}\n{answer}\n")).unwrap();
    let (status, codes) = audit(&file);
    assert_eq!(codes, ["MCP001"], "the unreadable line only");
    assert_eq!(status, 0);
}

#[test]
fn a_capture_cut_short_says_so() {
    // B19: not "no `log.entries` array", but where the JSON ends.
    let har = std::fs::read("testdata/transcripts/formats/fail_streamable_http.har").unwrap();
    let file = scratch("cut-har").join("cut.har");
    std::fs::write(&file, &har[..3000]).unwrap();
    let out = common::run(&["audit", "--format", "concise", file.to_str().unwrap()]);
    assert_eq!(out.status, 1);
    assert!(
        out.stdout
            .contains("MCP004 error cut short: the JSON ends early (EOF while parsing"),
        "{}",
        out.stdout
    );
}

#[test]
fn gzipped_transcripts_are_read_as_a_stream_named_or_walked() {
    use std::io::Write;
    let plain = std::fs::read("testdata/transcripts/MCP104/fail_tool_failure.jsonl").unwrap();
    let dir = scratch("gzip");
    let file = dir.join("session.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&plain).unwrap();
    std::fs::write(&file, gz.finish().unwrap()).unwrap();
    let (status, codes) = audit(&file);
    assert_eq!(codes, ["MCP104", "MCP104", "MCP104"]);
    assert_eq!(status, 1);
    let (_, walked) = audit(&dir);
    assert_eq!(walked, codes, "a walk takes *.jsonl.gz");
}

#[test]
fn an_error_page_in_a_capture_is_named_with_its_status() {
    // B18: an HTML 500 in a HAR is not "a response event is not JSON".
    let entry = |request: &str, status: u16, mime: &str, body: &str| {
        serde_json::json!({
            "request": {"method": "POST", "url": "http://localhost/mcp", "headers": [],
                        "postData": {"mimeType": "application/json", "text": request}},
            "response": {"status": status, "headers": [],
                         "content": {"mimeType": mime, "text": body}}
        })
    };
    let har = serde_json::json!({"log": {"entries": [
        entry(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#, 200,
              "application/json", r#"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}}}}"#),
        entry(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{}}}"#,
              500, "text/html", "<html><body>Internal Server Error</body></html>"),
    ]}});
    let file = scratch("error-page").join("capture.har");
    std::fs::write(&file, serde_json::to_string_pretty(&har).unwrap()).unwrap();
    let out = common::run(&["audit", "--format", "concise", file.to_str().unwrap()]);
    assert!(
        out.stdout
            .contains("MCP001 warning the HTTP 500 response body (text/html) is not JSON"),
        "{}",
        out.stdout
    );
}
