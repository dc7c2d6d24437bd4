//! Output formats checked against their consumers' contracts: SARIF against the OASIS 2.1.0
//! schema and GitHub code scanning's stricter requirements, GitLab Code Quality against the
//! fields GitLab documents; configuration discovery.

mod common;

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::Value;

const SOURCES: &[&str] = &[
    "testdata/source/MCP101/fail_rmcp_boxed_future.rs",
    "testdata/cli/non_ascii.rs",
    "testdata/source/crates/plugin-proxy",
];
const TRANSCRIPT: &str = "testdata/transcripts/MCP202/fail_lists_tools.jsonl";

#[test]
fn sarif_is_valid_and_meets_github_code_scanning_rules() {
    let mut args = vec!["--format", "sarif", TRANSCRIPT];
    args.extend(SOURCES);
    let out = common::run(&args);
    let log: Value = serde_json::from_str(&out.stdout).unwrap();

    let mut schema = json_file("testdata/sarif/sarif-2.1.0-rtm.5.json");
    // Erratum, applied on load as the MCP conformance suite does for its schemas: rtm.5's
    // language-tag pattern has a stray `]`; the final 2.1.0 schema fixed it to this.
    fix_language_pattern(&mut schema);
    let errors = schema_errors(&schema, &log);
    assert!(errors.is_empty(), "SARIF does not validate:\n{errors}");

    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let mut ids = HashSet::new();
    for rule in rules {
        assert!(
            ids.insert(rule["id"].as_str().unwrap()),
            "duplicate rule {}",
            rule["id"]
        );
        for key in ["shortDescription", "fullDescription", "help"] {
            assert!(
                !rule[key]["text"].as_str().unwrap_or_default().is_empty(),
                "{} lacks {key}.text",
                rule["id"]
            );
        }
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 10);
    let mut fingerprints = HashSet::new();
    for result in results {
        // Code scanning follows an alert across commits by it.
        let fingerprint = result["partialFingerprints"]["mcpLint/v1"]
            .as_str()
            .unwrap();
        assert!(fingerprints.insert(fingerprint), "{fingerprint} twice");
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            !uri.starts_with('/') && !uri.contains('\\') && !uri.starts_with("./"),
            "{uri}"
        );
        assert!(location["region"]["startLine"].as_u64().unwrap() >= 1);
    }
    let non_ascii = results
        .iter()
        .find(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                == "testdata/cli/non_ascii.rs"
        })
        .unwrap();
    assert_eq!(
        non_ascii["locations"][0]["physicalLocation"]["region"]["startColumn"], 26,
        "columns are code points"
    );
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["properties"]["profile"], "sep-2145");
    let transcript = results.iter().find(|r| r["ruleId"] == "MCP202").unwrap();
    assert_eq!(transcript["properties"]["requestId"], 2);

    // A protocol error built by a helper: where it leaves the tool, and where it is built,
    // in this file or another.
    type Place = (String, u64, String); // file name, line, label
    let related: Vec<(u64, Vec<Place>)> = results
        .iter()
        .filter(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .is_some_and(|u| u.contains("plugin-proxy"))
        })
        .map(|r| {
            let line = r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64();
            let places = r["relatedLocations"].as_array().into_iter().flatten();
            let places = places.map(|l| {
                let at = &l["physicalLocation"];
                let file = at["artifactLocation"]["uri"].as_str().unwrap();
                (
                    file.rsplit('/').next().unwrap().to_string(),
                    at["region"]["startLine"].as_u64().unwrap(),
                    l["message"]["text"].as_str().unwrap().to_string(),
                )
            });
            (line.unwrap(), places.collect())
        })
        .collect();
    let place = |file: &str, line, text: &str| (file.to_string(), line, text.to_string());
    let (exit, built, passed_on) = (
        "and leaves the tools/call handler here",
        "the protocol error is built here",
        "and leaves this function here, for a tools/call handler to pass on",
    );
    // Helpers that return rmcp's `Result` (`reload`, `call_plugin`) report their errors in
    // place; error values built by helpers and `From` conversions say where they are built.
    assert_eq!(
        related,
        [
            (
                20,
                vec![place("main.rs", 20, exit), place("errors.rs", 12, built)]
            ),
            (28, vec![place("errors.rs", 18, built)]),
            (36, vec![place("main.rs", 36, passed_on)]),
            (8, vec![place("plugin.rs", 8, passed_on)]),
        ]
    );
}

