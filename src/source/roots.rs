//! Finds the tools/call roots of a file: the code whose result answers a `tools/call`.

use quote::ToTokens;
use syn::visit::{self, Visit};
use syn::{Attribute, Expr, ImplItem, Lit, Pat, Signature};

use super::facts::{FileFacts, path_strings};
use super::flow::{Body, Root};
use super::site::RootKind;
use super::{is_tool_fn, names};

/// Methods a hand-rolled server's dispatcher matches beside `"tools/call"`.
const SIBLING_METHODS: &[&str] = &[
    "initialize",
    "tools/list",
    "ping",
    "resources/list",
    "prompts/list",
];

/// Function names hand-rolled servers give their tools/call handler. Not `call_tool`: clients
/// have methods of that name too.
const HAND_ROLLED_HANDLERS: &[&str] = &[
    "handle_call_tool",
    "handle_tools_call",
    "handle_tool_call",
    "tools_call",
    "dispatch_tool",
];

pub fn find_roots<'a>(file: &'a syn::File, facts: &FileFacts<'a>) -> Vec<Root<'a>> {
    let mut finder = Finder {
        facts,
        roots: Vec::new(),
    };
    finder.visit_file(file);
    finder.roots
}

struct Finder<'f, 'a> {
    facts: &'f FileFacts<'a>,
    roots: Vec<Root<'a>>,
}

impl<'a> Finder<'_, 'a> {
    fn push(&mut self, kind: RootKind, body: Body<'a>) {
        self.roots.push(Root::new(kind, body));
    }

    /// A `#[tool]` fn is a root when its error type is rmcp's `ErrorData`; rmcp turns other
    /// error types (`String`, `Content`, `()`) into `isError` results.
    fn tool_fn(&mut self, attrs: &[Attribute], sig: &'a Signature, block: &'a syn::Block) {
        let is_tool = is_tool_fn(attrs);
        let syn::ReturnType::Type(_, ret) = &sig.output else {
            return;
        };
        let error = self.facts.result_error_type(ret);
        let rmcp_error = matches!(error, Some(syn::Type::Path(p)) if self.facts.is_rmcp_error(&path_strings(&p.path)));
        let sdk_error = rmcp_error || self.facts.is_sdk_result(ret);
        let kind = match self.facts.sdks.mcp_attr {
            // turbomcp 3 answers a `#[tool]`'s `Err` with an isError result.
            _ if self.facts.sdks.turbomcp => return,
            true if is_tool && sdk_error => RootKind::McpAttrTool,
            false if is_tool && sdk_error => RootKind::RmcpTool,
            _ => return,
        };
        let mut root = Root::new(kind, Body::Block(block));
        root.tool_sig = Some(sig);
        self.roots.push(root);
    }

    /// pulseengine-mcp's `#[mcp_tools] impl`: each public method is a tool, and the generated
    /// `call_tool_impl` sends whatever `Err` it returns as a JSON-RPC error.
    fn pulseengine_tools(&mut self, i: &'a syn::ItemImpl) {
        if !self.facts.sdks.pulseengine || mcp_tools_attribute(i).is_none() {
            return;
        }
        for item in &i.items {
            let ImplItem::Fn(f) = item else { continue };
            let syn::ReturnType::Type(_, ret) = &f.sig.output else {
                continue;
            };
            // The macro reads a return type whose last segment is `Result` (`anyhow::Result<T>`,
            // `Result<T, E>`) as fallible.
            let fallible = matches!(&**ret, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Result"));
            if matches!(f.vis, syn::Visibility::Public(_)) && fallible {
                let mut root = Root::new(RootKind::PulseengineTool, Body::Block(&f.block));
                root.tool_sig = Some(&f.sig);
                self.roots.push(root);
            }
        }
    }

    fn hand_rolled_handler(&mut self, sig: &Signature, block: &'a syn::Block) {
        if HAND_ROLLED_HANDLERS.contains(&sig.ident.to_string().as_str()) {
            self.hand_rolled_type_handler(block);
        }
    }

    /// A hand-rolled tools/call handler's body, in a file that uses no SDK.
    fn hand_rolled_type_handler(&mut self, block: &'a syn::Block) {
        let sdks = self.facts.sdks;
        if !sdks.rmcp && !sdks.rust_mcp_sdk && !sdks.other {
            self.push(RootKind::HandRolled, Body::Block(block));
        }
    }
}

