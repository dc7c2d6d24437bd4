//! Suppression comments in Rust sources (SPEC.md):
//!
//! - `// mcp-lint: allow(MCP101) reason` on its own line covers the next statement or item;
//! - at the end of a line it covers that line;
//! - `// mcp-lint: allow-file(MCP104) reason` covers the file.
//!
//! A rule (code or name) is required: a directive without one, with an unknown one, or that
//! is not `allow`/`allow-file` is MCP003. One that silences nothing is MCP002.

use std::ops::{Range, RangeInclusive};

use crate::finding::{FileReport, Finding};
use crate::fix;
use crate::rules::{self, RuleMeta};
use crate::text::SourceText;

pub(crate) const MARKER: &str = "mcp-lint:";

/// One valid directive.
#[derive(Debug, Clone)]
pub struct Suppression {
    /// The comment.
    pub span: Range<usize>,
    /// The lines it covers; `None` for the whole file.
    pub lines: Option<RangeInclusive<usize>>,
    /// The rules it names, and whether each silenced something.
    pub rules: Vec<(&'static RuleMeta, bool)>,
}

/// The directives of a file, and an MCP003 finding for each malformed one. `extent` gives the
/// last line of the statement or item that starts on a line, if one does.
pub fn parse(
    source: &SourceText,
    extent: impl Fn(usize) -> Option<usize>,
) -> (Vec<Suppression>, Vec<Finding>) {
    let text = source.text();
    let (mut suppressions, mut invalid) = (Vec::new(), Vec::new());
    for comment in line_comments(text) {
        let body = text[comment.clone()].trim_start_matches('/').trim_start();
        let Some(directive) = body.strip_prefix(MARKER) else {
            continue;
        };
        let directive = directive.trim_start();
        let (file_wide, rest) = match (
            directive.strip_prefix("allow-file"),
            directive.strip_prefix("allow"),
        ) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            _ => {
                invalid.push(bad(
                    &comment,
                    "a suppression is `allow(RULE)` or `allow-file(RULE)`".into(),
                ));
                continue;
            }
        };
        let Some(list) = rest
            .trim_start()
            .strip_prefix('(')
            .and_then(|r| r.split_once(')'))
            .map(|(list, _)| list)
        else {
            invalid.push(bad(
                &comment,
                "a suppression names its rules in parentheses: `allow(MCP101)`".into(),
            ));
            continue;
        };
        let names: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .collect();
        if names.is_empty() {
            invalid.push(bad(&comment, "this suppression names no rule".into()));
            continue;
        }
        let mut rules = Vec::new();
        for name in names {
            match rules::lookup(name) {
                Some(rule) => rules.push((rule, false)),
                None => {
                    let hint = rules::did_you_mean(name)
                        .map(|h| format!("; {h}"))
                        .unwrap_or_default();
                    invalid.push(bad(
                        &comment,
                        format!("this suppression names an unknown rule `{name}`{hint}"),
                    ));
                }
            }
        }
        if rules.is_empty() {
            continue;
        }
        let line = source.position(comment.start).line;
        let own_line = text[..comment.start]
            .rsplit('\n')
            .next()
            .is_some_and(|before| before.trim().is_empty());
        let lines = match (file_wide, own_line) {
            (true, _) => None,
            (false, false) => Some(line..=line),
            (false, true) => {
                let target = next_code_line(text, source, comment.end);
                Some(target..=extent(target).unwrap_or(target).max(target))
            }
        };
        suppressions.push(Suppression {
            span: comment,
            lines,
            rules,
        });
    }
    (suppressions, invalid)
}

/// A file's report with the suppression comments found in it, applied once levels are known.
#[derive(Debug)]
pub struct Checked {
    pub report: FileReport,
    pub suppressions: Vec<Suppression>,
}

/// A transcript's report: it holds no suppression comments.
impl From<FileReport> for Checked {
    fn from(report: FileReport) -> Self {
        Checked {
            report,
            suppressions: Vec::new(),
        }
    }
}

