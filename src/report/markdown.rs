//! `--format markdown`: a report for `$GITHUB_STEP_SUMMARY` and pull-request comments. A
//! title with the counts, the count of each rule (linked to its documentation), a table of
//! findings, and a probe's clauses. Cells are escaped, so a message cannot break the table
//! or inject markup. The counts come first, so the rows wait in a [`Spool`].

use std::io::{self, Write};

use super::spool::Spool;
use super::{Head, Options, Tally, Writer};
use crate::finding::Finding;
use crate::text::SourceText;

/// The repository's rule docs: the package's repository URL where Cargo.toml names one,
/// else a link relative to the repository root.
fn rule_doc(code: &str) -> String {
    match env!("CARGO_PKG_REPOSITORY").trim_end_matches('/') {
        "" => format!("rules/{code}.md"),
        repository => format!("{repository}/blob/HEAD/rules/{code}.md"),
    }
}

/// The report; the findings' rows are held back in a spool until the counts that come
/// first are known.
pub struct Markdown {
    options: Options,
    rows: Spool,
}

impl Markdown {
    pub fn new(options: Options) -> Self {
        Markdown {
            options,
            rows: Spool::default(),
        }
    }
}

impl Writer for Markdown {
    fn finding(&mut self, source: &SourceText, f: &Finding, _: &mut dyn Write) -> io::Result<()> {
        if !self.options.shows(f) {
            return Ok(());
        }
        let at = source.position(f.span.start);
        let place = format!("{}:{}:{}", source.name, at.line, at.column);
        let row = [place.as_str(), f.level.as_str(), f.rule.code, &f.message].map(cell);
        writeln!(self.rows, "| {} |", row.join(" | "))
    }

    fn finish(
        mut self: Box<Self>,
        head: &Head,
        tally: &Tally,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "### mcp-lint: {}", tally.outcome())?;
        let rules = tally.rule_counts();
        if rules.is_empty() {
            writeln!(out, "\nNo findings.")?;
        } else {
            writeln!(out, "\n| rule | findings |\n|---|---:|")?;
            for (rule, count) in rules {
                let doc = rule_doc(rule.code);
                writeln!(out, "| [{}]({doc}) {} | {count} |", rule.code, rule.name)?;
            }
        }
        if !self.rows.is_empty() {
            writeln!(
                out,
                "\n| place | level | rule | message |\n|---|---|---|---|"
            )?;
            self.rows.drain_to(out)?;
        }
        if !head.clauses.is_empty() {
            writeln!(
                out,
                "\n| SEP-2145 clause | verdict | detail |\n|---|---|---|"
            )?;
            for c in head.clauses {
                let row = [c.clause, c.verdict, &c.detail].map(cell);
                writeln!(out, "| {} |", row.join(" | "))?;
            }
        }
        Ok(())
    }
}

/// A table cell: every punctuation mark Markdown gives a meaning to is backslash-escaped (a
/// `|` would end the cell, a backtick open code, `<` start HTML), and line breaks are `<br>`.
fn cell(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '&' | '~' | '#' | '!' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push_str("<br>"),
            '\r' => {}
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    #[test]
    fn cells_cannot_break_the_table_or_inject_markup() {
        assert_eq!(
            super::cell("a|b `c` <img> **d**\r\nnext_line"),
            "a\\|b \\`c\\` \\<img\\> \\*\\*d\\*\\*<br>next\\_line"
        );
    }
}
