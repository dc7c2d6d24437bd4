//! `--format gitlab`: GitLab Code Quality JSON (a subset of Code Climate's issue format), the
//! `artifacts:reports:codequality` of a job. GitLab matches issues across pipelines by
//! `fingerprint`, so it is the finding's, which survives edits elsewhere in the file.

use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use super::pretty::{MARKER, PrettyArray};
use super::{Head, Options, Tally, Writer};
use crate::finding::Finding;
use crate::fingerprint::portable_path;
use crate::rules::Level;
use crate::text::SourceText;

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: &'a str,
    severity: &'static str,
    location: Location<'a>,
}

#[derive(Serialize)]
struct Location<'a> {
    /// Relative to the repository root, where the job runs.
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: usize,
    end: usize,
}

/// The issues, written one at a time.
pub struct Gitlab<'a> {
    options: Options,
    base: &'a Path,
    array: Option<PrettyArray>,
    /// The current file's name, and its path as GitLab wants it.
    path: (String, String),
}

impl<'a> Gitlab<'a> {
    pub fn new(options: Options, base: &'a Path) -> Self {
        Gitlab {
            options,
            base,
            array: None,
            path: Default::default(),
        }
    }
}

impl Writer for Gitlab<'_> {
    fn start(&mut self, _: &Head, out: &mut dyn Write) -> io::Result<()> {
        self.array = Some(PrettyArray::open(&[MARKER], out)?);
        Ok(())
    }

    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        let Some(array) = self.array.as_mut().filter(|_| self.options.shows(f)) else {
            return Ok(());
        };
        if self.path.0 != source.name {
            self.path = (source.name.clone(), portable_path(&source.name, self.base));
        }
        let (start, end) = source.range_positions(&f.span);
        let issue = Issue {
            description: format!("{} ({}): {}", f.rule.code, f.rule.name, f.message),
            check_name: f.rule.code,
            fingerprint: &f.fingerprint,
            severity: severity(f.level),
            location: Location {
                path: &self.path.1,
                lines: Lines {
                    begin: start.line,
                    end: end.line,
                },
            },
        };
        array.push(&issue, out)
    }

    fn finish(self: Box<Self>, _: &Head, _: &Tally, out: &mut dyn Write) -> io::Result<()> {
        match self.array {
            Some(array) => array.close(&[MARKER], out),
            None => Ok(()),
        }
    }
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
