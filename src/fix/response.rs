//! The rewrite of a hand-rolled JSON-RPC error response to tools/call into a tool execution
//! error (SEP-2145): `json!({"jsonrpc": .., "id": .., "error": {.., "message": M}})` becomes
//! `json!({"jsonrpc": .., "id": .., "result": {"content": [{"type": "text", "text": M}],
//! "isError": true}})`, everything else as written.
//!
//! The response is rewritten where it is built, or, when it is built by a helper of the file
//! (`error(id, INVALID_PARAMS, "..".into())`) whose body is that one `json!`, at the call: the
//! helper's `json!` with the arguments in place of its parameters, since the helper's other
//! callers (other methods, malformed requests) still want their protocol error. Only where the
//! whole response is in view and every name in it is sure to mean the same at the call.

use std::ops::Range;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Lit};

use crate::finding::{Applicability, Edit, Fix};
use crate::source::sinks::{object_entries, single_brace_group};
use crate::source::span_range;
use crate::text::SourceText;

/// What stands in for the `"error": {..}` entry, around the message.
const RESULT_OPEN: &str = r#""result": {"content": [{"type": "text", "text": "#;
const RESULT_CLOSE: &str = r#"}], "isError": true}"#;

/// Why an error response built in a function the tools/call handler calls is not rewritten.
pub const IN_A_CALLEE: &str =
    "the error is built in a function the handler calls, whose other callers may expect it";

/// The fix for the hand-rolled error response built at `error` in `file`, or why there is none.
pub fn tool_error(
    file: &syn::File,
    source: &SourceText,
    error: &Range<usize>,
) -> Result<Fix, &'static str> {
    let (expr, nested) = find(file, source, error)
        .ok_or("the error is built inside a macro, out of mcp-lint's view")?;
    let text = match expr {
        Expr::Macro(m) => {
            let response = Response::of(&m.mac, source)?;
            response.render(source, error.clone(), &[])
        }
        // In a nested module the helper, or `json!`, may not be in scope.
        Expr::Call(_) if nested => {
            return Err("the error is built by a helper called from a nested module");
        }
        Expr::Call(call) => inline(file, source, call)?,
        Expr::Struct(_) => {
            return Err(
                "the error is a typed struct, and the response type it goes into has no result form mcp-lint knows",
            );
        }
        _ => {
            return Err(
                "the error is sent by a method whose body mcp-lint does not rewrite at the call",
            );
        }
    };
    Ok(Fix {
        applicability: Applicability::Unsafe,
        edits: vec![Edit {
            range: error.clone(),
            text,
        }],
    })
}

