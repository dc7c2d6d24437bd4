//! Snapshots of whole runs: exit status, stdout and stderr for every output format, for
//! configuration errors and for each profile. `BLESS=1 cargo test --test snapshots` rewrites
//! them; review the diff before committing.

mod common;

const RUST: &str = "testdata/source/MCP101/fail_rmcp_boxed_future.rs";
const DISABLED: &str = "testdata/source/MCP102/fail_disabled_tools.rs";
const FAILURES: &str = "testdata/source/MCP104/fail_tool_failure.rs";
const TRANSCRIPT: &str = "testdata/transcripts/MCP202/fail_lists_tools.jsonl";
const ROUTER: &str = "testdata/source/MCP108/fail_router_default.rs";
const CLEAN: &str = "testdata/source/MCP201/pass_actionable_errors.rs";
const OLD_RMCP: &str = "testdata/source/MCP108/old-rmcp/src/fail_old_rmcp.rs";

fn snapshot(name: &str, args: &[&str]) {
    let out = common::run(args);
    let actual = format!(
        "args: {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        out.status,
        out.stdout,
        out.stderr
    );
    let path = common::root()
        .join("testdata/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} is missing: run BLESS=1", path.display()));
    assert_eq!(
        actual, expected,
        "{name} changed; BLESS=1 cargo test --test snapshots rewrites it"
    );
}

#[test]
fn human() {
    snapshot("human", &["--color", "never", RUST]);
}

#[test]
fn json() {
    snapshot("json", &["--format", "json", RUST, TRANSCRIPT]);
}

#[test]
fn sarif() {
    snapshot("sarif", &["--format", "sarif", RUST, TRANSCRIPT]);
}

#[test]
fn gitlab() {
    snapshot("gitlab", &["--format", "gitlab", RUST, TRANSCRIPT]);
}

#[test]
fn github() {
    snapshot(
        "github",
        &["--format", "github", RUST, TRANSCRIPT, FAILURES],
    );
}

#[test]
fn jsonl() {
    snapshot("jsonl", &["--format", "jsonl", RUST, TRANSCRIPT]);
}

#[test]
fn junit() {
    snapshot("junit", &["--format", "junit", RUST, TRANSCRIPT, CLEAN]);
}

#[test]
fn markdown() {
    snapshot(
        "markdown",
        &["--format", "markdown", RUST, TRANSCRIPT, FAILURES],
    );
}

#[test]
fn markdown_with_no_findings() {
    snapshot("markdown_clean", &["--format", "markdown", CLEAN]);
}

#[test]
fn concise() {
    snapshot("concise", &["--format", "concise", RUST, TRANSCRIPT]);
}

#[test]
fn statistics() {
    snapshot(
        "statistics",
        &[
            "--statistics",
            "testdata/source",
            "testdata/transcripts/MCP104/fail_tool_failure.jsonl",
        ],
    );
}

#[test]
fn profile_sep_2145_is_the_default() {
    snapshot(
        "profile_sep_2145",
        &[
            "--format",
            "concise",
            "--profile",
            "sep-2145",
            RUST,
            DISABLED,
            ROUTER,
            OLD_RMCP,
        ],
    );
}

#[test]
fn profile_mcp_2025_11_25_allows_unknown_and_disabled_tool_errors() {
    snapshot(
        "profile_mcp_2025_11_25",
        &[
            "--format",
            "concise",
            "--profile",
            "mcp-2025-11-25",
            RUST,
            DISABLED,
            FAILURES,
            ROUTER,
            OLD_RMCP,
        ],
    );
}

#[test]
fn config_levels_per_path_and_exclude() {
    snapshot(
        "config_levels",
        &[
            "--format",
            "concise",
            "--config",
            "testdata/config/levels.toml",
            "testdata/source",
        ],
    );
}

#[test]
fn command_line_wins_over_the_config() {
    let args = [
        "--format",
        "concise",
        "--config",
        "testdata/config/levels.toml",
        "--warn",
        "unknown-tool-protocol-error",
        "--allow",
        "MCP104",
        RUST,
        FAILURES,
    ];
    snapshot("config_command_line_wins", &args);
}

#[test]
fn config_unknown_key() {
    snapshot(
        "config_unknown_key",
        &[
            "--color",
            "never",
            "--config",
            "testdata/config/unknown_key.toml",
            RUST,
        ],
    );
}

#[test]
fn config_unknown_rule() {
    snapshot(
        "config_unknown_rule",
        &[
            "--color",
            "never",
            "--config",
            "testdata/config/unknown_rule.toml",
            RUST,
        ],
    );
}

#[test]
fn config_bad_level() {
    snapshot(
        "config_bad_level",
        &[
            "--color",
            "never",
            "--config",
            "testdata/config/bad_level.toml",
            RUST,
        ],
    );
}

#[test]
fn config_in_cargo_metadata_points_into_the_manifest() {
    snapshot(
        "config_cargo_metadata",
        &[
            "--color",
            "never",
            "--config",
            "testdata/config/cargo-metadata/Cargo.toml",
            RUST,
        ],
    );
}

#[test]
fn unknown_rule_on_the_command_line() {
    snapshot("cli_unknown_rule", &["--allow", "MCP10", RUST]);
}

/// Every rule's findings as a user reads them: the first failing fixture of each rule, of
/// each pass, in the human format.
#[test]
fn every_rule_in_human_format() {
    let mut rules = 0;
    for (pass, dir) in [
        ("source", "testdata/source"),
        ("transcript", "testdata/transcripts"),
    ] {
        let mut codes: Vec<String> = std::fs::read_dir(common::root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("MCP"))
            .collect();
        codes.sort();
        for code in codes {
            let mut fails: Vec<String> = std::fs::read_dir(common::root().join(dir).join(&code))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with("fail_") && !name.ends_with(".expected"))
                .collect();
            fails.sort();
            let first = format!("{dir}/{code}/{}", fails[0]);
            snapshot(
                &format!("rules/{code}-{pass}"),
                &["--color", "never", &first],
            );
            rules += 1;
        }
    }
    assert!(rules >= 20, "only {rules} rules have fixtures");
}
