//! The audit against real recorded traffic (`../shared/transcripts`, labelled by hand) and the
//! transcript fixtures of `testdata/transcripts`, whose expected findings sit beside them in
//! `<name>.expected` (`LINE:COLUMN CODE`, one per line).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

fn fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![common::root().join("testdata/transcripts")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_none_or(|e| e != "expected") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn expected(path: &Path) -> BTreeSet<(usize, usize, String)> {
    let sidecar = PathBuf::from(format!("{}.expected", path.display()));
    let text = std::fs::read_to_string(&sidecar).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (at, code) = l
                .split_once(' ')
                .unwrap_or_else(|| panic!("{}: bad line {l:?}", sidecar.display()));
            let (line, column) = at.split_once(':').unwrap();
            (
                line.parse().unwrap(),
                column.parse().unwrap(),
                code.trim().to_string(),
            )
        })
        .collect()
}

#[test]
fn transcript_fixtures_give_exactly_their_expected_findings() {
    let files = fixtures();
    assert!(
        files.len() >= 20,
        "only {} transcript fixtures",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        let doc = audit_json(path);
        let actual: BTreeSet<(usize, usize, String)> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["line"].as_u64().unwrap() as usize,
                    f["column"].as_u64().unwrap() as usize,
                    f["code"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let expected = expected(path);
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            !name.starts_with("fail_") || !expected.is_empty(),
            "{name} expects nothing"
        );
        assert!(
            !name.starts_with("pass_") || expected.iter().all(|f| f.2.starts_with("MCP2")),
            "{name} expects findings"
        );
        if actual != expected {
            failures.push(format!(
                "{}\n  missing:    {:?}\n  unexpected: {:?}",
                path.display(),
                expected.difference(&actual).collect::<Vec<_>>(),
                actual.difference(&expected).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_transcript_rule_has_failing_and_passing_fixtures() {
    let files = fixtures();
    for rule in mcp_lint::rules::RULES.iter().filter(|r| r.transcript) {
        let dir = common::root().join("testdata/transcripts").join(rule.code);
        let named = |prefix: &str| {
            files.iter().any(|p| {
                p.starts_with(&dir) && p.file_name().unwrap().to_string_lossy().starts_with(prefix)
            })
        };
        assert!(
            named("fail_") && named("pass_"),
            "{} needs fail_ and pass_ fixtures in {}",
            rule.code,
            dir.display()
        );
        let expects = files
            .iter()
            .filter(|p| p.starts_with(&dir))
            .any(|p| expected(p).iter().any(|f| f.2 == rule.code));
        assert!(
            expects,
            "no fixture in {} expects {}",
            dir.display(),
            rule.code
        );
    }
}
