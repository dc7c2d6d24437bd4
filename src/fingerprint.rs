//! Fingerprints: what names a finding across edits that do not touch it, so that a baseline,
//! SARIF's `partialFingerprints` and GitLab's `fingerprint` follow it when lines move.
//!
//! The key is the rule, the file, the offending text with whitespace runs collapsed (or the
//! finding's [`identity`](crate::finding::Finding::identity) where the text is a poor key),
//! and how many findings of the same rule and text came before it in the file. Its hash is
//! FNV-1a, 128 bits: written down here, so it cannot change with the Rust release, as std's
//! `DefaultHasher` may.

use std::collections::HashMap;
use std::path::Path;

use crate::finding::FileReport;

/// Sets the fingerprint of every finding; paths are taken relative to `base`.
pub fn assign(files: &mut [FileReport], base: &Path) {
    for file in files {
        Fingerprints::new(&file.source.name, base).assign(file);
    }
}

/// The fingerprints of one file's findings, set as they come, in order: a streamed audit
/// hands them over a batch at a time.
pub struct Fingerprints {
    path: String,
    /// How many findings came before of each rule and text (the text by its hash, so that
    /// memory does not hold every text of a long transcript).
    seen: HashMap<(&'static str, u128), usize>,
}

impl Fingerprints {
    pub fn new(name: &str, base: &Path) -> Self {
        Fingerprints {
            path: portable_path(name, base),
            seen: HashMap::new(),
        }
    }

    /// Sets the fingerprints of the next findings of the file.
    pub fn assign(&mut self, file: &mut FileReport) {
        for finding in &mut file.findings {
            let text = normalized(
                finding
                    .identity
                    .as_deref()
                    .unwrap_or_else(|| file.source.snippet(&finding.span)),
            );
            let code = finding.rule.code;
            let count = self
                .seen
                .entry((code, fnv1a_128(text.bytes())))
                .or_default();
            let repeat = *count;
            *count += 1;
            finding.fingerprint = hash(&[code, &self.path, &text, &repeat.to_string()]);
        }
    }
}

/// A file's name as the same file is named from any run in `base`: relative to it, with
/// forward slashes and no leading `./` (`mcp-lint .` and `mcp-lint src` agree on `src/x.rs`).
pub fn portable_path(name: &str, base: &Path) -> String {
    let path = Path::new(name);
    let relative = path.strip_prefix(base).unwrap_or(path);
    let text = relative.to_string_lossy().replace('\\', "/");
    let mut text = text.as_str();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text.to_string()
}

/// `text` with every run of whitespace one space, and none at the ends: reformatting a line
/// or re-indenting a block keeps a finding.
fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The fields, each preceded by its length so that no two lists of fields run together into
/// the same bytes, hashed; 32 hex digits.
fn hash(fields: &[&str]) -> String {
    let bytes = fields.iter().flat_map(|field| {
        let length = (field.len() as u64).to_le_bytes();
        length.into_iter().chain(field.bytes())
    });
    format!("{:032x}", fnv1a_128(bytes))
}

/// FNV-1a, 128 bits (draft-eastlake-fnv).
fn fnv1a_128(bytes: impl IntoIterator<Item = u8>) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    bytes.into_iter().fold(OFFSET, |hash, byte| {
        (hash ^ u128::from(byte)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::finding::Finding;
    use crate::rules;
    use crate::text::SourceText;

    #[test]
    fn fnv_1a_128_has_its_published_values() {
        assert_eq!(
            fnv1a_128(*b"a"),
            0xd228cb696f1a8caf78912b704e4a8964,
            "draft-eastlake-fnv's test vector"
        );
        assert_eq!(fnv1a_128(*b"foobar"), 0x343e1662793c64bf6f0d3597ba446f18);
        assert_eq!(hash(&["ab", "c"]).len(), 32);
        assert_ne!(
            hash(&["ab", "c"]),
            hash(&["a", "bc"]),
            "lengths keep fields apart"
        );
    }

    #[test]
    fn paths_are_relative_with_forward_slashes() {
        let base = Path::new("/repo");
        assert_eq!(portable_path("./src/main.rs", base), "src/main.rs");
        assert_eq!(portable_path("/repo/src/main.rs", base), "src/main.rs");
        assert_eq!(portable_path("src\\main.rs", base), "src/main.rs");
        assert_eq!(portable_path("/elsewhere/x.rs", base), "/elsewhere/x.rs");
        assert_eq!(portable_path("-", base), "-");
    }

    fn fingerprints(text: &str, needle: &str) -> Vec<String> {
        let source = Arc::new(SourceText::new("src/x.rs", text.to_string()));
        let findings = text
            .match_indices(needle)
            .map(|(at, _)| {
                let span = at..at + needle.len();
                Finding::new(&rules::mcp104::META, span, String::new(), "")
            })
            .collect();
        let mut files = [FileReport::new(source, findings)];
        assign(&mut files, Path::new("/repo"));
        files[0]
            .findings
            .iter()
            .map(|f| f.fingerprint.clone())
            .collect()
    }

    #[test]
    fn lines_above_do_not_change_a_fingerprint_and_repeats_are_counted() {
        let before = fingerprints("fn f() {\n    Err(e)\n}\nErr(e)\n", "Err(e)");
        let after = fingerprints(
            "\n\nfn g() {}\nfn f() {\n        Err(e)\n}\nErr(e)\n",
            "Err(e)",
        );
        assert_eq!(before, after);
        assert_eq!(before.len(), 2);
        assert_ne!(before[0], before[1], "the second is the first repeat");
        assert_ne!(before, fingerprints("Err(x)\nErr(x)\n", "Err(x)"));
    }

    #[test]
    fn whitespace_runs_are_one_space() {
        assert_eq!(normalized(" a\n\t  b  c "), "a b c");
    }
}
