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

use super::{Options, Report, human};
use crate::finding::Finding;

/// A test case: its name, class name, and what failed or why it was skipped.
struct Case {
    name: String,
    classname: String,
    outcome: Outcome,
}

enum Outcome {
    Pass,
    /// The rule's code, the message, and the finding as the human format shows it.
    Failure {
        code: String,
        message: String,
        text: String,
    },
    Skipped(String),
}

pub fn render(report: &Report, options: Options, out: &mut dyn Write) -> io::Result<()> {
    let mut suites = Vec::new();
    for file in &report.files {
        let classname = classname(&file.source.name);
        let mut cases: Vec<Case> = Vec::new();
        let mut rules: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
        for f in file.findings.iter().filter(|f| options.shows(f)) {
            rules.entry(f.rule.code).or_default().push(f);
        }
        for findings in rules.values() {
            let rule = findings[0].rule;
            let mut text = String::new();
            for f in findings {
                if !text.is_empty() {
                    text.push('\n');
                }
                text += &human::rendered(&file.source, f)?;
            }
            let message = match findings.len() {
                1 => findings[0].message.clone(),
                n => format!("{n} findings; the first: {}", findings[0].message),
            };
            cases.push(Case {
                name: format!("{} {}", rule.code, rule.name),
                classname: classname.clone(),
                outcome: Outcome::Failure {
                    code: rule.code.to_string(),
                    message,
                    text,
                },
            });
        }
        if cases.is_empty() {
            let name = if file.findings.is_empty() {
                "no findings"
            } else {
                "no errors"
            };
            cases.push(Case {
                name: name.to_string(),
                classname,
                outcome: Outcome::Pass,
            });
        }
        suites.push((file.source.name.as_str(), cases));
    }
    if !report.clauses.is_empty() {
        let cases = report.clauses.iter().map(|c| Case {
            name: c.clause.to_string(),
            classname: "SEP-2145".to_string(),
            outcome: match c.verdict {
                "pass" => Outcome::Pass,
                "fail" => Outcome::Failure {
                    code: "SEP-2145".to_string(),
                    message: c.detail.clone(),
                    text: c.detail.clone(),
                },
                _ => Outcome::Skipped(c.detail.clone()),
            },
        });
        suites.push(("SEP-2145 clauses", cases.collect()));
    }

    let count = |cases: &[Case], pick: fn(&Outcome) -> bool| {
        cases.iter().filter(|c| pick(&c.outcome)).count()
    };
    let failed = |o: &Outcome| matches!(o, Outcome::Failure { .. });
    let skipped = |o: &Outcome| matches!(o, Outcome::Skipped(_));
    let all: Vec<&Case> = suites.iter().flat_map(|(_, cases)| cases).collect();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
        escape(&format!("mcp-lint (profile {})", report.profile), true),
        all.len(),
        all.iter().filter(|c| failed(&c.outcome)).count(),
    );
    for (name, cases) in &suites {
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">",
            escape(name, true),
            cases.len(),
            count(cases, failed),
            count(cases, skipped),
        );
        for case in cases {
            case.write(&mut xml);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    out.write_all(xml.as_bytes())
}

impl Case {
    fn write(&self, xml: &mut String) {
        let open = format!(
            "    <testcase name=\"{}\" classname=\"{}\"",
            escape(&self.name, true),
            escape(&self.classname, true)
        );
        let _ = match &self.outcome {
            Outcome::Pass => writeln!(xml, "{open}/>"),
            Outcome::Failure {
                code,
                message,
                text,
            } => writeln!(
                xml,
                "{open}>\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
                escape(code, true),
                escape(message, true),
                escape(text, false)
            ),
            Outcome::Skipped(why) => writeln!(
                xml,
                "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                escape(why, true)
            ),
        };
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
