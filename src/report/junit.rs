//! `--format junit`: JUnit XML as Jenkins' `junit-10.xsd` defines it, for the test panels of
//! GitLab, Jenkins and Azure. One `<testsuite>` per file and one `<testcase>` per rule and
//! file, failed by its findings: a panel shows one failure per test case, so that failure's
//! text holds every finding of the rule in the file, as the human format shows them. A file
//! with nothing to show passes one test case, so the panel lists what was checked. A probe's
//! clauses are a suite of their own (not probed: skipped). The class name is the path without
//! its extension, as ruff writes it: Jenkins splits class names at dots.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

use super::spool::Spool;
use super::{Head, Options, Tally, Writer, human};
use crate::finding::Finding;
use crate::rules::RuleMeta;
use crate::text::SourceText;

/// The report. A file's failures are kept by rule until the file is done, and its suite is
/// then held back in a spool until the totals that come first are known.
pub struct Junit {
    options: Options,
    /// The current file's failing rules, by code.
    failing: BTreeMap<&'static str, Failing>,
    /// The suites so far, and how many test cases they hold and how many failed.
    suites: Spool,
    tests: usize,
    failures: usize,
}

/// A rule that failed in a file: its first message, how many findings, and their text as the
/// human format shows them, escaped.
struct Failing {
    rule: &'static RuleMeta,
    first: String,
    count: usize,
    text: Spool,
}

/// A test case: its name, class name, and what failed or why it was skipped.
struct Case {
    name: String,
    classname: String,
    outcome: Outcome,
}

enum Outcome {
    Pass,
    /// The rule's code, the message, and the failure's text, escaped.
    Failure {
        code: String,
        message: String,
        text: Spool,
    },
    Skipped(String),
}

impl Junit {
    pub fn new(options: Options) -> Self {
        Junit {
            options,
            failing: BTreeMap::new(),
            suites: Spool::default(),
            tests: 0,
            failures: 0,
        }
    }

    /// Writes a suite to the spool, and counts its cases.
    fn suite(&mut self, name: &str, cases: Vec<Case>) -> io::Result<()> {
        let count = |pick: fn(&Outcome) -> bool| cases.iter().filter(|c| pick(&c.outcome)).count();
        let failures = count(|o| matches!(o, Outcome::Failure { .. }));
        writeln!(
            self.suites,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{}\">",
            escape(name, true),
            cases.len(),
            count(|o| matches!(o, Outcome::Skipped(_))),
        )?;
        self.tests += cases.len();
        self.failures += failures;
        for case in cases {
            case.write(&mut self.suites)?;
        }
        self.suites.write_all(b"  </testsuite>\n")
    }
}

impl Writer for Junit {
    fn finding(&mut self, source: &SourceText, f: &Finding, _: &mut dyn Write) -> io::Result<()> {
        if !self.options.shows(f) {
            return Ok(());
        }
        let failing = self.failing.entry(f.rule.code).or_insert_with(|| Failing {
            rule: f.rule,
            first: f.message.clone(),
            count: 0,
            text: Spool::default(),
        });
        if failing.count > 0 {
            failing.text.write_all(b"\n")?;
        }
        failing.count += 1;
        let text = escape(&human::rendered(source, f)?, false);
        failing.text.write_all(text.as_bytes())
    }

    fn file_done(&mut self, name: &str, any: bool, _: &mut dyn Write) -> io::Result<()> {
        let classname = classname(name);
        let mut cases: Vec<Case> = std::mem::take(&mut self.failing)
            .into_values()
            .map(|failing| Case {
                name: format!("{} {}", failing.rule.code, failing.rule.name),
                classname: classname.clone(),
                outcome: Outcome::Failure {
                    code: failing.rule.code.to_string(),
                    message: match failing.count {
                        1 => failing.first,
                        n => format!("{n} findings; the first: {}", failing.first),
                    },
                    text: failing.text,
                },
            })
            .collect();
        if cases.is_empty() {
            let name = if any { "no errors" } else { "no findings" };
            cases.push(Case {
                name: name.to_string(),
                classname,
                outcome: Outcome::Pass,
            });
        }
        self.suite(name, cases)
    }

