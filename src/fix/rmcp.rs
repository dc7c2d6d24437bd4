//! The rewrites of rmcp protocol errors into tool execution errors (SEP-2145):
//!
//! - `return Err(McpError::..(msg, ..))`, and an `Err(..)` the function ends with, become
//!   `Ok(CallToolResult::error(vec![Content::text(msg)]))`;
//! - `x.map_err(|e| McpError::..(msg, ..))?` becomes a `match` whose `Err(e)` arm returns it;
//! - `let v = x.ok_or(McpError::..(msg, ..))?;` (or `ok_or_else(|| ..)`) becomes
//!   `let Some(v) = x else { return Ok(..) };`, and a `match` elsewhere.
//!
//! Only in rmcp's `#[tool]` functions and `call_tool` that return `Result<CallToolResult, _>`:
//! elsewhere no rewrite is sure to be right, and the finding says why. Every rewrite changes
//! what clients receive, so every fix is unsafe.

use std::cell::OnceCell;
use std::ops::Range;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Block, Expr, ReturnType, Signature, Stmt};

use crate::evidence::RootKind;
use crate::finding::{Applicability, Edit, Fix};
use crate::source::span_range;
use crate::text::SourceText;

/// Rewrites the protocol errors of one parsed file.
pub struct Rewriter<'a> {
    file: &'a syn::File,
    source: &'a SourceText,
    /// The name of rmcp's text content constructor's type, as the file can write it.
    content: OnceCell<Result<String, &'static str>>,
    rmcp_major: &'a dyn Fn() -> Option<u64>,
}

impl<'a> Rewriter<'a> {
    /// `rmcp_major`: the major version of rmcp the file is built with, if known.
    pub fn new(
        file: &'a syn::File,
        source: &'a SourceText,
        rmcp_major: &'a dyn Fn() -> Option<u64>,
    ) -> Self {
        Rewriter {
            file,
            source,
            content: OnceCell::new(),
            rmcp_major,
        }
    }

