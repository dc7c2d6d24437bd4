//! A `?` written inside an expression macro (`json!({ "files": list_files(dir)? })`,
//! `vec![Content::text(render(x)?)]`, `format!("{}", read(path)?)`) leaves the function as any
//! other does, but a parser keeps a macro's arguments as tokens. Such a macro is read as a
//! block that first evaluates those arguments, then is the macro itself:
//! `{ list_files(dir)?; json!({ .. }) }`. The macro stays the block's value, so what it builds
//! (a result, an error object) reads as before; the arguments keep their spans in the file.

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use syn::visit_mut::{self, VisitMut};
use syn::{Expr, Macro, Stmt};

/// Reads the `?`-holding arguments of `file`'s expression macros as expressions.
pub fn expose(file: &mut syn::File) {
    Exposer.visit_file_mut(file);
}

struct Exposer;

impl VisitMut for Exposer {
    fn visit_expr_mut(&mut self, expr: &mut Expr) {
        visit_mut::visit_expr_mut(self, expr);
        let Expr::Macro(m) = expr else { return };
        let Some(mut stmts) = exposed(&m.mac) else {
            return;
        };
        let mac = m.mac.clone();
        stmts.push(Stmt::Expr(expr.clone(), None));
        *expr = as_block(stmts, &mac);
    }

    fn visit_stmt_mut(&mut self, stmt: &mut Stmt) {
        visit_mut::visit_stmt_mut(self, stmt);
        // `println!("{}", render(x)?);` as a statement of its own.
        if let Stmt::Macro(m) = stmt
            && let Some(mut stmts) = exposed(&m.mac)
        {
            let mac = Expr::Macro(syn::ExprMacro {
                attrs: m.attrs.clone(),
                mac: m.mac.clone(),
            });
            stmts.push(Stmt::Expr(mac, None));
            *stmt = Stmt::Expr(as_block(stmts, &m.mac), m.semi_token);
        }
    }
}

/// The arguments of `mac` that hold a `?`, as statements, if it is an expression macro with
/// any.
fn exposed(mac: &Macro) -> Option<Vec<Stmt>> {
    let name = mac.path.segments.last()?.ident.to_string();
    if !holds_question(&mac.tokens) {
        return None;
    }
    let mut values = Vec::new();
    match name.as_str() {
        "json" => json_values(mac.tokens.clone(), &mut values),
        // Not the logging macros: `tracing::info!(?request)` writes `?` for Debug.
        "vec" | "format" | "format_args" | "write" | "writeln" | "print" | "println" | "eprint"
        | "eprintln" => comma_separated(mac.tokens.clone())
            .into_iter()
            .for_each(|tokens| values.push(tokens)),
        _ => return None,
    }
    let mut stmts = Vec::new();
    for tokens in values.into_iter().filter(holds_question) {
        let Ok(mut expr) = syn::parse2::<Expr>(tokens) else {
            continue;
        };
        // An argument's own macros (`vec![json!({ .. })]`) are read the same way.
        Exposer.visit_expr_mut(&mut expr);
        stmts.push(Stmt::Expr(expr, Some(Default::default())));
    }
    (!stmts.is_empty()).then_some(stmts)
}

/// `{ stmts }`, spanning `mac` in the file.
fn as_block(stmts: Vec<Stmt>, mac: &Macro) -> Expr {
    let span = syn::spanned::Spanned::span(mac);
    let mut group = Group::new(Delimiter::Brace, TokenStream::new());
    group.set_span(span);
    Expr::Block(syn::ExprBlock {
        attrs: Vec::new(),
        label: None,
        block: syn::Block {
            brace_token: syn::token::Brace {
                span: group.delim_span(),
            },
            stmts,
        },
    })
}

/// The values of a `json!` body: an object's member values and an array's elements, read
/// down to the expressions they are.
fn json_values(tokens: TokenStream, out: &mut Vec<TokenStream>) {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    match trees.as_slice() {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => {
            for member in comma_separated(g.stream()) {
                let member: Vec<TokenTree> = member.into_iter().collect();
                if let Some(colon) = key_colon(&member) {
                    json_values(member[colon + 1..].iter().cloned().collect(), out);
                }
            }
        }
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => {
            for element in comma_separated(g.stream()) {
                json_values(element, out);
            }
        }
        _ => out.push(trees.into_iter().collect()),
    }
}

/// Where a `json!` member's key ends: its first `:` that is not part of a `::`.
fn key_colon(member: &[TokenTree]) -> Option<usize> {
    let mut i = 0;
    while i < member.len() {
        if let TokenTree::Punct(p) = &member[i]
            && p.as_char() == ':'
        {
            if p.spacing() == Spacing::Joint
                && matches!(member.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == ':')
            {
                i += 2;
                continue;
            }
            return Some(i);
        }
        i += 1;
    }
    None
}

/// `tokens` split at its top-level commas (a closure's or a generic's commas are inside groups
/// or angle brackets only in types, which these arguments are not).
fn comma_separated(tokens: TokenStream) -> Vec<TokenStream> {
    let mut parts = vec![TokenStream::new()];
    for tree in tokens {
        match &tree {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(TokenStream::new()),
            _ => parts.last_mut().expect("one part").extend([tree]),
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

fn holds_question(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|tree| match tree {
        TokenTree::Punct(p) => p.as_char() == '?',
        TokenTree::Group(g) => holds_question(&g.stream()),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn exposed_fn(code: &str) -> String {
        let mut file = syn::parse_file(code).unwrap();
        expose(&mut file);
        file.into_token_stream().to_string()
    }

    #[test]
    fn json_member_values_with_a_question_are_evaluated_first() {
        let out = exposed_fn(
            r#"fn f() -> R { Ok(json!({ "a": 1, "files": list(&d)?, "n": { "m": [x, g()?] } })) }"#,
        );
        assert!(out.contains("{ list (& d) ? ; g () ? ; json ! ("), "{out}");
    }

    #[test]
    fn format_arguments_and_statement_macros_are_read() {
        let out =
            exposed_fn(r#"fn f() { let s = format!("{}", read(p)?); println!("{}", h()?); }"#);
        assert!(out.contains("{ read (p) ? ; format ! ("), "{out}");
        assert!(out.contains("{ h () ? ; println ! ("), "{out}");
    }

    #[test]
    fn macros_without_a_question_and_logging_macros_stay_as_written() {
        let code =
            r#"fn f() { info!(?req, "x"); let v = vec![a, b]; let j = json!({"k": "x::y"}); }"#;
        let out = exposed_fn(code);
        assert_eq!(
            out,
            syn::parse_file(code)
                .unwrap()
                .into_token_stream()
                .to_string()
        );
    }
}
