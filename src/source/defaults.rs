//! MCP108: SDK defaults that answer a tools/call with a protocol error although no line of
//! the server returns one: rmcp's `#[tool_handler]` router for unknown and disabled tools,
//! and, by version, argument deserialization (< 1.8) and output-schema checks (0.4-0.5);
//! mcp-attr's `#[mcp_server]` for unknown tools.

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Attribute, Expr, FnArg, ImplItem, Signature, Type};

use super::deps::Version;
use super::facts::{FileFacts, path_strings};
use super::{is_cfg_test, span_range};
use crate::finding::Finding;
use crate::rules::mcp108;
use crate::text::SourceText;

const FIXED_ARGUMENTS: Version = Version(1, 8, 0);
const OUTPUT_CHECKS: (Version, Version) = (Version(0, 4, 0), Version(0, 6, 0));

/// The findings of one file; `rmcp` is asked for the crate's rmcp version only if a tool needs it.
pub fn check(
    file: &syn::File,
    facts: &FileFacts,
    source: &SourceText,
    rmcp: impl FnOnce() -> Option<Version>,
) -> Vec<Finding> {
    if !facts.sdks.rmcp && !facts.sdks.mcp_attr {
        return Vec::new();
    }
    let mut finder = Defaults {
        rmcp: facts.sdks.rmcp,
        mcp_attr: facts.sdks.mcp_attr,
        facts,
        source,
        tools: Vec::new(),
        findings: Vec::new(),
    };
    finder.visit_file(file);
    if !finder.tools.is_empty()
        && let Some(version) = rmcp()
    {
        for (attrs, sig) in std::mem::take(&mut finder.tools) {
            finder.versioned(attrs, sig, version);
        }
    }
    finder.findings
}

struct Defaults<'a, 's> {
    rmcp: bool,
    mcp_attr: bool,
    facts: &'s FileFacts<'a>,
    source: &'s SourceText,
    /// `#[tool]` functions, checked once the version is known.
    tools: Vec<(&'a [Attribute], &'a Signature)>,
    findings: Vec<Finding>,
}

impl<'a> Defaults<'a, '_> {
    fn push(&mut self, node: &impl Spanned, (violation, aspect): mcp108::Default) {
        let mut finding = violation.at(span_range(self.source, node.span()));
        finding.aspect = aspect;
        self.findings.push(finding);
    }

    fn server_handler(&mut self, item: &'a syn::ItemImpl) {
        let call_tool = item.items.iter().find_map(|i| match i {
            ImplItem::Fn(f) if f.sig.ident == "call_tool" => Some(f),
            _ => None,
        });
        let router = item.attrs.iter().find(|a| is_router_attribute(a));
        match (router, call_tool) {
            (Some(attribute), None) => self.push(attribute, mcp108::router_generated()),
            (_, Some(f)) => {
                let mut calls = RouterCalls::default();
                calls.visit_block(&f.block);
                let checked = ["has_route", "is_disabled", "list_all", "get_tool"]
                    .iter()
                    .any(|m| calls.methods.contains(&m.to_string()));
                if let (Some(delegation), false) = (calls.delegation, checked) {
                    self.push(delegation, mcp108::router_delegated());
                }
            }
            (None, None) => {}
        }
    }

    /// mcp-attr's `#[mcp_server] impl McpServer`: without its own `tools_call`, the generated
    /// one answers a name it does not know with -32601 "Tool not found".
    fn mcp_attr_server(&mut self, item: &'a syn::ItemImpl) {
        let own = item
            .items
            .iter()
            .any(|i| matches!(i, ImplItem::Fn(f) if f.sig.ident == "tools_call"));
        // `#[mcp_server]` imported from mcp-attr, or `#[mcp_attr::server::mcp_server]`.
        let attribute = item.attrs.iter().find(|a| {
            let path = self.facts.expand(&path_strings(a.path()));
            path.last().is_some_and(|s| s == "mcp_server")
                && (path.len() == 1 || path[0] == "mcp_attr")
        });
        if let (Some(attribute), false) = (attribute, own) {
            self.push(attribute, mcp108::mcp_attr_generated());
        }
    }

    fn versioned(&mut self, attrs: &[Attribute], sig: &Signature, version: Version) {
        if version < FIXED_ARGUMENTS {
            for input in &sig.inputs {
                let FnArg::Typed(arg) = input else { continue };
                let legacy = arg.attrs.iter().any(|a| {
                    a.path().is_ident("tool") && tokens(a).contains("aggr")
                        || tokens(a).contains("param")
                });
                if legacy || parameters_type(&arg.ty).is_some_and(|t| !is_raw_object(t)) {
                    self.push(&arg.ty, mcp108::arguments_before_1_8(&version));
                }
            }
        }
        let structured = matches!(&sig.output, syn::ReturnType::Type(_, ty) if ty.to_token_stream().to_string().contains("Json <"))
            || attrs.iter().any(|a| tokens(a).contains("output_schema"));
        if (OUTPUT_CHECKS.0..OUTPUT_CHECKS.1).contains(&version) && structured {
            self.push(&sig.output, mcp108::output_checks(&version));
        }
    }
}

