//! Finds where a value sits in text that was not scanned whole (a HAR file, whose entries are
//! checked one by one, or the place of a message for a label), leniently: broken text gives
//! a wrong guess or none, never a panic or a stop. Lines are read by [`super::scan`], which
//! checks them. The walk is string-aware and iterative (no recursion per level).

use std::ops::Range;

/// The byte range of the value at `path` (object keys from the top) in `text`; the last of a
/// repeated key wins, as in JSON parsers.
pub fn value_span(text: &str, path: &[&str]) -> Option<Range<usize>> {
    let mut span = skip_ws(text.as_bytes(), 0)..skip_value(text.as_bytes(), 0)?;
    for key in path {
        let object = &text[span.clone()];
        let mut member = None;
        walk_members(object, |name, at| {
            let end = skip_value(object.as_bytes(), at)?;
            if name == *key {
                member = Some(at..end);
            }
            Some(end)
        })?;
        let member = member?;
        span = span.start + member.start..span.start + member.end;
    }
    Some(span)
}

/// Walks the members of the object `text` starts with: `visit` gets each member's name and
/// where its value starts, and answers where the value ends if it read it (`None` to have it
/// skipped). The end of the object; `None` when `text` does not start with an object.
///
/// Nothing is validated: `text` is JSON a parser has already checked, or any text whose
/// spans are wanted (a wrong guess then, never a panic).
fn walk_members(text: &str, mut visit: impl FnMut(&str, usize) -> Option<usize>) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(bytes, i + 1);
    while bytes.get(i) == Some(&b'"') {
        let key_end = skip_string(bytes, i)?;
        let value = skip_ws(bytes, skip_ws(bytes, key_end) + 1);
        if value >= bytes.len() {
            return None;
        }
        let key = &text[i + 1..key_end - 1];
        let name = match key.contains('\\') {
            true => serde_json::from_str(&text[i..key_end]).ok()?,
            false => std::borrow::Cow::Borrowed(key),
        };
        let end = match visit(&name, value) {
            Some(end) => end,
            None => skip_value(bytes, value)?,
        };
        i = skip_ws(bytes, end);
        if bytes.get(i) == Some(&b',') {
            i = skip_ws(bytes, i + 1);
        }
    }
    (bytes.get(i) == Some(&b'}')).then_some(i + 1)
}

/// Where `part`, a slice of `text`, is in it.
pub fn span_in(text: &str, part: &str) -> Option<Range<usize>> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let end = start + part.len();
    (end <= text.len()).then_some(start..end)
}

/// The byte ranges of the elements of the array at `path`, in one pass over it.
pub fn array_elements(text: &str, path: &[&str]) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    let start = match path {
        [] => skip_ws(bytes, 0),
        _ => value_span(text, path)?.start,
    };
    if bytes.get(start) != Some(&b'[') {
        return None;
    }
    let mut elements = Vec::new();
    let mut i = skip_ws(bytes, start + 1);
    while bytes.get(i).is_some_and(|b| *b != b']') {
        let end = skip_value(bytes, i).filter(|end| *end > i)?;
        elements.push(i..end);
        i = skip_ws(bytes, end);
        if bytes.get(i) == Some(&b',') {
            i = skip_ws(bytes, i + 1);
        }
    }
    Some(elements)
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string starting at `i`.
fn skip_string(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    // Most strings are keys and short values, quicker to walk than to search.
    let walked = (i + 24).min(bytes.len());
    while i < walked {
        match bytes[i] {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    loop {
        i += memchr::memchr2(b'"', b'\\', bytes.get(i..)?)?;
        if bytes[i] == b'"' {
            return Some(i + 1);
        }
        i += 2;
    }
}

/// The end (exclusive) of the value starting at `i`.
fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
    let i = skip_ws(bytes, i);
    match bytes.get(i)? {
        b'"' => skip_string(bytes, i),
        b'{' | b'[' => {
            let (mut depth, mut j) = (0usize, i);
            while let Some(&b) = bytes.get(j) {
                match b {
                    b'"' => {
                        j = skip_string(bytes, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let len = bytes[i..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace());
            Some(i + len.unwrap_or(bytes.len() - i))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::value_span;

    #[test]
    fn finds_nested_values_and_skips_strings_that_look_like_keys() {
        let line = r#"{"ts": "x", "dir": "s2c", "msg": {"id": 3, "note": "\"error\": {", "error": {"code": -32602, "message": "m"}}}"#;
        let span = value_span(line, &["msg", "error"]).unwrap();
        assert_eq!(&line[span], r#"{"code": -32602, "message": "m"}"#);
        let id = value_span(line, &["msg", "id"]).unwrap();
        assert_eq!(&line[id], "3");
        assert!(value_span(line, &["msg", "result"]).is_none());
        assert!(value_span("not json", &["msg"]).is_none());
        assert!(value_span(r#"{"msg": {"a": [1, {"b": "}"}]"#, &["msg", "zzz"]).is_none());
    }

    #[test]
    fn splits_arrays_in_one_pass() {
        let text = r#"{"log": {"entries": [ {"a": "],"}, [1, 2] , "x" ]}}"#;
        let parts: Vec<&str> = super::array_elements(text, &["log", "entries"])
            .unwrap()
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(parts, [r#"{"a": "],"}"#, "[1, 2]", r#""x""#]);
        assert!(super::array_elements("[]", &[]).unwrap().is_empty());
        // Broken text is no loop: an element that does not advance ends the walk.
        assert!(
            super::array_elements(r#"{"log": {"entries": [}]}}"#, &["log", "entries"]).is_none()
        );
        assert_eq!(super::array_elements("[1, ", &[]).unwrap(), vec![1..2]);
    }
}