impl<'a> Visit<'a> for Finder<'_, 'a> {
    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        self.tool_fn(&f.attrs, &f.sig, &f.block);
        self.hand_rolled_handler(&f.sig, &f.block);
        visit::visit_item_fn(self, f);
    }

    fn visit_item_impl(&mut self, i: &'a syn::ItemImpl) {
        self.pulseengine_tools(i);
        let trait_name = i
            .trait_
            .as_ref()
            .and_then(|(path, _)| path.segments.last())
            .map(|s| s.ident.to_string());
        for item in &i.items {
            let ImplItem::Fn(f) = item else { continue };
            let name = f.sig.ident.to_string();
            match (trait_name.as_deref(), name.as_str()) {
                (Some("ServerHandler"), "call_tool") if is_rmcp_call_tool(self.facts, &f.sig) => {
                    let mut root = Root::new(RootKind::RmcpCallTool, Body::Block(&f.block));
                    root.call_params = call_params(&f.sig);
                    self.roots.push(root);
                }
                // rmcp's toolbox: a `ToolBase`'s `Error` is `Into<ErrorData>`, so whatever
                // `invoke` returns as `Err` is sent as a JSON-RPC error.
                (Some("AsyncTool" | "SyncTool"), "invoke") if self.facts.sdks.rmcp => {
                    let mut root = Root::new(RootKind::RmcpTool, Body::Block(&f.block));
                    root.tool_sig = Some(&f.sig);
                    self.roots.push(root);
                }
                (Some("ToolHandler"), "handle") if self.facts.sdks.pmcp => {
                    self.push(RootKind::PmcpTool, Body::Block(&f.block));
                }
                (Some("Tool"), "execute") if self.facts.sdks.kodegen => {
                    self.push(RootKind::KodegenTool, Body::Block(&f.block));
                }
                (Some("McpHandler"), "call_tool") if self.facts.sdks.turbomcp => {
                    self.push(RootKind::TurbomcpCallTool, Body::Block(&f.block));
                }
                (Some("ToolHandler"), "handle_tool_call") if self.facts.sdks.ultrafast => {
                    self.push(RootKind::UltrafastTool, Body::Block(&f.block));
                }
                (Some("ServerHandler"), "handle_call_tool_request_mrtr") => {
                    self.push(RootKind::RustMcpSdkCore, Body::Block(&f.block));
                }
                (Some("ServerHandlerCore"), "handle_request") => {
                    let mut arms = CallToolArms(Vec::new());
                    arms.visit_block(&f.block);
                    for body in arms.0 {
                        self.push(RootKind::RustMcpSdkCore, Body::Expr(body));
                    }
                }
                // tower-mcp middleware: `impl Service<RouterRequest> { fn call }` sees every
                // request, tools/call among them.
                (Some("Service"), "call") if serves_router_requests(i) => {
                    self.push(RootKind::HandRolled, Body::Block(&f.block));
                }
                (None, _) => self.hand_rolled_handler(&f.sig, &f.block),
                // `impl CommandHandler for ToolsCallHandler { fn handle(..) }`: the handler a
                // hand-rolled server registers for "tools/call".
                (Some(_), "handle" | "call" | "execute" | "process")
                    if handles_tools_call(&i.self_ty) =>
                {
                    self.hand_rolled_type_handler(&f.block);
                }
                _ => {}
            }
            self.tool_fn(&f.attrs, &f.sig, &f.block);
        }
        visit::visit_item_impl(self, i);
    }

    /// rmcp's dynamic routes, `ToolRoute::new_dyn(tool, |context| Box::pin(async move { .. }))`:
    /// the closure is the tool, whose `Err` the router sends as a JSON-RPC error.
    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if self.facts.sdks.rmcp
            && let Expr::Path(p) = &*c.func
            && let [.., route, new] = &path_strings(&p.path)[..]
            && route == "ToolRoute"
            && new == "new_dyn"
            && let Some(Expr::Closure(tool)) = c.args.last()
        {
            self.roots
                .push(Root::new(RootKind::RmcpTool, Body::Expr(&tool.body)));
        }
        visit::visit_expr_call(self, c);
    }

    /// jsonrpc-core's `io.add_method("tools/call", |params| async move { .. })`.
    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        let registers = matches!(
            m.method.to_string().as_str(),
            "add_method" | "add_sync_method" | "add_method_with_meta"
        );
        if registers
            && self.facts.sdks.jsonrpc
            && let [method, Expr::Closure(handler)] = m.args.iter().collect::<Vec<_>>()[..]
            && is_tools_call(method)
        {
            let mut root = Root::new(RootKind::JsonRpcMethod, Body::Expr(&handler.body));
            root.request = handler.inputs.first().and_then(|input| match input {
                Pat::Type(t) => match &*t.pat {
                    Pat::Ident(i) => Some(&i.ident),
                    _ => None,
                },
                Pat::Ident(i) => Some(&i.ident),
                _ => None,
            });
            self.roots.push(root);
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        if let Some(arm) = tools_call_arm(m) {
            self.push(RootKind::HandRolled, Body::Expr(&arm.body));
        }
        visit::visit_expr_match(self, m);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        // The caller of a dispatcher converts the `Err` its tools/call arm passes on.
        if let Expr::Match(m) = expr
            && converts_a_dispatcher(m, self.facts)
        {
            self.push(RootKind::HandRolled, Body::Expr(expr));
        }
        visit::visit_expr(self, expr);
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        if compares_to_tools_call(&i.cond, true) {
            self.push(RootKind::HandRolled, Body::Block(&i.then_branch));
        }
        visit::visit_expr_if(self, i);
    }

    /// `if method != "tools/call" { return ..; }`: the rest of the block handles tools/call.
    fn visit_block(&mut self, block: &'a syn::Block) {
        let guard = block.stmts.iter().position(|stmt| {
            let syn::Stmt::Expr(Expr::If(i), _) = stmt else {
                return false;
            };
            let diverges = matches!(
                i.then_branch.stmts.last(),
                Some(syn::Stmt::Expr(Expr::Return(_), _))
            );
            i.else_branch.is_none() && diverges && compares_to_tools_call(&i.cond, false)
        });
        if let Some(n) = guard {
            self.push(RootKind::HandRolled, Body::Rest(block, n + 1));
        }
        // `let result = match method { "tools/call" => handle(..), .. };` (or a call of a
        // dispatcher) then `match result { Err(e) => error_response(..) }`: what follows
        // converts the tools/call handler's errors.
        for (n, stmt) in block.stmts.iter().enumerate() {
            let syn::Stmt::Local(local) = stmt else {
                continue;
            };
            let name = match &local.pat {
                Pat::Type(t) => &*t.pat,
                pat => pat,
            };
            let (Pat::Ident(name), Some(init)) = (name, &local.init) else {
                continue;
            };
            // `let result = dispatch(server, method, params).await;` on a function of the
            // crate that dispatches tools/call: the local is what its tools/call arm passes on.
            let value = match tools_call_arm_in(&init.expr) {
                Some(arm) => Some(&*arm.body),
                None => super::flow::callee(&init.expr)
                    .is_some_and(|n| self.facts.is_dispatcher(&n))
                    .then_some(&*init.expr),
            };
            if let Some(value) = value {
                let mut root = Root::new(RootKind::HandRolled, Body::Rest(block, n + 1));
                root.seeded = Some((&name.ident, value));
                self.roots.push(root);
            }
        }
        visit::visit_block(self, block);
    }
}

