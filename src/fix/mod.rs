//! `--fix` and `--diff`: the fixes findings carry ([`crate::finding::Fix`]), where they come
//! from (`rmcp`: tool errors for protocol errors; `suppression`: stale comments deleted), and
//! how they are chosen and applied (`apply`), shown (`diff`) and written (`write`). The loop
//! that re-checks each round lives in the engine, which owns the checks.

pub mod apply;
pub mod diff;
pub mod response;
pub mod rmcp;
pub mod router;
pub mod suppression;
pub mod write;

use crate::finding::{Applicability, Finding, Fix, Help};
use crate::text::SourceText;

/// Why a fix that depends on rmcp's version is not made when the version is not known.
pub const UNKNOWN_RMCP: &str =
    "rmcp's version is not known (no Cargo.lock names it), and the fix depends on it";

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
pub fn with_line(help: Option<Help>, line: &str) -> Option<Help> {
    Some(match help {
        Some(help) => format!("{help}\n{line}").into(),
        None => line.to_string().into(),
    })
}

/// Gives `finding` its fix, or the reason it has none, as the last line of its help.
pub fn attach(finding: &mut Finding, fixed: Result<Fix, &str>) {
    let line = match &fixed {
        Ok(fix) => available(fix).to_string(),
        Err(reason) => format!("no automatic fix: {reason}"),
    };
    finding.help = with_line(finding.help.take(), &line);
    finding.fix = fixed.ok();
}

/// The blanks that start the line holding byte `at` of `source`.
pub fn indent(source: &SourceText, at: usize) -> &str {
    let text = source.text();
    let line = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let rest = &text[line..];
    &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()]
}