#[test]
fn gitlab_code_quality_has_the_documented_fields_and_the_findings_fingerprints() {
    let mut args = vec![TRANSCRIPT];
    args.extend(SOURCES);
    let run = |format: &str| {
        let mut all = vec!["--format", format];
        all.extend(&args);
        let out = common::run(&all);
        assert_eq!(out.status, 1);
        serde_json::from_str::<Value>(&out.stdout).unwrap()
    };
    let (report, json, sarif) = (run("gitlab"), run("json"), run("sarif"));

    let schema = json_file("testdata/gitlab/code-quality.schema.json");
    let errors = schema_errors(&schema, &report);
    assert!(errors.is_empty(), "not a Code Quality report:\n{errors}");

    let issues = report.as_array().unwrap();
    let findings = json["findings"].as_array().unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(issues.len(), 10);
    assert_eq!(findings.len(), issues.len());
    let mut fingerprints = HashSet::new();
    for ((issue, finding), result) in issues.iter().zip(findings).zip(results) {
        let fingerprint = issue["fingerprint"].as_str().unwrap();
        // GitLab shows one issue per fingerprint: repeats must differ.
        assert!(fingerprints.insert(fingerprint), "{fingerprint} twice");
        assert_eq!(result["partialFingerprints"]["mcpLint/v1"], fingerprint);
        assert_eq!(issue["check_name"], finding["code"]);
        assert_eq!(issue["location"]["path"], finding["file"]);
        assert_eq!(issue["location"]["lines"]["begin"], finding["line"]);
        assert_eq!(issue["location"]["lines"]["end"], finding["end_line"]);
        let severity = match finding["level"].as_str().unwrap() {
            "error" => "critical",
            "warning" => "major",
            _ => "minor",
        };
        assert_eq!(issue["severity"], severity);
        let description = issue["description"].as_str().unwrap();
        let message = finding["message"].as_str().unwrap();
        assert_eq!(
            description,
            format!(
                "{} ({}): {message}",
                finding["code"].as_str().unwrap(),
                finding["rule"].as_str().unwrap()
            )
        );
    }
    let transcript = &issues[issues.len() - 1];
    assert_eq!(transcript["location"]["path"], TRANSCRIPT);
    assert_eq!(transcript["check_name"], "MCP202");
    assert_eq!(transcript["severity"], "major");
}

fn json_file(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(common::root().join(path)).unwrap()).unwrap()
}

/// What `schema` finds wrong with `instance`, a line each.
fn schema_errors(schema: &Value, instance: &Value) -> String {
    let validator = jsonschema::validator_for(schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    errors.join("\n")
}

fn fix_language_pattern(value: &mut Value) {
    match value {
        Value::String(s) if s == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" => {
            *s = "^[a-zA-Z]{2}$|^[a-zA-Z]{2}-[a-zA-Z]{2}$".into()
        }
        Value::Array(items) => items.iter_mut().for_each(fix_language_pattern),
        Value::Object(map) => map.values_mut().for_each(fix_language_pattern),
        _ => {}
    }
}

/// A fresh directory under Cargo's per-test scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src/nested")).unwrap();
    std::fs::copy(common::root().join(SOURCES[0]), dir.join("src/server.rs")).unwrap();
    dir
}

fn codes_in(dir: &std::path::Path, cwd: &str) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .args(["--format", "json", "."])
        .current_dir(dir.join(cwd))
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::findings(&String::from_utf8(out.stdout).unwrap())
        .into_iter()
        .map(|f| format!("{}:{}", f.0, f.3))
        .collect()
}

