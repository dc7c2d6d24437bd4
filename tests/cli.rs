//! The command line as users drive it: exit statuses, formats, colour, rules and explain,
//! `cargo mcp-lint`.

mod common;

use common::{run, run_with};

const FAIL: &str = "testdata/source/MCP101/fail_rmcp_call_tool.rs";
const PASS: &str = "testdata/source/MCP101/pass_rmcp_call_tool.rs";
const WARNING_ONLY: &str = "testdata/source/MCP105/fail_output_validation.rs";

#[test]
fn exit_status_is_1_with_errors_and_0_without() {
    assert_eq!(run(&[FAIL]).status, 1);
    assert_eq!(run(&["check", FAIL]).status, 1);
    let clean = run(&[PASS]);
    assert_eq!(clean.status, 0);
    assert_eq!(
        clean.stdout,
        "mcp-lint: 0 errors, 0 warnings, 0 advice in 1 file (profile sep-2145)\n"
    );
}

#[test]
fn warnings_pass_unless_denied() {
    let out = run(&["--format", "json", WARNING_ONLY]);
    assert_eq!(out.status, 0);
    assert!(out.stdout.contains("\"level\": \"warning\""));
    let denied = run(&["--deny", "warnings", "--format", "json", WARNING_ONLY]);
    assert_eq!(denied.status, 1);
    assert!(denied.stdout.contains("\"level\": \"error\""));
    assert!(!denied.stdout.contains("\"level\": \"warning\""));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let missing = run(&["testdata/no/such/dir"]);
    assert_eq!(missing.status, 2);
    assert_eq!(
        missing.stderr,
        "mcp-lint: testdata/no/such/dir: no such file or directory\n"
    );
    let bad_flag = run(&["--format", "xml", FAIL]);
    assert_eq!(bad_flag.status, 2);
    assert!(bad_flag.stderr.contains("invalid value 'xml'"));
}

#[test]
fn a_missing_path_does_not_hide_the_findings_of_the_others() {
    let out = run(&["--format", "json", "testdata/no/such/file.rs", FAIL]);
    assert_eq!(out.status, 2);
    assert_eq!(common::findings(&out.stdout).len(), 3);
}

#[test]
fn a_file_named_twice_is_reported_once() {
    // A loose file, and a file of a crate (whose facts come from the crate's file list).
    for (file, count) in [
        (FAIL, 3),
        ("testdata/source/crates/own-constructor/src/main.rs", 1),
    ] {
        let dotted = format!("./{file}");
        let twice = run(&["--format", "json", file, &dotted, file]);
        assert_eq!(common::findings(&twice.stdout).len(), count, "{file}");
    }
}

#[test]
fn a_file_that_does_not_parse_is_reported_and_the_run_goes_on() {
    let out = run(&[
        "--format",
        "json",
        "testdata/source/MCP004/fail_syntax.rs",
        FAIL,
    ]);
    let codes: Vec<String> = common::findings(&out.stdout)
        .into_iter()
        .map(|f| f.3)
        .collect();
    assert_eq!(codes, ["MCP004", "MCP101", "MCP101", "MCP101"]);
    assert_eq!(out.status, 1);
}

#[test]
fn json_follows_the_spec() {
    let out = run(&[
        "--format",
        "json",
        "testdata/source/MCP101/fail_rmcp_boxed_future.rs",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let first = &doc["findings"][0];
    let keys: Vec<&str> = first
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = common::FINDING_FIELDS.to_vec();
    expected.sort();
    assert_eq!(keys, expected);
    assert_eq!(first["code"], "MCP101");
    assert_eq!(first["rule"], "unknown-tool-protocol-error");
    assert_eq!(
        first["file"],
        "testdata/source/MCP101/fail_rmcp_boxed_future.rs"
    );
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(22), Some(17))
    );
    assert_eq!(
        (first["end_line"].as_u64(), first["end_column"].as_u64()),
        (Some(22), Some(89))
    );
    assert_eq!(
        first["message"],
        "unknown tool answered with a JSON-RPC error (-32602)"
    );
    assert!(first["request_id"].is_null());
    assert_eq!(doc["version"], 1);
    assert_eq!(
        doc["summary"],
        serde_json::json!({"files": 1, "errors": 2, "warnings": 0, "advice": 0})
    );
}

