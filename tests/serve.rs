//! `mcp-lint mcp`: mcp-lint as an MCP server. It answers as SEP-2145 requires (its own probe
//! passes), and its tools give what the command line gives.

mod common;

use serde_json::{Value, json};

/// Sends `messages` (one a line) to `mcp-lint mcp` and returns its replies.
fn serve(messages: &[Value]) -> Vec<Value> {
    let mut input = String::new();
    for m in messages {
        input += &format!("{m}\n");
    }
    input += "not json\n";
    let out = common::run_stdin(&["mcp"], input.as_bytes());
    assert_eq!(out.status, 0, "{}", out.stderr);
    out.stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON message a line"))
        .collect()
}

fn call(id: i64, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

fn text(reply: &Value) -> &str {
    reply["result"]["content"][0]["text"].as_str().unwrap()
}

#[test]
fn failures_of_well_formed_calls_are_tool_execution_errors() {
    let replies = serve(&[
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call(2, json!({"name": "no_such_tool", "arguments": {}})),
        call(3, json!({"name": "check", "arguments": {"paths": []}})),
        call(
            4,
            json!({"name": "check", "arguments": {"paths": ["testdata/no/such/dir"]}}),
        ),
        call(
            5,
            json!({"name": "explain", "arguments": {"rule": "MCP999"}}),
        ),
        call(6, json!({"name": "check"})),
    ]);
    // The notification has no reply; the line that is not JSON has one, with no id.
    assert_eq!(replies.len(), 7);
    assert_eq!(replies[0]["result"]["protocolVersion"], "2025-06-18");
    assert!(replies[0]["result"]["capabilities"]["tools"].is_object());
    for reply in &replies[1..6] {
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        assert!(reply.get("error").is_none());
    }
    assert_eq!(
        text(&replies[1]),
        "Unknown tool: no_such_tool. Re-run tools/list and retry."
    );
    assert_eq!(
        text(&replies[2]),
        "Invalid input: check. [] has less than 1 item at `/paths`. See the tool's inputSchema in tools/list."
    );
    assert!(
        text(&replies[3])
            .starts_with("mcp-lint: testdata/no/such/dir: no such file or directory\n"),
        "{}",
        text(&replies[3])
    );
    assert!(text(&replies[4]).starts_with("Unknown rule: MCP999."));
    assert_eq!(
        text(&replies[5]),
        "Invalid input: check. \"paths\" is a required property. See the tool's inputSchema in tools/list."
    );
    assert_eq!(replies[6]["id"], Value::Null);
    assert_eq!(replies[6]["error"]["code"], -32700);
}

#[test]
fn malformed_requests_and_unknown_methods_are_protocol_errors() {
    let replies = serve(&[
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
        call(2, json!({"arguments": {}})),
        call(3, json!({"name": 7})),
        call(4, json!({"name": "check", "arguments": ["src"]})),
        json!({"jsonrpc": "2.0", "id": 5, "method": "resources/list"}),
        json!([1, 2]),
    ]);
    let codes: Vec<(Value, i64)> = replies
        .iter()
        .map(|r| (r["id"].clone(), r["error"]["code"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        codes,
        [
            (json!(1), -32602),
            (json!(2), -32602),
            (json!(3), -32602),
            (json!(4), -32602),
            (json!(5), -32601),
            (Value::Null, -32600),
            (Value::Null, -32700),
        ]
    );
}

#[test]
fn tools_answer_what_the_command_line_does_in_their_output_schema() {
    let replies = serve(&[
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        call(
            2,
            json!({"name": "check", "arguments": {"paths": ["testdata/source/MCP101/fail_rmcp_call_tool.rs"]}}),
        ),
        call(
            3,
            json!({"name": "audit", "arguments": {"content": std::fs::read_to_string(common::root().join("testdata/transcripts/MCP101/fail_unknown_tool.jsonl")).unwrap()}}),
        ),
        call(
            4,
            json!({"name": "explain", "arguments": {"rule": "unknown-tool-protocol-error"}}),
        ),
        call(5, json!({"name": "rules"})),
    ]);
    let tools = replies[0]["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["check", "audit", "explain", "rules"]);
    for (tool, reply) in tools.iter().zip(&replies[1..]) {
        assert_eq!(reply["result"]["isError"], false, "{reply}");
        let structured = &reply["result"]["structuredContent"];
        let validator = jsonschema::validator_for(&tool["outputSchema"]).unwrap();
        assert!(validator.is_valid(structured), "{structured}");
        assert!(jsonschema::validator_for(&tool["inputSchema"]).is_ok());
    }

    let positions = |reply: &Value| -> Vec<(String, u64, u64, String)> {
        reply["result"]["structuredContent"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["file"].as_str().unwrap().to_string(),
                    f["line"].as_u64().unwrap(),
                    f["column"].as_u64().unwrap(),
                    f["code"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let file = "testdata/source/MCP101/fail_rmcp_call_tool.rs";
    assert_eq!(
        positions(&replies[1]),
        [
            (file.to_string(), 29, 36, "MCP101".to_string()),
            (file.to_string(), 34, 32, "MCP101".to_string()),
            (file.to_string(), 38, 22, "MCP101".to_string()),
        ]
    );
    assert!(text(&replies[1]).starts_with(&format!(
        "{file}:29:36: MCP101 error unknown tool answered with a JSON-RPC error (-32602)\n  help: "
    )));
    assert!(text(&replies[1]).ends_with("3 errors, 0 warnings, 0 advice in 1 files"));
    assert_eq!(
        positions(&replies[2]),
        [
            ("-".to_string(), 7, 94, "MCP101".to_string()),
            ("-".to_string(), 10, 94, "MCP101".to_string()),
        ]
    );
    assert_eq!(replies[3]["result"]["structuredContent"]["code"], "MCP101");
    assert_eq!(
        text(&replies[3]),
        std::fs::read_to_string(common::root().join("rules/MCP101.md")).unwrap()
    );
    assert_eq!(
        replies[4]["result"]["structuredContent"]["rules"]
            .as_array()
            .unwrap()
            .len(),
        mcp_lint::rules::RULES.len()
    );
}

/// mcp-lint's own probe, over stdio, finds nothing to say against `mcp-lint mcp`.
#[test]
#[cfg(unix)]
fn mcp_lint_mcp_passes_its_own_probe() {
    let bin = env!("CARGO_BIN_EXE_mcp-lint");
    let out = common::run(&[
        "probe",
        "--format",
        "json",
        "--call",
        r#"check={"paths":["testdata/no/such/dir"]}"#,
        "--call",
        r#"check={"paths":["testdata/source/MCP101/pass_rmcp_call_tool.rs"]}"#,
        "--",
        bin,
        "mcp",
    ]);
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["findings"], json!([]), "{}", out.stdout);
    assert_eq!(out.status, 0);
    let verdicts: Vec<(&str, &str)> = doc["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["clause"].as_str().unwrap(),
                c["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("unknown tool", "pass"),
            ("unavailable tool", "not-probed"),
            ("invalid input", "pass"),
            ("tool failure", "pass"),
            ("output validation", "pass"),
            ("malformed request", "pass"),
            ("unknown method", "pass"),
        ]
    );
}