#[test]
fn configuration_is_found_walking_up_from_the_working_directory() {
    let dir = scratch("discovery");
    assert_eq!(
        codes_in(&dir, "src"),
        ["./server.rs:MCP101", "./server.rs:MCP101"]
    );

    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[package.metadata.mcp-lint]\nexclude = [\"src/server.rs\"]\n").unwrap();
    assert!(
        codes_in(&dir, "src/nested").is_empty(),
        "Cargo.toml metadata from two levels up applies"
    );

    std::fs::write(
        dir.join("src/mcp-lint.toml"),
        "[rules]\nMCP101 = \"warning\"\n",
    )
    .unwrap();
    assert_eq!(
        codes_in(&dir, "src"),
        ["./server.rs:MCP101", "./server.rs:MCP101"],
        "the nearest file wins, whole"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg(".")
        .current_dir(dir.join("src"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "MCP101 is a warning there");
}

#[test]
fn a_discovered_configuration_that_cannot_be_read_is_an_error() {
    let dir = scratch("unreadable-config");
    // UTF-16, as PowerShell's `>` writes it (B4).
    let utf16: Vec<u8> = "\u{feff}[rules]\nMCP101 = \"off\"\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    std::fs::write(dir.join("mcp-lint.toml"), utf16).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
        .arg(".")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mcp-lint.toml: cannot read it"), "{stderr}");
}

#[test]
fn each_file_takes_its_nearest_configuration() {
    // As ruff does: `mcp-lint crate-a/src crate-b/src` from a monorepo's root uses
    // `crate-a/mcp-lint.toml` for crate-a's files, and the root's for the others.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("monorepo");
    let _ = std::fs::remove_dir_all(&dir);
    for member in ["crate-a", "crate-b"] {
        std::fs::create_dir_all(dir.join(member).join("src")).unwrap();
        std::fs::copy(
            common::root().join(SOURCES[0]),
            dir.join(member).join("src/server.rs"),
        )
        .unwrap();
    }
    std::fs::write(dir.join("mcp-lint.toml"), "[rules]\nMCP101 = \"warning\"\n").unwrap();
    std::fs::write(
        dir.join("crate-a/mcp-lint.toml"),
        "[rules]\nMCP101 = \"off\"\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-lint"))
            .args(["--format", "concise"])
            .args(extra)
            .args(["crate-a/src", "crate-b/src"])
            .current_dir(&dir)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run(&[]);
    assert!(
        !out.contains("crate-a/"),
        "crate-a turns MCP101 off:\n{out}"
    );
    assert!(
        out.contains("crate-b/src/server.rs") && out.contains("MCP101 warning"),
        "{out}"
    );
    // `--config` holds for every file, and the command line's levels in every configuration.
    let named = run(&["--config", "mcp-lint.toml"]);
    assert!(named.contains("crate-a/src/server.rs"), "{named}");
    let denied = run(&["--warn", "MCP101"]);
    assert!(denied.contains("crate-a/src/server.rs"), "{denied}");
}

/// A transcript whose tool name holds what every format must escape: markup, quotes, a
/// backtick, a `|`, a line break and a control character XML 1.0 forbids.
fn hostile_transcript() -> (PathBuf, &'static str) {
    let name = "a<b&\"c'\u{1}|`d`\nx";
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": {}}});
    let error =
        r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Unknown tool"}}"#;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("hostile.jsonl");
    // Tests run in parallel and share this file: written aside, then renamed into place, so
    // that no test reads it half written.
    let thread = format!("{:?}", std::thread::current().id()).replace(['(', ')'], "");
    let aside = dir.join(format!("hostile.jsonl.{}.{thread}", std::process::id()));
    std::fs::write(&aside, format!("{call}\n{error}\n")).unwrap();
    std::fs::rename(&aside, &path).unwrap();
    (path, name)
}

#[test]
fn jsonl_lines_are_json_findings_then_its_summary() {
    let (hostile, _) = hostile_transcript();
    let mut args = vec![TRANSCRIPT, hostile.to_str().unwrap()];
    args.extend(SOURCES);
    let summary = jsonl_matches_json(&args);
    assert_eq!(
        summary,
        serde_json::json!({"files": 7, "errors": 9, "warnings": 2, "advice": 0})
    );
}

/// `audit --format jsonl` writes findings as they are judged, file by file: the same lines
/// as a whole report would hold.
#[test]
fn streamed_jsonl_lines_are_json_findings_then_its_summary() {
    let summary = jsonl_matches_json(&["audit", "testdata/transcripts"]);
    assert_eq!(
        summary,
        serde_json::json!({"files": 43, "errors": 27, "warnings": 29, "advice": 2})
    );
}

/// `audit - --format jsonl` as a pipeline's map step: a finding comes out as soon as the
/// exchange it is about has gone in, before the input is closed.
#[test]
fn jsonl_streams_from_a_pipe_before_the_input_ends() {
    let session = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Tool nope not found"}}"#,
    ];
    let out = common::piped(
        &common::root(),
        &["audit", "-", "--format", "jsonl"],
        &session,
    );
    let finding: Value = serde_json::from_str(&out.first).unwrap();
    assert_eq!(
        (&finding["code"], &finding["file"], &finding["line"]),
        (&Value::from("MCP101"), &Value::from("-"), &Value::from(6))
    );
    assert_eq!(finding["request_id"], 2);
    assert_eq!(
        out.rest,
        "{\"summary\":{\"files\":1,\"errors\":1,\"warnings\":0,\"advice\":0}}\n"
    );
    assert_eq!(out.status, 1);
}

