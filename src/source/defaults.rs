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
use super::{is_tool_fn, span_range};
use crate::finding::{Elsewhere, Finding, Label};
use crate::fix;
use crate::rules::{mcp101, mcp104, mcp108};
use crate::text::SourceText;

const FIXED_ARGUMENTS: Version = Version(1, 8, 0);
const HAS_ROUTE: Version = Version(0, 6, 0);
const OUTPUT_CHECKS: (Version, Version) = (Version(0, 4, 0), Version(0, 6, 0));

/// Where a crate's server routes its tools, and the typed arguments of all its tools: the
/// findings about those arguments are one, at the router (see [`Defaults::typed_arguments`]).
#[derive(Debug, Default, Clone)]
pub struct CrateTools {
    /// The file (as named to mcp-lint) with the crate's first `#[tool_handler]`.
    pub router: Option<String>,
    /// Each typed tool argument of the crate: its file and 1-based line.
    pub typed_arguments: Vec<(String, usize)>,
}

/// Whether a file routes tools (`#[tool_handler]`), and the lines of its tools' typed
/// arguments: the file's part of [`CrateTools`]; and whether [`check`] can find anything in it.
pub fn tools_of(
    file: &syn::File,
    facts: &FileFacts,
    source: &SourceText,
) -> (bool, Vec<usize>, bool) {
    let mut finder = Defaults::new(facts, source);
    finder.visit_file(file);
    let lines = finder
        .tools
        .iter()
        .flat_map(|(_, sig)| typed_arguments(sig))
        .map(|ty| source.position(span_range(source, ty.span()).start).line)
        .collect();
    let reports = !finder.findings.is_empty() || !finder.tools.is_empty();
    (finder.router.is_some(), lines, reports)
}

/// The findings of one file; `rmcp` is asked for the crate's rmcp version only if a tool needs
/// it; `crate_tools` says where the crate routes its tools.
pub fn check(
    file: &syn::File,
    facts: &FileFacts,
    source: &SourceText,
    rewriter: &fix::rmcp::Rewriter,
    rmcp: impl FnOnce() -> Option<Version>,
    crate_tools: &CrateTools,
) -> Vec<Finding> {
    // No SDK gate: a server is often built by a full path (`pmcp::Server::builder()`) in a
    // file that imports nothing of its SDK.
    let mut finder = Defaults::new(facts, source);
    finder.visit_file(file);
    let rmcp = std::cell::LazyCell::new(rmcp);
    for (at, handler, attribute) in std::mem::take(&mut finder.generated) {
        let version = rmcp.map(|v| (v.0, v.1));
        let fixed = fix::router::call_tool(handler, attribute, source, version);
        fix::attach(&mut finder.findings[at], fixed);
    }
    for (at, call_tool, delegation) in std::mem::take(&mut finder.delegated) {
        // `ToolRouter::has_route` is in rmcp's sources from 0.6 on (0.6.4 to 3.11 read).
        let fixed = match *rmcp {
            Some(version) if version >= HAS_ROUTE => {
                rewriter.route_check(call_tool, delegation, mcp101::RULE.fix_text)
            }
            Some(_) => Err("rmcp before 0.6 may have no `ToolRouter::has_route`: upgrade rmcp"),
            None => Err(fix::UNKNOWN_RMCP),
        };
        fix::attach(&mut finder.findings[at], fixed);
    }
    let routes_here = crate_tools.router.as_ref() == Some(&source.name);
    if (!finder.tools.is_empty() || routes_here && !crate_tools.typed_arguments.is_empty())
        && let Some(version) = *rmcp
    {
        let mut typed_arguments = Vec::new();
        for (attrs, sig) in std::mem::take(&mut finder.tools) {
            typed_arguments.extend(finder.versioned(attrs, sig, version));
        }
        finder.typed_arguments(&typed_arguments, version, crate_tools);
    }
    finder.findings
}

struct Defaults<'a, 's> {
    rmcp: bool,
    mcp_attr: bool,
    /// The file serves tools through kodegen_server_http, which hands every tools/call to the
    /// rmcp `ToolRouter` the crate builds (its `use`s may sit in the function that does).
    kodegen_server: bool,
    facts: &'s FileFacts<'a>,
    source: &'s SourceText,
    /// `#[tool]` functions, checked once the version is known.
    tools: Vec<(&'a [Attribute], &'a Signature)>,
    /// Where the file's server routes its tools: its `#[tool_handler]`, or the `call_tool`
    /// that hands every call to the router.
    router: Option<std::ops::Range<usize>>,
    /// The handlers whose `#[tool_handler]` generates `call_tool`: their finding's index, the
    /// impl and the attribute, fixed once the version is known.
    generated: Vec<(usize, &'a syn::ItemImpl, &'a Attribute)>,
    /// The `call_tool`s that hand every call to the router unchecked: their finding's index,
    /// the function and the delegation.
    delegated: Vec<(usize, &'a syn::ImplItemFn, &'a Expr)>,
    findings: Vec<Finding>,
}