/// Per function of `file` that dispatches on the method with a `"tools/call"` arm: the calls
/// whose `Err` that arm passes on to the function's caller (`"tools/call" =>
/// server.handle_tool_call(..).await?`, or its value). The caller's conversion of the
/// function's `Err` answers those calls' failures.
pub fn dispatchers(file: &syn::File) -> std::collections::HashMap<String, Vec<String>> {
    #[derive(Default)]
    struct Arms<'a>(Vec<&'a Expr>);
    impl<'a> Visit<'a> for Arms<'a> {
        fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
            if let Some(arm) = tools_call_arm(m) {
                self.0.push(&arm.body);
            }
            visit::visit_expr_match(self, m);
        }
    }
    /// The calls an arm passes on: `call(..)?` anywhere in it, and its value.
    #[derive(Default)]
    struct Passed(Vec<String>);
    impl<'a> Visit<'a> for Passed {
        fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
            self.0.extend(super::flow::callee(&t.expr));
            visit::visit_expr_try(self, t);
        }
        fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}
    }
    let mut out = std::collections::HashMap::new();
    let mut record = |name: String, block: &syn::Block| {
        let mut arms = Arms::default();
        arms.visit_block(block);
        let mut passed = Passed::default();
        for arm in arms.0 {
            passed.visit_expr(arm);
            let tails = super::flow::tails(arm);
            passed
                .0
                .extend(tails.into_iter().filter_map(super::flow::callee));
        }
        if !passed.0.is_empty() {
            out.insert(name, passed.0);
        }
    };
    for item in &file.items {
        match item {
            syn::Item::Fn(f) => record(super::names::free(&f.sig.ident), &f.block),
            syn::Item::Impl(i) => {
                for item in &i.items {
                    if let ImplItem::Fn(f) = item {
                        record(super::names::method(&f.sig.ident), &f.block);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// [`dispatchers`] of a file's text, read in phase zero for the crate's other files: only a
/// text that names `"tools/call"` is parsed.
pub fn dispatchers_in(text: &str) -> Vec<(String, Vec<String>)> {
    if memchr::memmem::find(text.as_bytes(), b"\"tools/call\"").is_none() {
        return Vec::new();
    }
    let Ok(file) = super::parse(text) else {
        return Vec::new();
    };
    let mut found: Vec<(String, Vec<String>)> = dispatchers(&file).into_iter().collect();
    found.sort();
    proc_macro2::extra::invalidate_current_thread_spans();
    found
}

/// The `"tools/call"` arm of a method `match` that is the value of `expr`, or of one of its
/// branches (`if heavy { spawn_blocking(..).await } else { match method { .. } }`).
fn tools_call_arm_in(expr: &Expr) -> Option<&syn::Arm> {
    match expr {
        Expr::Match(m) => tools_call_arm(m),
        Expr::If(i) => {
            let then = match i.then_branch.stmts.last() {
                Some(syn::Stmt::Expr(tail, None)) => tools_call_arm_in(tail),
                _ => None,
            };
            then.or_else(|| tools_call_arm_in(&i.else_branch.as_ref()?.1))
        }
        Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => tools_call_arm_in(tail),
            _ => None,
        },
        _ => None,
    }
}

/// `match dispatch(..).await { .., Err(e) => .. }` on a function of the crate that dispatches
/// tools/call (see [`dispatchers`]).
fn converts_a_dispatcher(m: &syn::ExprMatch, facts: &FileFacts) -> bool {
    let dispatches = super::flow::callee(&m.expr).is_some_and(|n| facts.is_dispatcher(&n));
    let converts = m
        .arms
        .iter()
        .any(|arm| matches!(&arm.pat, Pat::TupleStruct(t) if t.path.is_ident("Err")));
    dispatches && converts
}

/// The `"tools/call"` arm of a hand-rolled dispatcher's `match` on the method.
fn tools_call_arm(m: &syn::ExprMatch) -> Option<&syn::Arm> {
    let methods: Vec<Vec<String>> = m.arms.iter().map(|a| string_patterns(&a.pat)).collect();
    let dispatches = methods
        .iter()
        .flatten()
        .any(|s| SIBLING_METHODS.contains(&s.as_str()));
    m.arms
        .iter()
        .zip(&methods)
        // Not an arm that answers other methods alike (`"initialize" | "tools/call" => true`).
        .find(|(_, names)| {
            dispatches
                && names.iter().any(|n| n == "tools/call")
                && !names.iter().any(|n| SIBLING_METHODS.contains(&n.as_str()))
        })
        .map(|(arm, _)| arm)
}

/// A type named for the tools/call handler: `ToolsCallHandler`, `CallToolHandler`.
fn handles_tools_call(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    let name = last.ident.to_string().to_lowercase();
    name.ends_with("handler")
        && ["toolscall", "toolcall", "calltool"]
            .iter()
            .any(|n| name.contains(n))
}

/// `impl Service<RouterRequest> for ..`: a tower-mcp layer between the transport and the router.
fn serves_router_requests(i: &syn::ItemImpl) -> bool {
    let Some((path, _)) = &i.trait_ else {
        return false;
    };
    path.segments.last().is_some_and(|s| {
        let syn::PathArguments::AngleBracketed(args) = &s.arguments else {
            return false;
        };
        args.args.iter().any(|a| {
            matches!(a, syn::GenericArgument::Type(syn::Type::Path(t))
                if t.path.segments.last().is_some_and(|s| s.ident == "RouterRequest"))
        })
    })
}

/// How a function returning the SDK's `Result` that a tools/call root passes on is walked:
/// as jsonrpc-core's or turbomcp's, in a file that uses it and not rmcp; else an rmcp helper.
pub fn helper_kind(facts: &FileFacts) -> RootKind {
    match facts.sdks {
        s if s.rmcp => RootKind::RmcpHelper,
        s if s.jsonrpc => RootKind::JsonRpcMethod,
        s if s.turbomcp => RootKind::TurbomcpCallTool,
        _ => RootKind::RmcpHelper,
    }
}

/// rmcp's `call_tool`: confirmed by an rmcp import or rmcp's parameter types, since other
/// frameworks also have traits called `ServerHandler`.
/// The functions of the file `name` (as named to mcp-lint) that a hand-rolled root of another
/// file answers with (`"tools/call" => tools::call(params, id)`, by module-qualified name
/// `is_entry` says): hand-rolled roots here, in a stable order.
pub fn entered<'a>(
    facts: &FileFacts<'a>,
    name: &str,
    is_entry: impl Fn(&str) -> bool,
) -> Vec<Root<'a>> {
    let mut entries: Vec<_> = (facts.fns.iter())
        // A dispatcher's tools/call arm is a root already; its other arms answer other methods.
        .filter(|(f, _)| !facts.is_dispatcher(f))
        .filter(|(f, _)| names::in_module(name, f).is_some_and(|q| is_entry(&q)))
        .collect();
    entries.sort_by_key(|(f, _)| f.as_str());
    let blocks = entries.into_iter().flat_map(|(_, blocks)| blocks.iter());
    blocks
        .map(|&b| Root::new(RootKind::HandRolled, Body::Block(b)))
        .collect()
}

/// What a manual `call_tool` binds the request to (`request: CallToolRequestParams`): its
/// `arguments` are the tool's arguments whole.
fn call_params(sig: &Signature) -> Option<&syn::Ident> {
    sig.inputs.iter().find_map(|input| {
        let syn::FnArg::Typed(t) = input else {
            return None;
        };
        let syn::Type::Path(ty) = &*t.ty else {
            return None;
        };
        let named = ty.path.segments.last()?.ident.to_string();
        match &*t.pat {
            Pat::Ident(p) if named.starts_with("CallToolRequestParam") => Some(&p.ident),
            _ => None,
        }
    })
}

fn is_rmcp_call_tool(facts: &FileFacts, sig: &Signature) -> bool {
    let text = sig.to_token_stream().to_string();
    facts.sdks.rmcp || text.contains("RoleServer") || text.contains("CallToolRequestParam")
}

/// The arms `RequestFromClient::CallToolRequest(params) => ..` of rust-mcp-sdk's core handler.
struct CallToolArms<'a>(Vec<&'a Expr>);

impl<'a> Visit<'a> for CallToolArms<'a> {
    fn visit_arm(&mut self, arm: &'a syn::Arm) {
        let path = match &arm.pat {
            Pat::TupleStruct(t) => Some(&t.path),
            Pat::Struct(s) => Some(&s.path),
            Pat::Path(p) => Some(&p.path),
            _ => None,
        };
        if path
            .and_then(|p| p.segments.last())
            .is_some_and(|s| s.ident == "CallToolRequest")
        {
            self.0.push(&arm.body);
        }
        visit::visit_arm(self, arm);
    }
}

