//! The results a server builds, read for their content: MCP106 (`structured_content` that is
//! not an object), MCP201 (a tool error with no text or a generic one), MCP202 (a tool error
//! text that lists tools). Only literal texts are judged: `e.to_string()` says nothing here.

use proc_macro2::{Delimiter, TokenTree};
use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::{Expr, ExprCall};

use super::facts::path_strings;
use super::sinks::message_of;
use super::{is_tool_fn, span_range};
use crate::finding::{Finding, Violation};
use crate::rules::{mcp106, mcp201, mcp202};
use crate::text::SourceText;

pub fn check(file: &syn::File, source: &SourceText) -> Vec<Finding> {
    let mut tools = ToolNames(Vec::new());
    tools.visit_file(file);
    let mut results = Results {
        source,
        tools: mcp202::KnownTools::new(tools.0),
        findings: Vec::new(),
    };
    results.visit_file(file);
    results.findings
}

struct Results<'s> {
    source: &'s SourceText,
    /// The names of the file's `#[tool]` functions, which an error text should not list.
    tools: mcp202::KnownTools,
    findings: Vec<Finding>,
}

impl Results<'_> {
    fn push(&mut self, node: &impl ToTokens, violation: Violation) {
        let span = syn::spanned::Spanned::span(&node.to_token_stream());
        self.findings
            .push(violation.at(span_range(self.source, span)));
    }

    /// `CallToolResult::error(vec![Content::text(..)])`: its text.
    fn tool_error(&mut self, call: &ExprCall) {
        let Some(content) = call.args.first() else {
            return;
        };
        let text = match content_items(content).as_deref() {
            Some([]) => None,
            // The first item's text, when it is a literal; an image, a resource or a text built
            // at run time says nothing here.
            Some([first, ..]) => match text_argument(first).and_then(message_of) {
                // `format!("{e}")`: all of the text is made at run time.
                Some(text) if only_placeholders(&text) => return,
                Some(text) => Some(text),
                None => return,
            },
            None => return,
        };
        if let Some(why) = mcp201::vague_tool_error(text.as_deref()) {
            self.push(call, mcp201::in_code(&why));
        }
        if let Some(why) = text
            .as_deref()
            .and_then(|t| mcp202::lists_tools(t, Some(&self.tools), ""))
        {
            self.push(call, mcp202::in_code(&why));
        }
    }

    /// `CallToolResult::structured(json!([..]))`, `structured_content: Some(json!("x"))`.
    fn structured(&mut self, value: &Expr) {
        if let Some(kind) = non_object_json(value) {
            self.push(value, mcp106::in_code(kind));
        }
    }
}

impl<'a> Visit<'a> for Results<'_> {
    fn visit_expr_call(&mut self, call: &'a ExprCall) {
        if let Expr::Path(func) = &*call.func {
            let segments = path_strings(&func.path);
            let (ctor, ty) = (
                segments.last().map(String::as_str),
                segments.iter().nth_back(1).map(String::as_str),
            );
            match (ty, ctor) {
                (Some("CallToolResult"), Some("error")) => self.tool_error(call),
                (Some("CallToolResult"), Some("structured")) => {
                    if let Some(value) = call.args.first() {
                        self.structured(value);
                    }
                }
                _ => {}
            }
        }
        visit::visit_expr_call(self, call);
    }

    fn visit_expr_struct(&mut self, s: &'a syn::ExprStruct) {
        let is_result = s
            .path
            .segments
            .last()
            .is_some_and(|p| p.ident == "CallToolResult");
        for field in s.fields.iter().filter(|_| is_result) {
            if matches!(&field.member, syn::Member::Named(n) if n == "structured_content")
                && let Expr::Call(some) = &field.expr
                && let Some(value) = some.args.first()
            {
                self.structured(value);
            }
        }
        visit::visit_expr_struct(self, s);
    }
}

/// The items of `vec![..]` content, or `None` if it is not a literal list.
fn content_items(content: &Expr) -> Option<Vec<Expr>> {
    let Expr::Macro(m) = content else { return None };
    if m.mac.path.segments.last()?.ident != "vec" {
        return None;
    }
    let parser = syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated;
    Some(m.mac.parse_body_with(parser).ok()?.into_iter().collect())
}

/// `x` of `Content::text(x)` / `ContentBlock::text(x)`.
fn text_argument(item: &Expr) -> Option<&Expr> {
    match item {
        Expr::Call(c) if matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "text")) => {
            c.args.first()
        }
        _ => None,
    }
}

/// What a `json!(..)` value is, when it is a literal that is not an object.
fn non_object_json(value: &Expr) -> Option<&'static str> {
    let Expr::Macro(m) = value else { return None };
    if m.mac.path.segments.last()?.ident != "json" {
        return None;
    }
    match m.mac.tokens.clone().into_iter().next()? {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => Some("an array"),
        TokenTree::Literal(l) if l.to_string().starts_with('"') => Some("a string"),
        TokenTree::Literal(_) => Some("a number"),
        TokenTree::Ident(i) if i == "true" || i == "false" => Some("a boolean"),
        TokenTree::Ident(i) if i == "null" => Some("null"),
        _ => None,
    }
}

/// The names of `#[tool]` functions.
struct ToolNames(Vec<String>);

impl<'a> Visit<'a> for ToolNames {
    fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
        if is_tool_fn(&f.attrs) {
            self.0.push(f.sig.ident.to_string());
        }
    }
}

/// Whether a format string is nothing but `{..}` placeholders (and blanks).
fn only_placeholders(text: &str) -> bool {
    let mut rest = text.trim();
    while let Some(open) = rest.strip_prefix('{') {
        match open.find('}') {
            Some(end) if !open[..end].contains('{') => rest = open[end + 1..].trim_start(),
            _ => return false,
        }
    }
    rest.is_empty() && text.contains('{')
}
