//! Finds where a value sits in the raw text of one JSON line, for labels: serde_json gives
//! values, not positions. The scan is string-aware and iterative (no recursion per level).

use std::ops::Range;

/// The byte range of the value at `path` (object keys from the top) in `text`.
pub fn value_span(text: &str, path: &[&str]) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut start = skip_ws(bytes, 0);
    for key in path {
        start = member_value(bytes, start, key)?;
    }
    Some(start..skip_value(bytes, start)?)
}

/// The byte ranges of the elements of the array at `path`, in one pass over it.
pub fn array_elements(text: &str, path: &[&str]) -> Option<Vec<Range<usize>>> {
    let bytes = text.as_bytes();
    let array = value_span(text, path)?;
    if bytes.get(array.start) != Some(&b'[') {
        return None;
    }
    let mut elements = Vec::new();
    let mut i = skip_ws(bytes, array.start + 1);
    while i < array.end && bytes[i] != b']' {
        let end = skip_value(bytes, i)?;
        elements.push(i..end);
        i = skip_ws(bytes, end);
        if bytes.get(i) == Some(&b',') {
            i = skip_ws(bytes, i + 1);
        }
    }
    Some(elements)
}

/// The start of the value of `key` in the object starting at `at`.
fn member_value(bytes: &[u8], at: usize, key: &str) -> Option<usize> {
    if bytes.get(at) != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(bytes, at + 1);
    while bytes.get(i) == Some(&b'"') {
        let key_end = skip_string(bytes, i)?;
        let name = &bytes[i + 1..key_end - 1];
        i = skip_ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        let value = skip_ws(bytes, i + 1);
        if name == key.as_bytes() {
            return Some(value);
        }
        i = skip_ws(bytes, skip_value(bytes, value)?);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            _ => return None,
        }
    }
    None
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string starting at `i`.
fn skip_string(bytes: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end (exclusive) of the value starting at `i`.
fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
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
    }
}
