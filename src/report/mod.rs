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
mod pretty;
mod sarif;
mod spool;
mod tally;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub use human::render_config_error;

use crate::baseline::Baselined;
use crate::finding::{FileReport, Finding};
use crate::rules::Level;
use crate::text::SourceText;
use tally::Tally;

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
    /// One JSON object per finding (as in `json`), then a `{"summary": ...}` line
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

impl Counts {
    fn add(&mut self, level: Level) {
        match level {
            Level::Error => self.errors += 1,
            Level::Warning => self.warnings += 1,
            Level::Advice => self.advice += 1,
        }
    }
}

/// What a report says besides its findings, known before them: it may come first.
#[derive(Clone, Copy)]
pub struct Head<'a> {
    pub profile: &'static str,
    /// The directory paths are relative to (SARIF URIs, fingerprints, cargo packages).
    pub base: &'a Path,
    pub clauses: &'a [ClauseVerdict],
    pub protocol_version: Option<&'a str>,
}

/// A format's writer, told the findings in order as they come; it keeps what it needs of
/// them only until its format lets it write them (#14).
trait Writer {
    fn start(&mut self, _head: &Head, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// A finding of `source`, the file being reported: its findings come in order, shown or
    /// not (`--quiet`), and each format decides.
    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()>;

    /// The findings of the file `name` are all told; `any`: it had some, shown or not.
    fn file_done(&mut self, _name: &str, _any: bool, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(self: Box<Self>, head: &Head, tally: &Tally, out: &mut dyn Write) -> io::Result<()>;
}

/// A report written as it is found: each file's findings go to the format's writer as they
/// come, and only counts are kept, so memory does not grow with findings (#14). Every
/// report is written this way, whole ones too ([`Report::render`]).
pub struct Stream<'w> {
    out: &'w mut dyn Write,
    head: Head<'w>,
    writer: Box<dyn Writer + 'w>,
    tally: Tally,
    /// The current file had findings.
    any: bool,
}

impl<'w> Stream<'w> {
    /// Writes what comes before the findings.
    pub fn new(out: &'w mut dyn Write, options: Options, head: Head<'w>) -> io::Result<Self> {
        let mut writer: Box<dyn Writer> = match options.format {
            Format::Human => Box::new(human::Human::new(options)),
            Format::Concise => Box::new(concise::Concise(options)),
            Format::Json => Box::<json::Json>::default(),
            Format::Jsonl => Box::new(jsonl::Jsonl),
            Format::Sarif => Box::new(sarif::Sarif::new(options, head.base)),
            Format::Github => Box::new(github::Github(options)),
            Format::Gitlab => Box::new(gitlab::Gitlab::new(options, head.base)),
            Format::Cargo => Box::new(cargo::Cargo::new(options, head.base)),
            Format::Junit => Box::new(junit::Junit::new(options)),
            Format::Markdown => Box::new(markdown::Markdown::new(options)),
        };
        writer.start(&head, out)?;
        Ok(Stream {
            out,
            head,
            writer,
            tally: Tally::new(head.profile),
            any: false,
        })
    }

    /// Writes findings of the current file, the next in order.
    pub fn findings(&mut self, file: &FileReport) -> io::Result<()> {
        for finding in &file.findings {
            self.tally.add(finding);
            self.writer.finding(&file.source, finding, self.out)?;
        }
        self.any |= !file.findings.is_empty();
        Ok(())
    }

    /// The directory paths are relative to.
    pub fn base(&self) -> PathBuf {
        self.head.base.to_path_buf()
    }

    /// Flushes what was written, for a reader downstream.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Counts the file `name`, whose findings are all written.
    pub fn file_done(&mut self, name: &str) -> io::Result<()> {
        self.tally.files += 1;
        self.writer
            .file_done(name, std::mem::take(&mut self.any), self.out)
    }

    /// Writes the end of the report; the counts are the run's.
    pub fn finish(mut self, baselined: Option<Baselined>) -> io::Result<Counts> {
        self.tally.baselined = baselined;
        self.writer.finish(&self.head, &self.tally, self.out)?;
        self.out.flush()?;
        Ok(self.tally.counts)
    }
}

/// The end of the human and concise formats: `--statistics`' counts, then the summary
/// unless `--quiet`.
fn listing_end(options: Options, tally: &Tally, out: &mut dyn Write) -> io::Result<()> {
    if options.statistics {
        tally.statistics(out)?;
    }
    if !options.quiet {
        tally.summary(out)?;
    }
    Ok(())
}

impl Options {
    /// Whether a finding is shown: `--quiet` shows errors only.
    fn shows(&self, finding: &Finding) -> bool {
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

    pub fn head(&self) -> Head<'_> {
        Head {
            profile: self.profile,
            base: &self.base,
            clauses: &self.clauses,
            protocol_version: self.protocol_version.as_deref(),
        }
    }

    pub fn render(&self, options: Options, out: &mut dyn Write) -> io::Result<()> {
        let mut stream = Stream::new(out, options, self.head())?;
        for file in &self.files {
            stream.findings(file)?;
            stream.file_done(&file.source.name)?;
        }
        stream.finish(self.baselined).map(drop)
    }
}
