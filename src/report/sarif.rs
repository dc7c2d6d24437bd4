//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning. Every registered rule is described
//! (GitHub shows the rule's help beside the alert); URIs are relative with forward slashes;
//! regions are 1-based with Unicode code point columns.

use std::io::{self, Write};
use std::path::Path;

use serde_json::{Value, json};

use super::pretty::{MARKER, PrettyArray};
use super::{Head, Options, Tally, Writer};
use crate::finding::Finding;
use crate::fingerprint::portable_path;
use crate::rules::{Level, RULES, RuleMeta};
use crate::text::SourceText;

/// The log, written a result at a time.
pub struct Sarif<'a> {
    options: Options,
    base: &'a Path,
    results: Option<PrettyArray>,
    /// The current file's name, and its URI.
    uri: (String, String),
}

impl<'a> Sarif<'a> {
    pub fn new(options: Options, base: &'a Path) -> Self {
        Sarif {
            options,
            base,
            results: None,
            uri: Default::default(),
        }
    }
}

impl Writer for Sarif<'_> {
    fn start(&mut self, head: &Head, out: &mut dyn Write) -> io::Result<()> {
        self.results = Some(PrettyArray::open(&log(head), out)?);
        Ok(())
    }

    fn finding(&mut self, source: &SourceText, f: &Finding, out: &mut dyn Write) -> io::Result<()> {
        let Some(results) = self.results.as_mut().filter(|_| self.options.shows(f)) else {
            return Ok(());
        };
        if self.uri.0 != source.name {
            self.uri = (source.name.clone(), relative_uri(&source.name, self.base));
        }
        let uri = &self.uri.1;
        let location = |span: &std::ops::Range<usize>| {
            let (start, end) = source.range_positions(span);
            json!({"physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": {"startLine": start.line, "startColumn": start.column, "endLine": end.line, "endColumn": end.column},
            }})
        };
        let here = f
            .related
            .iter()
            .map(|label| (location(&label.span), &label.text));
        let elsewhere = f.elsewhere.iter().map(|place| {
            let uri = relative_uri(&place.file, self.base);
            let loc = json!({"physicalLocation": {
                "artifactLocation": {"uri": uri},
                "region": {"startLine": place.line},
            }});
            (loc, &place.text)
        });
        let related: Vec<Value> = here
            .chain(elsewhere)
            .enumerate()
            .map(|(i, (mut loc, text))| {
                loc["id"] = json!(i + 1);
                loc["message"] = json!({"text": text});
                loc
            })
            .collect();
        let mut result = json!({
            "ruleId": f.rule.code,
            "ruleIndex": RULES.iter().position(|r| std::ptr::eq(*r, f.rule)),
            "level": level(f.level),
            "message": {"text": f.message},
            "locations": [location(&f.span)],
            "partialFingerprints": {"mcpLint/v1": f.fingerprint},
        });
        if !related.is_empty() {
            result["relatedLocations"] = json!(related);
        }
        if let Some(fix) = &f.fix {
            let replacements: Vec<Value> = fix
                .edits
                .iter()
                .map(|edit| {
                    let (start, end) = source.range_positions(&edit.range);
                    json!({
                        "deletedRegion": {"startLine": start.line, "startColumn": start.column, "endLine": end.line, "endColumn": end.column},
                        "insertedContent": {"text": edit.text},
                    })
                })
                .collect();
            result["fixes"] = json!([{
                "description": {"text": format!("{} fix of {}", fix.applicability.as_str(), f.rule.code)},
                "artifactChanges": [{"artifactLocation": {"uri": uri}, "replacements": replacements}],
            }]);
        }
        if let Some(id) = &f.request_id {
            result["properties"] = json!({"requestId": id});
        }
        results.push(&result, out)
    }

    fn finish(self: Box<Self>, head: &Head, _: &Tally, out: &mut dyn Write) -> io::Result<()> {
        match self.results {
            Some(results) => results.close(&log(head), out),
            None => Ok(()),
        }
    }
}

/// The log, with [`MARKER`] for its results.
fn log(head: &Head) -> Value {
    let rules: Vec<Value> = RULES.iter().map(|r| rule(r)).collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcp-lint",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": [MARKER],
            "properties": properties(head),
        }],
    })
}

fn rule(meta: &RuleMeta) -> Value {
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": what_it_does(meta.doc)},
        "help": {"text": meta.sep, "markdown": meta.doc},
        "defaultConfiguration": {"level": level(meta.level)},
        "properties": {"tags": ["mcp", "sep-2145"]},
    })
}

/// The first paragraph of a rule doc's "What it does" section.
fn what_it_does(doc: &str) -> String {
    let section = doc.split("## What it does").nth(1).unwrap_or(doc);
    let paragraph = section
        .trim_start()
        .split("\n\n")
        .next()
        .unwrap_or_default();
    paragraph.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn level(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Advice => "note",
    }
}

/// The run's properties: the profile, and a probe's protocol version and verdict on each
/// clause.
fn properties(head: &Head) -> serde_json::Value {
    let mut properties = json!({"profile": head.profile});
    if let Some(version) = head.protocol_version {
        properties["protocol_version"] = json!(version);
    }
    if !head.clauses.is_empty() {
        properties["clauses"] = json!(head.clauses);
    }
    properties
}

/// A path as found on the command line, relative to `base` where it lies under it, with
/// forward slashes: code scanning resolves it against the repository root. Percent-encoded
/// (RFC 3986) but for unreserved characters and `/`: a space, `%`, `#` or a `:` in the first
/// segment would make an invalid URI reference, which SARIF requires.
fn relative_uri(name: &str, base: &Path) -> String {
    let text = portable_path(name, base);
    let mut uri = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(byte as char);
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded() {
        // The path itself is the fingerprint's (`portable_path`, tested there).
        let base = Path::new("/repo");
        assert_eq!(relative_uri("/repo/a b/c.rs", base), "a%20b/c.rs");
        assert_eq!(relative_uri("a,b:c%d#e.rs", base), "a%2Cb%3Ac%25d%23e.rs");
        assert_eq!(relative_uri("sërvér.rs", base), "s%C3%ABrv%C3%A9r.rs");
    }
}
