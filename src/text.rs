//! A file's text with a line index: byte offsets <-> 1-based (line, column in chars).

use std::ops::Range;

/// The text of one input file, shared by every finding in it.
#[derive(Debug)]
pub struct SourceText {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

/// A 1-based position; `column` counts Unicode scalar values, as SPEC.md requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl SourceText {
    pub fn new(name: impl Into<String>, text: String) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceText {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// Byte offset of a 1-based line and a 0-based char column (proc-macro2's `LineColumn`).
    pub fn offset_of(&self, line: usize, char_column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let rest = &self.text[start..];
        rest.char_indices()
            .nth(char_column)
            .map_or(self.text.len(), |(i, _)| start + i)
    }

    /// The 1-based position of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line_index = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line_index];
        Position {
            line: line_index + 1,
            column: self.text[start..offset].chars().count() + 1,
        }
    }

    /// Start and end positions of a span; the end is the column after the last char.
    pub fn range_positions(&self, span: &Range<usize>) -> (Position, Position) {
        (self.position(span.start), self.position(span.end))
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

impl miette::SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_chars_not_bytes() {
        let t = SourceText::new("x", "let s = \"héllo\"; Err(e)\nnext".to_string());
        let err = t.text.find("Err").unwrap();
        assert_eq!(
            t.position(err),
            Position {
                line: 1,
                column: 18
            }
        );
        assert_eq!(t.offset_of(1, 17), err);
        let next = t.text.find("next").unwrap();
        assert_eq!(t.position(next), Position { line: 2, column: 1 });
        assert_eq!(t.offset_of(2, 0), next);
    }
}
