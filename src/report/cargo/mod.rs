//! `--format cargo`: cargo's `--message-format=json` stream, one `compiler-message` line per
//! finding with rustc's diagnostic shape, so rust-analyzer (through a check command that runs
//! clippy, then mcp-lint: `contrib/rust-analyzer-check.sh`) shows findings beside clippy's.
//! Spans are byte ranges into the file, as rustc's are; columns count characters, 1-based.

mod package;

use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;

use serde::Serialize;

use super::{Head, Options, Tally, Writer, human};
use crate::finding::Finding;
use crate::rules::Level;
use crate::text::SourceText;
use package::{Package, Packages, Target};

#[derive(Serialize)]
struct CompilerMessage<'a> {
    reason: &'static str,
    package_id: &'a str,
    manifest_path: &'a str,
    target: &'a Target,
    message: Diagnostic<'a>,
}

/// rustc's diagnostic; only the outermost carries `$message_type`.
#[derive(Serialize)]
struct Diagnostic<'a> {
    #[serde(rename = "$message_type", skip_serializing_if = "Option::is_none")]
    message_type: Option<&'static str>,
    message: String,
    code: Option<Code<'a>>,
    level: &'static str,
    spans: Vec<Span<'a>>,
    children: Vec<Diagnostic<'a>>,
    rendered: Option<String>,
}

#[derive(Serialize)]
struct Code<'a> {
    code: &'a str,
    /// The rule's documentation, as rustc gives an error code's `--explain` text.
    explanation: &'a str,
}

#[derive(Serialize)]
struct Span<'a> {
    file_name: &'a str,
    byte_start: usize,
    byte_end: usize,
    line_start: usize,
    line_end: usize,
    column_start: usize,
    column_end: usize,
    is_primary: bool,
    text: Vec<SpanLine<'a>>,
    label: Option<&'a str>,
    /// Always null: fixes are applied by `--fix`, not offered as suggestions.
    suggested_replacement: (),
    suggestion_applicability: (),
    /// Always null: a finding is never inside a macro expansion of rustc's.
    expansion: (),
}

/// A line the span touches, and the 1-based character columns it covers there.
#[derive(Serialize)]
struct SpanLine<'a> {
    text: &'a str,
    highlight_start: usize,
    highlight_end: usize,
}

/// The messages, each written as it comes.
pub struct Cargo<'a> {
    options: Options,
    base: &'a Path,
    packages: Packages,
    /// The current file's name, and its package.
    package: Option<(String, Package)>,
}

impl<'a> Cargo<'a> {
    pub fn new(options: Options, base: &'a Path) -> Self {
        Cargo {
            options,
            base,
            packages: Packages::default(),
            package: None,
        }
    }
}

impl Writer for Cargo<'_> {
    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        if !self.options.shows(f) {
            return Ok(());
        }
        let package = match &self.package {
            Some((name, package)) if *name == source.name => package,
            _ => {
                let path = self.base.join(&source.name);
                let package = self
                    .packages
                    .of(&std::fs::canonicalize(&path).unwrap_or(path));
                &self.package.insert((source.name.clone(), package)).1
            }
        };
        let message = CompilerMessage {
            reason: "compiler-message",
            package_id: &package.id,
            manifest_path: &package.manifest_path,
            target: &package.target,
            message: diagnostic(source, f)?,
        };
        serde_json::to_writer(&mut *out, &message)?;
        writeln!(out)
    }

    fn finish(self: Box<Self>, _: &Head, _: &Tally, _: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

fn diagnostic<'a>(source: &'a SourceText, f: &'a Finding) -> io::Result<Diagnostic<'a>> {
    let primary = span(source, &f.span, &f.label, true);
    let secondary = f
        .related
        .iter()
        .map(|l| span(source, &l.span, &l.text, false));
    let help = f.help.iter().map(|help| child("help", help.to_string()));
    let elsewhere = f.elsewhere.iter().map(|place| {
        child(
            "note",
            format!("{}:{}: {}", place.file, place.line, place.text),
        )
    });
    Ok(Diagnostic {
        message_type: Some("diagnostic"),
        message: f.message.clone(),
        code: Some(Code {
            code: f.rule.code,
            explanation: f.rule.doc,
        }),
        level: match f.level {
            Level::Error => "error",
            Level::Warning => "warning",
            // rust-analyzer shows a note as information, a help as a hint.
            Level::Advice => "note",
        },
        spans: std::iter::once(primary).chain(secondary).collect(),
        children: help.chain(elsewhere).collect(),
        rendered: Some(human::rendered(source, f)?),
    })
}

/// A sub-diagnostic with no place of its own, as rustc attaches `help:` and `note:` lines.
fn child(level: &'static str, message: String) -> Diagnostic<'static> {
    Diagnostic {
        message_type: None,
        message,
        code: None,
        level,
        spans: Vec::new(),
        children: Vec::new(),
        rendered: None,
    }
}

fn span<'a>(source: &'a SourceText, at: &Range<usize>, label: &'a str, primary: bool) -> Span<'a> {
    let (start, end) = source.range_positions(at);
    Span {
        file_name: &source.name,
        byte_start: at.start,
        byte_end: at.end,
        line_start: start.line,
        line_end: end.line,
        column_start: start.column,
        column_end: end.column,
        is_primary: primary,
        text: lines(source, at),
        label: Some(label),
        suggested_replacement: (),
        suggestion_applicability: (),
        expansion: (),
    }
}

/// The lines a span touches, each with the columns it covers.
fn lines<'a>(source: &'a SourceText, at: &Range<usize>) -> Vec<SpanLine<'a>> {
    let mut lines = Vec::new();
    let mut offset = at.start;
    loop {
        let (line_start, text) = source.line(offset);
        let line_end = line_start + text.len();
        let column = |byte: usize| {
            let byte = byte.clamp(line_start, line_end) - line_start;
            text.get(..byte).map_or(0, |t| t.chars().count()) + 1
        };
        lines.push(SpanLine {
            text,
            highlight_start: column(offset),
            highlight_end: column(at.end),
        });
        // The next line, if the span goes on past this one's break (and the line is held:
        // a transcript keeps only the lines its findings point at).
        if at.end <= line_end || line_end < offset {
            return lines;
        }
        offset = line_end + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_over_lines_highlights_each_line_from_where_it_starts() {
        let source = SourceText::new("x.rs", "let é = f(\n    1,\n);\n".into());
        let at = 9..20; // from `f(` to `)`
        assert_eq!(&source.text()[at.clone()], "f(\n    1,\n)");
        let got: Vec<_> = lines(&source, &at)
            .iter()
            .map(|l| (l.text, l.highlight_start, l.highlight_end))
            .collect();
        assert_eq!(got, [("let é = f(", 9, 11), ("    1,", 1, 7), (");", 1, 2)]);
    }
}
