//! `--format github`: GitHub Actions workflow commands, which annotate the lines of a pull
//! request. The message repeats `path:line:col: CODE` (the annotation panel shows only the
//! message); columns are left out of multi-line spans, as GitHub would misplace them.

use std::io::{self, Write};

use super::{Head, Options, Tally, Writer};
use crate::finding::Finding;
use crate::rules::Level;
use crate::text::SourceText;

pub struct Github(pub Options);

impl Writer for Github {
    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        if !self.0.shows(f) {
            return Ok(());
        }
        let (start, end) = source.range_positions(&f.span);
        let command = match f.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Advice => "notice",
        };
        let mut properties = format!("file={},line={}", property(&source.name), start.line);
        if start.line == end.line {
            properties += &format!(
                ",col={},endColumn={}",
                start.column,
                end.column.max(start.column + 1)
            );
        } else {
            properties += &format!(",endLine={}", end.line);
        }
        properties += &format!(
            ",title={}",
            property(&format!("{} ({})", f.rule.code, f.rule.name))
        );
        let mut message = format!(
            "{}:{}:{}: {} {}",
            source.name, start.line, start.column, f.rule.code, f.message
        );
        if let Some(help) = &f.help {
            message += &format!("\n  help: {}", help.lines().next().unwrap_or_default());
        }
        writeln!(out, "::{command} {properties}::{}", data(&message))
    }

    fn finish(self: Box<Self>, _: &Head, _: &Tally, _: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// Escapes the message part of a workflow command.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value, where `:` and `,` are separators too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_what_github_requires() {
        assert_eq!(super::data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(super::property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
