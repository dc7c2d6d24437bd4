//! `--diff`: a file's fixes as a unified diff (`--- a/PATH`, `+++ b/PATH`, three lines of
//! context), as `git apply` and `patch -p1` read it.

/// The unified diff from `old` to `new` of the file named `name`; empty when they are equal.
pub fn unified(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let name = name.replace('\\', "/");
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
}