/// The `json!` of `helper(args)`, with the arguments in place of its parameters and the
/// error entry rewritten.
fn inline(
    file: &syn::File,
    source: &SourceText,
    call: &syn::ExprCall,
) -> Result<String, &'static str> {
    const NOT_ONE_JSON: &str =
        "the error is built by a function that is not one `json!` response of this file";
    let Expr::Path(func) = call.func.as_ref() else {
        return Err(NOT_ONE_JSON);
    };
    let name = func.path.get_ident().ok_or(NOT_ONE_JSON)?;
    let mut helpers = file.items.iter().filter_map(|item| match item {
        syn::Item::Fn(f) if f.sig.ident == *name => Some(f),
        _ => None,
    });
    let (Some(helper), None) = (helpers.next(), helpers.next()) else {
        return Err(NOT_ONE_JSON);
    };
    let mac = match helper.block.stmts.as_slice() {
        [syn::Stmt::Expr(Expr::Macro(m), None)] => &m.mac,
        [syn::Stmt::Macro(m)] if m.semi_token.is_none() => &m.mac,
        _ => return Err(NOT_ONE_JSON),
    };
    if helper.sig.inputs.len() != call.args.len() {
        return Err(NOT_ONE_JSON);
    }
    let response = Response::of(mac, source)?;
    let mut params = Vec::new();
    for (input, arg) in helper.sig.inputs.iter().zip(&call.args) {
        let syn::FnArg::Typed(typed) = input else {
            return Err(NOT_ONE_JSON);
        };
        // A method of a generic parameter may resolve to another on the argument's own type.
        if !helper.sig.generics.params.is_empty() || is_impl(&typed.ty) {
            return Err("the helper is generic: the arguments' types are not its parameters'");
        }
        let syn::Pat::Ident(pat) = typed.pat.as_ref() else {
            return Err("a parameter of the helper is a pattern, not a name");
        };
        params.push((pat.ident.to_string(), arg));
    }
    // Every name the kept part of the `json!` uses must be a parameter: anything else could
    // mean something else where the call is.
    let names = response.kept_names(source);
    if names
        .iter()
        .any(|n| !params.iter().any(|(p, _)| *p == n.name))
    {
        return Err(
            "the helper's response uses names other than its parameters, which may mean something else at the call",
        );
    }
    let mut substitutions = Vec::new();
    for (param, arg) in &params {
        let uses: Vec<&Name> = names.iter().filter(|n| n.name == *param).collect();
        if uses.len() != 1 && !is_pure(arg) {
            return Err("an argument of the helper would be dropped or evaluated twice");
        }
        if uses.is_empty() {
            continue;
        }
        let text = json_operand(arg, source).ok_or(
            "an argument's type comes from the helper's parameter, and `json!` cannot infer it",
        )?;
        for name in uses {
            // `&x` in place of `p` in `p.len()` would take the reference of the length.
            let text = match name.postfix && matches!(arg, Expr::Reference(_)) {
                true => format!("({text})"),
                false => text.clone(),
            };
            substitutions.push((name.range.clone(), text));
        }
    }
    Ok(response.render(source, span_range(source, mac.span()), &substitutions))
}

/// `impl Trait` anywhere in a parameter's type: the argument's type is not the parameter's.
fn is_impl(ty: &syn::Type) -> bool {
    quote::ToTokens::to_token_stream(ty)
        .into_iter()
        .any(|t| matches!(t, TokenTree::Ident(i) if i == "impl"))
}

/// An expression without effects, which can be dropped or repeated.
fn is_pure(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(_) | Expr::Path(_) => true,
        Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_)) && is_pure(&u.expr),
        Expr::Reference(r) => is_pure(&r.expr),
        Expr::Paren(p) => is_pure(&p.expr),
        Expr::Field(f) => is_pure(&f.base),
        _ => false,
    }
}

/// `arg` as an operand of `json!`, which serializes whatever type it has: as written when its
/// type is its own; a string literal for `"..".into()` and the like, whose type came from the
/// parameter. `None` for any other expression whose type the parameter gave.
fn json_operand(arg: &Expr, source: &SourceText) -> Option<String> {
    let text = |e: &Expr| source.snippet(&span_range(source, e.span())).to_string();
    let literal = |e: &Expr| matches!(e, Expr::Lit(l) if matches!(l.lit, Lit::Str(_)));
    match arg {
        Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() && literal(&m.receiver) => {
            Some(text(&m.receiver))
        }
        Expr::Call(c) if c.args.len() == 1 && literal(&c.args[0]) && is_string_from(&c.func) => {
            Some(text(&c.args[0]))
        }
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "to_string" | "to_owned" | "clone" | "as_str"
            ) =>
        {
            Some(text(arg))
        }
        Expr::Macro(m) if m.mac.path.is_ident("format") => Some(text(arg)),
        // An unsuffixed number's type, and `None`'s, came from the parameter.
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) if i.suffix().is_empty() => None,
            Lit::Float(f) if f.suffix().is_empty() => None,
            _ => Some(text(arg)),
        },
        Expr::Path(p) if p.path.is_ident("None") => None,
        Expr::Path(_) | Expr::Field(_) | Expr::Index(_) => Some(text(arg)),
        // Only around an operand written as it is: `&"..".into()` is not `&".."`.
        Expr::Reference(syn::ExprReference { expr: inner, .. })
        | Expr::Paren(syn::ExprParen { expr: inner, .. }) => json_operand(inner, source)
            .filter(|t| *t == text(inner))
            .map(|_| text(arg)),
        _ => None,
    }
}

