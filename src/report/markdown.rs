//! `--format markdown`: a report for `$GITHUB_STEP_SUMMARY` and pull-request comments. A
//! title with the counts, the count of each rule (linked to its documentation), a table of
//! findings, and a probe's clauses. Cells are escaped, so a message cannot break the table
//! or inject markup.

use std::io::{self, Write};

use super::{Options, Report};

/// The repository's rule docs: the package's repository URL where Cargo.toml names one,
/// else a link relative to the repository root.
fn rule_doc(code: &str) -> String {
    match env!("CARGO_PKG_REPOSITORY").trim_end_matches('/') {
        "" => format!("rules/{code}.md"),
        repository => format!("{repository}/blob/HEAD/rules/{code}.md"),
    }
}

pub fn render(report: &Report, options: Options, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "### mcp-lint: {}", report.outcome())?;
    let rules = report.rule_counts();
    if rules.is_empty() {
        writeln!(out, "\nNo findings.")?;
    } else {
        writeln!(out, "\n| rule | findings |\n|---|---:|")?;
        for (rule, count) in rules {
            let doc = rule_doc(rule.code);
            writeln!(out, "| [{}]({doc}) {} | {count} |", rule.code, rule.name)?;
        }
    }
    let mut rows = report.files.iter().flat_map(|file| {
        let shown = file.findings.iter().filter(|f| options.shows(f));
        shown.map(|f| {
            let at = file.source.position(f.span.start);
            let place = format!("{}:{}:{}", file.source.name, at.line, at.column);
            [place.as_str(), f.level.as_str(), f.rule.code, &f.message].map(cell)
        })
    });
    if let Some(first) = rows.next() {
        writeln!(
            out,
            "\n| place | level | rule | message |\n|---|---|---|---|"
        )?;
        for row in std::iter::once(first).chain(rows) {
            writeln!(out, "| {} |", row.join(" | "))?;
        }
    }
    if !report.clauses.is_empty() {
        writeln!(
            out,
            "\n| SEP-2145 clause | verdict | detail |\n|---|---|---|"
        )?;
        for c in &report.clauses {
            let row = [c.clause, c.verdict, &c.detail].map(cell);
            writeln!(out, "| {} |", row.join(" | "))?;
        }
    }
    Ok(())
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
