//! The audit against real recorded traffic (`../shared/transcripts`, labelled by hand). The
//! transcript fixtures of `testdata/transcripts` are checked with the source fixtures, in
//! `fixtures.rs`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

const SERVERS: &[&str] = &["py-mcpserver", "ts-everything", "ts-sdk-mcpserver"];

fn audit_json(path: &Path) -> Value {
    let out = common::run(&["audit", "--format", "json", path.to_str().unwrap()]);
    assert!(out.stderr.is_empty(), "{}: {}", path.display(), out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// The real recordings beside the repository (`../shared/transcripts`), an extra check where
/// they are present: a fresh clone on its own skips these tests, saying so.
fn shared_transcripts() -> Option<std::path::PathBuf> {
    let dir = common::root().join("../shared/transcripts");
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return None;
    }
    Some(dir)
}

/// Each request gets the verdict of its label: a violation has an error or warning finding
/// with its request id, an `ok` request has none; no other error or warning appears.
#[test]
fn shared_transcripts_get_their_labelled_verdicts_in_both_forms() {
    let Some(dir) = shared_transcripts() else {
        return;
    };
    let mut checked = 0;
    for server in SERVERS {
        let labels: Vec<Value> = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{server}.labels.json"))).unwrap(),
        )
        .unwrap();
        for form in ["jsonl", "bare.jsonl"] {
            let path = dir.join(format!("{server}.{form}"));
            let doc = audit_json(&path);
            let mut flagged: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for f in doc["findings"].as_array().unwrap() {
                if f["level"] == "error" || f["level"] == "warning" {
                    flagged
                        .entry(f["request_id"].to_string())
                        .or_default()
                        .push(f["code"].as_str().unwrap().into());
                }
            }
            for label in &labels {
                let id = label["request_id"].to_string();
                let violation = label["sep2145_verdict"]
                    .as_str()
                    .unwrap()
                    .starts_with("violation");
                let found = flagged.remove(&id);
                assert_eq!(
                    found.is_some(),
                    violation,
                    "{}: request {id} ({}) got {found:?}",
                    path.display(),
                    label["probe"]
                );
                checked += 1;
            }
            assert!(
                flagged.is_empty(),
                "{}: findings for no labelled request: {flagged:?}",
                path.display()
            );
        }
    }
    assert!(checked >= 90, "only {checked} labelled requests checked");
}

#[test]
fn the_violation_in_the_python_recording_is_a_tool_failure() {
    let Some(dir) = shared_transcripts() else {
        return;
    };
    let path = dir.join("py-mcpserver.jsonl");
    let doc = audit_json(&path);
    let errors: Vec<&Value> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["level"] == "error")
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["code"], "MCP104");
    assert_eq!(errors[0]["request_id"], 12);
    assert_eq!(
        (errors[0]["line"].as_u64(), errors[0]["column"].as_u64()),
        (Some(27), Some(95))
    );
}
