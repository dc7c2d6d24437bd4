//! Choosing the fixes of a file that can be applied together, and applying them.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::finding::{Applicability, FileReport, Finding, Fix};
use crate::text::SourceText;

/// The fixes to apply to one file in a round: those `unsafe_fixes` allows, in order of
/// position, each kept only if it overlaps none kept before it (the rest wait for the next
/// round, when they are computed again on the new text). `rejected` are fixes that failed
/// verification before, by [`identity`]; `baselined` findings are not reported, so they are
/// not fixed either.
pub fn select<'f>(
    file: &'f FileReport,
    unsafe_fixes: bool,
    rejected: &[String],
    baselined: impl Fn(&Finding) -> bool,
) -> Vec<&'f Finding> {
    let mut fixable: Vec<&Finding> = file
        .findings
        .iter()
        .filter(|f| {
            f.fix.as_ref().is_some_and(|fix| {
                (unsafe_fixes || fix.applicability == Applicability::Safe)
                    && !baselined(f)
                    && !rejected.contains(&identity(f, &file.source))
            })
        })
        .collect();
    fixable.sort_by_key(|f| f.fix.as_ref().map(Fix::extent).map(|r| (r.start, r.end)));
    let mut chosen: Vec<&Finding> = Vec::new();
    let mut end = 0;
    for finding in fixable {
        let Some(extent) = finding.fix.as_ref().map(Fix::extent) else {
            continue;
        };
        // Touching is overlapping too: two insertions at one place have no order.
        if chosen.is_empty() || extent.start > end {
            end = extent.end;
            chosen.push(finding);
        }
    }
    chosen
}

/// `text` with the edits of `fixes` applied (they do not overlap: see [`select`]).
pub fn apply(text: &str, fixes: &[&Fix]) -> String {
    let mut edits: Vec<_> = fixes.iter().flat_map(|f| &f.edits).collect();
    edits.sort_by_key(|e| e.range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..edit.range.start]);
        out.push_str(&edit.text);
        at = edit.range.end;
    }
    out.push_str(&text[at..]);
    out
}