#[test]
fn columns_count_characters_on_non_ascii_lines() {
    let out = run(&["--format", "json", "testdata/cli/non_ascii.rs"]);
    let found: Vec<(usize, usize)> = common::findings(&out.stdout)
        .into_iter()
        .map(|f| (f.1, f.2))
        .collect();
    // 25 characters but 31 bytes stand before the constructor.
    assert_eq!(found, [(16, 26)]);
    // The human format's header says the same place.
    let human = run(&["--color", "never", "testdata/cli/non_ascii.rs"]);
    assert!(
        human.stdout.contains("╭─[testdata/cli/non_ascii.rs:16:26]"),
        "{}",
        human.stdout
    );
}

#[test]
fn colour_follows_the_flag_the_terminal_and_no_color() {
    let ansi = |out: common::Output| out.stdout.contains('\u{1b}');
    assert!(ansi(run_with(&[FAIL], true, false)));
    assert!(
        !ansi(run_with(&[FAIL], true, true)),
        "NO_COLOR turns auto off"
    );
    assert!(!ansi(run_with(&[FAIL], false, false)), "not a terminal");
    assert!(
        ansi(run_with(&["--color", "always", FAIL], false, true)),
        "always beats NO_COLOR"
    );
    assert!(!ansi(run_with(&["--color", "never", FAIL], true, false)));
}

#[test]
fn quiet_shows_errors_only() {
    let out = run(&["--quiet", WARNING_ONLY]);
    assert_eq!(out.stdout, "");
    let errors = run(&["-q", FAIL]);
    assert_eq!(
        errors
            .stdout
            .matches("MCP101(unknown-tool-protocol-error)")
            .count(),
        3
    );
    assert!(!errors.stdout.contains("mcp-lint: "));
}

#[test]
fn output_is_byte_identical_across_runs() {
    let first = run(&["--format", "json", "testdata"]);
    for _ in 0..3 {
        assert_eq!(run(&["--format", "json", "testdata"]).stdout, first.stdout);
    }
    assert_eq!(run(&["testdata"]).stdout, run(&["testdata"]).stdout);
}

#[test]
fn rules_lists_the_catalog() {
    let out = run(&["rules"]);
    assert_eq!(out.status, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), mcp_lint::rules::RULES.len());
    let codes: Vec<&str> = lines.iter().map(|l| &l[..6]).collect();
    let registry: Vec<&str> = mcp_lint::rules::RULES.iter().map(|r| r.code).collect();
    assert_eq!(codes, registry, "one line per rule, by code");
    let line = lines.iter().find(|l| l.starts_with("MCP101")).unwrap();
    let columns: Vec<&str> = line.split_whitespace().take(5).collect();
    assert_eq!(
        columns,
        [
            "MCP101",
            "unknown-tool-protocol-error",
            "error",
            "source,",
            "transcript"
        ]
    );
    for (line, rule) in lines.iter().zip(mcp_lint::rules::RULES) {
        let level = line[43..].split_whitespace().next();
        assert_eq!(
            level,
            Some(rule.level.as_str()),
            "the level column is aligned: {line}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&run(&["rules", "--format", "json"]).stdout).unwrap();
    let rule = json
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == "MCP101")
        .unwrap();
    assert_eq!(rule["level"], "error");
    assert_eq!(rule["transcript"], true);
}

#[test]
fn rules_and_explain_as_json_give_each_rule_whole() {
    let catalog: serde_json::Value =
        serde_json::from_str(&run(&["rules", "--format", "json"]).stdout).unwrap();
    let catalog = catalog.as_array().unwrap();
    assert_eq!(catalog.len(), mcp_lint::rules::RULES.len());
    let doc = std::fs::read_to_string(common::root().join("rules/MCP101.md")).unwrap();
    let mcp101 = serde_json::json!({
        "code": "MCP101",
        "name": "unknown-tool-protocol-error",
        "level": "error",
        "source": true,
        "transcript": true,
        "passes": ["source", "transcript"],
        "summary": "an unknown tool name answered with a protocol error",
        "sep": "SEP-2145: servers MUST report tool resolution failures (unknown tool) as Tool Execution Errors",
        "fix": "unsafe",
        "fixable": "sometimes",
        "doc": doc,
    });
    assert_eq!(catalog[4], mcp101);
    let mcp001 = &catalog[0];
    assert_eq!(mcp001["passes"], serde_json::json!(["transcript"]));
    assert_eq!(mcp001["source"], false);
    // `explain --format json` is the rule's object of the catalog, by code or name, with the
    // option before or after the subcommand.
    for args in [
        &["explain", "MCP101", "--format", "json"][..],
        &["--format", "json", "explain", "unknown-tool-protocol-error"],
    ] {
        let out = run(args);
        assert_eq!(out.status, 0, "{}", out.stderr);
        let rule: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(rule, mcp101, "{args:?}");
    }
}

