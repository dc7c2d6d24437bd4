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
