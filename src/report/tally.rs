//! What a report keeps of its findings once they are written: counts, for the summary,
//! `--statistics` and the formats that put counts first.

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::Counts;
use crate::baseline::Baselined;
use crate::finding::Finding;
use crate::rules::RuleMeta;

#[derive(Default)]
pub struct Tally {
    pub files: usize,
    pub counts: Counts,
    /// How often each rule fired, by code.
    rules: BTreeMap<&'static str, (&'static RuleMeta, usize)>,
    /// What `--baseline` hid, when one was given.
    pub baselined: Option<Baselined>,
    /// The profile the levels came from.
    pub profile: &'static str,
}

impl Tally {
    pub fn new(profile: &'static str) -> Self {
        Tally {
            profile,
            ..Tally::default()
        }
    }

    pub fn add(&mut self, finding: &Finding) {
        self.counts.add(finding.level);
        let rule = finding.rule;
        self.rules.entry(rule.code).or_insert((rule, 0)).1 += 1;
    }

    /// `mcp-lint: 1 error, 0 warnings, 0 advice in 3 files (profile sep-2145)`
    pub fn summary(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "mcp-lint: {}", self.outcome())
    }

    /// `1 error, 0 warnings, 0 advice in 3 files (profile sep-2145)`, and with a baseline
    /// `; 4 baselined, 1 stale baseline entry`
    pub fn outcome(&self) -> String {
        let c = self.counts;
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
            self.files,
            plural(self.files, "file"),
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
    pub fn statistics(&self, out: &mut dyn Write) -> io::Result<()> {
        for (rule, count) in self.rule_counts() {
            writeln!(out, "{count:>6}  {}  {}", rule.code, rule.name)?;
        }
        Ok(())
    }

    /// The rules that fired and how often, most frequent first, then by code.
    pub fn rule_counts(&self) -> Vec<(&'static RuleMeta, usize)> {
        let mut rows: Vec<_> = self.rules.values().copied().collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code.cmp(b.0.code)));
        rows
    }
}