/// The literal `"tools/call"`, or a constant named for it (`TOOLS_CALL`).
fn is_tools_call(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(l) => matches!(&l.lit, Lit::Str(s) if s.value() == "tools/call"),
        Expr::Path(p) => method_constant(&p.path).as_deref() == Some("tools/call"),
        _ => false,
    }
}

/// The method a constant is named for: `methods::TOOLS_CALL`, `METHOD_TOOLS_LIST`, `INITIALIZE`
/// (servers that name their method strings match on the constants, not the literals).
fn method_constant(path: &syn::Path) -> Option<String> {
    let name = path.segments.last()?.ident.to_string();
    let screaming = name
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !screaming || name.len() < 4 {
        return None;
    }
    let name = name.strip_prefix("METHOD_").unwrap_or(&name);
    let name = name.strip_suffix("_METHOD").unwrap_or(name);
    Some(name.to_ascii_lowercase().replace('_', "/"))
}

/// The string literals an arm pattern matches (`"tools/call" | "tools.call"`, `Some("tools/call")`).
fn string_patterns(pat: &Pat) -> Vec<String> {
    match pat {
        Pat::Lit(l) => match &l.lit {
            Lit::Str(s) => vec![s.value()],
            _ => Vec::new(),
        },
        Pat::Or(o) => o.cases.iter().flat_map(string_patterns).collect(),
        Pat::Path(p) => method_constant(&p.path).into_iter().collect(),
        // `match request["method"].as_str() { Some("tools/call") => .. }`
        Pat::TupleStruct(t) if t.path.is_ident("Some") && t.elems.len() == 1 => {
            string_patterns(&t.elems[0])
        }
        _ => Vec::new(),
    }
}

/// `method == "tools/call"`, `req.method.as_str() == "tools/call"`; with `equal` false,
/// `method != "tools/call"`.
fn compares_to_tools_call(cond: &Expr, equal: bool) -> bool {
    let Expr::Binary(b) = cond else { return false };
    // `method == "tools/call" && tool_is_blocked(..)` still only answers tools/call, and
    // `method != "tools/call" || ..` still turns every other method away.
    let narrowing = match equal {
        true => matches!(b.op, syn::BinOp::And(_)),
        false => matches!(b.op, syn::BinOp::Or(_)),
    };
    if narrowing {
        return compares_to_tools_call(&b.left, equal) || compares_to_tools_call(&b.right, equal);
    }
    let op = match equal {
        true => matches!(b.op, syn::BinOp::Eq(_)),
        false => matches!(b.op, syn::BinOp::Ne(_)),
    };
    op && (is_tools_call(&b.left) || is_tools_call(&b.right))
}

/// pulseengine-mcp's `#[mcp_tools]` on an impl.
pub fn mcp_tools_attribute(item: &syn::ItemImpl) -> Option<&Attribute> {
    item.attrs.iter().find(|a| {
        path_strings(a.path())
            .last()
            .is_some_and(|s| s == "mcp_tools")
    })
}
