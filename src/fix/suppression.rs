//! MCP002's fix: a suppression that silenced nothing is deleted, or only the rule that
//! silenced nothing is taken out of its list. Safe: no finding comes back that was hidden.

use std::ops::Range;

use crate::finding::{Applicability, Edit, Fix};

/// The fix for the unused `rule` (as named in the list, by code or name) of the comment at
/// `comment` in `text`: the list without it, or, when `all_unused`, no comment at all (with
/// its line, when it has one of its own).
pub fn unused(text: &str, comment: &Range<usize>, names: &[&str], all_unused: bool) -> Option<Fix> {
    let edit = match all_unused {
        true => delete_comment(text, comment),
        false => {
            let body = text.get(comment.clone())?;
            let open = body.find('(')? + 1;
            let close = open + body[open..].find(')')?;
            let kept: Vec<&str> = body[open..close]
                .split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty() && !names.contains(n))
                .collect();
            Edit {
                range: comment.start + open..comment.start + close,
                text: kept.join(", "),
            }
        }
    };
    Some(Fix {
        applicability: Applicability::Safe,
        edits: vec![edit],
    })
}

/// Deletes a line comment: the whole line when nothing else is on it, else the comment and
/// the blanks before it.
fn delete_comment(text: &str, comment: &Range<usize>) -> Edit {
    let line_start = text[..comment.start].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..comment.start];
    let range = match before.trim().is_empty() {
        true => {
            let end = text[comment.end..]
                .find('\n')
                .map_or(text.len(), |n| comment.end + n + 1);
            line_start..end
        }
        false => line_start + before.trim_end().len()..comment.end,
    };
    Edit {
        range,
        text: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::apply::apply;

    fn fixed(text: &str, names: &[&str], all: bool) -> String {
        let start = text.find("//").unwrap();
        let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
        let fix = unused(text, &(start..end), names, all).unwrap();
        apply(text, &[&fix])
    }

    #[test]
    fn a_comment_on_its_own_line_goes_with_its_line() {
        let text = "fn a() {}\n    // mcp-lint: allow(MCP101) old\nfn b() {}\n";
        assert_eq!(fixed(text, &["MCP101"], true), "fn a() {}\nfn b() {}\n");
    }

    #[test]
    fn a_trailing_comment_goes_with_the_blanks_before_it() {
        let text = "let x = 1; // mcp-lint: allow(MCP101)\nlet y = 2;\n";
        assert_eq!(fixed(text, &["MCP101"], true), "let x = 1;\nlet y = 2;\n");
    }

    #[test]
    fn only_the_unused_rule_leaves_a_list() {
        let text = "// mcp-lint: allow(MCP101, vague-tool-error) why\n";
        assert_eq!(
            fixed(text, &["MCP101"], false),
            "// mcp-lint: allow(vague-tool-error) why\n"
        );
    }
}