/// Silences the findings the file's directives cover; then reports, as MCP002, each named
/// rule that silenced nothing though `enabled` says it ran.
pub fn apply(checked: Checked, enabled: impl Fn(&RuleMeta) -> bool) -> FileReport {
    let Checked {
        mut report,
        mut suppressions,
    } = checked;
    let source = report.source.clone();
    report.findings.retain(|finding| {
        let line = source.position(finding.span.start).line;
        let mut silenced = false;
        for s in suppressions
            .iter_mut()
            .filter(|s| s.lines.as_ref().is_none_or(|l| l.contains(&line)))
        {
            for (_, used) in s
                .rules
                .iter_mut()
                .filter(|(r, _)| std::ptr::eq(*r, finding.rule))
            {
                *used = true;
                silenced = true;
            }
        }
        !silenced
    });
    for s in &suppressions {
        // The whole comment goes only if each of its rules is reported unused: one of a rule
        // turned off here may be on where the comment was meant to count.
        let all_unused = s.rules.iter().all(|(r, used)| !used && enabled(r));
        for (rule, _) in s.rules.iter().filter(|(r, used)| !used && enabled(r)) {
            let mut unused = rules::mcp002::unused(rule).at(s.span.clone());
            let names = [rule.code, rule.name];
            unused.fix = fix::suppression::unused(source.text(), &s.span, &names, all_unused);
            if let Some(fix) = &unused.fix {
                unused.help = fix::with_line(unused.help, fix::available(fix));
            }
            report.findings.push(unused);
        }
    }
    report.sort();
    report
}

fn bad(comment: &Range<usize>, message: String) -> Finding {
    rules::mcp003::invalid(message).at(comment.clone())
}

/// The first line after `offset` that holds code (not blank, not only a comment).
fn next_code_line(text: &str, source: &SourceText, offset: usize) -> usize {
    let mut at = offset;
    for line in text[offset..].split_inclusive('\n').skip(1) {
        at += text[at..].find('\n').map_or(0, |i| i + 1);
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with("//") {
            return source.position(at).line;
        }
    }
    source.position(offset).line + 1
}

/// The byte ranges of `//` comments, outside string and char literals and block comments.
fn line_comments(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| i + n);
                out.push(i..end);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = skip_block_comment(bytes, i),
            b'r' | b'b' if raw_string_start(bytes, i).is_some() => {
                let (hashes, quote) = raw_string_start(bytes, i).unwrap_or_default();
                let closing: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                i = bytes[quote + 1..]
                    .windows(closing.len())
                    .position(|w| w == closing)
                    .map_or(bytes.len(), |p| quote + 1 + p + closing.len());
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'\'' => i = skip_char_literal(bytes, i),
            _ => i += 1,
        }
    }
    out
}

/// `r"`, `r#"`, `br##"`: the number of `#` and the offset of the opening quote. An identifier
/// that merely ends in `r` or `b` (`for`, `lib"`) is not one.
fn raw_string_start(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
        return None;
    }
    let mut j = i + usize::from(bytes[i] == b'b' && bytes.get(i + 1) == Some(&b'r')) + 1;
    if bytes[i] == b'b' && bytes.get(i + 1) != Some(&b'r') {
        return None;
    }
    let hashes = bytes[j..].iter().take_while(|&&b| b == b'#').count();
    j += hashes;
    (bytes.get(j) == Some(&b'"')).then_some((hashes, j))
}

fn skip_block_comment(bytes: &[u8], mut i: usize) -> usize {
    let mut depth = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// `'x'`, `'\n'`, `'\''` are skipped whole; a lifetime `'a` only by its quote.
fn skip_char_literal(bytes: &[u8], i: usize) -> usize {
    match (bytes.get(i + 1), bytes.get(i + 2)) {
        (Some(b'\\'), _) => bytes[i + 2..]
            .iter()
            .position(|&b| b == b'\'')
            .map_or(bytes.len(), |p| i + 3 + p),
        (Some(_), Some(b'\'')) => i + 3,
        _ => {
            // A multi-byte char literal such as '日' ends within four bytes.
            let close = bytes[i + 1..bytes.len().min(i + 6)]
                .iter()
                .position(|&b| b == b'\'');
            match close {
                Some(p)
                    if p > 1
                        && std::str::from_utf8(&bytes[i + 1..i + 1 + p])
                            .is_ok_and(|s| s.chars().count() == 1) =>
                {
                    i + 2 + p
                }
                _ => i + 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_comments;

    #[test]
    fn comments_inside_literals_are_not_comments() {
        let text = "let a = \"// no\"; // yes 1\nlet b = r#\"// \"no\" \"#; let c = '/'; /* // no */ let d: &'a str; // yes 2\n";
        let found: Vec<&str> = line_comments(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(found, ["// yes 1", "// yes 2"]);
    }
}
