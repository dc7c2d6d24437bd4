//! `--format concise`: one line per finding, `path:line:col: CODE level message`, for editors,
//! grep and problem matchers.

use std::io::{self, Write};

use super::{Head, Options, Tally, Writer, listing_end};
use crate::finding::Finding;
use crate::text::SourceText;

pub struct Concise(pub Options);

impl Writer for Concise {
    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        if self.0.statistics || !self.0.shows(f) {
            return Ok(());
        }
        let at = source.position(f.span.start);
        writeln!(
            out,
            "{}:{}:{}: {} {} {}",
            source.name, at.line, at.column, f.rule.code, f.level, f.message
        )
    }

    fn finish(self: Box<Self>, _: &Head, tally: &Tally, out: &mut dyn Write) -> io::Result<()> {
        listing_end(self.0, tally, out)
    }
}
