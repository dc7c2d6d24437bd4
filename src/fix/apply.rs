//! Choosing the fixes of a file that can be applied together, and applying them.

use std::collections::HashMap;

use crate::finding::{Applicability, Finding, Fix};

/// The fixes to apply to one file in a round: those `unsafe_fixes` allows, in order of
/// position, each kept only if it overlaps none kept before it (the rest wait for the next
/// round, when they are computed again on the new text). `rejected` are fixes that failed
/// verification before, by [`identity`].
pub fn select<'f>(
    findings: &'f [Finding],
    unsafe_fixes: bool,
    rejected: &[String],
) -> Vec<&'f Finding> {
    let mut fixable: Vec<&Finding> = findings
        .iter()
        .filter(|f| {
            f.fix.as_ref().is_some_and(|fix| {
                (unsafe_fixes || fix.applicability == Applicability::Safe)
                    && !rejected.contains(&identity(f))
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

/// What identifies a finding across rounds, whose spans move as the text is edited: its rule
/// and message, with the lines the message names left out (`via helper (src/a.rs:12)`).
pub fn identity(finding: &Finding) -> String {
    let mut out = String::from(finding.rule.code);
    out.push(' ');
    let mut rest = finding.message.as_str();
    while let Some(at) = rest.find(".rs:") {
        out.push_str(&rest[..at + 4]);
        rest = rest[at + 4..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// How many findings of each identity a set of reports holds.
pub fn census<'f>(findings: impl IntoIterator<Item = &'f Finding>) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for finding in findings {
        *counts.entry(identity(finding)).or_default() += 1;
    }
    counts
}

/// Whether the findings `after` the fixes are those of `before` less at least `fixed`: the
/// fixed findings are gone, and nothing new appeared.
pub fn only_removed(
    before: &HashMap<String, usize>,
    after: &HashMap<String, usize>,
    fixed: &HashMap<String, usize>,
) -> bool {
    after.iter().all(|(id, n)| {
        let allowed = before.get(id).copied().unwrap_or(0);
        *n + fixed.get(id).copied().unwrap_or(0) <= allowed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Edit;
    use crate::rules::mcp002;

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
        let chosen = select(&findings, false, &[]);
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
        let findings = [finding];
        assert!(select(&findings, false, &[]).is_empty());
        assert_eq!(select(&findings, true, &[]).len(), 1);
    }

    #[test]
    fn identity_ignores_line_numbers() {
        let mut finding = fixed_at(0, 1, "");
        finding.message = "built via `h` (src/a.rs:12) and (b.rs:3)".into();
        assert_eq!(
            identity(&finding),
            "MCP002 built via `h` (src/a.rs:) and (b.rs:)"
        );
    }

    #[test]
    fn a_new_finding_or_a_kept_one_fails_verification() {
        let counts = |pairs: &[(&str, usize)]| -> HashMap<String, usize> {
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
