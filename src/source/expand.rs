//! Servers that write their tools inside a `macro_rules!` (`macro_rules! register_tools {
//! ($($name:ident => $tool:ty),*) => { #[tool_router] impl Server { $( #[tool] fn $name(..)
//! { .. } )* } } }`) hide them from a parser: the body of a macro is tokens, not items. Such a
//! body is read as items where it stands: the text is rewritten in place, keeping every byte
//! offset and line, so positions still point into the file as written. `$crate` reads as
//! `crate`, a metavariable `$name` as the identifier `_name`, and a repetition `$( .. )*` as
//! its contents once. A macro whose body does not read as items so is left as it is.

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;

/// `file` (the parse of `text`) with the bodies of its item-writing `macro_rules!` read as
/// items, if it has any.
pub fn macro_bodies_as_items(text: &str, file: &syn::File) -> Option<syn::File> {
    let lines = LineStarts::new(text);
    let mut expanded: Option<String> = None;
    let mut parsed = None;
    for mac in macro_rules(&file.items) {
        let delimiters = mac.mac.delimiter.span();
        let body = lines.between(text, delimiters.open(), delimiters.close());
        if !body.is_some_and(|r| text[r].to_lowercase().contains("tool")) {
            continue;
        }
        let mut bytes = expanded
            .clone()
            .unwrap_or_else(|| text.to_string())
            .into_bytes();
        if !rewrite(&mut bytes, text, mac, &lines) {
            continue;
        }
        let Ok(candidate) = String::from_utf8(bytes) else {
            continue;
        };
        // Kept only where the whole file still reads: the body is items.
        if let Ok(file) = syn::parse_file(&candidate) {
            expanded = Some(candidate);
            parsed = Some(file);
        }
    }
    parsed
}

/// The `macro_rules!` items of a file, in its inline modules too.
fn macro_rules(items: &[syn::Item]) -> Vec<&syn::ItemMacro> {
    let mut out = Vec::new();
    for item in items {
        match item {
            syn::Item::Macro(m) if m.mac.path.is_ident("macro_rules") => out.push(m),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    out.extend(macro_rules(inner));
                }
            }
            _ => {}
        }
    }
    out
}

/// Blanks the macro's header and matchers and rewrites its bodies in `bytes` (`text` as
/// written); whether every position was found.
fn rewrite(bytes: &mut [u8], text: &str, mac: &syn::ItemMacro, lines: &LineStarts) -> bool {
    let span = mac.span();
    let (Some(start), Some(end)) = (lines.start(text, span), lines.end(text, span)) else {
        return false;
    };
    // Each rule is `(matcher) => { body }`, rules apart by `;`.
    let mut bodies = Vec::new();
    let mut after_arrow = false;
    let mut previous_eq = false;
    for token in mac.mac.tokens.clone() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == '=' && p.spacing() == Spacing::Joint => {
                previous_eq = true;
                continue;
            }
            TokenTree::Punct(p) if p.as_char() == '>' && previous_eq => after_arrow = true,
            TokenTree::Group(g) if after_arrow => {
                bodies.push(g.clone());
                after_arrow = false;
            }
            _ => {}
        }
        previous_eq = false;
    }
    let mut keep = vec![false; bytes.len()];
    for body in &bodies {
        let Some(inner) = lines.between(text, body.span_open(), body.span_close()) else {
            return false;
        };
        keep[inner].fill(true);
    }
    for at in start..end.min(bytes.len()) {
        if !keep[at] && bytes[at] != b'\n' {
            bytes[at] = b' ';
        }
    }
    bodies
        .iter()
        .all(|body| substitute(bytes, body.stream(), text, lines))
}

/// `$crate` -> `crate `, `$name` -> `_name`, `$( .. ) sep? op` -> its contents.
fn substitute(bytes: &mut [u8], stream: TokenStream, text: &str, lines: &LineStarts) -> bool {
    let tokens: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        match (&tokens[i], tokens.get(i + 1)) {
            (TokenTree::Punct(dollar), Some(TokenTree::Ident(name))) if dollar.as_char() == '$' => {
                let Some(at) = lines.start(text, dollar.span()) else {
                    return false;
                };
                if name == "crate" {
                    let end = at + "$crate".len();
                    if bytes.get(at..end) != Some(b"$crate") {
                        return false;
                    }
                    bytes[at..end].copy_from_slice(b"crate ");
                } else {
                    bytes[at] = b'_';
                }
                i += 2;
            }
            (TokenTree::Punct(dollar), Some(TokenTree::Group(group)))
                if dollar.as_char() == '$' && group.delimiter() == Delimiter::Parenthesis =>
            {
                let (Some(at), Some(open), Some(close)) = (
                    lines.start(text, dollar.span()),
                    lines.start(text, group.span_open()),
                    lines.start(text, group.span_close()),
                ) else {
                    return false;
                };
                bytes[at] = b' ';
                bytes[open] = b' ';
                bytes[close] = b' ';
                if !substitute(bytes, group.stream(), text, lines) {
                    return false;
                }
                i += 2;
                // An optional separator, then `*`, `+` or `?`.
                for _ in 0..2 {
                    let Some(TokenTree::Punct(p)) = tokens.get(i) else {
                        break;
                    };
                    let Some(at) = lines.start(text, p.span()) else {
                        return false;
                    };
                    bytes[at] = b' ';
                    i += 1;
                    if matches!(p.as_char(), '*' | '+' | '?') {
                        break;
                    }
                }
            }
            (TokenTree::Group(group), _) => {
                if !substitute(bytes, group.stream(), text, lines) {
                    return false;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    true
}

/// Where each line starts, for spans' (line, column in chars) as byte offsets.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1));
        LineStarts(starts)
    }

    fn at(&self, text: &str, line: usize, column: usize) -> Option<usize> {
        let start = *self.0.get(line.checked_sub(1)?)?;
        let rest = text.get(start..)?;
        rest.char_indices()
            .map(|(i, _)| start + i)
            .chain(std::iter::once(text.len()))
            .nth(column)
    }

    fn start(&self, text: &str, span: Span) -> Option<usize> {
        self.at(text, span.start().line, span.start().column)
    }

    fn end(&self, text: &str, span: Span) -> Option<usize> {
        self.at(text, span.end().line, span.end().column)
    }

    /// The text between two delimiters, without them.
    fn between(&self, text: &str, open: Span, close: Span) -> Option<std::ops::Range<usize>> {
        let from = self.end(text, open)?;
        let to = self.start(text, close)?;
        (from <= to).then_some(from..to)
    }
}
