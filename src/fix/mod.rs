//! `--fix` and `--diff`: the fixes findings carry ([`crate::finding::Fix`]), where they come
//! from (`rmcp`: tool errors for protocol errors; `suppression`: stale comments deleted), and
//! how they are chosen and applied (`apply`), shown (`diff`) and written (`write`). The loop
//! that re-checks each round lives in the engine, which owns the checks.

pub mod apply;
pub mod diff;
pub mod response;
pub mod rmcp;
pub mod suppression;
pub mod write;

use crate::finding::{Applicability, Fix};

/// The help line of a finding with a fix: how to apply it.
pub fn available(fix: &Fix) -> &'static str {
    match fix.applicability {
        Applicability::Safe => "fix available: `mcp-lint check --fix`",
        Applicability::Unsafe => {
            "fix available, unsafe (it changes what clients see): `mcp-lint check --fix --unsafe-fixes`"
        }
    }
}

/// `help` with a line about the fix appended (or why there is none).
pub fn with_line(help: Option<String>, line: &str) -> Option<String> {
    Some(match help {
        Some(help) => format!("{help}\n{line}"),
        None => line.to_string(),
    })
}