fn is_string_from(func: &Expr) -> bool {
    let Expr::Path(p) = func else {
        return false;
    };
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    names == ["String", "from"]
}

/// A name in a `json!`, and whether an operator binds to it from behind (`.m()`, `[i]`, `(..)`).
struct Name {
    name: String,
    range: Range<usize>,
    postfix: bool,
}

/// A `json!` JSON-RPC error response: the ranges of its `"error"` entry and of the message in it.
struct Response {
    /// The macro's tokens, to find the names it uses.
    tokens: TokenStream,
    /// From the `"error"` key to the end of its value.
    entry: Range<usize>,
    message: Range<usize>,
}

impl Response {
    fn of(mac: &syn::Macro, source: &SourceText) -> Result<Response, &'static str> {
        const NOT_A_RESPONSE: &str =
            "the error is not a whole `json!` response with an `id` and an `error` object";
        if mac.path.segments.last().is_none_or(|s| s.ident != "json") {
            return Err(NOT_A_RESPONSE);
        }
        let top = object_entries(single_brace_group(mac.tokens.clone()).ok_or(NOT_A_RESPONSE)?);
        if !top.iter().any(|e| e.key == "id") {
            return Err(NOT_A_RESPONSE);
        }
        let error = top
            .iter()
            .find(|e| e.key == "error")
            .ok_or(NOT_A_RESPONSE)?;
        let inner = single_brace_group(error.value.clone()).ok_or(NOT_A_RESPONSE)?;
        let message = object_entries(inner)
            .into_iter()
            .find(|e| e.key == "message")
            .and_then(|e| tokens_range(&e.value, source))
            .ok_or("the error has no message to keep")?;
        let key = span_range(source, error.key_span);
        let value = tokens_range(&error.value, source).ok_or(NOT_A_RESPONSE)?;
        Ok(Response {
            tokens: mac.tokens.clone(),
            entry: key.start..value.end,
            message,
        })
    }

    /// The names the rewritten response keeps (all but those of the error's other fields);
    /// not those after a `.` or `::` (methods, fields, paths), nor `json!`'s own `true`,
    /// `false` and `null`.
    fn kept_names(&self, source: &SourceText) -> Vec<Name> {
        fn walk(tokens: TokenStream, source: &SourceText, out: &mut Vec<Name>) {
            let trees: Vec<TokenTree> = tokens.into_iter().collect();
            for (n, tree) in trees.iter().enumerate() {
                let punct = |at: Option<usize>| match at.and_then(|at| trees.get(at)) {
                    Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing())),
                    _ => None,
                };
                match tree {
                    TokenTree::Ident(i) => {
                        // `.` before a method or field; the `::` of a path.
                        let before = punct(n.checked_sub(1));
                        let qualified = before.is_some_and(|(c, _)| c == '.')
                            || (before.is_some_and(|(c, _)| c == ':')
                                && punct(n.checked_sub(2))
                                    == Some((':', proc_macro2::Spacing::Joint)));
                        let keyword = ["true", "false", "null"].contains(&i.to_string().as_str());
                        if !qualified && !keyword {
                            let postfix = match trees.get(n + 1) {
                                Some(TokenTree::Punct(p)) => p.as_char() == '.',
                                Some(TokenTree::Group(g)) => g.delimiter() != Delimiter::Brace,
                                _ => false,
                            };
                            out.push(Name {
                                name: i.to_string(),
                                range: span_range(source, i.span()),
                                postfix,
                            });
                        }
                    }
                    TokenTree::Group(g) => walk(g.stream(), source, out),
                    _ => {}
                }
            }
        }
        let mut names = Vec::new();
        walk(self.tokens.clone(), source, &mut names);
        let within =
            |outer: &Range<usize>, r: &Range<usize>| outer.start <= r.start && r.end <= outer.end;
        names.retain(|n| !within(&self.entry, &n.range) || within(&self.message, &n.range));
        names
    }

    /// The text of `whole` (the macro, from its name to its closing bracket) with the error
    /// entry rewritten and each of `substitutions` (a range and its new text) made.
    fn render(
        &self,
        source: &SourceText,
        whole: Range<usize>,
        substitutions: &[(Range<usize>, String)],
    ) -> String {
        let copy = |range: Range<usize>| {
            let mut inside: Vec<&(Range<usize>, String)> = substitutions
                .iter()
                .filter(|(r, _)| range.start <= r.start && r.end <= range.end)
                .collect();
            inside.sort_by_key(|(r, _)| r.start);
            let mut out = String::new();
            let mut at = range.start;
            for (r, text) in inside {
                out.push_str(source.snippet(&(at..r.start)));
                out.push_str(text);
                at = r.end;
            }
            out.push_str(source.snippet(&(at..range.end)));
            out
        };
        let mut out = copy(whole.start..self.entry.start);
        out.push_str(RESULT_OPEN);
        out.push_str(&copy(self.message.clone()));
        out.push_str(RESULT_CLOSE);
        out.push_str(&copy(self.entry.end..whole.end));
        out
    }
}

