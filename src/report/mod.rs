//! The one place findings become output.

mod cargo;
mod concise;
mod github;
mod gitlab;
mod human;
mod json;
mod jsonl;
mod junit;
mod markdown;
mod sarif;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

pub use human::render_config_error;

use crate::baseline::Baselined;
use crate::finding::FileReport;
use crate::rules::{Level, RuleMeta};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Graphical diagnostics with the source (the default)
    Human,
    /// One JSON document (SPEC.md, version 1)
    Json,
    /// SARIF 2.1.0, for GitHub code scanning
    Sarif,
    /// GitHub Actions annotations
    Github,
    /// GitLab Code Quality JSON, for the merge request widget
    Gitlab,
    /// One line per finding: path:line:col: CODE level message
    Concise,
    /// One JSON object per finding (as in `json`), then a `{"summary": ...}` line; `audit`
    /// writes each as it is found
    Jsonl,
    /// Cargo's `--message-format=json` stream of rustc diagnostics, for rust-analyzer
    Cargo,
    /// JUnit XML, for the test panels of GitLab, Jenkins and Azure
    Junit,
    /// A Markdown report, for $GITHUB_STEP_SUMMARY and pull-request comments
    Markdown,
}

#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub format: Format,
    pub color: bool,
    /// Show only findings at level error, and no summary.
    pub quiet: bool,
    /// Count findings per rule instead of listing them (human and concise formats).
    pub statistics: bool,
}

/// The outcome of a run, ready to render.
#[derive(Debug, Default)]
pub struct Report {
    /// Sorted by path; each file's findings sorted by position.
    pub files: Vec<FileReport>,
    /// The profile the levels came from (`sep-2145`), shown in every format.
    pub profile: &'static str,
    /// The directory paths are relative to (SARIF URIs).
    pub base: PathBuf,
    /// A probe's verdict on each of the SEP's clauses, so that CI sees what was not tested;
    /// empty for `check` and `audit`.
    pub clauses: Vec<ClauseVerdict>,
    /// The protocol version a probe spoke; `None` for `check` and `audit`.
    pub protocol_version: Option<String>,
    /// What `--baseline` hid, when one was given.
    pub baselined: Option<Baselined>,
}

/// A probe's verdict on one clause of SEP-2145.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ClauseVerdict {
    /// `unknown tool`, `invalid input`, ...
    pub clause: &'static str,
    /// `pass`, `fail` or `not-probed`.
    pub verdict: &'static str,
    /// The requests that passed, the findings that failed it, or why it was not probed.
    pub detail: String,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub advice: usize,
}

impl Format {
    /// Whether a report in this format can be written as it is found ([`Stream`]).
    pub fn streams(self) -> bool {
        self == Format::Jsonl
    }
}

impl Counts {
    fn add(&mut self, level: Level) {
        match level {
            Level::Error => self.errors += 1,
            Level::Warning => self.warnings += 1,
            Level::Advice => self.advice += 1,
        }
    }
}

/// A report written as it is found, for the formats whose findings stand alone
/// (`--format jsonl`): each file's findings are written as they come, and only counts are
/// kept for the summary, so memory does not grow with findings (#14).
pub struct Stream<'w> {
    out: &'w mut dyn Write,
    files: usize,
    counts: Counts,
}

impl<'w> Stream<'w> {
    pub fn new(out: &'w mut dyn Write) -> Self {
        Stream {
            out,
            files: 0,
            counts: Counts::default(),
        }
    }

    /// Writes findings of the current file, the next in order, and flushes them.
    pub fn findings(&mut self, file: &FileReport) -> io::Result<()> {
        for finding in &file.findings {
            self.counts.add(finding.level);
        }
        jsonl::findings(file, self.out)?;
        self.out.flush()
    }

    /// Counts a file whose findings are all written.
    pub fn file_done(&mut self) {
        self.files += 1;
    }

    /// Writes the summary; the counts are the run's.
    pub fn finish(self) -> io::Result<Counts> {
        jsonl::summary(json::Summary::new(self.files, self.counts, None), self.out)?;
        self.out.flush()?;
        Ok(self.counts)
    }
}

impl Options {
    /// Whether a finding is shown: `--quiet` shows errors only.
    fn shows(&self, finding: &crate::finding::Finding) -> bool {
        !self.quiet || finding.level == Level::Error
    }
}

impl Report {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for finding in self.files.iter().flat_map(|f| &f.findings) {
            counts.add(finding.level);
        }
        counts
    }

    pub fn render(&self, options: Options, out: &mut dyn Write) -> io::Result<()> {
        let listing = !options.statistics;
        match options.format {
            Format::Human if listing => human::render(self, options, out)?,
            Format::Concise if listing => concise::render(self, options, out)?,
            Format::Human | Format::Concise => self.statistics(out)?,
            Format::Json => return json::render(self, out),
            Format::Sarif => return sarif::render(self, options, out),
            Format::Github => return github::render(self, options, out),
            Format::Jsonl => return jsonl::render(self, out),
            Format::Cargo => return cargo::render(self, options, out),
            Format::Junit => return junit::render(self, options, out),
            Format::Markdown => return markdown::render(self, options, out),
            Format::Gitlab => return gitlab::render(self, options, out),
        }
        if !options.quiet {
            self.summary(out)?;
        }
        Ok(())
    }

    /// `mcp-lint: 1 error, 0 warnings, 0 advice in 3 files (profile sep-2145)`
    fn summary(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "mcp-lint: {}", self.outcome())
    }

    /// `1 error, 0 warnings, 0 advice in 3 files (profile sep-2145)`, and with a baseline
    /// `; 4 baselined, 1 stale baseline entry`
    fn outcome(&self) -> String {
        let c = self.counts();
        let plural = |n: usize, word: &str| {
            if n == 1 {
                word.to_string()
            } else {
                format!("{word}s")
            }
        };
        let mut outcome = format!(
            "{} {}, {} {}, {} advice in {} {} (profile {})",
            c.errors,
            plural(c.errors, "error"),
            c.warnings,
            plural(c.warnings, "warning"),
            c.advice,
            self.files.len(),
            plural(self.files.len(), "file"),
            self.profile
        );
        if let Some(b) = self.baselined {
            let entries = if b.stale == 1 { "entry" } else { "entries" };
            outcome += &format!(
                "; {} baselined, {} stale baseline {entries}",
                b.baselined, b.stale
            );
        }
        outcome
    }

    /// One line per rule that fired: `count  CODE  name`, most frequent first.
    fn statistics(&self, out: &mut dyn Write) -> io::Result<()> {
        for (rule, count) in self.rule_counts() {
            writeln!(out, "{count:>6}  {}  {}", rule.code, rule.name)?;
        }
        Ok(())
    }

    /// The rules that fired and how often, most frequent first, then by code.
    fn rule_counts(&self) -> Vec<(&'static RuleMeta, usize)> {
        let mut counts: BTreeMap<&str, (&'static RuleMeta, usize)> = BTreeMap::new();
        for f in self.files.iter().flat_map(|f| &f.findings) {
            counts.entry(f.rule.code).or_insert((f.rule, 0)).1 += 1;
        }
        let mut rows: Vec<_> = counts.into_values().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code.cmp(b.0.code)));
        rows
    }
}
