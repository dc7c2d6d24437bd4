//! Baselines, for adopting mcp-lint on code (and traffic) that already has findings:
//! `--write-baseline FILE` records today's findings by fingerprint, and `--baseline FILE`
//! reports only the findings that are not in it. Entries hold the line and message for the
//! people who read the file; only the fingerprint matches, so moved code stays baselined.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::BaselineArgs;
use crate::finding::{FileReport, Finding};
use crate::fingerprint::portable_path;
use crate::rules;

/// The version of the file's format this mcp-lint reads and writes.
const VERSION: u32 = 1;

/// What a run does with a baseline.
pub enum Mode {
    Off,
    /// Hide the findings recorded in it.
    Filter(Baseline),
    /// Record the findings in this file instead of reporting them.
    Write(PathBuf),
}

/// A baseline file, read.
pub struct Baseline {
    fingerprints: HashSet<String>,
    entries: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
struct Document {
    version: u32,
    findings: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    fingerprint: String,
    file: String,
    /// The rest is for people: a hand-edited file may leave it out.
    #[serde(default)]
    code: String,
    #[serde(default)]
    line: usize,
    #[serde(default)]
    message: String,
}

/// What a baseline did to a run: the summaries say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Baselined {
    /// Findings not reported because the baseline has them.
    pub baselined: usize,
    /// Entries that matched no finding: fixed, or changed past recognition.
    #[serde(rename = "stale_baseline_entries")]
    pub stale: usize,
}

impl Mode {
    /// The command line's choice, with a `--baseline` read now so that a missing or broken
    /// file stops the run before any work is done. Paths are relative to `cwd`.
    pub fn from_args(args: &BaselineArgs, cwd: &Path) -> Result<Mode, String> {
        if let Some(path) = &args.write_baseline {
            return Ok(Mode::Write(path.clone()));
        }
        let Some(path) = &args.baseline else {
            return Ok(Mode::Off);
        };
        let fail = |why: String| format!("--baseline {}: {why}", path.display());
        let text = std::fs::read_to_string(cwd.join(path))
            .map_err(|e| fail(format!("cannot read it: {e}")))?;
        let document: Document = serde_json::from_str(&text).map_err(|e| {
            fail(format!(
                "not an mcp-lint baseline ({e}); `--write-baseline` writes one"
            ))
        })?;
        if document.version != VERSION {
            return Err(fail(format!(
                "baseline version {} is not one this mcp-lint reads (version {VERSION})",
                document.version
            )));
        }
        Ok(Mode::Filter(Baseline {
            fingerprints: document
                .findings
                .iter()
                .map(|e| e.fingerprint.clone())
                .collect(),
            entries: document.findings,
        }))
    }
}

impl Baseline {
    /// Whether the baseline has `finding` (whose fingerprint is set): it is not reported, and
    /// so not fixed either.
    pub fn has(&self, finding: &Finding) -> bool {
        recordable(finding) && self.fingerprints.contains(&finding.fingerprint)
    }

    /// Removes the findings the baseline has (see [`Matching`]). Paths are relative to
    /// `base`.
    pub fn apply(&self, files: &mut [FileReport], base: &Path) -> Baselined {
        let mut matching = Matching::new(self);
        for file in files.iter_mut() {
            matching.remove_known(file);
            matching.checked(&file.source.name, base);
        }
        matching.finish(base)
    }
}

/// A baseline applied as the findings come, a batch at a time (a streamed audit): what it
/// has matched so far, which the baseline's size bounds.
pub struct Matching<'b> {
    baseline: &'b Baseline,
    matched: HashSet<String>,
    checked: HashSet<String>,
}

impl<'b> Matching<'b> {
    pub fn new(baseline: &'b Baseline) -> Self {
        Matching {
            baseline,
            matched: HashSet::new(),
            checked: HashSet::new(),
        }
    }

    /// Removes the findings of `file` (whose fingerprints are set) the baseline has.
    pub fn remove_known(&mut self, file: &mut FileReport) {
        file.findings.retain(|f| {
            let known = self.baseline.has(f);
            if known {
                self.matched.insert(f.fingerprint.clone());
            }
            !known
        });
    }

    /// The file `name` was checked to its end.
    pub fn checked(&mut self, name: &str, base: &Path) {
        self.checked.insert(portable_path(name, base));
    }

    /// What the baseline did, once every file is checked. An entry is stale when it matched
    /// nothing in a file this run checked, or its file is gone: a run on a few files
    /// (pre-commit's) says nothing of the others.
    pub fn finish(&self, base: &Path) -> Baselined {
        let gone = |file: &str| file != "-" && !base.join(file).exists();
        let stale = self
            .baseline
            .entries
            .iter()
            .filter(|e| !self.matched.contains(&e.fingerprint))
            .filter(|e| self.checked.contains(&e.file) || gone(&e.file))
            .count();
        Baselined {
            baselined: self.matched.len(),
            stale,
        }
    }
}

/// Writes the findings of `files` to `path` (relative to `base`) as a baseline, and returns
/// how many it recorded.
pub fn write(path: &Path, files: &[FileReport], base: &Path) -> io::Result<usize> {
    let findings: Vec<Entry> = files
        .iter()
        .flat_map(|file| {
            let name = portable_path(&file.source.name, base);
            file.findings
                .iter()
                .filter(|f| recordable(f))
                .map(move |f| Entry {
                    fingerprint: f.fingerprint.clone(),
                    file: name.clone(),
                    code: f.rule.code.to_string(),
                    line: file.source.position(f.span.start).line,
                    message: f.message.clone(),
                })
        })
        .collect();
    let count = findings.len();
    let document = Document {
        version: VERSION,
        findings,
    };
    let mut text = serde_json::to_string_pretty(&document)?;
    text.push('\n');
    std::fs::write(base.join(path), text)?;
    Ok(count)
}

/// An input that was not checked at all (MCP004) is never baselined: it would pass silently
/// for good, and hide whatever the file holds once it can be read.
fn recordable(finding: &Finding) -> bool {
    !std::ptr::eq(finding.rule, &rules::mcp004::META)
}
