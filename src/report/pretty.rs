//! A JSON array written an element at a time inside a pretty-printed document, byte for byte
//! as `serde_json::to_writer_pretty` writes the document whole: `json`, `sarif` and `gitlab`
//! write each finding as it comes. The document is printed with [`MARKER`] as the array's
//! one element, and the text around it is what goes before and after the elements.

use std::io::{self, Write};

use serde::Serialize;

/// Stands for the elements; no document holds it otherwise.
pub const MARKER: &str = "@@mcp-lint: the findings go here@@";

/// The array being written: its elements' indentation, and how many were written.
pub struct PrettyArray {
    indent: String,
    written: usize,
}

impl PrettyArray {
    /// Writes `document` up to the opening `[` of the array that holds [`MARKER`].
    pub fn open(document: &impl Serialize, out: &mut dyn Write) -> io::Result<Self> {
        let (text, at) = printed(document)?;
        let line = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let bracket = text[..line].rfind('[').unwrap_or(0);
        out.write_all(&text.as_bytes()[..=bracket])?;
        Ok(PrettyArray {
            indent: text[line..at].to_string(),
            written: 0,
        })
    }

    pub fn push(&mut self, element: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
        let text = serde_json::to_string_pretty(element)?;
        let separator = if self.written == 0 { "\n" } else { ",\n" };
        self.written += 1;
        write!(out, "{separator}{}", self.indent)?;
        let mut lines = text.split('\n');
        out.write_all(lines.next().unwrap_or_default().as_bytes())?;
        for line in lines {
            write!(out, "\n{}{line}", self.indent)?;
        }
        Ok(())
    }

    /// Writes the rest of `document` from the array's closing `]`, and a line break.
    pub fn close(self, document: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
        let (text, at) = printed(document)?;
        let after = at + MARKER.len() + 2;
        let bracket = after + text[after..].find(']').unwrap_or(0);
        if self.written > 0 {
            let outer = self.indent.get(2..).unwrap_or_default();
            write!(out, "\n{outer}")?;
        }
        out.write_all(&text.as_bytes()[bracket..])?;
        writeln!(out)
    }
}

/// The document pretty-printed, and where the quoted marker starts in it.
fn printed(document: &impl Serialize) -> io::Result<(String, usize)> {
    let text = serde_json::to_string_pretty(document)?;
    let at = text
        .find(&format!("\"{MARKER}\""))
        .ok_or_else(|| io::Error::other("the document holds no place for the findings"))?;
    Ok((text, at))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The document with `elements` in place of the marker, as streamed.
    fn streamed(elements: &[serde_json::Value]) -> String {
        let document = |array| json!({"a": 1, "runs": [{"results": array, "z": [2]}]});
        let mut out = Vec::new();
        let mut array = PrettyArray::open(&document(json!([MARKER])), &mut out).unwrap();
        for element in elements {
            array.push(element, &mut out).unwrap();
        }
        array.close(&document(json!([MARKER])), &mut out).unwrap();
        let whole = serde_json::to_string_pretty(&document(json!(elements))).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{whole}\n"));
        whole
    }

    #[test]
    fn writes_what_serde_json_writes_whole() {
        streamed(&[]);
        streamed(&[json!({"x": [1, {"y": "a\nb"}], "e": []})]);
        let many = streamed(&[json!(1), json!({"k": {}}), json!("]")]);
        assert!(many.contains("\"results\": [\n        1,\n"), "{many}");
    }
}