/// Runs the `cargo-mcp-lint` binary in `dir` as cargo runs it: `cargo-mcp-lint mcp-lint ARGS`.
fn cargo_mcp_lint(dir: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cargo-mcp-lint"))
        .arg("mcp-lint")
        .args(args)
        .current_dir(common::root().join(dir))
        .output()
        .unwrap()
}

const WORKSPACE: &str = "testdata/cargo/workspace";

/// `(file, line, column, code)` of `--format json` findings whose path is `file`.
fn at(file: &str) -> (String, usize, usize, String) {
    (file.to_string(), 11, 72, "MCP104".to_string())
}

#[test]
fn cargo_mcp_lint_checks_every_member_from_a_workspace_root() {
    let out = cargo_mcp_lint(WORKSPACE, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    // Not the excluded member (crates/legacy), the glob's match without a manifest
    // (crates/docs), a file no target compiles (crates/tools/notes) or one in no member.
    assert_eq!(
        common::findings(&stdout),
        [
            at("crates/tools/lib/tools.rs"),
            at("server/examples/demo.rs"),
            at("server/src/main.rs"),
            at("server/tests/forecast.rs"),
        ]
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["summary"]["files"], 5, "server/build.rs too");
    assert!(out.stderr.is_empty());
}

#[test]
fn cargo_mcp_lint_checks_the_current_package_from_a_member() {
    let out = cargo_mcp_lint(&format!("{WORKSPACE}/server"), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        common::findings(&String::from_utf8(out.stdout).unwrap()),
        [
            at("examples/demo.rs"),
            at("src/main.rs"),
            at("tests/forecast.rs"),
        ]
    );
    // `--manifest-path` names the package from elsewhere; paths are given from here.
    let excluded = cargo_mcp_lint(
        ".",
        &[
            "--manifest-path",
            "testdata/cargo/workspace/crates/legacy/Cargo.toml",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        common::findings(&String::from_utf8(excluded.stdout).unwrap()),
        [at("testdata/cargo/workspace/crates/legacy/src/lib.rs")]
    );
    // Paths on the command line are checked as `mcp-lint check` checks them.
    let named = cargo_mcp_lint(WORKSPACE, &["--format", "json", "scratch"]);
    assert_eq!(
        common::findings(&String::from_utf8(named.stdout).unwrap()),
        [at("scratch/loose.rs")]
    );
}

#[test]
fn cargo_mcp_lint_without_a_manifest_is_a_usage_error() {
    let out = cargo_mcp_lint(".", &["--manifest-path", "testdata/no/Cargo.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("mcp-lint: ") && stderr.contains("testdata/no/Cargo.toml: "),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

/// cargo itself finds `cargo-mcp-lint` on PATH and runs it: the same report.
#[test]
fn cargo_runs_cargo_mcp_lint_as_a_subcommand() {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_cargo-mcp-lint"));
    let path = std::env::join_paths(std::iter::once(bin.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let out = std::process::Command::new(env!("CARGO"))
        .args(["mcp-lint", "--format", "json"])
        .env("PATH", path)
        .current_dir(common::root().join(WORKSPACE))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        out.stdout,
        cargo_mcp_lint(WORKSPACE, &["--format", "json"]).stdout
    );
}

#[test]
fn explain_prints_the_rule_doc_by_code_or_name() {
    let by_code = run(&["explain", "MCP101"]);
    assert_eq!(by_code.status, 0);
    assert!(
        by_code
            .stdout
            .starts_with("# MCP101: unknown-tool-protocol-error\n")
    );
    assert_eq!(
        run(&["explain", "unknown-tool-protocol-error"]).stdout,
        by_code.stdout
    );
    let unknown = run(&["explain", "MCP10"]);
    assert_eq!(unknown.status, 2);
    assert!(
        unknown.stderr.contains("did you mean `MCP101`?"),
        "{}",
        unknown.stderr
    );
    let misspelt = run(&["explain", "unkown-tool-protocol-error"]);
    assert!(
        misspelt
            .stderr
            .contains("did you mean `unknown-tool-protocol-error`?"),
        "{}",
        misspelt.stderr
    );
    let far = run(&["explain", "MCP999"]);
    assert!(!far.stderr.contains("did you mean"), "{}", far.stderr);
}

#[test]
fn the_binary_respects_no_color_and_exits_with_the_status() {
    let bin = env!("CARGO_BIN_EXE_mcp-lint");
    let out = std::process::Command::new(bin)
        .arg(FAIL)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("MCP101(unknown-tool-protocol-error)"));
    assert!(!stdout.contains('\u{1b}'));
    let clean = std::process::Command::new(bin).arg(PASS).output().unwrap();
    assert_eq!(clean.status.code(), Some(0));
}

const TRANSCRIPT: &str = "testdata/transcripts/MCP104/fail_tool_failure.jsonl";

#[test]
fn audit_reads_standard_input() {
    use std::io::Write;
    let bin = env!("CARGO_BIN_EXE_mcp-lint");
    let mut child = std::process::Command::new(bin)
        .args(["audit", "--format", "json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(TRANSCRIPT).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let found = common::findings(&String::from_utf8(out.stdout).unwrap());
    let expected: Vec<(String, usize, usize, String)> = [(7, 94), (9, 94), (10, 57)]
        .into_iter()
        .map(|(line, column)| ("-".to_string(), line, column, "MCP104".to_string()))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn check_audits_the_transcripts_it_is_given_and_lints_the_sources() {
    let out = run(&["--format", "json", TRANSCRIPT, FAIL]);
    let files: Vec<String> = common::findings(&out.stdout)
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(files.iter().filter(|f| *f == TRANSCRIPT).count(), 3);
    assert_eq!(files.iter().filter(|f| *f == FAIL).count(), 3);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let first = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == TRANSCRIPT)
        .unwrap();
    assert_eq!(
        first["request_id"], 2,
        "transcript findings carry the request id"
    );
    assert_eq!(doc["summary"]["files"], 2);
}

fn codes_of(args: &[&str]) -> (Vec<String>, i32) {
    let mut all = vec!["audit", "--format", "json"];
    all.extend(args);
    let out = run(&all);
    let codes = common::findings(&out.stdout).into_iter().map(|f| f.3);
    (codes.collect(), out.status)
}

#[test]
fn the_content_decides_the_format_and_input_format_only_what_it_does_not_show() {
    // An envelope transcript is read as one, whatever the setting (B2).
    let expected = codes_of(&[TRANSCRIPT]);
    assert_eq!(expected.1, 1);
    for format in ["jsonl", "claude", "har"] {
        assert_eq!(codes_of(&["--input-format", format, TRANSCRIPT]), expected);
    }
    let config = "testdata/cli/claude-input-format.toml";
    assert_eq!(codes_of(&["--config", config, TRANSCRIPT]), expected);
    // A first line that shows no format: the setting decides, and the command line's `auto`
    // undoes the configuration's.
    let ambiguous = "testdata/cli/ambiguous_first_line.jsonl";
    assert_eq!(
        codes_of(&[ambiguous]),
        (vec!["MCP001".into(), "MCP104".into()], 1)
    );
    assert_eq!(
        codes_of(&["--config", config, ambiguous]),
        (vec!["MCP004".into()], 1),
        "read as a Claude log, it holds no message: not checked, and an error"
    );
    assert_eq!(
        codes_of(&["--config", config, "--input-format", "auto", ambiguous]),
        codes_of(&[ambiguous])
    );
}

#[test]
fn long_transcript_lines_are_described_not_drawn() {
    let out = run(&["audit", "--color", "never", "testdata/cli/long_lines.jsonl"]);
    assert!(
        out.stdout
            .contains("testdata/cli/long_lines.jsonl:4:71: unknown tool answered"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("testdata/cli/long_lines.jsonl:3:34: tools/call `zz` requested here")
    );
    assert!(out.stdout.len() < 2000, "the 3000-byte line was drawn");
}

#[test]
fn audit_of_a_missing_file_exits_2_and_audit_needs_a_file() {
    assert_eq!(run(&["audit", "testdata/nope.jsonl"]).status, 2);
    assert_eq!(run(&["audit"]).status, 2);
}

#[test]
fn a_helpers_error_is_reported_where_the_helper_builds_it() {
    let out = run(&[
        "--color",
        "never",
        "testdata/source/crates/plugin-proxy/src/main.rs",
    ]);
    let reload: Vec<&str> = out
        .stdout
        .lines()
        .skip_while(|l| !l.contains("plugin-proxy/src/main.rs:36:24]"))
        .filter(|l| l.contains("36 │") || l.contains("╰──"))
        .take(3)
        .collect();
    assert_eq!(
        reload,
        [
            " 36 │             return Err(McpError::internal_error(\"reload failed: empty config\", None)); //~ MCP104@24",
            "    ·                │                                     ╰── `McpError::internal_error` becomes a JSON-RPC error response",
            "    ·                ╰── and leaves this function here, for a tools/call handler to pass on",
        ]
    );
}

#[test]
fn a_path_into_another_file_is_printed_as_the_named_file_is() {
    // Only main.rs is named: errors.rs is found by walking its crate, and must not print as
    // an absolute path beside the relative one.
    let out = run(&[
        "--format",
        "concise",
        "testdata/source/crates/plugin-proxy/src/main.rs",
    ]);
    let first = out.stdout.lines().next().unwrap_or_default();
    assert!(
        first.ends_with("via `load_config` (testdata/source/crates/plugin-proxy/src/errors.rs:12)"),
        "{first}"
    );
}

#[test]
fn a_long_audit_shows_its_progress_on_a_terminal_stderr_only() {
    // Progress is reported every 64 MiB: the second line starts past that.
    let path = std::env::temp_dir().join(format!("mcp-lint-progress-{}.jsonl", std::process::id()));
    let padding = "a".repeat(65 << 20);
    let text = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{{\"data\":\"{padding}\"}}}}\n{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}}\n"
    );
    std::fs::write(&path, text).unwrap();
    let name = path.to_str().unwrap();
    let on_terminal = common::run_on(&["audit", "--color", "never", name], false, true, false);
    let piped = common::run_on(&["audit", "--color", "never", name], false, false, false);
    let quiet = common::run_on(&["audit", "--quiet", name], false, true, false);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        on_terminal.stderr,
        format!("\r\x1b[Kmcp-lint: auditing {name}: 65 MiB read\r\x1b[K")
    );
    assert_eq!(piped.stderr, "");
    assert_eq!(quiet.stderr, "");
    assert_eq!(on_terminal.stdout, piped.stdout);
}

#[test]
fn options_may_come_before_the_subcommand() {
    // B24: `rules` is the subcommand, not the repository's `rules/` folder.
    let listed = run(&["--format", "json", "rules"]);
    assert_eq!(listed.status, 0, "{}", listed.stderr);
    assert_eq!(listed.stdout, run(&["rules", "--format", "json"]).stdout);
    let audited = run(&["--format", "json", "audit", TRANSCRIPT]);
    assert_eq!(audited.status, 1);
    assert_eq!(common::findings(&audited.stdout).len(), 3);
}

#[test]
fn a_rule_set_by_code_and_by_name_is_an_error() {
    let out = run(&["--config", "testdata/config/twice.toml", FAIL]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.contains("MCP104 is set twice in [rules]"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_named_file_left_out_by_exclude_is_said() {
    // From the report's friction list: "0 files" with no word of `exclude`.
    let named = "testdata/source/traps/pass_cfg_test_and_client.rs";
    let out = run(&["--config", "testdata/config/levels.toml", named]);
    assert_eq!(out.status, 0);
    assert!(
        out.stderr.contains(&format!(
            "mcp-lint: {named} excluded by the configuration's `exclude`, not checked"
        )),
        "{}",
        out.stderr
    );
    let quiet = run(&["--quiet", "--config", "testdata/config/levels.toml", named]);
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
}