/// What identifies a finding of `source` across rounds, whose spans move as the text is
/// edited: its file, rule, message (with the lines it names left out: `via helper
/// (src/a.rs:12)`) and the text it points at.
pub fn identity(finding: &Finding, source: &SourceText) -> String {
    let mut out = format!("{} {} ", source.name, finding.rule.code);
    let mut rest = finding.message.as_str();
    while let Some(at) = rest.find(".rs:") {
        out.push_str(&rest[..at + 4]);
        rest = rest[at + 4..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out.push_str(" at ");
    out.push_str(source.snippet(&finding.span));
    out
}

/// How many findings there are of each identity.
pub type Counts = HashMap<String, usize>;

/// How many findings of each identity a file's report holds.
pub fn census(file: &FileReport) -> Counts {
    let mut counts = HashMap::new();
    for finding in &file.findings {
        *counts.entry(identity(finding, &file.source)).or_default() += 1;
    }
    counts
}

/// Whether the findings `after` the fixes are those of `before` less at least `fixed`: the
/// fixed findings are gone, and nothing new appeared.
pub fn only_removed(before: &Counts, after: &Counts, fixed: &Counts) -> bool {
    after.iter().all(|(id, n)| {
        let allowed = before.get(id).copied().unwrap_or(0);
        *n + fixed.get(id).copied().unwrap_or(0) <= allowed
    })
}

/// The files of `fixed` (by name, with the findings fixed in each) whose fixes do not hold,
/// from the reports `before` and `after` them: a fixed finding is still there, or something
/// new is in the file. Something new in a file no fix touched (through a helper) cannot be
/// laid at one file's door: then every fixed file fails.
pub fn failing(
    before: &[FileReport],
    after: &[FileReport],
    fixed: &BTreeMap<String, Counts>,
) -> Vec<String> {
    let by_file = |reports: &[FileReport]| -> HashMap<String, Counts> {
        let counts = reports.iter().map(|r| (r.source.name.clone(), census(r)));
        counts.collect()
    };
    let (before, after) = (by_file(before), by_file(after));
    let none = Counts::new();
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let mut failing = Vec::new();
    for name in names {
        let get = |counts: &HashMap<String, Counts>| counts.get(name).unwrap_or(&none).clone();
        let holds = only_removed(
            &get(&before),
            &get(&after),
            fixed.get(name).unwrap_or(&none),
        );
        match (holds, fixed.contains_key(name)) {
            (true, _) => {}
            (false, true) => failing.push(name.clone()),
            (false, false) => return fixed.keys().cloned().collect(),
        }
    }
    failing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Edit;
    use crate::rules::mcp002;
    use std::sync::Arc;

    fn report(name: &str, text: &str, findings: Vec<Finding>) -> FileReport {
        FileReport::new(Arc::new(SourceText::new(name, text.into())), findings)
    }

    fn fixed_at(start: usize, end: usize, text: &str) -> Finding {
        let mut finding = Finding::new(&mcp002::META, start..end, "m".into(), "l");
        finding.fix = Some(Fix {
            applicability: Applicability::Safe,
            edits: vec![Edit {
                range: start..end,
                text: text.into(),
            }],
        });
        finding
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let findings = [
            fixed_at(4, 8, "x"),
            fixed_at(0, 2, "y"),
            fixed_at(6, 9, "z"),
        ];
        let file = report("a.rs", "0123456789", findings.into());
        let chosen = select(&file, false, &[], |_| false);
        let starts: Vec<usize> = chosen.iter().map(|f| f.span.start).collect();
        assert_eq!(starts, [0, 4]);
        let fixes: Vec<&Fix> = chosen.iter().filter_map(|f| f.fix.as_ref()).collect();
        assert_eq!(apply("0123456789", &fixes), "y23x89");
    }

    #[test]
    fn unsafe_fixes_need_the_flag() {
        let mut finding = fixed_at(0, 1, "");
        if let Some(fix) = &mut finding.fix {
            fix.applicability = Applicability::Unsafe;
        }
        let file = report("a.rs", "0123456789", vec![finding]);
        assert!(select(&file, false, &[], |_| false).is_empty());
        assert_eq!(select(&file, true, &[], |_| false).len(), 1);
        let rejected = [identity(&file.findings[0], &file.source)];
        assert!(select(&file, true, &rejected, |_| false).is_empty());
        assert!(select(&file, true, &[], |_| true).is_empty(), "baselined");
    }

    #[test]
    fn identity_ignores_line_numbers() {
        let mut finding = fixed_at(0, 2, "");
        finding.message = "built via `h` (src/a.rs:12) and (b.rs:3)".into();
        let source = SourceText::new("x.rs", "Err(e)".into());
        assert_eq!(
            identity(&finding, &source),
            "x.rs MCP002 built via `h` (src/a.rs:) and (b.rs:) at Er"
        );
    }

    #[test]
    fn only_the_file_at_fault_fails_unless_another_file_changed() {
        let report = |name: &str, findings: &[(usize, &str)]| {
            let findings = findings.iter().map(|&(at, message)| {
                let mut finding = fixed_at(at, at, "");
                finding.message = message.into();
                finding
            });
            report(name, "", findings.collect())
        };
        let before = [
            report("a.rs", &[(0, "x")]),
            report("b.rs", &[(0, "y")]),
            report("c.rs", &[]),
        ];
        let fixed: BTreeMap<String, Counts> =
            [("a.rs", "a.rs MCP002 x at "), ("b.rs", "b.rs MCP002 y at ")]
                .iter()
                .map(|(file, id)| (file.to_string(), [(id.to_string(), 1)].into()))
                .collect();
        // b.rs's finding is still there: b.rs fails, a.rs holds.
        let after = [
            report("a.rs", &[]),
            report("b.rs", &[(0, "y")]),
            report("c.rs", &[]),
        ];
        assert_eq!(failing(&before, &after, &fixed), ["b.rs"]);
        // Something new in c.rs, which no fix touched: both fail.
        let after = [
            report("a.rs", &[]),
            report("b.rs", &[]),
            report("c.rs", &[(0, "z")]),
        ];
        assert_eq!(failing(&before, &after, &fixed), ["a.rs", "b.rs"]);
        let after = [
            report("a.rs", &[]),
            report("b.rs", &[]),
            report("c.rs", &[]),
        ];
        assert!(failing(&before, &after, &fixed).is_empty());
    }

    #[test]
    fn a_new_finding_or_a_kept_one_fails_verification() {
        let counts = |pairs: &[(&str, usize)]| -> Counts {
            pairs.iter().map(|(k, n)| (k.to_string(), *n)).collect()
        };
        let before = counts(&[("a", 2), ("b", 1)]);
        let fixed = counts(&[("a", 1)]);
        assert!(only_removed(
            &before,
            &counts(&[("a", 1), ("b", 1)]),
            &fixed
        ));
        assert!(!only_removed(
            &before,
            &counts(&[("a", 2), ("b", 1)]),
            &fixed
        ));
        assert!(!only_removed(
            &before,
            &counts(&[("a", 1), ("c", 1)]),
            &fixed
        ));
    }
}