    /// The fix for the protocol error built at `error` in a root of kind `root`, or why there
    /// is none. `sep_text` is the text the SEP recommends for the case ("Unknown tool: <name>.
    /// Re-run tools/list and retry."): an error without a message of its own gets it, where
    /// the only blank in it is the tool's name and `call_tool` has it at hand.
    pub fn tool_error(
        &self,
        root: RootKind,
        error: &Range<usize>,
        sep_text: &str,
    ) -> Result<Fix, &'static str> {
        match root {
            RootKind::RmcpTool | RootKind::RmcpCallTool => {}
            RootKind::RmcpHelper | RootKind::Converted => {
                return Err(
                    "the error is built in a helper, whose other callers may expect an `Err`",
                );
            }
            _ => {
                return Err(
                    "mcp-lint rewrites only rmcp's `#[tool]` functions and `call_tool` so far",
                );
            }
        }
        let (sig, block) = self
            .enclosing_fn(error)
            .ok_or("the error is built outside a function's own code")?;
        let (result, into) = self.call_tool_result(sig).ok_or(
            "the function does not return `Result<CallToolResult, _>`, so a tool error does not fit its type",
        )?;
        // syn leaves macro bodies unparsed: an error inside `tokio::select!` is not found.
        let path = path_to(block, error, self.source).ok_or(
            "the error is not one expression mcp-lint can rewrite (it is in a macro, or passed on from a call)",
        )?;
        let Some(Node::Expr(Expr::Call(call))) = path.last() else {
            return Err("the error is not built by a constructor call that names its message");
        };
        let message = match self.message(call)? {
            Some(message) => message,
            None => self
                .sep_message(sig, sep_text)
                .ok_or("the error has no message to keep, and no text of the SEP fits")?,
        };
        let content = self.content()?;
        let tool_error = format!("Ok({result}::error(vec![{content}::text({message})]){into})");
        let edit = self.rewrite(&path, &tool_error).ok_or(
            "the error does not leave the function by `return`, its tail, `.map_err(..)?` or `.ok_or(..)?`",
        )?;
        Ok(Fix {
            applicability: Applicability::Unsafe,
            edits: vec![edit],
        })
    }

    /// The fix for a `call_tool` that hands every call to rmcp's router at `delegation`
    /// (`router.call(ctx)`) without checking the name (MCP108): a `has_route` check that
    /// answers a name with no route with `sep_text`, just before the request goes into the
    /// `ToolCallContext`. Only where that is sure to run on every way to the router and to see
    /// the request as the router would: the request binding is neither `mut` nor shadowed, and
    /// both the context and the call are built in the body's own statements, not under a
    /// condition (a name handled before, `"special" => ..`, stays handled).
    pub fn route_check(
        &self,
        call_tool: &syn::ImplItemFn,
        delegation: &Expr,
        sep_text: &str,
    ) -> Result<Fix, &'static str> {
        const NOT_STRAIGHT: &str = "the request does not go straight from the parameter to the router in the body's own statements";
        let sig = &call_tool.sig;
        let (result, into) = self.call_tool_result(sig).ok_or(
            "call_tool does not return `Result<CallToolResult, _>`, so a tool error does not fit its type",
        )?;
        let request =
            request_param(sig).ok_or("call_tool has no request parameter bound to a name")?;
        let Expr::MethodCall(call) = delegation else {
            return Err(NOT_STRAIGHT);
        };
        // The router, evaluated once more for the check: a field, or `Self::tool_router()`.
        let router_ok = match call.receiver.as_ref() {
            Expr::Field(_) => true,
            Expr::Call(c) => c.args.is_empty(),
            _ => false,
        };
        if !router_ok || request.mutability.is_some() || request.by_ref.is_some() {
            return Err(NOT_STRAIGHT);
        }
        let name = request.ident.to_string();
        let mut body = BodyFacts {
            name: &name,
            shadowed: false,
            contexts: Vec::new(),
        };
        body.visit_block(&call_tool.block);
        let ([context], false) = (body.contexts.as_slice(), body.shadowed) else {
            return Err(NOT_STRAIGHT);
        };
        let stmts = &call_tool.block.stmts;
        let holding = |target: &Expr| {
            let range = span_range(self.source, target.span());
            stmts
                .iter()
                .position(|stmt| straight_in(stmt, &range, self.source))
        };
        let (Some(at), Some(delegated)) = (holding(context), holding(delegation)) else {
            return Err(NOT_STRAIGHT);
        };
        if delegated < at {
            return Err(NOT_STRAIGHT);
        }
        let message = self.sep_message(sig, sep_text).ok_or(NOT_STRAIGHT)?;
        let content = self.content()?;
        let router = self.text(call.receiver.span());
        let indent = self.indent(stmts[at].span());
        let text = format!(
            "if !{router}.has_route(&{name}.name) {{\n{indent}    return Ok({result}::error(vec![{content}::text({message})]){into});\n{indent}}}\n{indent}"
        );
        let start = span_range(self.source, stmts[at].span()).start;
        Ok(Fix {
            applicability: Applicability::Unsafe,
            edits: vec![Edit {
                range: start..start,
                text,
            }],
        })
    }

    /// The innermost function (free or in an impl) whose body holds `span`.
    fn enclosing_fn(&self, span: &Range<usize>) -> Option<(&'a Signature, &'a Block)> {
        struct Find<'s, 'a> {
            source: &'s SourceText,
            span: &'s Range<usize>,
            found: Option<(&'a Signature, &'a Block)>,
        }
        impl<'a> Find<'_, 'a> {
            fn consider(&mut self, sig: &'a Signature, block: &'a Block) {
                let range = span_range(self.source, block.span());
                if range.start <= self.span.start && self.span.end <= range.end {
                    self.found = Some((sig, block)); // visited outer first: the last is innermost
                }
            }
        }
        impl<'a> Visit<'a> for Find<'_, 'a> {
            fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
                self.consider(&f.sig, &f.block);
                visit::visit_item_fn(self, f);
            }
            fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
                self.consider(&f.sig, &f.block);
                visit::visit_impl_item_fn(self, f);
            }
        }
        let mut find = Find {
            source: self.source,
            span,
            found: None,
        };
        find.visit_file(self.file);
        find.found
    }

    /// `CallToolResult` as the file can write it, when the function returns
    /// `Result<CallToolResult, _>` (or an alias), or rmcp 3's `Result<CallToolResponse, _>` (then with the
    /// `.into()` that makes a result a response).
    fn call_tool_result(&self, sig: &Signature) -> Option<(String, &'static str)> {
        let ReturnType::Type(_, ty) = &sig.output else {
            return None;
        };
        let syn::Type::Path(result) = ty.as_ref() else {
            return None;
        };
        let last = result.path.segments.last()?;
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return None;
        };
        let Some(syn::GenericArgument::Type(syn::Type::Path(ok))) = args.args.first() else {
            return None;
        };
        let ok_last = ok.path.segments.last()?;
        // `Result`, or a crate's alias of it (`McpResult<CallToolResult>`).
        if !last.ident.to_string().ends_with("Result") || !ok_last.arguments.is_empty() {
            return None;
        }
        if ok_last.ident == "CallToolResult" {
            let written = self.source.snippet(&span_range(self.source, ok.span()));
            return Some((written.to_string(), ""));
        }
        let imported = Imports::of(self.file)
            .names
            .iter()
            .any(|n| n == "CallToolResult");
        let result = match imported {
            true => "CallToolResult",
            false => "rmcp::model::CallToolResult",
        };
        (ok_last.ident == "CallToolResponse").then(|| (result.to_string(), ".into()"))
    }

    /// The message argument of one of rmcp's constructors (`internal_error(msg, data)`,
    /// `new(code, msg, data)`), as written; `None` when it has none of its own.
    fn message(&self, call: &syn::ExprCall) -> Result<Option<String>, &'static str> {
        let Expr::Path(func) = call.func.as_ref() else {
            return Err("the error is not built by a constructor call that names its message");
        };
        let segments = &func.path.segments;
        let constructor = segments.last().map(|s| s.ident.to_string());
        // `ErrorData::internal_error(message, data)`, `ErrorData::new(code, message, data)`:
        // a function of the crate's own (`tool_not_found(name)`) words its message itself.
        let arity = CONSTRUCTORS
            .iter()
            .find(|(name, _)| constructor.as_deref() == Some(*name))
            .map(|(_, arity)| *arity);
        if segments.len() < 2 || arity != Some(call.args.len()) {
            return Err(
                "the error is built by a function of the crate's own, whose message mcp-lint does not see",
            );
        }
        let at = usize::from(constructor.as_deref() == Some("new"));
        let Some(message) = call.args.iter().nth(at) else {
            return Ok(None); // `method_not_found::<M>()`
        };
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = message
            && s.value().trim().is_empty()
        {
            return Ok(None);
        }
        Ok(Some(self.text(message.span()).to_string()))
    }

    /// `sep_text` with the tool's name in it, in `call_tool` (whose request parameter holds the
    /// name), when the name is its only blank.
    fn sep_message(&self, sig: &Signature, sep_text: &str) -> Option<String> {
        let (before, after) = sep_text.split_once("<name>")?;
        if after.contains('<') || before.contains('<') || sig.ident != "call_tool" {
            return None;
        }
        let request = &request_param(sig)?.ident;
        Some(format!(
            "format!({:?}, {request}.name)",
            format!("{before}{{}}{after}")
        ))
    }

    /// rmcp's text content type as the file can name it: `Content` before rmcp 2,
    /// `ContentBlock` since; bare when the file imports it (or all of `rmcp::model`).
    fn content(&self) -> Result<String, &'static str> {
        self.content
            .get_or_init(|| {
                let imports = Imports::of(self.file);
                let name = match (self.rmcp_major)() {
                    Some(major) if major >= 2 => "ContentBlock",
                    Some(_) => "Content",
                    None if imports.names.iter().any(|n| n == "ContentBlock") => "ContentBlock",
                    None if imports.names.iter().any(|n| n == "Content") => "Content",
                    None => return Err(super::UNKNOWN_RMCP),
                };
                Ok(
                    match imports.names.iter().any(|n| n == name) || imports.model_glob {
                        true => name.to_string(),
                        false => format!("rmcp::model::{name}"),
                    },
                )
            })
            .clone()
    }

    /// The edit that returns `tool_error` where the error at the end of `path` leaves the
    /// function, if it leaves it in a way this module knows.
    fn rewrite(&self, path: &[Node<'a>], tool_error: &str) -> Option<Edit> {
        let error = path.len() - 1;
        let parent = |n: usize| path.get(error.checked_sub(n)?).copied();
        match (parent(1)?, parent(2), parent(3)) {
            // `Err(error)`, returned or the function's value.
            (Node::Expr(Expr::Call(err)), ..) if is_err_call(err) && returns(path, error - 1) => {
                Some(self.replace(err.span(), tool_error.to_string()))
            }
            // `.map_err(|e| error)?`
            (
                Node::Expr(Expr::Closure(closure)),
                Some(Node::Expr(Expr::MethodCall(call))),
                Some(Node::Expr(Expr::Try(tried))),
            ) if call.method == "map_err" && closure.inputs.len() == 1 && in_body(path) => {
                let pattern = match &closure.inputs[0] {
                    syn::Pat::Type(typed) => typed.pat.as_ref(),
                    pattern => pattern,
                };
                let pattern = self.text(pattern.span());
                let arms = [
                    "Ok(value) => value,".to_string(),
                    format!("Err({pattern}) => return {tool_error},"),
                ];
                Some(self.match_edit(tried, &call.receiver, &arms))
            }
            // `.ok_or(error)?`, `.ok_or_else(|| error)?`
            (Node::Expr(Expr::MethodCall(call)), Some(Node::Expr(Expr::Try(tried))), _)
                if call.method == "ok_or" && in_body(path) =>
            {
                self.unwrap_option(path, error - 2, tried, &call.receiver, tool_error)
            }
            (
                Node::Expr(Expr::Closure(closure)),
                Some(Node::Expr(Expr::MethodCall(call))),
                Some(Node::Expr(Expr::Try(tried))),
            ) if call.method == "ok_or_else" && closure.inputs.is_empty() && in_body(path) => {
                self.unwrap_option(path, error - 3, tried, &call.receiver, tool_error)
            }
            _ => None,
        }
    }

    /// `let v = x.ok_or(..)?;` as `let Some(v) = x else { .. };`, and any other `x.ok_or(..)?`
    /// as a `match`.
    fn unwrap_option(
        &self,
        path: &[Node<'a>],
        tried_at: usize,
        tried: &syn::ExprTry,
        option: &Expr,
        tool_error: &str,
    ) -> Option<Edit> {
        let local = tried_at.checked_sub(1).and_then(|n| match path[n] {
            Node::Local(local) => Some(local),
            _ => None,
        });
        if let Some(local) = local
            && local.init.as_ref().is_some_and(|i| i.diverge.is_none())
            && !matches!(local.pat, syn::Pat::Type(_))
            && local.attrs.is_empty()
        {
            let indent = self.indent(local.span());
            let text = format!(
                "let Some({}) = {} else {{\n{indent}    return {tool_error};\n{indent}}};",
                self.text(local.pat.span()),
                self.text(option.span()),
            );
            return Some(self.replace(local.span(), text));
        }
        let arms = [
            "Some(value) => value,".to_string(),
            format!("None => return {tool_error},"),
        ];
        Some(self.match_edit(tried, option, &arms))
    }

    /// Replaces `tried` (`scrutinee...?`) with a `match scrutinee` of `arms`, indented as
    /// the line it starts on.
    fn match_edit(&self, tried: &syn::ExprTry, scrutinee: &Expr, arms: &[String]) -> Edit {
        let indent = self.indent(tried.span());
        let mut text = format!("match {} {{\n", self.text(scrutinee.span()));
        for arm in arms {
            text.push_str(&format!("{indent}    {arm}\n"));
        }
        text.push_str(&format!("{indent}}}"));
        self.replace(tried.span(), text)
    }

    fn replace(&self, span: proc_macro2::Span, text: String) -> Edit {
        Edit {
            range: span_range(self.source, span),
            text,
        }
    }

    fn text(&self, span: proc_macro2::Span) -> &str {
        self.source.snippet(&span_range(self.source, span))
    }

    /// The blanks that start the line `span` starts on.
    fn indent(&self, span: proc_macro2::Span) -> String {
        super::indent(self.source, span_range(self.source, span).start).to_string()
    }
}

/// rmcp's constructors of `ErrorData`, with their number of arguments: the message is the
/// first, or the second of `new(code, message, data)`.
const CONSTRUCTORS: &[(&str, usize)] = &[
    ("new", 3),
    ("invalid_params", 2),
    ("invalid_request", 2),
    ("internal_error", 2),
    ("parse_error", 2),
    ("resource_not_found", 2),
    ("method_not_found", 0),
];

/// A node on the way from a function's body to an expression in it.
#[derive(Clone, Copy)]
enum Node<'a> {
    Block(&'a Block),
    Stmt(&'a Stmt),
    Local(&'a syn::Local),
    Arm(&'a syn::Arm),
    Expr(&'a Expr),
}

/// The nodes from `body` down to the expression whose span is `target`, itself last.
fn path_to<'a>(
    body: &'a Block,
    target: &Range<usize>,
    source: &SourceText,
) -> Option<Vec<Node<'a>>> {
    struct Walk<'s, 'a> {
        source: &'s SourceText,
        target: &'s Range<usize>,
        stack: Vec<Node<'a>>,
        found: Option<Vec<Node<'a>>>,
    }
    impl<'a> Walk<'_, 'a> {
        fn holds(&self, span: proc_macro2::Span) -> bool {
            let range = span_range(self.source, span);
            self.found.is_none() && range.start <= self.target.start && self.target.end <= range.end
        }
    }
    impl<'a> Visit<'a> for Walk<'_, 'a> {
        fn visit_block(&mut self, b: &'a Block) {
            if self.holds(b.span()) {
                self.stack.push(Node::Block(b));
                visit::visit_block(self, b);
                self.stack.pop();
            }
        }
        fn visit_stmt(&mut self, s: &'a Stmt) {
            if self.holds(s.span()) {
                self.stack.push(Node::Stmt(s));
                visit::visit_stmt(self, s);
                self.stack.pop();
            }
        }
        fn visit_local(&mut self, l: &'a syn::Local) {
            self.stack.push(Node::Local(l));
            visit::visit_local(self, l);
            self.stack.pop();
        }
        fn visit_arm(&mut self, a: &'a syn::Arm) {
            if self.holds(a.span()) {
                self.stack.push(Node::Arm(a));
                visit::visit_arm(self, a);
                self.stack.pop();
            }
        }
        fn visit_expr(&mut self, e: &'a Expr) {
            if !self.holds(e.span()) {
                return;
            }
            self.stack.push(Node::Expr(e));
            if span_range(self.source, e.span()) == *self.target {
                self.found = Some(self.stack.clone());
            } else {
                visit::visit_expr(self, e);
            }
            self.stack.pop();
        }
        // A nested function's errors are its own.
        fn visit_item(&mut self, _: &'a syn::Item) {}
    }
    let mut walk = Walk {
        source,
        target,
        stack: Vec::new(),
        found: None,
    };
    walk.visit_block(body);
    walk.found
}

fn is_err_call(call: &syn::ExprCall) -> bool {
    matches!(call.func.as_ref(), Expr::Path(p) if p.path.is_ident("Err")) && call.args.len() == 1
}

/// Whether the value at `path[at]` is what the function returns: the operand of a `return`,
/// or in tail position all the way up (through blocks, `if` branches and `match` arms).
fn returns(path: &[Node], at: usize) -> bool {
    let mut child = path[at];
    for &node in path[..at].iter().rev() {
        let tail = match (node, child) {
            (Node::Expr(Expr::Return(_)), _) => return in_body(&path[..at]),
            (Node::Expr(Expr::Paren(_) | Expr::Block(_) | Expr::Unsafe(_)), _) => true,
            (Node::Stmt(Stmt::Expr(_, None)), _) => true,
            (Node::Block(block), Node::Stmt(stmt)) => {
                block.stmts.last().is_some_and(|s| std::ptr::eq(s, stmt))
            }
            (Node::Expr(Expr::If(_)), Node::Block(_)) => true,
            (Node::Expr(Expr::If(i)), Node::Expr(c)) => !std::ptr::eq(c, i.cond.as_ref()),
            (Node::Arm(arm), Node::Expr(c)) => std::ptr::eq(c, arm.body.as_ref()),
            (Node::Expr(Expr::Match(_)), Node::Arm(_)) => true,
            _ => false,
        };
        if !tail {
            return false;
        }
        child = node;
    }
    true // the function body's tail
}

/// Whether the end of `path` runs in the function's own body, where `return` leaves the
/// function: not in a closure or an async block.
fn in_body(path: &[Node]) -> bool {
    // The closure of `.map_err(|e| ..)` and `.ok_or_else(|| ..)` holds the error itself:
    // what matters is where the `?` is, above it.
    let above = path
        .iter()
        .rposition(|n| matches!(n, Node::Expr(Expr::Try(_) | Expr::Return(_))))
        .unwrap_or(path.len());
    !path[..above].iter().any(|n| {
        matches!(
            n,
            Node::Expr(Expr::Closure(_) | Expr::Async(_) | Expr::TryBlock(_))
        )
    })
}

/// The names a file's `use` items bring in, and whether one brings in all of a `model`
/// module (`use rmcp::model::*`).
#[derive(Default)]
struct Imports {
    names: Vec<String>,
    model_glob: bool,
}

impl Imports {
    fn of(file: &syn::File) -> Imports {
        let mut imports = Imports::default();
        imports.visit_file(file);
        imports
    }

    fn tree(&mut self, tree: &syn::UseTree, parent: Option<&syn::Ident>) {
        match tree {
            syn::UseTree::Path(p) => self.tree(&p.tree, Some(&p.ident)),
            syn::UseTree::Name(n) => self.names.push(n.ident.to_string()),
            syn::UseTree::Rename(r) => self.names.push(r.rename.to_string()),
            syn::UseTree::Glob(_) => self.model_glob |= parent.is_some_and(|p| p == "model"),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.tree(t, parent)),
        }
    }
}

impl<'a> Visit<'a> for Imports {
    fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
        self.tree(&u.tree, None);
    }
}

/// The `CallToolRequestParam(s)` parameter of `call_tool`, when it is bound to a name.
fn request_param(sig: &Signature) -> Option<&syn::PatIdent> {
    sig.inputs.iter().find_map(|input| {
        let syn::FnArg::Typed(typed) = input else {
            return None;
        };
        let syn::Type::Path(ty) = typed.ty.as_ref() else {
            return None;
        };
        let syn::Pat::Ident(name) = typed.pat.as_ref() else {
            return None;
        };
        let last = ty.path.segments.last()?;
        last.ident
            .to_string()
            .starts_with("CallToolRequestParam")
            .then_some(name)
    })
}

/// What [`Rewriter::route_check`] needs of a `call_tool` body: whether a pattern binds the
/// request's `name` again, and each `ToolCallContext::new(.., name, ..)`.
struct BodyFacts<'n, 'a> {
    name: &'n str,
    shadowed: bool,
    contexts: Vec<&'a Expr>,
}

impl<'a> Visit<'a> for BodyFacts<'_, 'a> {
    fn visit_pat_ident(&mut self, p: &'a syn::PatIdent) {
        self.shadowed |= p.ident == self.name;
        visit::visit_pat_ident(self, p);
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        if let Expr::Call(call) = e
            && let Expr::Path(func) = call.func.as_ref()
            && func.path.segments.len() >= 2
            && func
                .path
                .segments
                .iter()
                .rev()
                .take(2)
                .map(|s| s.ident.to_string())
                .eq(["new", "ToolCallContext"])
            && call
                .args
                .iter()
                .any(|a| matches!(a, Expr::Path(p) if p.path.is_ident(self.name)))
        {
            self.contexts.push(e);
        }
        visit::visit_expr(self, e);
    }

    // A nested function's request is its own.
    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// Whether the expression at `target` is in `stmt` on a way that runs whenever `stmt` does:
/// through `let` initializers, calls, method calls, `.await`, `?`, `return`, parentheses and
/// references, not under a condition, a loop, a closure or a block.
fn straight_in(stmt: &Stmt, target: &Range<usize>, source: &SourceText) -> bool {
    fn expr(e: &Expr, target: &Range<usize>, source: &SourceText) -> bool {
        if span_range(source, e.span()) == *target {
            return true;
        }
        match e {
            Expr::Call(c) => c.args.iter().any(|a| expr(a, target, source)),
            Expr::MethodCall(m) => {
                expr(&m.receiver, target, source) || m.args.iter().any(|a| expr(a, target, source))
            }
            Expr::Await(a) => expr(&a.base, target, source),
            Expr::Try(t) => expr(&t.expr, target, source),
            Expr::Return(r) => r.expr.as_ref().is_some_and(|v| expr(v, target, source)),
            Expr::Paren(p) => expr(&p.expr, target, source),
            Expr::Reference(r) => expr(&r.expr, target, source),
            _ => false,
        }
    }
    match stmt {
        Stmt::Local(local) => local
            .init
            .as_ref()
            .is_some_and(|init| init.diverge.is_none() && expr(&init.expr, target, source)),
        Stmt::Expr(e, _) => expr(e, target, source),
        _ => false,
    }
}