    fn finish(mut self: Box<Self>, head: &Head, _: &Tally, out: &mut dyn Write) -> io::Result<()> {
        if !head.clauses.is_empty() {
            let cases = head.clauses.iter().map(|c| Case {
                name: c.clause.to_string(),
                classname: "SEP-2145".to_string(),
                outcome: match c.verdict {
                    "pass" => Outcome::Pass,
                    "fail" => {
                        let mut text = Spool::default();
                        let _ = text.write_all(escape(&c.detail, false).as_bytes());
                        Outcome::Failure {
                            code: "SEP-2145".to_string(),
                            message: c.detail.clone(),
                            text,
                        }
                    }
                    _ => Outcome::Skipped(c.detail.clone()),
                },
            });
            self.suite("SEP-2145 clauses", cases.collect())?;
        }
        writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
        writeln!(
            out,
            "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
            escape(&format!("mcp-lint (profile {})", head.profile), true),
            self.tests,
            self.failures,
        )?;
        self.suites.drain_to(out)?;
        out.write_all(b"</testsuites>\n")
    }
}

impl Case {
    fn write(self, xml: &mut dyn Write) -> io::Result<()> {
        let open = format!(
            "    <testcase name=\"{}\" classname=\"{}\"",
            escape(&self.name, true),
            escape(&self.classname, true)
        );
        match self.outcome {
            Outcome::Pass => writeln!(xml, "{open}/>"),
            Outcome::Failure {
                code,
                message,
                mut text,
            } => {
                write!(
                    xml,
                    "{open}>\n      <failure type=\"{}\" message=\"{}\">",
                    escape(&code, true),
                    escape(&message, true),
                )?;
                text.drain_to(xml)?;
                writeln!(xml, "</failure>\n    </testcase>")
            }
            Outcome::Skipped(why) => writeln!(
                xml,
                "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                escape(&why, true)
            ),
        }
    }
}

/// `src/server.rs` -> `src/server`; `./` left out.
fn classname(name: &str) -> String {
    let path = Path::new(name.strip_prefix("./").unwrap_or(name));
    path.with_extension("").to_string_lossy().replace('\\', "/")
}

/// Text for XML 1.0 content or a quoted attribute. In an attribute, line breaks and tabs are
/// character references, which a parser would otherwise turn into spaces. The control
/// characters XML 1.0 forbids even as references are written as Rust writes them, `\u{1b}`.
fn escape(text: &str, in_attribute: bool) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' if in_attribute => escaped.push_str("&quot;"),
            '\r' => escaped.push_str("&#13;"),
            '\n' | '\t' if in_attribute => {
                let _ = write!(escaped, "&#{};", c as u32);
            }
            '\n' | '\t' => escaped.push(c),
            '\0'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {
                let _ = write!(escaped, "\\u{{{:x}}}", c as u32);
            }
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_line_breaks_and_forbidden_characters() {
        let text = "a<b>&\"c'\n\t\r\u{1b}\u{0}\u{ffff}é";
        assert_eq!(
            escape(text, true),
            "a&lt;b&gt;&amp;&quot;c'&#10;&#9;&#13;\\u{1b}\\u{0}\\u{ffff}é"
        );
        assert_eq!(
            escape(text, false),
            "a&lt;b&gt;&amp;\"c'\n\t&#13;\\u{1b}\\u{0}\\u{ffff}é"
        );
    }

    #[test]
    fn class_names_have_no_extension() {
        assert_eq!(classname("./src/server.rs"), "src/server");
        assert_eq!(classname("logs/session.jsonl.gz"), "logs/session.jsonl");
    }
}
