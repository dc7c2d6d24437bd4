//! `--diff`: a file's fixes as a unified diff (`--- a/PATH`, `+++ b/PATH`, three lines of
//! context), as `git apply` and `patch -p1` read it. An absolute path loses its leading `/`
//! after the prefix, as in git's own headers (`git diff --no-index /tmp/x` prints `a/tmp/x`),
//! and a relative one its `./`, which `git apply` turns down (`invalid path './x'`).

/// The unified diff from `old` to `new` of the file named `name`; empty when they are equal.
pub fn unified(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    // Relative to the root, an absolute path loses its `/`; forward slashes, no `./`.
    let name = crate::fingerprint::portable_path(name, std::path::Path::new("/"));
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_with_its_context() {
        let old = "a\nb\nc\n";
        let new = "a\nB\nc\n";
        assert_eq!(
            unified("src/x.rs", old, new),
            "--- a/src/x.rs\n+++ b/src/x.rs\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        );
        assert_eq!(unified("src/x.rs", old, old), "");
    }

    #[test]
    fn paths_are_prefixed_as_git_does() {
        let diff = unified("/tmp/x.rs", "a\n", "b\n");
        assert_eq!(
            diff,
            "--- a/tmp/x.rs\n+++ b/tmp/x.rs\n@@ -1 +1 @@\n-a\n+b\n"
        );
        let diff = unified("././src/x.rs", "a\n", "b\n");
        assert!(
            diff.starts_with("--- a/src/x.rs\n+++ b/src/x.rs\n"),
            "{diff}"
        );
    }
}