/// Where a run of tokens is, from its first to its last.
fn tokens_range(tokens: &TokenStream, source: &SourceText) -> Option<Range<usize>> {
    let mut trees = tokens.clone().into_iter();
    let first = span_range(source, trees.next()?.span());
    let last = trees
        .last()
        .map_or(first.clone(), |t| span_range(source, t.span()));
    Some(first.start..last.end)
}

/// The expression at `range`, and whether it is in a module nested in the file.
fn find<'a>(
    file: &'a syn::File,
    source: &SourceText,
    range: &Range<usize>,
) -> Option<(&'a Expr, bool)> {
    struct Find<'s, 'a> {
        source: &'s SourceText,
        range: &'s Range<usize>,
        nested: usize,
        found: Option<(&'a Expr, bool)>,
    }
    impl<'a> Visit<'a> for Find<'_, 'a> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.found.is_none() {
                match span_range(self.source, e.span()) == *self.range {
                    true => self.found = Some((e, self.nested > 0)),
                    false => visit::visit_expr(self, e),
                }
            }
        }
        fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
            self.nested += 1;
            visit::visit_item_mod(self, m);
            self.nested -= 1;
        }
    }
    let mut find = Find {
        source,
        range,
        nested: 0,
        found: None,
    };
    find.visit_file(file);
    find.found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed text of `text` for the error built at `site`, or why there is none.
    fn fix(text: &str, site: &str) -> Result<String, &'static str> {
        let source = SourceText::new("a.rs", text.into());
        let file = syn::parse_file(text).unwrap();
        let start = text.find(site).unwrap();
        let fix = tool_error(&file, &source, &(start..start + site.len()))?;
        Ok(crate::fix::apply::apply(text, &[&fix]))
    }

    const HELPER: &str = "fn error(id: &Value, code: i64, message: String) -> Value {\n    json!({\"id\": id.clone(), \"error\": {\"code\": code, \"message\": message}})\n}\n";

    #[test]
    fn an_argument_is_parenthesized_where_an_operator_binds_to_it() {
        let call = r#"error(&request["id"], -32602, "bad".into())"#;
        let text = format!("{HELPER}fn f() {{ {call} }}\n");
        let fixed = fix(&text, call).unwrap();
        let want = r#"fn f() { json!({"id": (&request["id"]).clone(), "result": {"content": [{"type": "text", "text": "bad"}], "isError": true}}) }"#;
        assert_eq!(fixed, format!("{HELPER}{want}\n"));
    }

    #[test]
    fn no_fix_where_json_would_not_know_an_arguments_type() {
        for message in ["7", "None", "&msg.into()"] {
            let call = format!("error(id, -32602, {message})");
            let text = format!("{HELPER}fn f() {{ {call} }}\n");
            let why = fix(&text, &call).unwrap_err();
            assert!(why.contains("cannot infer"), "{message}: {why}");
        }
    }
}