impl<'a> Visit<'a> for Defaults<'a, '_> {
    fn visit_item_mod(&mut self, m: &'a syn::ItemMod) {
        if !is_cfg_test(&m.attrs) {
            visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_impl(&mut self, item: &'a syn::ItemImpl) {
        let trait_name = item.trait_.as_ref().and_then(|(p, _)| p.segments.last());
        if self.rmcp && trait_name.is_some_and(|s| s.ident == "ServerHandler") {
            self.server_handler(item);
        }
        if self.mcp_attr && trait_name.is_some_and(|s| s.ident == "McpServer") {
            self.mcp_attr_server(item);
        }
        if !self.rmcp {
            return visit::visit_item_impl(self, item);
        }
        for f in item.items.iter().filter_map(|i| {
            if let ImplItem::Fn(f) = i {
                Some(f)
            } else {
                None
            }
        }) {
            if is_tool(&f.attrs) {
                self.tools.push((&f.attrs, &f.sig));
            }
        }
        visit::visit_item_impl(self, item);
    }

    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        if self.rmcp && is_tool(&f.attrs) {
            self.tools.push((&f.attrs, &f.sig));
        }
    }
}

/// Method calls of a `call_tool` body: the router delegation, and the names of all methods.
#[derive(Default)]
struct RouterCalls<'a> {
    delegation: Option<&'a Expr>,
    methods: Vec<String>,
}

impl<'a> Visit<'a> for RouterCalls<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::MethodCall(m) = expr {
            self.methods.push(m.method.to_string());
            let hands_over = m.method == "call"
                && (m
                    .args
                    .iter()
                    .any(|a| a.to_token_stream().to_string().contains("ToolCallContext"))
                    || m.receiver.to_token_stream().to_string().contains("router"));
            if hands_over && self.delegation.is_none() {
                self.delegation = Some(expr);
            }
        }
        visit::visit_expr(self, expr);
    }
}

/// `#[tool_handler]`, `#[rmcp::tool_handler(..)]`, or 0.1's `#[tool(tool_box)]`.
fn is_router_attribute(attribute: &Attribute) -> bool {
    let last = attribute
        .path()
        .segments
        .last()
        .map(|s| s.ident.to_string());
    last.as_deref() == Some("tool_handler")
        || (last.as_deref() == Some("tool") && tokens(attribute).contains("tool_box"))
}

fn is_tool(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().segments.last().is_some_and(|s| s.ident == "tool")
            && !tokens(a).contains("tool_box")
    })
}

fn tokens(attribute: &Attribute) -> String {
    attribute.meta.to_token_stream().to_string()
}

/// `T` of `Parameters<T>`.
fn parameters_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match (last.ident == "Parameters", args.args.first()?) {
        (true, syn::GenericArgument::Type(t)) => Some(t),
        _ => None,
    }
}

/// A JSON object or value: deserializing into it cannot fail.
fn is_raw_object(ty: &Type) -> bool {
    let text = ty.to_token_stream().to_string();
    ["JsonObject", "Map <", "Value"]
        .iter()
        .any(|t| text.ends_with(t) || text.contains(t))
}
