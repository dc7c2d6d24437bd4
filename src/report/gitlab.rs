//! `--format gitlab`: GitLab Code Quality JSON (a subset of Code Climate's issue format), the
//! `artifacts:reports:codequality` of a job. GitLab matches issues across pipelines by
//! `fingerprint`, so it is the finding's, which survives edits elsewhere in the file.

use std::io::{self, Write};

use serde::Serialize;

use super::{Options, Report};
use crate::fingerprint::portable_path;
use crate::rules::Level;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: &'a str,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    /// Relative to the repository root, where the job runs.
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

pub fn render(report: &Report, options: Options, out: &mut dyn Write) -> io::Result<()> {
    let mut issues = Vec::new();
    for file in &report.files {
        let path = portable_path(&file.source.name, &report.base);
        for f in file.findings.iter().filter(|f| options.shows(f)) {
            let (start, end) = file.source.range_positions(&f.span);
            issues.push(Issue {
                description: format!("{} ({}): {}", f.rule.code, f.rule.name, f.message),
                check_name: f.rule.code,
                fingerprint: &f.fingerprint,
                severity: severity(f.level),
                location: Location {
                    path: path.clone(),
                    lines: Lines {
                        begin: start.line,
                        end: end.line,
                    },
                },
            });
        }
    }
    serde_json::to_writer_pretty(&mut *out, &issues)?;
    writeln!(out)
}

/// GitLab's scale is info, minor, major, critical, blocker. An error fails the gate and
/// breaks a MUST of the SEP, so it ranks above a warning (a SHOULD) in the merge request
/// widget; advice is guidance on wording. `blocker` is left unused: no rule ranks above
/// the other MUSTs.
fn severity(level: Level) -> &'static str {
    match level {
        Level::Error => "critical",
        Level::Warning => "major",
        Level::Advice => "minor",
    }
}
