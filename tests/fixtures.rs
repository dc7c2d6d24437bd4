//! The fixtures of both passes, checked by one harness. Each carries its expected findings:
//! - a Rust file next to the offending line, clippy-style: `//~ MCP101@17` is a finding of
//!   MCP101 at column 17 of that line;
//! - a transcript in `<name>.expected` beside it, one `LINE:COLUMN CODE` a line.
//!
//! A fixture's findings must be exactly its expected ones. A `fail_` fixture expects at least
//! one; a `pass_` fixture expects none at all. Every rule has both, in
//! `testdata/source/CODE/` for the source pass and `testdata/transcripts/CODE/` for traffic.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// `(line, column, code)` of each finding.
type Expectation = BTreeSet<(usize, usize, String)>;

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

fn is_rust(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "rs")
}

/// Every Rust file under `testdata/` (they all carry markers, none or some), and every
/// transcript under `testdata/transcripts/`.
fn fixtures() -> Vec<PathBuf> {
    let testdata = common::root().join("testdata");
    let transcripts = testdata.join("transcripts");
    let mut files: Vec<PathBuf> = walk(&testdata)
        .into_iter()
        .filter(|p| {
            is_rust(p)
                || (p.starts_with(&transcripts) && p.extension().is_none_or(|e| e != "expected"))
        })
        .collect();
    files.sort();
    assert!(files.len() >= 60, "fixtures missing: found {}", files.len());
    files
}

fn expected(path: &Path) -> Expectation {
    if is_rust(path) {
        markers(&std::fs::read_to_string(path).unwrap())
    } else {
        sidecar(path)
    }
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

/// The `LINE:COLUMN CODE` lines of `<path>.expected` (none when there is no such file).
fn sidecar(path: &Path) -> Expectation {
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

fn actual(path: &Path) -> Expectation {
    let out = common::run(&["--format", "json", path.to_str().unwrap()]);
    assert!(out.stderr.is_empty(), "{}: {}", path.display(), out.stderr);
    common::findings(&out.stdout)
        .into_iter()
        .map(|(_, line, column, code)| (line, column, code))
        .collect()
}

fn named(path: &Path, prefix: &str) -> bool {
    path.file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with(prefix)
}

#[test]
fn findings_are_exactly_the_expected_ones() {
    let mut failures = Vec::new();
    for path in fixtures() {
        let (expected, actual) = (expected(&path), actual(&path));
        if named(&path, "pass_") && !expected.is_empty() {
            failures.push(format!(
                "{}: a pass fixture expects findings",
                path.display()
            ));
        }
        if named(&path, "fail_") && expected.is_empty() {
            failures.push(format!(
                "{}: a fail fixture expects nothing",
                path.display()
            ));
        }
        if expected != actual {
            failures.push(format!(
                "{}\n  missing:    {:?}\n  unexpected: {:?}",
                path.display(),
                expected.difference(&actual).collect::<Vec<_>>(),
                actual.difference(&expected).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "fixtures disagree:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_rule_has_failing_and_passing_fixtures_in_each_of_its_passes() {
    let fixtures = fixtures();
    let mut checked = 0;
    for rule in mcp_lint::rules::RULES {
        for (runs, pass) in [(rule.source, "source"), (rule.transcript, "transcripts")] {
            if !runs {
                continue;
            }
            let dir = common::root().join("testdata").join(pass).join(rule.code);
            let in_dir: Vec<&PathBuf> = fixtures.iter().filter(|p| p.starts_with(&dir)).collect();
            let has = |prefix: &str| in_dir.iter().any(|p| named(p, prefix));
            assert!(
                has("fail_") && has("pass_"),
                "{} needs fail_ and pass_ fixtures in {}",
                rule.code,
                dir.display()
            );
            let expects = in_dir
                .iter()
                .any(|p| expected(p).iter().any(|(_, _, code)| code == rule.code));
            assert!(
                expects,
                "no fixture in {} expects {}",
                dir.display(),
                rule.code
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} rule-pass pairs checked");
}

#[test]
fn a_whole_tree_gives_the_union_of_its_files_in_order() {
    // `check` walks a directory for Rust files; `audit` for transcripts.
    for (command, tree) in [
        ("check", "testdata/source"),
        ("audit", "testdata/transcripts"),
    ] {
        let dir = common::root().join(tree);
        let out = common::run(&[command, "--format", "json", dir.to_str().unwrap()]);
        let mut all = common::findings(&out.stdout);
        // Markers are a set: two findings at one place (one comment naming two unused rules)
        // are one.
        all.dedup();
        let mut per_file = Vec::new();
        // A directory's walk takes Rust files and transcripts by extension: an Inspector
        // export (`.json`, too many of which are not transcripts) or a `.txt` is audited when
        // named, and a walked file in which no message is found is no transcript.
        let walked = |p: &&PathBuf| {
            let extensions = ["rs", "jsonl", "ndjson", "log", "har"];
            p.starts_with(&dir)
                && p.extension()
                    .is_some_and(|e| extensions.iter().any(|x| e == *x))
        };
        for path in fixtures().iter().filter(walked) {
            for (line, column, code) in expected(path) {
                per_file.push((path.display().to_string(), line, column, code));
            }
        }
        assert_eq!(all, per_file, "{tree}");
    }
}
