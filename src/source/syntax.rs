//! What rustc would say of a file the parser rejects at the token level, and the guard against
//! files nested too deep for the parser's stack: one scan over the text, outside comments and
//! literals.

use std::ops::Range;

/// Deeper nesting than this is reported instead of parsed (syn recurses per level).
pub const MAX_NESTING: usize = 1000;

/// A problem with a file's delimiters, comments or literals: where, and rustc's words for it.
#[derive(Debug, PartialEq, Eq)]
pub struct Problem {
    pub at: Range<usize>,
    pub message: String,
    /// Brackets nest deeper than [`MAX_NESTING`]: valid Rust perhaps, but not parsed.
    pub too_deep: bool,
}

/// Where brackets first nest deeper than [`MAX_NESTING`]: syn and the walkers recurse once per
/// level, so beyond it a file is not real code (generated or hostile) and parsing it could
/// overflow the stack.
pub fn too_deep(text: &str) -> Option<Problem> {
    problem(text).filter(|p| p.too_deep)
}

/// The first token-level problem of `text`: brackets nested deeper than [`MAX_NESTING`], a
/// closing delimiter that closes nothing or the wrong thing, an unclosed delimiter, string
/// or block comment.
pub fn problem(text: &str) -> Option<Problem> {
    let bytes = text.as_bytes();
    let problem = |at: usize, message: String| {
        Some(Problem {
            at: at..(at + 1).min(bytes.len()),
            message,
            too_deep: false,
        })
    };
    let mut open: Vec<usize> = Vec::new();
    let mut i = 0;
    loop {
        // Most bytes are none of these: skip them without the match.
        while i < bytes.len() && !STOPS[bytes[i] as usize] {
            i += 1;
        }
        let Some(&b) = bytes.get(i) else { break };
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += memchr::memchr(b'\n', &bytes[i..]).unwrap_or(bytes.len() - i);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => match block_comment_end(bytes, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => return problem(i, "unterminated block comment".to_string()),
            },
            b'"' => match raw_string_prefix(bytes, i) {
                Some((r, hashes)) => {
                    let close = format!("\"{}", "#".repeat(hashes));
                    match memchr::memmem::find(&bytes[i + 1..], close.as_bytes()) {
                        Some(end) => {
                            i += 1 + end + close.len();
                            continue;
                        }
                        None => return problem(r, "unterminated raw string".to_string()),
                    }
                }
                None => match string_end(bytes, i + 1) {
                    Some(end) => {
                        i = end;
                        continue;
                    }
                    None => return problem(i, "unterminated double quote string".to_string()),
                },
            },
            b'\'' => {
                i = char_literal_end(text, i).unwrap_or(i + 1);
                continue;
            }
            b'(' | b'[' | b'{' => {
                open.push(i);
                if open.len() > MAX_NESTING {
                    let message = format!("brackets nest more than {MAX_NESTING} deep here");
                    return problem(i, message).map(|p| Problem {
                        too_deep: true,
                        ..p
                    });
                }
            }
            b')' | b']' | b'}' => match open.pop() {
                None => {
                    return problem(i, format!("unexpected closing delimiter: `{}`", b as char));
                }
                Some(o) if closer(bytes[o]) != b => {
                    return problem(
                        i,
                        format!(
                            "mismatched closing delimiter: `{}` (the `{}` on line {} is unclosed)",
                            b as char,
                            bytes[o] as char,
                            memchr::memchr_iter(b'\n', &bytes[..o]).count() + 1
                        ),
                    );
                }
                Some(_) => {}
            },
            _ => {}
        }
        i += 1;
    }
    let o = open.pop()?;
    problem(o, format!("unclosed delimiter: `{}`", bytes[o] as char))
}

/// The bytes [`problem`] stops at: comments, literals and delimiters start with one of these
/// (a raw string's `r#` is seen from its `"`).
static STOPS: [bool; 256] = {
    let mut stops = [false; 256];
    let mut i = 0;
    while i < 9 {
        stops[b"/\"'([{)]}"[i] as usize] = true;
        i += 1;
    }
    stops
};

fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// Whether the byte at `i` continues an identifier (`for` in `bar"..."` is not a raw prefix).
fn continues_ident(bytes: &[u8], i: usize) -> bool {
    i > 0
        && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')
        && !(bytes[i - 1] == b'b' && (i < 2 || !bytes[i - 2].is_ascii_alphanumeric()))
}

/// Before the `"` at `i`: the `r` and `#`s of a raw string (`r#"`, `br"`), where the `r` is and
/// how many `#`s.
fn raw_string_prefix(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    let hashes = bytes[..i].iter().rev().take_while(|&&b| b == b'#').count();
    let r = i.checked_sub(hashes + 1)?;
    (bytes[r] == b'r' && !continues_ident(bytes, r)).then_some((r, hashes))
}

/// Past the `"` that ends a string whose body starts at `i`.
pub(super) fn string_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    while let Some(at) = bytes
        .get(i..)
        .and_then(|rest| memchr::memchr2(b'\\', b'"', rest))
    {
        match bytes[i + at] {
            b'"' => return Some(i + at + 1),
            _ => i += at + 2,
        }
    }
    None
}

/// Past the `*/` that ends the (nested) block comment opened at `i`.
fn block_comment_end(bytes: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Past a char literal opened at `i` (`'a'`, `'\n'`, `'\u{1F600}'`); none for a lifetime or
/// label (`'a`, `'static`).
fn char_literal_end(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i + 1..];
    if let Some(escaped) = rest.strip_prefix('\\') {
        let close = escaped.get(1..)?.find('\'')?;
        return Some(i + 3 + close + 1);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..]
        .starts_with('\'')
        .then(|| i + 1 + c.len_utf8() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> Option<(usize, String)> {
        problem(text).map(|p| (p.at.start, p.message))
    }

    #[test]
    fn balanced_code_has_no_problem() {
        let code = r##"
            fn f<'a>(x: &'a str) -> char { let _ = ('(', '\'', '\u{7B}', b'[', "}\"", r#"{"#);
                /* { /* nested ( */ */ // ]
                'outer: loop { break 'outer; } br"(" ; '}' }
        "##;
        assert_eq!(message(code), None);
    }

    #[test]
    fn delimiters_are_described_as_rustc_does() {
        assert_eq!(
            message("fn main( {\n"),
            Some((9, "unclosed delimiter: `{`".to_string()))
        );
        assert_eq!(
            message("fn f() {}\n}"),
            Some((10, "unexpected closing delimiter: `}`".to_string()))
        );
        assert_eq!(
            message("fn f() { (] }"),
            Some((
                10,
                "mismatched closing delimiter: `]` (the `(` on line 1 is unclosed)".to_string()
            ))
        );
        assert_eq!(
            message("fn f() { \"x }"),
            Some((9, "unterminated double quote string".to_string()))
        );
        assert_eq!(
            message("let s = r#\"x\" }\";"),
            Some((8, "unterminated raw string".to_string()))
        );
        assert_eq!(
            message("/* x"),
            Some((0, "unterminated block comment".to_string()))
        );
    }

    #[test]
    fn deep_nesting_is_a_problem() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert_eq!(problem(&deep).map(|p| p.at.start), Some(MAX_NESTING));
    }
}