/// Asserts that a run's `--format jsonl` lines are its `--format json` findings, fields in
/// the same order, then its summary; returns the summary.
fn jsonl_matches_json(args: &[&str]) -> Value {
    let document: Value =
        serde_json::from_str(&common::run(&[&["--format", "json"], args].concat()).stdout).unwrap();
    let out = common::run(&[&["--format", "jsonl"], args].concat());
    assert_eq!(out.status, 1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let findings = document["findings"].as_array().unwrap();
    assert_eq!(lines.len(), findings.len() + 1);
    for (line, expected) in lines.iter().zip(findings) {
        assert_eq!(&serde_json::from_str::<Value>(line).unwrap(), expected);
        // The same field order as json's.
        let at: Vec<usize> = common::FINDING_FIELDS
            .iter()
            .map(|k| line.find(&format!("\"{k}\":")).unwrap())
            .collect();
        assert!(at.is_sorted(), "{line}");
    }
    let summary: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(summary, serde_json::json!({"summary": document["summary"]}));
    summary["summary"].clone()
}

/// The packages of a manifest, as cargo names them.
fn packages(manifest: &str) -> Vec<cargo_metadata::Package> {
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(common::root().join(manifest))
        .no_deps()
        .other_options(["--offline".to_string()])
        .exec()
        .unwrap();
    metadata.packages
}

#[test]
fn cargo_messages_parse_as_cargo_tooling_reads_them_and_spans_hold_the_offending_bytes() {
    use cargo_metadata::Message;
    use cargo_metadata::diagnostic::DiagnosticLevel;

    let advice = "testdata/source/MCP201/fail_vague_errors.rs";
    let mut args = vec!["--format", "cargo", TRANSCRIPT, advice];
    args.extend(SOURCES);
    let out = common::run(&args);
    assert_eq!(out.status, 1);
    let mut messages = Vec::new();
    for message in Message::parse_stream(out.stdout.as_bytes()) {
        match message.unwrap() {
            Message::CompilerMessage(m) => messages.push(m),
            other => panic!("not a compiler message: {other:?}"),
        }
    }
    assert_eq!(messages.len(), 12);

    let mut primaries = Vec::new();
    for m in &messages {
        // The package of the nearest Cargo.toml, and the target cargo would build the file in,
        // as `cargo metadata` names them.
        let file = &m.message.spans[0].file_name;
        let (manifest, target) = if file.contains("plugin-proxy") {
            (
                "testdata/source/crates/plugin-proxy/Cargo.toml",
                "plugin-proxy",
            )
        } else {
            ("Cargo.toml", "mcp_lint")
        };
        let package = &packages(manifest)[0];
        assert_eq!(m.package_id, package.id);
        let cargo_target = package.targets.iter().find(|t| t.name == target).unwrap();
        assert_eq!(
            (&m.target.kind, &m.target.src_path),
            (&cargo_target.kind, &cargo_target.src_path)
        );
        let d = &m.message;
        let code = d.code.as_ref().unwrap();
        assert!(
            code.explanation
                .as_ref()
                .unwrap()
                .starts_with(&format!("# {}", code.code))
        );
        assert!(d.rendered.as_ref().unwrap().starts_with(&code.code));
        let help = d.children.iter().find(|c| c.level == DiagnosticLevel::Help);
        assert!(help.is_some_and(|h| !h.message.is_empty()), "{}", d.message);
        for span in &d.spans {
            let text = std::fs::read(common::root().join(&span.file_name)).unwrap();
            let bytes = &text[span.byte_start as usize..span.byte_end as usize];
            let bytes = String::from_utf8(bytes.to_vec()).unwrap();
            // The span's lines, cut at the highlighted columns, are the same text.
            let highlighted: Vec<String> = span
                .text
                .iter()
                .map(|l| {
                    let chars = l.text.chars();
                    let len = l.highlight_end - l.highlight_start;
                    chars.skip(l.highlight_start - 1).take(len).collect()
                })
                .collect();
            assert_eq!(bytes, highlighted.join("\n"));
            assert_eq!(span.text.len(), span.line_end - span.line_start + 1);
            if span.is_primary {
                primaries.push((
                    span.file_name.rsplit('/').next().unwrap().to_string(),
                    span.line_start,
                    span.column_start,
                    d.level,
                    bytes,
                ));
            }
        }
        assert_eq!(d.spans.iter().filter(|s| s.is_primary).count(), 1);
    }
    let at = |file: &str, line, column, level, text: &str| {
        (file.to_string(), line, column, level, text.to_string())
    };
    for expected in [
        at(
            "fail_rmcp_boxed_future.rs",
            22,
            17,
            DiagnosticLevel::Error,
            r#"McpError::invalid_params(format!("Unknown tool: {}", params.name), None)"#,
        ),
        at(
            "non_ascii.rs",
            16,
            26,
            DiagnosticLevel::Error,
            r#"McpError::internal_error("翻訳に失敗しました", None)"#,
        ),
        at(
            "fail_lists_tools.jsonl",
            7,
            95,
            DiagnosticLevel::Warning,
            r#"{"content": [{"type": "text", "text": "Unknown tool: ech. Available tools: echo, add, weather, list_ids"}], "isError": true}"#,
        ),
        at(
            "fail_vague_errors.rs",
            5,
            5,
            DiagnosticLevel::Note,
            "CallToolResult::error(vec![])",
        ),
    ] {
        assert!(
            primaries.contains(&expected),
            "{expected:?} not in {primaries:#?}"
        );
    }
}

/// What junit-10.xsd declares of an element: its attributes (and which are required), the
/// elements it may hold, and whether it may hold text.
#[derive(Debug, Default)]
struct Declared {
    attributes: Vec<(String, bool)>,
    children: Vec<String>,
    text: bool,
}

/// The top-level elements of the vendored XSD. A type is inline, a named complex type
/// (`rerunType`), or `xs:string` (text only).
fn junit_schema() -> std::collections::HashMap<String, Declared> {
    let text = std::fs::read_to_string(common::root().join("testdata/junit/junit-10.xsd")).unwrap();
    let xsd = roxmltree::Document::parse(&text).unwrap();
    let is =
        |node: &roxmltree::Node, name: &str| node.is_element() && node.tag_name().name() == name;
    let schema = xsd.root_element();
    let named_type = |name: &str| {
        schema
            .children()
            .find(|n| is(n, "complexType") && n.attribute("name") == Some(name))
    };
    let describe = |complex: roxmltree::Node| Declared {
        attributes: complex
            .descendants()
            .filter(|n| is(n, "attribute"))
            .map(|n| {
                (
                    n.attribute("name").unwrap().to_string(),
                    n.attribute("use") == Some("required"),
                )
            })
            .collect(),
        children: complex
            .descendants()
            .filter(|n| is(n, "element"))
            .map(|n| {
                n.attribute("ref")
                    .or(n.attribute("name"))
                    .unwrap()
                    .to_string()
            })
            .collect(),
        text: complex.attribute("mixed") == Some("true"),
    };
    schema
        .children()
        .filter(|n| is(n, "element"))
        .map(|element| {
            let name = element.attribute("name").unwrap().to_string();
            let declared = match element.attribute("type") {
                Some("xs:string") => Declared {
                    text: true,
                    ..Declared::default()
                },
                Some(named) => describe(named_type(named).unwrap()),
                None => describe(element.children().find(|n| is(n, "complexType")).unwrap()),
            };
            (name, declared)
        })
        .collect()
}

fn elements<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> Vec<roxmltree::Node<'a, 'i>> {
    node.descendants().filter(|n| n.has_tag_name(tag)).collect()
}

/// Every element and attribute of `node` is declared where it stands, required attributes
/// are there, and text stands only where the schema allows it.
fn check_against_schema(
    node: roxmltree::Node,
    schema: &std::collections::HashMap<String, Declared>,
) {
    let name = node.tag_name().name();
    let declared = schema
        .get(name)
        .unwrap_or_else(|| panic!("<{name}> is not in junit-10.xsd"));
    for attribute in node.attributes() {
        assert!(
            declared
                .attributes
                .iter()
                .any(|(a, _)| a == attribute.name()),
            "<{name} {}> is not in junit-10.xsd",
            attribute.name()
        );
    }
    for (attribute, required) in &declared.attributes {
        assert!(
            !required || node.has_attribute(attribute.as_str()),
            "<{name}> lacks {attribute}"
        );
    }
    for child in node.children() {
        if child.is_element() {
            let child_name = child.tag_name().name();
            assert!(
                declared.children.iter().any(|c| c == child_name),
                "<{child_name}> in <{name}>"
            );
            check_against_schema(child, schema);
        } else if child.is_text() && !declared.text {
            assert!(child.text().unwrap().trim().is_empty(), "text in <{name}>");
        }
    }
}

#[test]
fn junit_meets_the_jenkins_schema_and_escapes_what_xml_forbids() {
    let (hostile, name) = hostile_transcript();
    let clean = "testdata/source/MCP201/pass_actionable_errors.rs";
    let advice = "testdata/source/MCP201/fail_vague_errors.rs";
    let out = common::run(&[
        "--format",
        "junit",
        "--quiet",
        clean,
        advice,
        SOURCES[0],
        hostile.to_str().unwrap(),
    ]);
    assert_eq!(out.status, 1);
    let xml = roxmltree::Document::parse(&out.stdout).expect("well-formed XML 1.0");
    let root = xml.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let schema = junit_schema();
    // The schema was read: testsuite requires name, tests, failures and errors.
    let required: Vec<&str> = schema["testsuite"]
        .attributes
        .iter()
        .filter(|a| a.1)
        .map(|a| a.0.as_str())
        .collect();
    assert_eq!(required, ["name", "tests", "failures", "errors"]);
    check_against_schema(root, &schema);

    type Case = (String, Option<String>); // "classname / name", failure message
    let suites: Vec<(String, Vec<Case>)> = elements(root, "testsuite")
        .into_iter()
        .map(|suite| {
            let cases = elements(suite, "testcase");
            let failures = elements(suite, "failure").len().to_string();
            assert_eq!(
                suite.attribute("tests"),
                Some(cases.len().to_string().as_str())
            );
            assert_eq!(suite.attribute("failures"), Some(failures.as_str()));
            let cases = cases
                .iter()
                .map(|c| {
                    let failure = c.children().find(|n| n.has_tag_name("failure"));
                    (
                        format!(
                            "{} / {}",
                            c.attribute("classname").unwrap(),
                            c.attribute("name").unwrap()
                        ),
                        failure.map(|f| f.attribute("message").unwrap().to_string()),
                    )
                })
                .collect();
            (suite.attribute("name").unwrap().to_string(), cases)
        })
        .collect();
    let hostile_name = hostile.to_str().unwrap();
    let hostile_class = hostile_name.strip_suffix(".jsonl").unwrap();
    let case = |class: &str, case: &str, failure: Option<&str>| {
        (format!("{class} / {case}"), failure.map(str::to_string))
    };
    let unknown = "unknown tool answered with a JSON-RPC error";
    // Files in order. With --quiet, the advice file shows no failure: it passes, no errors.
    assert_eq!(
        suites,
        [
            (
                hostile_name.to_string(),
                vec![case(
                    hostile_class,
                    "MCP101 unknown-tool-protocol-error",
                    // The forbidden control character is written out; the rest is exact.
                    Some(&format!(
                        "{unknown} (-32602) for tools/call `{}` (id 1)",
                        name.replace('\u{1}', "\\u{1}")
                    )),
                )]
            ),
            (
                SOURCES[0].to_string(),
                // One test case per rule and file: its failure holds both findings.
                vec![case(
                    "testdata/source/MCP101/fail_rmcp_boxed_future",
                    "MCP101 unknown-tool-protocol-error",
                    Some(&format!("2 findings; the first: {unknown} (-32602)"))
                )]
            ),
            (
                advice.to_string(),
                vec![case(
                    "testdata/source/MCP201/fail_vague_errors",
                    "no errors",
                    None
                )]
            ),
            (
                clean.to_string(),
                vec![case(
                    "testdata/source/MCP201/pass_actionable_errors",
                    "no findings",
                    None
                )]
            ),
        ]
    );
    assert_eq!(root.attribute("tests"), Some("4"));
    assert_eq!(root.attribute("failures"), Some("2"));
    assert_eq!(root.attribute("name"), Some("mcp-lint (profile sep-2145)"));
}

/// `audit` writes every format as it judges (#14); with `--baseline`, which counts a
/// finding's repeats through its file, it renders the whole report at the end. Both write
/// the same findings, byte for byte, related labels drawn from lines long judged included;
/// only the summary says what the (empty) baseline hid.
#[test]
fn streamed_audit_writes_what_a_whole_report_would_in_every_format() {
    let empty = common::temp("streamed-empty-baseline.json");
    let clean = "testdata/transcripts/MCP101/pass_unknown_tool_is_error.jsonl";
    let written = common::run(&["audit", clean, "--write-baseline", empty.to_str().unwrap()]);
    assert_eq!(written.status, 0, "{}", written.stderr);
    let formats = [
        "human", "concise", "github", "json", "sarif", "jsonl", "cargo", "junit", "gitlab",
        "markdown",
    ];
    for format in formats {
        for extra in [&[][..], &["--quiet"], &["--statistics"]] {
            let args = [
                &["audit", "testdata/transcripts", "--format", format],
                extra,
            ]
            .concat();
            let streamed = common::run(&args);
            let whole =
                common::run(&[&args[..], &["--baseline", empty.to_str().unwrap()]].concat());
            assert_eq!(streamed.status, 1, "{format}: {}", streamed.stderr);
            let hidden = without_empty_baseline(&whole.stdout);
            assert_eq!(streamed.stdout, hidden, "{format} {extra:?}");
        }
    }
    // Named files audited on worker threads, and standard input here at its turn, in order.
    let stdin =
        std::fs::read(common::root().join("testdata/transcripts/MCP104/fail_tool_failure.jsonl"))
            .unwrap();
    let args = [
        "audit",
        "--format",
        "concise",
        "testdata/transcripts/MCP301",
        "-",
        "testdata/transcripts/MCP101",
    ];
    let streamed = common::run_stdin(&args, &stdin);
    let baseline = ["--baseline", empty.to_str().unwrap()];
    let whole = common::run_stdin(&[&args[..], &baseline].concat(), &stdin);
    assert!(
        streamed.stdout.contains("-:10:57: MCP104"),
        "{}",
        streamed.stdout
    );
    assert_eq!(streamed.stdout, without_empty_baseline(&whole.stdout));
    let human = common::run(&[
        "audit",
        "testdata/transcripts/MCP101/fail_unknown_tool.jsonl",
    ]);
    assert!(human.stdout.contains("requested here"), "{}", human.stdout);
    assert!(!human.stdout.contains("Failed to read"), "{}", human.stdout);
}

/// A whole report's output without what an empty baseline adds to its summary.
fn without_empty_baseline(text: &str) -> String {
    let text = text.replace("; 0 baselined, 0 stale baseline entries", "");
    text.replace(",\"baselined\":0,\"stale_baseline_entries\":0", "")
        .replace(
            ",\n    \"baselined\": 0,\n    \"stale_baseline_entries\": 0",
            "",
        )
}
