//! The text of an input file for rendering and positions: byte offsets <-> 1-based (line,
//! column in chars).
//!
//! A Rust file is held whole. A transcript can be gigabytes, so it keeps only the lines its
//! findings point at ([`SourceText::from_lines`]), each at its true offset and line number.

use std::ops::Range;

#[derive(Debug)]
pub struct SourceText {
    pub name: String,
    chunks: Vec<Chunk>,
}

/// Consecutive lines of the file, starting at byte `offset` on line `first_line`.
#[derive(Debug)]
struct Chunk {
    offset: usize,
    first_line: usize,
    text: String,
    line_starts: Vec<usize>,
}

/// A 1-based position; `column` counts Unicode scalar values, as SPEC.md requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Chunk {
    fn new(offset: usize, first_line: usize, text: String) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Chunk {
            offset,
            first_line,
            text,
            line_starts,
        }
    }

    fn end(&self) -> usize {
        self.offset + self.text.len()
    }
}

impl SourceText {
    /// A whole file.
    pub fn new(name: impl Into<String>, text: String) -> Self {
        SourceText {
            name: name.into(),
            chunks: vec![Chunk::new(0, 1, text)],
        }
    }

    /// Some lines of a file: `(byte offset, line number, text)`, in file order.
    pub fn from_lines(name: impl Into<String>, lines: Vec<(usize, usize, String)>) -> Self {
        let chunks = lines
            .into_iter()
            .map(|(offset, line, text)| Chunk::new(offset, line, text))
            .collect();
        SourceText {
            name: name.into(),
            chunks,
        }
    }

    /// The whole text, for a file held whole.
    pub fn text(&self) -> &str {
        self.chunks.first().map_or("", |c| c.text.as_str())
    }

    /// The text of a span, where the lines it covers are held (empty elsewhere).
    pub fn snippet(&self, span: &Range<usize>) -> &str {
        self.chunk(span.start)
            .and_then(|c| {
                c.text
                    .get(span.start - c.offset..span.end.checked_sub(c.offset)?)
            })
            .unwrap_or_default()
    }

    /// The chunk holding `offset` (or the last one before it).
    fn chunk(&self, offset: usize) -> Option<&Chunk> {
        let i = self.chunks.partition_point(|c| c.offset <= offset);
        self.chunks.get(i.checked_sub(1)?)
    }

    /// Byte offset of a 1-based line and a 0-based char column (proc-macro2's `LineColumn`).
    pub fn offset_of(&self, line: usize, char_column: usize) -> usize {
        let text = self.text();
        let Some(&start) = self
            .chunks
            .first()
            .and_then(|c| c.line_starts.get(line.saturating_sub(1)))
        else {
            return text.len();
        };
        text[start..]
            .char_indices()
            .nth(char_column)
            .map_or(text.len(), |(i, _)| start + i)
    }

    /// The 1-based position of a byte offset (clamped to the text it falls in).
    pub fn position(&self, offset: usize) -> Position {
        let Some(chunk) = self.chunk(offset) else {
            return Position { line: 1, column: 1 };
        };
        let mut local = (offset - chunk.offset).min(chunk.text.len());
        while !chunk.text.is_char_boundary(local) {
            local -= 1;
        }
        let line_index = chunk.line_starts.partition_point(|&s| s <= local) - 1;
        let start = chunk.line_starts[line_index];
        Position {
            line: chunk.first_line + line_index,
            column: chunk.text[start..local].chars().count() + 1,
        }
    }

    /// The length in bytes of the line holding `offset`.
    pub fn line_len(&self, offset: usize) -> usize {
        self.line(offset).1.len()
    }

    /// The line holding `offset`, without its line break, and the byte offset it starts at.
    pub fn line(&self, offset: usize) -> (usize, &str) {
        let Some(chunk) = self.chunk(offset) else {
            return (0, "");
        };
        let local = (offset - chunk.offset).min(chunk.text.len());
        let index = chunk.line_starts.partition_point(|&s| s <= local) - 1;
        let start = chunk.line_starts[index];
        let end = chunk
            .line_starts
            .get(index + 1)
            .map_or(chunk.text.len(), |next| next - 1);
        (chunk.offset + start, &chunk.text[start..end])
    }

    /// Start and end positions of a span; the end is the column after the last char.
    pub fn range_positions(&self, span: &Range<usize>) -> (Position, Position) {
        (self.position(span.start), self.position(span.end))
    }
}

impl miette::SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let chunk = self
            .chunk(span.offset())
            .filter(|c| span.offset() + span.len() <= c.end());
        let chunk = chunk.ok_or(miette::MietteError::OutOfBounds)?;
        let local = miette::SourceSpan::new((span.offset() - chunk.offset).into(), span.len());
        let inner = chunk
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        let absolute = miette::SourceSpan::new(
            (inner.span().offset() + chunk.offset).into(),
            inner.span().len(),
        );
        // miette counts the column in bytes; SPEC columns, and the header shown, are characters.
        let column = self.position(absolute.offset()).column - 1;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            absolute,
            inner.line() + chunk.first_line - 1,
            column,
            inner.line_count(),
        )))
    }
}

/// The first line of `text`, cut to `max` characters, with `…` where anything was left out.
pub fn shorten(text: &str, max: usize) -> String {
    let first_line = text.lines().next().unwrap_or_default();
    if first_line.chars().count() <= max && first_line.len() == text.len() {
        return text.to_string();
    }
    let cut: String = first_line.chars().take(max).collect();
    format!("{cut}…")
}

/// The candidate nearest to a misspelling, if any is near enough.
pub fn closest<'c>(wanted: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    let wanted = wanted.to_lowercase();
    let candidates: Vec<&str> = candidates.collect();
    // The first words of a name (`unknown-tool` for `unknown-tool-protocol-error`).
    let mut words = candidates
        .iter()
        .filter(|c| c.to_lowercase().starts_with(&format!("{wanted}-")));
    if let (Some(only), None) = (words.next(), words.next()) {
        return Some(only);
    }
    candidates
        .into_iter()
        .map(|c| (edit_distance(&wanted, &c.to_lowercase()), c))
        // One edit in four characters: `MCP10` finds `MCP101`, `MCP999` finds nothing.
        .filter(|(d, c)| d * 4 <= c.len().max(4))
        .min()
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_chars_not_bytes() {
        let t = SourceText::new("x", "let s = \"héllo\"; Err(e)\nnext".to_string());
        let err = t.text().find("Err").unwrap();
        assert_eq!(
            t.position(err),
            Position {
                line: 1,
                column: 18
            }
        );
        assert_eq!(t.offset_of(1, 17), err);
        let next = t.text().find("next").unwrap();
        assert_eq!(t.position(next), Position { line: 2, column: 1 });
        assert_eq!(t.offset_of(2, 0), next);
    }

    #[test]
    fn some_lines_keep_their_offsets_and_numbers() {
        let t = SourceText::from_lines(
            "t.jsonl",
            vec![
                (100, 7, "{\"a\": 1}".into()),
                (900, 40, "{\"é\": 2}".into()),
            ],
        );
        assert_eq!(t.position(106), Position { line: 7, column: 7 });
        assert_eq!(
            t.position(907),
            Position {
                line: 40,
                column: 7
            }
        );
        assert_eq!(
            t.position(903),
            Position {
                line: 40,
                column: 3
            },
            "inside é: clamped to its start"
        );
        assert_eq!(t.snippet(&(101..104)), "\"a\"");
        assert_eq!(t.snippet(&(905..908)), ": 2");
        assert_eq!(t.snippet(&(300..302)), "", "a line not held");
    }
}
