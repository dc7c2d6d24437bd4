//! The one place findings become output.

mod human;
mod json;

use std::io::{self, Write};

use crate::finding::FileReport;
use crate::rules::Level;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub format: Format,
    pub color: bool,
    /// Show only findings at level error, and no summary.
    pub quiet: bool,
}

/// The outcome of a run, ready to render.
#[derive(Debug, Default)]
pub struct Report {
    /// Sorted by path; each file's findings sorted by position.
    pub files: Vec<FileReport>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub advice: usize,
}

impl Report {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for finding in self.files.iter().flat_map(|f| &f.findings) {
            match finding.level {
                Level::Error => counts.errors += 1,
                Level::Warning => counts.warnings += 1,
                Level::Advice => counts.advice += 1,
            }
        }
        counts
    }

    pub fn render(&self, options: Options, out: &mut dyn Write) -> io::Result<()> {
        match options.format {
            Format::Human => human::render(self, options, out),
            Format::Json => json::render(self, out),
        }
    }
}