impl<'a, 's> Defaults<'a, 's> {
    fn new(facts: &'s FileFacts<'a>, source: &'s SourceText) -> Self {
        Defaults {
            rmcp: facts.sdks.rmcp,
            mcp_attr: facts.sdks.mcp_attr,
            kodegen_server: source.text().contains("kodegen_server_http"),
            facts,
            source,
            tools: Vec::new(),
            router: None,
            generated: Vec::new(),
            delegated: Vec::new(),
            findings: Vec::new(),
        }
    }

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
        if let (None, Some(attribute)) = (&self.router, router) {
            self.router = Some(span_range(self.source, attribute.span()));
        }
        match (router, call_tool) {
            (Some(attribute), None) => {
                self.generated.push((self.findings.len(), item, attribute));
                self.push(attribute, mcp108::router_generated());
            }
            (_, Some(f)) => {
                if let Some(delegation) = unchecked_delegation(&f.block) {
                    if self.router.is_none() {
                        self.router = Some(span_range(self.source, delegation.span()));
                    }
                    self.delegated.push((self.findings.len(), f, delegation));
                    self.push(delegation, mcp108::router_delegated("call_tool"));
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

    /// One finding for the tools' typed arguments that rmcp before 1.8 deserializes into a
    /// protocol error: one root cause, fixed by one line of `Cargo.toml`. It sits on the
    /// crate's `#[tool_handler]`, with each argument as a label (in another file, a related
    /// location); in a crate without one, on the file's first typed argument.
    fn typed_arguments(
        &mut self,
        arguments: &[&'a Type],
        version: Version,
        crate_tools: &CrateTools,
    ) {
        if version >= FIXED_ARGUMENTS {
            return; // the tools in other files are answered with isError results too
        }
        let here = &self.source.name;
        let elsewhere: Vec<&(String, usize)> = match &crate_tools.router {
            Some(router) if router != here => return,
            Some(_) => crate_tools
                .typed_arguments
                .iter()
                .filter(|(f, _)| f != here)
                .collect(),
            None => Vec::new(),
        };
        let count = arguments.len() + elsewhere.len();
        let (violation, aspect) = mcp108::arguments_before_1_8(&version, count);
        let mut finding = match (&self.router, arguments.first()) {
            (Some(router), _) => {
                let mut finding = violation.at(router.clone());
                finding.label = mcp108::ROUTES_TYPED_ARGUMENTS.to_string();
                finding
            }
            (None, Some(first)) => violation.at(span_range(self.source, first.span())),
            (None, None) => return,
        };
        if count == 0 {
            return;
        }
        finding.aspect = aspect;
        finding.related = arguments
            .iter()
            .map(|ty| Label {
                span: span_range(self.source, ty.span()),
                text: mcp108::DESERIALIZED_BY_RMCP.to_string(),
            })
            .filter(|label| label.span != finding.span)
            .collect();
        finding.elsewhere = elsewhere
            .into_iter()
            .map(|(file, line)| Elsewhere {
                file: file.clone(),
                line: *line,
                text: mcp108::DESERIALIZED_BY_RMCP.to_string(),
            })
            .collect();
        self.findings.push(finding);
    }

    /// The tool's own defaults; returns its arguments that rmcp deserializes before it runs,
    /// where that answers bad arguments with a protocol error.
    fn versioned(
        &mut self,
        attrs: &[Attribute],
        sig: &'a Signature,
        version: Version,
    ) -> Vec<&'a Type> {
        let typed = match version < FIXED_ARGUMENTS {
            true => typed_arguments(sig),
            false => Vec::new(),
        };
        let structured = matches!(&sig.output, syn::ReturnType::Type(_, ty) if ty.to_token_stream().to_string().contains("Json <"))
            || attrs.iter().any(|a| tokens(a).contains("output_schema"));
        if (OUTPUT_CHECKS.0..OUTPUT_CHECKS.1).contains(&version) && structured {
            self.push(&sig.output, mcp108::output_checks(&version));
        }
        typed
    }
}

impl<'a> Visit<'a> for Defaults<'a, '_> {
    fn visit_item_impl(&mut self, item: &'a syn::ItemImpl) {
        // `impl rmcp::ServerHandler for ..` under `#[rmcp::tool_handler]`, in a file that
        // imports nothing of rmcp.
        let by_path = |path: &syn::Path| path.segments.first().is_some_and(|s| s.ident == "rmcp");
        self.rmcp |= item.trait_.as_ref().is_some_and(|(p, _)| by_path(p))
            || item.attrs.iter().any(|a| by_path(a.path()));
        let trait_name = item.trait_.as_ref().and_then(|(p, _)| p.segments.last());
        if self.rmcp && trait_name.is_some_and(|s| s.ident == "ServerHandler") {
            self.server_handler(item);
        }
        if self.mcp_attr && trait_name.is_some_and(|s| s.ident == "McpServer") {
            self.mcp_attr_server(item);
        }
        if self.facts.sdks.pulseengine
            && trait_name.is_none()
            && let Some(attribute) = super::roots::mcp_tools_attribute(item)
        {
            self.push(attribute, mcp108::pulseengine_generated());
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
            if is_tool_fn(&f.attrs) {
                self.tools.push((&f.attrs, &f.sig));
            }
            // A helper of `call_tool` that builds the router's `ToolCallContext` and hands it
            // over (a hybrid of dynamic tools and a static router) is the same default.
            let handler_call_tool = f.sig.ident == "call_tool"
                && trait_name.is_some_and(|s| s.ident == "ServerHandler");
            let builds_context = || {
                f.block
                    .to_token_stream()
                    .to_string()
                    .contains("ToolCallContext")
            };
            if !handler_call_tool
                && builds_context()
                && let Some(delegation) = unchecked_delegation(&f.block)
            {
                let by = format!("`{}`", f.sig.ident);
                self.push(delegation, mcp108::router_delegated(&by));
            }
        }
        visit::visit_item_impl(self, item);
    }

    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        if self.rmcp && is_tool_fn(&f.attrs) {
            self.tools.push((&f.attrs, &f.sig));
        }
        visit::visit_item_fn(self, f);
    }

    fn visit_expr_call(&mut self, call: &'a syn::ExprCall) {
        if let Expr::Path(func) = &*call.func {
            let path = self.facts.expand(&path_strings(&func.path));
            let built = SDK_ROUTERS.iter().find(|(sdk, ty, ctor, _)| {
                path.first().is_some_and(|s| s == sdk)
                    && path.len() >= 3
                    && path[path.len() - 2] == *ty
                    && path[path.len() - 1] == *ctor
            });
            if let Some((_, _, _, router)) = built {
                self.push(call, mcp108::sdk_router(router));
            }
            // `ToolRouter::new()` handed to kodegen_server_http: rmcp's router answers a name
            // no tool has with -32602.
            if self.kodegen_server
                && matches!(
                    path.first().map(String::as_str),
                    Some("rmcp" | "ToolRouter")
                )
                && path.ends_with(&["ToolRouter".to_string(), "new".to_string()])
            {
                self.push(
                    call,
                    mcp108::sdk_router("rmcp's ToolRouter (served by kodegen_server_http)"),
                );
            }
            if self.facts.sdks.tower_mcp && path.ends_with(&TOWER_TIMEOUT.map(String::from)) {
                let finding = mcp104::tower_timeout().at(span_range(self.source, call.span()));
                self.findings.push(finding);
            }
        }
        visit::visit_expr_call(self, call);
    }
}

/// Servers of other SDKs that answer a tools/call naming no tool with a protocol error, by the
/// call that builds them: (crate, type, constructor, what answers). Read in each SDK's source
/// (tower-mcp 0.20 and 0.25, pmcp 2.23, ultrafast-mcp-server 2025-06-18.1, turul at 2026-08):
/// `McpRouter`'s `tool_not_found` is -32601 or -32602 by version, pmcp maps every error to
/// -32603, ultrafast answers -32602 "Tool call failed: Tool not found", turul -32602.
const SDK_ROUTERS: &[(&str, &str, &str, &str)] = &[
    ("tower_mcp", "McpRouter", "new", "tower-mcp's McpRouter"),
    ("pmcp", "Server", "builder", "pmcp's Server"),
    ("pmcp", "ServerBuilder", "new", "pmcp's Server"),
    (
        "ultrafast_mcp",
        "UltraFastServer",
        "new",
        "ultrafast-mcp's server",
    ),
    (
        "ultrafast_mcp_server",
        "UltraFastServer",
        "new",
        "ultrafast-mcp's server",
    ),
    (
        "turul_mcp_server",
        "McpServer",
        "builder",
        "turul's McpServer",
    ),
];

/// tower's timeout layer, by the call that builds it. In a tower-mcp server its `Elapsed`
/// reaches the transport or a `CatchError`, which answers it with a JSON-RPC error (-32603),
/// tools/call included (read in tower-mcp 0.20 and 0.23, `transport/service.rs`). Rate limits
/// and bulkheads refuse the same way, but whether a server-wide overload is a tool's failure
/// is not settled (reviewers disagreed): they are left alone.
const TOWER_TIMEOUT: [&str; 2] = ["TimeoutLayer", "new"];

/// A tool's arguments that rmcp deserializes into a type before the tool runs.
fn typed_arguments(sig: &Signature) -> Vec<&Type> {
    let mut typed = Vec::new();
    for input in &sig.inputs {
        let FnArg::Typed(arg) = input else { continue };
        let legacy = arg.attrs.iter().any(|a| {
            a.path().is_ident("tool") && tokens(a).contains("aggr") || tokens(a).contains("param")
        });
        if legacy || parameters_type(&arg.ty).is_some_and(|t| !is_raw_object(t)) {
            typed.push(&*arg.ty);
        }
    }
    typed
}

/// A hand-over of the call to rmcp's router with no check of the name before it.
fn unchecked_delegation(block: &syn::Block) -> Option<&Expr> {
    let mut calls = RouterCalls::default();
    calls.visit_block(block);
    let checked = ["has_route", "is_disabled", "list_all", "get_tool"]
        .iter()
        .any(|m| calls.methods.contains(&m.to_string()));
    calls.delegation.filter(|_| !checked)
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
