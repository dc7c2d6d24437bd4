//! Every Rust fixture under `testdata/` carries its expected findings next to the offending
//! line, clippy-style: `//~ MCP101@17` means a finding of MCP101 at column 17 of this line.
//! The harness checks that the findings are exactly the marked ones, file by file.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

type Expectation = BTreeSet<(usize, usize, String)>;

fn rust_fixtures() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walk(&common::root().join("testdata"));
    files.retain(|p| p.extension().is_some_and(|e| e == "rs"));
    files.sort();
    assert!(files.len() >= 20, "fixtures missing: found {}", files.len());
    files
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path))
        } else {
            out.push(path)
        }
    }
    out
}

/// The `//~ CODE@COL ...` markers of a file.
fn markers(text: &str) -> Expectation {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let Some((_, marks)) = line.split_once("//~") else {
            continue;
        };
        for mark in marks.split_whitespace() {
            let (code, column) = mark
                .split_once('@')
                .unwrap_or_else(|| panic!("bad marker `{mark}` on line {}", i + 1));
            out.insert((
                i + 1,
                column.parse().expect("marker column"),
                code.to_string(),
            ));
        }
    }
    out
}

fn check(path: &Path) -> Expectation {
    let out = common::run(&["--format", "json", path.to_str().unwrap()]);
    assert!(out.stderr.is_empty(), "{}: {}", path.display(), out.stderr);
    common::findings(&out.stdout)
        .into_iter()
        .map(|(_, line, column, code)| (line, column, code))
        .collect()
}

#[test]
fn findings_are_exactly_the_marked_ones() {
    let mut failures = Vec::new();
    for path in rust_fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        let (expected, actual) = (markers(&text), check(&path));
        if expected != actual {
            failures.push(format!(
                "{}\n  missing:    {:?}\n  unexpected: {:?}",
                path.display(),
                expected.difference(&actual).collect::<Vec<_>>(),
                actual.difference(&expected).collect::<Vec<_>>()
            ));
        }
        let name = path.file_name().unwrap().to_string_lossy();
        if name.starts_with("pass_") {
            assert!(
                expected.is_empty(),
                "{} is a pass fixture with markers",
                path.display()
            );
        }
        if name.starts_with("fail_") {
            assert!(
                !expected.is_empty(),
                "{} is a fail fixture without markers",
                path.display()
            );
        }
    }
    assert!(
        failures.is_empty(),
        "fixtures disagree:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_source_rule_has_failing_and_passing_fixtures() {
    let fixtures = rust_fixtures();
    for rule in mcp_lint::rules::RULES.iter().filter(|r| r.source) {
        let dir = common::root().join("testdata/source").join(rule.code);
        let in_dir: Vec<&PathBuf> = fixtures.iter().filter(|p| p.starts_with(&dir)).collect();
        let has = |prefix: &str| {
            in_dir
                .iter()
                .any(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        };
        assert!(
            has("fail_") && has("pass_"),
            "{} needs fail_ and pass_ fixtures in {}",
            rule.code,
            dir.display()
        );
        let marked = in_dir.iter().any(|p| {
            markers(&std::fs::read_to_string(p).unwrap())
                .iter()
                .any(|(_, _, code)| code == rule.code)
        });
        assert!(
            marked,
            "no fixture of {} expects a {} finding",
            dir.display(),
            rule.code
        );
    }
}

#[test]
fn a_whole_tree_gives_the_union_of_its_files_in_order() {
    let dir = common::root().join("testdata/source");
    let out = common::run(&["--format", "json", dir.to_str().unwrap()]);
    let mut all = common::findings(&out.stdout);
    // Markers are a set: two findings at one place (one comment naming two unused rules) are one.
    all.dedup();
    let mut per_file = Vec::new();
    for path in rust_fixtures().iter().filter(|p| p.starts_with(&dir)) {
        let text = std::fs::read_to_string(path).unwrap();
        for (line, column, code) in markers(&text) {
            per_file.push((path.display().to_string(), line, column, code));
        }
    }
    assert_eq!(all, per_file);
}
