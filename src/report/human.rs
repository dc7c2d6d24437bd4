//! The human format: miette's graphical report per finding, then a summary line.

use std::fmt;
use std::io::{self, Write};

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, Severity, SourceCode,
};

use super::{Head, Options, Tally, Writer, listing_end};
use crate::config::ConfigError;
use crate::finding::Finding;
use crate::rules::Level;
use crate::text::SourceText;

/// Lines longer than this are not drawn (a recorded `tools/list` can be megabytes on one
/// line); the finding then shows its position and labels as text.
const MAX_DRAWN_LINE: usize = 1000;

pub struct Human {
    handler: GraphicalReportHandler,
    options: Options,
}

impl Human {
    pub fn new(options: Options) -> Self {
        Human {
            handler: handler(options.color),
            options,
        }
    }
}

impl Writer for Human {
    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        if self.options.statistics || !self.options.shows(f) {
            return Ok(());
        }
        out.write_all(one(&self.handler, source, f)?.as_bytes())?;
        // A blank line after each, as rustc and clippy leave.
        out.write_all(b"\n")
    }

    fn finish(self: Box<Self>, _: &Head, tally: &Tally, out: &mut dyn Write) -> io::Result<()> {
        listing_end(self.options, tally, out)
    }
}

/// One finding as the human format shows it, without colour: rustc's `rendered`.
pub fn rendered(source: &SourceText, finding: &Finding) -> io::Result<String> {
    one(&handler(false), source, finding)
}

fn one(
    handler: &GraphicalReportHandler,
    source: &SourceText,
    finding: &Finding,
) -> io::Result<String> {
    let mut spans = std::iter::once(&finding.span).chain(finding.related.iter().map(|l| &l.span));
    let drawn = spans.all(|s| source.line_len(s.start) <= MAX_DRAWN_LINE);
    let diagnostic = LintDiagnostic {
        finding,
        source,
        drawn,
    };
    let mut buffer = String::new();
    handler
        .render_report(&mut buffer, &diagnostic)
        .map_err(|_| io::Error::other("could not render a diagnostic"))?;
    Ok(buffer)
}

/// The graphical handler, themed for colour or not. Messages and help are not wrapped: a
/// wrap falls inside inline code (`unknown-tool-protocol-` / `error`) and breaks copy and
/// paste; the terminal wraps lines for the eye. The output is the same everywhere.
fn handler(color: bool) -> GraphicalReportHandler {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_wrap_lines(false)
        .with_links(false)
}

/// A finding seen through miette's `Diagnostic`, borrowing the file's shared text.
struct LintDiagnostic<'a> {
    finding: &'a Finding,
    source: &'a SourceText,
    /// Whether the source lines are drawn; if not, positions and labels are written out.
    drawn: bool,
}

impl LintDiagnostic<'_> {
    fn place(&self, span: &std::ops::Range<usize>) -> String {
        let at = self.source.position(span.start);
        format!("{}:{}:{}", self.source.name, at.line, at.column)
    }
}

impl fmt::Debug for LintDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl fmt::Display for LintDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let finding = self.finding;
        if self.drawn {
            return f.write_str(&finding.message);
        }
        write!(
            f,
            "{}: {}\n  {}: {}",
            self.place(&finding.span),
            finding.message,
            self.place(&finding.span),
            finding.label
        )?;
        for label in &finding.related {
            write!(f, "\n  {}: {}", self.place(&label.span), label.text)?;
        }
        Ok(())
    }
}

impl std::error::Error for LintDiagnostic<'_> {}

impl Diagnostic for LintDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        let rule = self.finding.rule;
        Some(Box::new(format!("{}({})", rule.code, rule.name)))
    }

    fn severity(&self) -> Option<Severity> {
        Some(match self.finding.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Advice => Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.finding
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.drawn.then_some(self.source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if !self.drawn {
            return None;
        }
        let f = self.finding;
        let primary = LabeledSpan::new_primary_with_span(Some(f.label.clone()), f.span.clone());
        let related = f
            .related
            .iter()
            .map(|l| LabeledSpan::new_with_span(Some(l.text.clone()), l.span.clone()));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

/// Renders a configuration error, pointing into the file where it can.
pub fn render_config_error(
    error: &ConfigError,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let handler = handler(color);
    let diagnostic = ConfigDiagnostic {
        error,
        source: SourceText::new(error.file.clone(), error.text.clone()),
    };
    let mut buffer = String::new();
    handler
        .render_report(&mut buffer, &diagnostic)
        .map_err(|_| io::Error::other("could not render a diagnostic"))?;
    out.write_all(buffer.as_bytes())
}

struct ConfigDiagnostic<'a> {
    error: &'a ConfigError,
    source: SourceText,
}

impl fmt::Debug for ConfigDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for ConfigDiagnostic<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid configuration in {}: {}",
            self.error.file, self.error.message
        )
    }
}

impl std::error::Error for ConfigDiagnostic<'_> {}

impl Diagnostic for ConfigDiagnostic<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new("mcp-lint(config)"))
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.error
            .help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.error
            .span
            .as_ref()
            .map(|_| &self.source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.error.span.clone()?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some("here".into()), span),
        )))
    }
}
