//! `--format concise`: one line per finding, `path:line:col: CODE level message`, for editors,
//! grep and problem matchers.

use std::io::{self, Write};

use super::{Options, Report};

pub fn render(report: &Report, options: Options, out: &mut dyn Write) -> io::Result<()> {
    for file in &report.files {
        for f in file.findings.iter().filter(|f| options.shows(f)) {
            let at = file.source.position(f.span.start);
            writeln!(
                out,
                "{}:{}:{}: {} {} {}",
                file.source.name, at.line, at.column, f.rule.code, f.level, f.message
            )?;
        }
    }
    Ok(())
}
