//! An error type's predicates: `fn is_protocol_error(&self) -> bool { matches!(self,
//! Self::InvalidParams(_) | Self::InternalError(_)) }`. A server that sorts its failures with
//! one (`Err(e) if e.is_protocol_error() => Err(e)`, the others answered with `isError`) passes
//! on only those variants as protocol errors. Read in phase zero, from the text (the predicate
//! and the arm using it are usually in different files): only a `-> bool` method whose body is
//! one `matches!(self, ..)` is parsed.

use super::constructors::function_text;
use super::summary::pattern_variants;

/// The predicates `text` defines, with the variants each is true for.
pub fn error_predicates(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    if memchr::memmem::find(text.as_bytes(), b"matches!").is_none() {
        return out;
    }
    let mut parsed = false;
    for at in memchr::memmem::find_iter(text.as_bytes(), "fn is_") {
        let Some((body, item)) = function_text(&text[at..], 0) else {
            continue;
        };
        let (signature, block) = item.split_at(body);
        let predicate = signature.contains("&self") && signature.contains("-> bool");
        if !(predicate && block.contains("matches!")) {
            continue;
        }
        parsed = true;
        if let Ok(f) = syn::parse_str::<syn::ItemFn>(item)
            && let Some(variants) = matched_variants(&f.block)
        {
            out.push((f.sig.ident.to_string(), variants));
        }
    }
    if parsed {
        // proc-macro2 keeps every parsed text per thread unless told otherwise.
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    out
}

/// The variants of `{ matches!(self, A | B) }`; none for any other body.
fn matched_variants(block: &syn::Block) -> Option<Vec<String>> {
    let mac = match &block.stmts[..] {
        [syn::Stmt::Expr(syn::Expr::Macro(m), None)] => &m.mac,
        [syn::Stmt::Macro(m)] => &m.mac,
        _ => return None,
    };
    if !mac.path.is_ident("matches") {
        return None;
    }
    let pattern = mac
        .parse_body_with(|input: syn::parse::ParseStream| {
            input.parse::<syn::Token![self]>()?;
            input.parse::<syn::Token![,]>()?;
            let pattern = syn::Pat::parse_multi_with_leading_vert(input)?;
            input.parse::<Option<syn::Token![,]>>()?;
            Ok(pattern)
        })
        .ok()?;
    let variants = pattern_variants(&pattern);
    (!variants.is_empty()).then_some(variants)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matches_predicate_gives_its_variants() {
        let text = r#"
impl McpError {
    pub fn is_protocol_error(&self) -> bool {
        matches!(
            self,
            Self::ParseError(_) | McpError::InvalidParams { .. } | Self::Internal
        )
    }
    pub fn is_retryable(&self) -> bool {
        self.code() == 3
    }
}"#;
        assert_eq!(
            error_predicates(text),
            vec![(
                "is_protocol_error".to_string(),
                vec![
                    "ParseError".to_string(),
                    "InvalidParams".to_string(),
                    "Internal".to_string()
                ]
            )]
        );
    }
}
