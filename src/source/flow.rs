//! Walks one tools/call root and collects the protocol errors that reach its response.
//!
//! Typed roots (rmcp, rust-mcp-sdk) answer with their `Err`: an error counts where it leaves
//! the root, as `return Err(E)`, a tail `Err(E)` (through blocks, `if`, `match`, `Box::pin`,
//! `async move`, `std::future::ready`), `Err(E)?`, or as the error of `?` on `.ok_or(E)`,
//! `.ok_or_else(|| E)` and `.map_err(|e| E)`. Closures and nested async blocks are other
//! functions: a `return` there does not leave the root. A hand-rolled root builds the response
//! value itself, so every error object built in it counts.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::Path;

use quote::ToTokens;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Pat};

use super::facts::{FileFacts, path_strings};
use super::index::{self, CrateIndex, Sink};
use super::sinks::{
    RENDERS_ITSELF, carried_code, coded_args, message_of, renders_own_code, response_error,
    typed_error, writes_a_carried_code,
};
use super::site::{ArmKind, ErrorSite, Guard, GuardKind, ProtocolError, RootKind};
use super::{names, span_range};
use crate::text::SourceText;

/// A tools/call handler body to walk.
#[derive(Clone, Copy)]
pub struct Root<'a> {
    pub kind: RootKind,
    pub body: Body<'a>,
    /// For a [`RootKind::Converted`] function: the protocol error a handler converts its
    /// errors into.
    pub converter: Option<&'a [Sink]>,
    /// A tool function's signature: the names it binds its arguments to
    /// (`Parameters(Req { path, .. })`) make a condition on them a check of the tool's input.
    pub tool_sig: Option<&'a syn::Signature>,
    /// A helper's signature, and the positions of its parameters that tools fill with their
    /// arguments (a bit each; see [`super::inputs`]): a check of one is a check of the input.
    pub helper_sig: Option<(&'a syn::Signature, u64)>,
    /// For a [`RootKind::Converted`] function: whether it is a tools/call handler's own (see
    /// [`CrateIndex::is_dispatched_in`]): its calls of converted functions that are not (code
    /// below the handler's module) fail where it makes them.
    pub dispatched: bool,
    /// A local whose value, when the request is a tools/call, is this expression: `let result
    /// = match method { "tools/call" => handle(..), .. };` before the hand-rolled dispatcher
    /// converts it (`match result { Err(e) => error_response(..) }`).
    pub seeded: Option<(&'a syn::Ident, &'a Expr)>,
    /// What a JSON-RPC framework's method handler binds the request's params to (`|params:
    /// Params|`): their own parse failing is a malformed request, which may be a protocol
    /// error.
    pub request: Option<&'a syn::Ident>,
    /// What a manual `call_tool` binds the request to: a call handed its `arguments` whole
    /// (`self.execute_tool(name, args)`) is the tools' implementation.
    pub call_params: Option<&'a syn::Ident>,
    /// A helper walked before the crate's index says what its callers feed it (phase one):
    /// its parameters that could hold a tool's arguments whole count as given, and the index
    /// keeps the calls it hands one for the helpers tools do feed.
    pub unfed_helper: Option<&'a syn::Signature>,
}

impl<'a> Root<'a> {
    pub fn new(kind: RootKind, body: Body<'a>) -> Root<'a> {
        Root {
            kind,
            body,
            converter: None,
            tool_sig: None,
            helper_sig: None,
            dispatched: false,
            seeded: None,
            request: None,
            call_params: None,
            unfed_helper: None,
        }
    }
}

/// The names a tool function binds its arguments to: every binding of its parameters but
/// `self`, what the SDK hands in besides the call (`RequestContext`, `Peer`, ..) and the
/// server it is given by reference (`AsyncTool::invoke(service: &Server, input)`): a call's
/// arguments are the tool's own, owned.
pub fn argument_names(sig: &syn::Signature) -> Vec<String> {
    const SDK_PARAMETERS: &[&str] = &["RequestContext", "Peer", "Extension", "State", "Context"];
    let mut out = Vec::new();
    for input in &sig.inputs {
        let syn::FnArg::Typed(t) = input else {
            continue;
        };
        if matches!(&*t.ty, syn::Type::Reference(_)) {
            continue;
        }
        let sdk = matches!(&*t.ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| SDK_PARAMETERS.contains(&s.ident.to_string().as_str())));
        if !sdk {
            super::inputs::bindings(&t.pat, &mut out);
        }
    }
    out
}

/// Of `names` (the bindings of a function's arguments), those that hold the tool's arguments
/// whole (`Parameters(args): Parameters<SearchArgs>`, `args: Value`), not one argument of a
/// scalar type (`patch: String`, `limit: Option<u32>`) or a field of them.
fn whole_arguments(sig: &syn::Signature, names: &[String]) -> Vec<String> {
    const SCALARS: &[&str] = &[
        "String", "str", "bool", "char", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16",
        "i32", "i64", "i128", "isize", "f32", "f64", "PathBuf", "Path", "Option", "Vec",
    ];
    let mut out = Vec::new();
    for input in &sig.inputs {
        let syn::FnArg::Typed(t) = input else {
            continue;
        };
        let mut ty = &*t.ty;
        while let syn::Type::Reference(r) = ty {
            ty = &r.elem;
        }
        let last = |ty: &syn::Type| match ty {
            syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let is_scalar = |ty: &syn::Type| last(ty).is_some_and(|s| SCALARS.contains(&s.as_str()));
        // `Parameters<String>`: the wrapper's one value is what is scalar or not.
        if !is_scalar(ty)
            && let syn::Type::Path(p) = ty
            && let Some(syn::PathArguments::AngleBracketed(a)) =
                p.path.segments.last().map(|s| &s.arguments)
            && let [syn::GenericArgument::Type(inner)] = &a.args.iter().collect::<Vec<_>>()[..]
        {
            ty = inner;
        }
        let scalar = is_scalar(ty);
        // The parameter itself or the one value its wrapper holds (`Parameters(args)`), not
        // the fields a pattern takes apart.
        let whole = match &*t.pat {
            Pat::TupleStruct(ts) if ts.elems.len() == 1 => &ts.elems[0],
            pat => pat,
        };
        if let Pat::Ident(i) = whole
            && !scalar
            && names.iter().any(|n| i.ident == n)
        {
            out.push(i.ident.to_string());
        }
    }
    out
}

/// The constructor of a protocol error that `?` makes of its operand's error because the
/// handler's error type is rmcp's.
const BY_TYPE: &str = "`?`";

/// The calls whose failure a site answers, when the site converts it (`f(..).map_err(|e| E)`,
/// `match f(..) { Err(e) => E }`, `match result { Err(e) => E }` where `result` is one of
/// several calls picked by a `match`): the converter of a catch-all. Not a failed lookup of
/// the tool by name: that is an unknown tool wherever the lookup fails.
pub fn converted_calls(site: &ErrorSite) -> Vec<String> {
    let Some(guard) = converting_guard(&site.guards) else {
        return Vec::new();
    };
    // `?` is the operand's own `From`, not a conversion the crate wrote.
    if site.error.constructor == BY_TYPE || site.evidence().follows_tool_lookup() {
        return Vec::new();
    }
    let subject = peel_await(guard.subject);
    match callee(subject) {
        Some(name) => vec![name],
        None => tails(subject)
            .into_iter()
            .filter_map(|tail| callee(peel_await(tail)))
            .collect(),
    }
}

/// Whether a site converts the failures of a call handed the tool's whole arguments
/// (`tools::search(&self.db, params.0).map_err(|e| ..)`, `match dispatch(name, args) { Err(e)
/// => .. }`): the call is the tool's implementation, whose failures are the tool's own and are
/// reported where they start, not at the conversion.
fn delegates(guards: &[Guard], given: &[String], locals: &HashMap<String, &Expr>) -> bool {
    converting_guard(guards)
        .is_some_and(|guard| hands_whole_arguments(guard.subject, given, locals))
}

/// Whether `call` is given the tool's whole arguments (`given`), directly or through locals,
/// references, `.0`, `clone()`/`into()` and one-argument wrappers.
fn hands_whole_arguments(call: &Expr, given: &[String], locals: &HashMap<String, &Expr>) -> bool {
    // Most roots hold no arguments whole (helpers, hand-rolled dispatchers): nothing to walk.
    if given.is_empty() {
        return false;
    }
    let inputs: Vec<&Expr> = match peel_await(call) {
        Expr::Call(c) => c.args.iter().collect(),
        Expr::MethodCall(m) => m.args.iter().collect(),
        _ => return false,
    };
    inputs.into_iter().any(|input| {
        let mut e = input;
        // Bounded: a local may be bound to itself (`let x = f(x);`).
        for _ in 0..8 {
            e = match e {
                Expr::Path(p) if p.path.get_ident().is_some_and(|i| !given.iter().any(|a| i == a)) => {
                    match p.path.get_ident().and_then(|i| locals.get(&i.to_string())) {
                        Some(init) => init,
                        None => break,
                    }
                }
                Expr::Reference(r) => &r.expr,
                Expr::Field(f) if matches!(f.member, syn::Member::Unnamed(_)) => &f.base,
                Expr::MethodCall(m) if m.args.is_empty() && matches!(m.method.to_string().as_str(), "clone" | "into_inner" | "into" | "unwrap_or_default") => &m.receiver,
                // `request.arguments.map_or(Value::Null, Value::Object)`
                Expr::MethodCall(m) if matches!(m.method.to_string().as_str(), "map_or" | "unwrap_or" | "unwrap_or_else" | "map") => &m.receiver,
                Expr::Field(f) if matches!(&f.member, syn::Member::Named(n) if n == "arguments") => &f.base,
                Expr::Call(c) if c.args.len() == 1 && matches!(&*c.func, Expr::Path(_)) => &c.args[0],
                _ => break,
            }
        }
        matches!(e, Expr::Path(p) if p.path.get_ident().is_some_and(|i| given.iter().any(|a| i == a)))
    })
}

/// The guard of a conversion an error sits in (`Err(e) => ..`, `.map_err(|e| ..)`), through
/// the conditions inside it that only pick how to send it (`if let Some(id) = id { .. }`).
pub fn converting_guard<'g, 'a>(guards: &'g [Guard<'a>]) -> Option<&'g Guard<'a>> {
    let guard = guards
        .iter()
        .rev()
        .find(|g| g.kind != GuardKind::Condition)?;
    matches!(
        guard.kind,
        GuardKind::Fallible | GuardKind::MatchArm(ArmKind::Failure)
    )
    .then_some(guard)
}

#[derive(Clone, Copy)]
pub enum Body<'a> {
    /// A function body or an `if` branch.
    Block(&'a syn::Block),
    /// A `match` arm.
    Expr(&'a Expr),
    /// A block from its `n`th statement on: what follows `if method != "tools/call" { return .. }`.
    Rest(&'a syn::Block, usize),
}

pub struct Walk<'a> {
    pub sites: Vec<ErrorSite<'a>>,
    /// Functions of this file that a hand-rolled root calls, to walk in turn.
    pub callees: Vec<String>,
    /// Functions of another module of the crate (`tools::call(params, id)`) whose value a
    /// hand-rolled root answers with: hand-rolled roots of their own, in their file.
    pub callees_elsewhere: Vec<String>,
    /// Functions whose `Err` a typed root passes on (`helper(..)?`, a tail call).
    pub forwards: Vec<String>,
    /// Of those, the ones a tool hands its whole arguments: its implementation, whose
    /// failures the crate's `From` makes protocol errors where they start.
    pub handed: Vec<String>,
    /// Of those, the ones passed on only for some variants of their error, with those.
    pub narrowed: Vec<(String, Vec<String>)>,
}

/// What a walk knows beyond the root: the file, and the crate's helpers.
pub struct Context<'c, 'a> {
    pub facts: &'c FileFacts<'a>,
    pub text: &'c SourceText,
    pub index: &'c CrateIndex,
    pub crate_dir: &'c Path,
}

pub fn walk<'a>(ctx: &Context<'_, 'a>, root: Root<'a>) -> Walk<'a> {
    let mut walker = Walker {
        facts: ctx.facts,
        text: ctx.text,
        index: ctx.index,
        crate_dir: ctx.crate_dir,
        kind: root.kind,
        converter: root.converter,
        dispatched: root.dispatched,
        own_name: root.helper_sig.map(|(sig, _)| sig.ident.to_string()),
        arguments: match (root.tool_sig, root.helper_sig) {
            (Some(sig), _) => argument_names(sig),
            (None, Some((sig, fed))) => super::inputs::params(sig)
                .into_iter()
                .enumerate()
                .filter(|(i, _)| *i < 64 && fed & (1 << i) != 0)
                .filter_map(|(_, name)| name)
                .collect(),
            (None, None) => Vec::new(),
        },
        given: Vec::new(),
        guards: Vec::new(),
        exits: HashMap::new(),
        error_values: HashMap::new(),
        following_locals: HashSet::new(),
        parsing_request: false,
        in_success: false,
        request: root.request,
        entered: HashSet::new(),
        locals: HashMap::new(),
        sites: Vec::new(),
        callees: Vec::new(),
        callees_elsewhere: Vec::new(),
        returns_option: false,
        forwarded: HashMap::new(),
        forwards: Vec::new(),
        handed: Vec::new(),
        narrowed: Vec::new(),
        absorbed: HashSet::new(),
    };
    let typed = root.kind != RootKind::HandRolled;
    // Known before the exits are marked, so a returned local leads to its initializer.
    let mut locals = Locals::default();
    match root.body {
        Body::Block(block) => locals.visit_block(block),
        Body::Expr(expr) => locals.visit_expr(expr),
        Body::Rest(block, n) => block.stmts[n..].iter().for_each(|s| locals.visit_stmt(s)),
    }
    walker.absorbed = locals.absorbed();
    walker.locals = locals.named;
    if let Some((name, value)) = root.seeded {
        walker.locals.insert(name.to_string(), value);
    }
    let sig = root.tool_sig.or(root.helper_sig.map(|(sig, _)| sig));
    walker.returns_option = sig.or(root.unfed_helper).is_some_and(returns_option);
    walker.given = match (sig, root.unfed_helper) {
        (Some(sig), _) => whole_arguments(sig, &walker.arguments),
        (None, Some(sig)) => {
            let params = super::inputs::params(sig)
                .into_iter()
                .flatten()
                .collect::<Vec<_>>();
            whole_arguments(sig, &params)
        }
        (None, None) => Vec::new(),
    };
    walker
        .given
        .extend(root.call_params.map(ToString::to_string));
    walker.arguments = super::inputs::derived_arguments(&locals.lets, walker.arguments);
    // Twice: a `return` or `?` marks values visited before it (`let r = helper().await; .. r`),
    // so the first pass completes the marks and only the second one's sites count.
    for pass in 0..2 {
        if pass == 1 {
            walker.sites.clear();
            walker.callees.clear();
            walker.callees_elsewhere.clear();
            walker.forwards.clear();
            walker.handed.clear();
            walker.narrowed.clear();
        }
        match root.body {
            Body::Block(block) => {
                if typed {
                    walker.mark_block_exits(block, None);
                }
                walker.visit_block(block);
            }
            Body::Expr(expr) => {
                if typed {
                    walker.mark_exits(expr, None);
                }
                walker.visit_expr(expr);
            }
            Body::Rest(block, n) => {
                if typed {
                    walker.mark_block_exits(block, None);
                }
                block.stmts[n..].iter().for_each(|s| walker.visit_stmt(s));
            }
        }
    }
    Walk {
        sites: walker.sites,
        callees: walker.callees,
        callees_elsewhere: walker.callees_elsewhere,
        forwards: walker.forwards,
        handed: walker.handed,
        narrowed: walker.narrowed,
    }
}

struct Walker<'f, 'a> {
    facts: &'f FileFacts<'a>,
    text: &'f SourceText,
    index: &'f CrateIndex,
    crate_dir: &'f Path,
    kind: RootKind,
    /// For a converted function: the error its errors become.
    converter: Option<&'f [Sink]>,
    dispatched: bool,
    /// The function walked, for a helper or converted function.
    own_name: Option<String>,
    arguments: Vec<String>,
    /// The names the root's own parameters bind the tool's arguments to, before any local
    /// derived from them.
    given: Vec<String>,
    guards: Vec<Guard<'a>>,
    /// `Err(..)` expressions whose value leaves the root, with the `return` that sends them.
    exits: HashMap<*const Expr, Option<Range<usize>>>,
    /// Error values of a `?` (with the `?`) or of a handler's value (`.map_err(..)` as tail).
    error_values: HashMap<*const Expr, Option<Range<usize>>>,
    /// The values of locals being followed as exits, to stop where one names itself.
    following_locals: HashSet<*const ()>,
    /// Inside `let params: CallToolParams = ..`: what fails to deserialize there is the
    /// request itself, a malformed tools/call.
    parsing_request: bool,
    /// Inside the arguments of a success response (`JsonRpcResponse::success(id, json!({"error":
    /// {..}}))`): whatever it carries is a result, not an error object.
    in_success: bool,
    request: Option<&'a syn::Ident>,
    /// Closures and async blocks whose body is still the root's flow (`ok_or_else(|| ..)?`,
    /// `Box::pin(async move { .. })`).
    entered: HashSet<*const ()>,
    /// `let name = <expr>;` in the root, to see through `let err = ..; return Err(err)`.
    locals: HashMap<String, &'a Expr>,
    sites: Vec<ErrorSite<'a>>,
    callees: Vec<String>,
    callees_elsewhere: Vec<String>,
    /// The function walked returns an `Option`.
    returns_option: bool,
    /// Calls whose `Err` leaves the root (`helper(..)?`, a tail `self.helper(..).await`).
    forwarded: HashMap<*const Expr, Option<Range<usize>>>,
    forwards: Vec<String>,
    handed: Vec<String>,
    narrowed: Vec<(String, Vec<String>)>,
    /// Locals whose `Err` is turned into a value wherever they are read (see
    /// [`Locals::absorbed`]).
    absorbed: HashSet<String>,
}

impl<'a> Walker<'_, 'a> {
    /// Marks the expressions whose value is the root's (or a `return`'s) value.
    fn mark_exits(&mut self, expr: &'a Expr, exit: Option<Range<usize>>) {
        match expr {
            // A sub-dispatcher's `Option<Result<..>>` (`None`: not its tool): `Some(result)`.
            Expr::Call(c) if c.args.len() == 1 && is_path_named(&c.func, "Some") => {
                self.mark_exits(&c.args[0], exit)
            }
            Expr::Block(b) => self.mark_block_exits(&b.block, exit),
            Expr::Unsafe(u) => self.mark_block_exits(&u.block, exit),
            Expr::Async(a) => {
                self.entered.insert(address(a));
                self.mark_block_exits(&a.block, exit);
            }
            Expr::If(i) => {
                self.mark_block_exits(&i.then_branch, exit.clone());
                if let Some((_, other)) = &i.else_branch {
                    self.mark_exits(other, exit);
                }
            }
            Expr::Match(m) => {
                for arm in &m.arms {
                    // `match spawn_blocking(move || f(..)).await { Ok(result) => result, .. }`,
                    // `match timeout(limit, f(..)).await { Ok(result) => result, .. }`: the
                    // arm's value is the task's own result, its `Err` an exit.
                    match passed_on(m, arm) {
                        Some(task) => self.enter_task(task, exit.clone()),
                        // `response => response`: the matched value itself.
                        None if passes_on_binding(arm) => self.mark_exits(&m.expr, exit.clone()),
                        // `Err(e) => Err(e)`: the matched call's `Err` leaves as it is (a
                        // helper's, reported where the helper builds it).
                        None if passes_on_err(arm) && self.kind != RootKind::Converted => {
                            self.mark_forwarded(&m.expr, exit.clone());
                            self.mark_exits(&arm.body, exit.clone());
                        }
                        None => self.mark_exits(&arm.body, exit.clone()),
                    }
                }
            }
            Expr::Paren(p) => self.mark_exits(&p.expr, exit),
            Expr::Group(g) => self.mark_exits(&g.expr, exit),
            Expr::Call(c) if c.args.len() == 1 && is_future_wrapper(&c.func) => {
                self.mark_exits(&c.args[0], exit)
            }
            // `async { .. }.instrument(span).await`, or the future returned as it is (`fn
            // call_tool(..) -> impl Future<..> { async move { .. }.instrument(span) }`): the
            // block is the handler's body.
            Expr::Await(a) if matches!(peel_future_adapters(&a.base), Expr::Async(_)) => {
                self.mark_exits(peel_future_adapters(&a.base), exit);
            }
            Expr::MethodCall(_) if matches!(peel_future_adapters(expr), Expr::Async(_)) => {
                self.mark_exits(peel_future_adapters(expr), exit);
            }
            // `spawn_blocking(move || tool.call(args)).await.map_err(..)?` as the value: the
            // `?` takes the join error; the task's own result is the value, its `Err` an exit.
            Expr::Try(t) if spawned_task(&t.expr).is_some() => {
                if let Some(body) = spawned_task(&t.expr) {
                    self.enter_task(body, exit);
                }
            }
            // `result.map(|r| ..)`, `.and_then(..)`, `.into()`: the receiver's `Err` passes through.
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "map" | "and_then" | "inspect" | "into"
                ) =>
            {
                self.mark_exits(&m.receiver, exit)
            }
            // `result.map_err(|e| E)` as the value: E is the handler's error.
            Expr::MethodCall(_) => {
                self.mark_error_producer(expr, exit);
            }
            // `let result = ..; .. result`: the value is the local's.
            Expr::Path(p)
                if p.path
                    .get_ident()
                    .is_some_and(|i| self.locals.contains_key(&i.to_string())) =>
            {
                let init = self.locals[&p
                    .path
                    .get_ident()
                    .map(ToString::to_string)
                    .unwrap_or_default()];
                // `let r = r.map(..)` shadowing an outer `r`: the value names the local again.
                // A value is not followed again while it is being followed.
                if self.following_locals.insert(address(init)) {
                    self.mark_exits(init, exit);
                    self.following_locals.remove(&address(init));
                }
            }
            _ => {
                // `with_guard(&ctx, name, || inner.call_tool(..)).await`, `self.audited("q",
                // async |db| query::execute(db, p).await)`: a wrapper that runs the closure it
                // is given answers with the closure's value.
                let args = match peel_await(expr) {
                    Expr::Call(c) => Some(&c.args),
                    Expr::MethodCall(m) => Some(&m.args),
                    _ => None,
                };
                if let Some(task @ Expr::Closure(_)) = args.and_then(|a| a.last()) {
                    self.enter_task(task, exit.clone());
                }
                self.mark_forwarded(expr, exit.clone());
                self.exits.insert(expr, exit);
            }
        }
    }

    fn mark_block_exits(&mut self, block: &'a syn::Block, exit: Option<Range<usize>>) {
        if let Some(syn::Stmt::Expr(tail, None)) = block.stmts.last() {
            self.mark_exits(tail, exit);
        }
    }

    /// The body of a spawned task whose result leaves the root: its tails are exits.
    fn enter_task(&mut self, task: &'a Expr, exit: Option<Range<usize>>) {
        match task {
            Expr::Closure(c) => {
                self.entered.insert(address(c));
                self.mark_exits(&c.body, exit);
            }
            other => self.mark_exits(other, exit),
        }
    }

    /// Marks `E` where an expression's error is `E`: `.ok_or(E)`, `.ok_or_else(|| E)`,
    /// `.map_err(|e| E)`, `.map_err(to_error)` and `Err(E)`, under a `?` (`exit` is the `?`) or
    /// as a handler's value. Whether it marked one: if not, the expression's own `Err` leaves.
    fn mark_error_producer(&mut self, expr: &'a Expr, exit: Option<Range<usize>>) -> bool {
        match peel_await(expr) {
            Expr::MethodCall(m) if m.args.len() == 1 => {
                match (m.method.to_string().as_str(), &m.args[0]) {
                    // `.map_err(|e| e.into())` in a converted function: the receiver's own
                    // failure leaves, as `?` would pass it on.
                    ("map_err", f) if self.kind == RootKind::Converted && passes_through(f) => {
                        self.mark_forwarded(&m.receiver, exit);
                    }
                    ("ok_or", value) => {
                        self.error_values.insert(value, exit);
                    }
                    ("ok_or_else" | "map_err", Expr::Closure(c)) => {
                        self.entered.insert(address(c));
                        for value in tails(&c.body) {
                            self.error_values.insert(value, exit.clone());
                        }
                    }
                    // `.map_err(helpers::to_mcp)`, `.map_err(McpError::from)`: the function
                    // builds the error.
                    ("ok_or_else" | "map_err", f @ Expr::Path(_)) => {
                        if passes_through(f) || is_from(f) {
                            self.note_handed(peel_await(&m.receiver));
                        }
                        self.error_values.insert(f, exit);
                    }
                    _ => {
                        self.mark_forwarded(expr, exit);
                        return false;
                    }
                }
                true
            }
            Expr::Call(c) if c.args.len() == 1 && is_path_named(&c.func, "Err") => {
                self.error_values.insert(&c.args[0], exit);
                true
            }
            // `items.iter().map(|v| check(v)).collect::<Result<_, _>>()?`: the first element's
            // `Err` leaves.
            Expr::MethodCall(m)
                if m.method == "collect" && mapped_closure(&m.receiver).is_some() =>
            {
                if let Some(closure) = mapped_closure(&m.receiver) {
                    self.enter_task(closure, exit);
                }
                true
            }
            // `let result = spawn_blocking(move || ..).await.map_err(..)?; result?`: the `?`
            // in the `let` takes the join error; the task's own `Err` leaves at `result?`.
            Expr::Try(t) if spawned_task(&t.expr).is_some() => {
                if let Some(task) = spawned_task(&t.expr) {
                    self.enter_task(task, exit);
                }
                true
            }
            // `let dispatch = match name { .. }; dispatch?`: what the local was bound to
            // leaves (not through another name, which could be itself: `let r = r;`).
            Expr::Path(p)
                if let Some(&init) = p
                    .path
                    .get_ident()
                    .and_then(|i| self.locals.get(&i.to_string()))
                    && !matches!(init, Expr::Path(_)) =>
            {
                self.mark_error_producer(init, exit)
            }
            // `match name { "a" => self.tool_a(args), .. }?`: each branch's error leaves.
            branches @ (Expr::Match(_) | Expr::If(_) | Expr::Block(_)) => {
                let mut marked = false;
                for tail in tails(branches) {
                    marked |= self.mark_error_producer(tail, exit.clone());
                }
                marked
            }
            _ => {
                self.mark_forwarded(expr, exit);
                false
            }
        }
    }

    /// A call whose `Err` leaves the root: a crate helper's protocol errors leave with it.
    fn mark_forwarded(&mut self, expr: &'a Expr, exit: Option<Range<usize>>) {
        let call = peel_await(expr);
        // `let opt_tz = |k| -> Result<i64, (i64, String)> { .. Err((-32602, ..)) }; opt_tz("tz")?`:
        // the local closure's own `Err`s leave, each where it is built.
        if let Some(closure) = self.local_closure(call) {
            return self.enter_task(closure, exit);
        }
        self.note_handed(call);
        if let Some(name) = callee(call) {
            self.forwards.push(name);
            self.forwarded.insert(call, exit);
        } else if let Expr::MethodCall(m) = call {
            // `tool.run(args).await` on a trait object: every impl of `run` in the crate that
            // returns rmcp's error is a helper (see `CrateIndex::is_helper`), whatever the
            // method's name. In a converted function, `client.send().await?` is an origin.
            self.forwards.push(names::method(&m.method));
            self.forwarded.insert(call, exit);
        }
    }

    /// The closure a call of a local calls (`let check = |k| { .. }; check("a")`).
    fn local_closure(&self, call: &Expr) -> Option<&'a Expr> {
        let Expr::Call(c) = call else { return None };
        let Expr::Path(p) = &*c.func else { return None };
        let init = self.locals.get(&p.path.get_ident()?.to_string())?;
        matches!(init, Expr::Closure(_)).then_some(*init)
    }

    /// A call of the crate given the tool's whole arguments, whose `Err` leaves as it is or
    /// through a `From` (`service.edit(input).await.map_err(Into::into)`).
    fn note_handed(&mut self, call: &Expr) {
        if let Some(name) = callee(call)
            && hands_whole_arguments(call, &self.given, &self.locals)
        {
            self.handed.push(name);
        }
    }

    /// `error.into()`, `ErrorData::from(error)`: a value of a crate type converted by the
    /// crate's `From<Type> for ErrorData`; the type is read off how the value was built
    /// (`let error = ToolCallError::Validation(..)`).
    fn converted(&self, value: &Expr) -> Option<ProtocolError> {
        let inner = match value {
            Expr::MethodCall(m) if m.method == "into" => &*m.receiver,
            Expr::Call(c)
                if c.args.len() == 1
                    && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from")) =>
            {
                &c.args[0]
            }
            _ => return None,
        };
        let built = match inner {
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.locals.get(&i.to_string()).copied())?,
            other => other,
        };
        let Expr::Call(call) = built else { return None };
        let Expr::Path(func) = &*call.func else {
            return None;
        };
        let segments = &func.path.segments;
        let ty = segments.iter().nth_back(1)?.ident.to_string();
        let variant = segments.last().map(|s| s.ident.to_string());
        let sink = self
            .index
            .conversion(self.crate_dir, &ty, variant.as_deref())?;
        Some(sink.reached_via(format!("{ty}.into()"), &format!("`From<{ty}>`")))
    }

    /// The protocol errors a crate helper returns, one per code, as sites of this root; none
    /// for a helper whose errors are reported where it builds them.
    fn helper_errors(&self, call: &Expr, want_value: bool) -> Option<Vec<ProtocolError>> {
        let name = callee(call)?;
        if !want_value && self.reports_itself(call, &name) {
            return None;
        }
        let (sinks, value) = self.index.lookup(self.crate_dir, &name)?;
        if value != want_value {
            return None;
        }
        // `mcp_err(ErrorCode::INVALID_PARAMS, msg)`: a helper that takes the code builds
        // whatever code its caller passes.
        let passed = || {
            let args = match peel_await(call) {
                Expr::Call(c) => Some(&c.args),
                Expr::MethodCall(m) => Some(&m.args),
                _ => None,
            };
            args.and_then(|a| coded_args(self.facts, a.iter()))
        };
        let errors = sinks.into_iter().map(|sink| {
            let shown = names::shown(&name);
            let mut error = sink.reached_via(format!("{shown}(..)"), &format!("`{shown}`"));
            if error.code.is_none() {
                error.code = passed();
            }
            error
        });
        Some(errors.collect())
    }

    /// `helpers::to_mcp` passed to `.map_err(..)`: a crate function that builds the error.
    fn error_fns(&self, value: &Expr) -> Option<Vec<ProtocolError>> {
        let Expr::Path(p) = value else { return None };
        let name = names::of_path(&p.path)?;
        let (sinks, true) = self.index.lookup(self.crate_dir, &name)? else {
            return None;
        };
        let shown = names::shown(&name);
        let via = format!("`{shown}`");
        Some(
            sinks
                .into_iter()
                .map(|s| s.reached_via(shown.to_string(), &via))
                .collect(),
        )
    }

    /// A `?` in a handler whose error type is rmcp's: whatever its operand's error is, `?`
    /// converts it into a protocol error. Reported here unless a crate function it calls
    /// reports its own errors (a helper, or a function a hand-rolled dispatcher converts: not
    /// one another handler converts with a `map_err` of its own), or the crate's index knows
    /// what it returns.
    fn converts_by_type(&self, operand: &Expr) -> bool {
        let call = peel_await(operand);
        let rmcp = matches!(
            self.kind,
            RootKind::RmcpTool
                | RootKind::McpAttrTool
                | RootKind::PmcpTool
                | RootKind::UltrafastTool
                | RootKind::RmcpCallTool
                | RootKind::RmcpHelper
                | RootKind::JsonRpcMethod
                | RootKind::TurbomcpCallTool
                | RootKind::KodegenTool
                | RootKind::PulseengineTool
        );
        let name = called(call);
        rmcp && !serializes(call)
            && !name.is_some_and(|n| {
                self.reports_itself(call, &n)
                    || self.index.never_fails(self.crate_dir, &n)
                    || self.index.lookup(self.crate_dir, &n).is_some()
                    || (self.is_converted(&n)
                        && (self.index).is_dispatched_from(
                            self.crate_dir,
                            &n,
                            &self.text.name,
                            false,
                        ))
            })
    }

    /// Whether calling `name` (in `call`) reaches a function that reports its own errors
    /// where it builds them: a helper, or a `#[tool]` of this server (`self.other_tool(..)`).
    fn reports_itself(&self, call: &Expr, name: &str) -> bool {
        self.index.is_helper(self.crate_dir, name)
            || (on_self(call) && self.index.is_tool(self.crate_dir, name))
    }

    /// Where the failure of `operand`, passed on by the `?` at `question`, is reported: a
    /// method chain split over lines where its error leaves, the line of `.await?` or
    /// `.map_err(..)?`; a call whose arguments span lines (`)?`) at the call.
    fn leaves_at(&self, operand: &Expr, question: &Range<usize>) -> Range<usize> {
        let operand = span_range(self.text, operand.span());
        let text = self.text.text();
        let line_start = text[..question.start].rfind('\n').map_or(0, |n| n + 1);
        let last_line = text[line_start..question.start].trim_start();
        match line_start > operand.start && last_line.starts_with('.') {
            true => question.end - last_line.len() - 1..question.end,
            false => operand,
        }
    }

    /// Records `value` if it is a protocol error for this root.
    fn report(&mut self, value: &'a Expr, exit: Option<Range<usize>>) {
        if self.passes_on_a_helpers_error(value)
            || (self.kind == RootKind::Converted && self.passes_on_a_calls_error(value, &exit))
        {
            return; // reported where the calls' errors start
        }
        let mut value = value;
        if let Expr::Path(p) = value
            && let Some(init) = p
                .path
                .get_ident()
                .and_then(|i| self.locals.get(&i.to_string()))
        {
            value = init;
        }
        // `let invalid = || ErrorData::invalid_params(..); .. Err(invalid())`: the local
        // closure builds the error, once for every place that returns it.
        if let Expr::Call(c) = value
            && c.args.is_empty()
            && let Expr::Path(f) = &*c.func
            && let Some(Expr::Closure(closure)) = f
                .path
                .get_ident()
                .and_then(|i| self.locals.get(&i.to_string()))
                .copied()
            && let [built] = tails(&closure.body)[..]
        {
            value = built;
        }
        let errors = if self.kind == RootKind::Converted {
            if callee(value).is_some_and(|name| self.reports_its_own(&name, value)) {
                return; // it reports its own errors
            }
            vec![self.origin(value, message_of(value))]
        } else if self.kind == RootKind::HandRolled {
            response_error(self.facts, value).into_iter().collect()
        } else {
            // Whatever else leaves a typed handler as `Err` is, by its type, a protocol error:
            // only what it is about is unknown.
            typed_error(self.facts, value, self.kind)
                .map(|e| vec![e])
                .or_else(|| self.helper_errors(value, true))
                .or_else(|| self.error_fns(value))
                .or_else(|| self.converted(value).map(|e| vec![e]))
                .unwrap_or_else(|| vec![opaque_error(value)])
        };
        for error in errors {
            self.push_site(error, value, exit.clone());
        }
    }

    /// `call` with the arguments that name a local of the root replaced by what it was bound
    /// to; none if no argument does.
    fn with_locals_inlined(&self, call: &Expr) -> Option<Expr> {
        let Expr::Call(c) = call else { return None };
        let mut inlined = c.clone();
        let mut any = false;
        for arg in &mut inlined.args {
            if let Expr::Path(p) = arg
                && let Some(init) = p
                    .path
                    .get_ident()
                    .and_then(|i| self.locals.get(&i.to_string()))
                && matches!(init, Expr::Call(_))
            {
                *arg = (*init).clone();
                any = true;
            }
        }
        any.then_some(Expr::Call(inlined))
    }

    /// `Err(e) => Err(e)` in a `match` on a call of a helper that reports its own errors.
    fn passes_on_a_helpers_error(&self, value: &Expr) -> bool {
        let Some(guard) = self.guards.last() else {
            return false;
        };
        let bound = matches!(value, Expr::Path(p) if p.path.get_ident().is_some());
        bound
            && guard.kind == GuardKind::MatchArm(ArmKind::Failure)
            && called(peel_await(guard.subject))
                .is_some_and(|name| self.reports_itself(peel_await(guard.subject), &name))
    }

    /// `Err(e) => Err(e)` (or `Err(e.into())`) in a `match` on the value of calls, in a
    /// converted function (`let result = match tool { "a" => self.a(args).await, .. }; match
    /// result { .. }`): the calls' `Err` leaves as it is, so each call is forwarded, where it
    /// is an origin unless it reports its own errors. Whether it found such calls.
    fn passes_on_a_calls_error(&mut self, value: &'a Expr, exit: &Option<Range<usize>>) -> bool {
        let Some(&Guard { kind, subject, arm }) = self.guards.last() else {
            return false;
        };
        let value = match value {
            Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => &*m.receiver,
            other => other,
        };
        let bound = matches!(value, Expr::Path(p) if p.path.get_ident().is_some());
        if !bound || kind != GuardKind::MatchArm(ArmKind::Failure) {
            return false;
        }
        let calls: Vec<&'a Expr> = tails(subject)
            .into_iter()
            .filter(|tail| callee(peel_await(tail)).is_some())
            .collect();
        // `Err(e) if e.is_protocol_error() => Err(e)`: only those variants leave.
        let answered = match arm {
            Some(Pat::Guard(g)) => predicate_variants(g, self.facts),
            _ => None,
        };
        for call in &calls {
            if let (Some(variants), Some(name)) = (answered, callee(peel_await(call))) {
                self.narrowed.push((name, variants.to_vec()));
            }
            self.mark_forwarded(call, exit.clone());
        }
        !calls.is_empty()
    }

    /// Whether `name` is a converted function of the crate.
    fn is_converted(&self, name: &str) -> bool {
        self.index.conversion_of(self.crate_dir, name).is_some()
    }

    /// Whether the failures of a call of `name` are reported in it, not where this root calls
    /// it: a converted function's, unless this root is a tools/call handler's own and `name`
    /// is not (the store or client below the handler's module, whose failure the handler
    /// passes on where it calls it).
    fn reports_its_own(&self, name: &str, call: &Expr) -> bool {
        // `self.store.create_note(..)` in `fn create_note`: another type's method of the name.
        let delegates = self.own_name.as_deref() == Some(names::shown(name))
            && matches!(peel_await(call), Expr::MethodCall(m) if !is_path_named(&m.receiver, "self"));
        let file = &self.text.name;
        self.is_converted(name)
            && (!self.dispatched
                || (self.index).is_dispatched_from(self.crate_dir, name, file, delegates))
    }

    /// An error of a converted function, which becomes the converter's protocol error; with
    /// the code it carries, where the converter writes that (see [`super::sinks::CARRIED_CODE`]).
    fn origin(&self, value: &Expr, message: Option<String>) -> ProtocolError {
        let mut error = opaque_error(value);
        error.call = None;
        error.message = message;
        error.variant = enum_variant(value);
        let error = self.converts(error, constructor_variant(value).as_deref());
        match renders_own_code(&error.constructor) {
            true => self.own_code(error, value),
            false => error,
        }
    }

    /// `error`, rendered with the code `value` carries, where the crate says it. An error that
    /// renders itself is one wherever else it comes from, and what it is about tells which;
    /// a value whose code is read off it (`refusal.code`) that is built with none is not one
    /// of the crate's coded errors, and stays [`super::sinks::CARRIED_CODE`], reported nowhere.
    fn own_code(&self, mut error: ProtocolError, value: &Expr) -> ProtocolError {
        if error.constructor == RENDERS_ITSELF {
            error.constructor = "error value".to_string();
        }
        let crate_code =
            |ty: &str, variant: &str| self.index.variant_code(self.crate_dir, ty, variant);
        if let Some((code, message)) = carried_code(self.facts, value, crate_code) {
            error.constructor = "struct literal".to_string();
            error.code = Some(code);
            error.message = message.or(error.message);
        } else if let Some((ctor, code)) = error_type_constructor(value) {
            // `McpError::invalid_params(..)`, defined in another file: the code its name says.
            error.constructor = ctor;
            error.code = Some(code);
        }
        error
    }

    /// The error values the conversion `error` (at `at`, in a `match result { Err(e) => .. }`
    /// arm) renders that the root builds itself (`Err(Error::Timeout(..))` where `result` is
    /// computed): each is a protocol error where it is built, with the code it carries.
    fn note_rendered(&mut self, error: &ProtocolError, at: &Expr) {
        let Some(guard) = converting_guard(&self.guards) else {
            return;
        };
        if guard.kind != GuardKind::MatchArm(ArmKind::Failure) {
            return;
        }
        let converter = Sink {
            error: error.clone(),
            file: self.text.name.clone(),
            line: self
                .text
                .position(span_range(self.text, at.span()).start)
                .line,
            variants: Vec::new(),
        };
        // `Err(Failure::Protocol(code, msg)) => ..` renders only the values built as that
        // variant; the others take another arm.
        let answered = super::summary::err_arm_variants(guard.arm, self.facts);
        for tail in tails(peel_await(guard.subject)) {
            if let Expr::Call(c) = tail
                && c.args.len() == 1
                && is_path_named(&c.func, "Err")
            {
                let value = &c.args[0];
                if let Some(own) = enum_variant(value)
                    && !answered.is_empty()
                    && !answered.contains(&own)
                {
                    continue;
                }
                let origin = self.rendered_origin(value, converter.clone());
                self.push_unguarded(origin, span_range(self.text, value.span()), None);
            }
        }
    }

    /// An error value the root builds, rendered by `converter` with the code it carries.
    fn rendered_origin(&self, value: &Expr, converter: Sink) -> ProtocolError {
        let mut error = opaque_error(value);
        error.call = None;
        error.message = message_of(value);
        error.via = converter.reached_via(String::new(), "the conversion").via;
        self.own_code(error, value)
    }

    /// `error` with the code and constructor of the conversion it goes through.
    /// `built_as`: the variant a constructor function of the error's type builds, when the
    /// value names none (see [`constructor_variant`]).
    fn converts(&self, mut error: ProtocolError, built_as: Option<&str>) -> ProtocolError {
        let variant = error.variant.as_deref().or(built_as);
        let converter = self
            .converter
            .and_then(|sinks| index::conversion_for(sinks, variant));
        if let Some(converter) = converter {
            let via = converter.reached_via(String::new(), "the conversion");
            error.constructor = via.constructor;
            error.code = via.code;
            error.via = via.via;
        }
        error
    }

    /// A site at `at`, under the current guards; none where only another request than
    /// tools/call gets here.
    fn push_site(&mut self, error: ProtocolError, at: &impl Spanned, exit: Option<Range<usize>>) {
        let span = span_range(self.text, at.span());
        self.push_site_at(error, span, exit);
    }

    fn push_site_at(
        &mut self,
        error: ProtocolError,
        span: Range<usize>,
        exit: Option<Range<usize>>,
    ) {
        if self.answers_other_request() {
            return;
        }
        let failed = |g: &Guard| {
            matches!(
                g.kind,
                GuardKind::Fallible | GuardKind::MatchArm(ArmKind::Failure)
            )
        };
        if self.parsing_request && self.guards.last().is_some_and(failed) {
            return;
        }
        // `match params { Params::Map(m) => .., _ => Err(..) }`, `params.parse()` failing;
        // not a check of the tool's arguments in them (`params["arguments"]["path"]`).
        let parses = |g: &Guard| {
            base_ident(g.subject) == self.request && !super::inputs::reads_arguments(g.subject)
        };
        if self.request.is_some() && self.guards.last().is_some_and(parses) {
            return;
        }
        self.record(error, span, exit, true);
    }

    /// A site whose conditions say nothing about why it failed: a call's own failure, a
    /// helper's error, an error value a conversion renders. None where only another request
    /// than tools/call gets here.
    fn push_unguarded(
        &mut self,
        error: ProtocolError,
        span: Range<usize>,
        exit: Option<Range<usize>>,
    ) {
        if !self.answers_other_request() {
            self.record(error, span, exit, false);
        }
    }

    /// `explained`: with the guards it sits under and the names of the tool's arguments.
    fn record(
        &mut self,
        error: ProtocolError,
        span: Range<usize>,
        exit: Option<Range<usize>>,
        explained: bool,
    ) {
        let (guards, arguments) = match explained {
            true => (self.guards.clone(), self.arguments.clone()),
            false => (Vec::new(), Vec::new()),
        };
        // A converted function's error of a variant its conversion does not answer takes
        // another way out (`Err(e) if e.is_protocol_error() => Err(e)`, the rest `isError`).
        if let (Some(sinks), Some(variant)) = (self.converter, &error.variant)
            && !sinks.is_empty()
            && sinks
                .iter()
                .all(|s| !s.variants.is_empty() && !s.variants.contains(variant))
        {
            return;
        }
        let delegated = explained && delegates(&self.guards, &self.given, &self.locals);
        self.sites.push(ErrorSite {
            root: self.kind,
            delegated,
            error,
            guards,
            arguments,
            span,
            exit,
        });
    }

    /// Whether only another request than tools/call gets here.
    fn answers_other_request(&self) -> bool {
        let other_request = GuardKind::MatchArm(ArmKind::OtherRequest);
        self.guards.iter().any(|g| g.kind == other_request)
    }

    fn with_guard(&mut self, guard: Guard<'a>, f: impl FnOnce(&mut Self)) {
        self.guards.push(guard);
        f(self);
        self.guards.pop();
    }

    fn note_callee(&mut self, expr: &Expr) {
        let name = match expr {
            Expr::Call(c) => match &*c.func {
                Expr::Path(p)
                    if p.path.segments.len() == 1 || p.path.segments[0].ident == "Self" =>
                {
                    names::of_path(&p.path)
                }
                _ => None,
            },
            Expr::MethodCall(m) if is_path_named(&m.receiver, "self") => {
                Some(names::method(&m.method))
            }
            _ => None,
        };
        if let Some(name) = name.filter(|n| self.facts.fns.contains_key(n)) {
            self.callees.push(name);
        } else if let Expr::Call(c) = expr
            && let Expr::Path(p) = &*c.func
            && p.path.segments.len() == 2
            && let Some(name) = names::of_path(&p.path).filter(|n| n.contains("::"))
        {
            self.callees_elsewhere.push(name);
        }
    }
}

impl<'a> Visit<'a> for Walker<'_, 'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.kind == RootKind::HandRolled {
            if builds_a_success(expr) && !self.in_success {
                self.in_success = true;
                visit::visit_expr(self, expr);
                self.in_success = false;
                return;
            }
            // `(Outgoing::failure(id, ErrorObject::new(..)).to_vec(),
            // CallStatus::ProtocolError(code))`: one answer, the rest of the tuple describes it.
            if let Expr::Tuple(t) = expr {
                let before = self.sites.len();
                for elem in &t.elems {
                    let described = self.sites.len() > before;
                    if !(described && response_error(self.facts, elem).is_some()) {
                        self.visit_expr(elem);
                    }
                }
                return;
            }
            // `let payload = JsonRpcErrorPayload::from(&e); McpResponse::error(id, payload)`:
            // the response is built of what the local was bound to.
            let inlined = self.with_locals_inlined(expr);
            if !self.in_success
                && let Some(error) = response_error(self.facts, inlined.as_ref().unwrap_or(expr))
            {
                if error.constructor == RENDERS_ITSELF || writes_a_carried_code(expr) {
                    self.note_rendered(&error, expr);
                }
                self.push_site(error, expr, None);
                return;
            }
            self.note_callee(expr);
        } else {
            if let Some(exit) = self.exits.get(&(expr as *const Expr)).cloned()
                && let Expr::Call(c) = expr
                && c.args.len() == 1
                && is_path_named(&c.func, "Err")
            {
                self.report(&c.args[0], exit);
            }
            if let Some(exit) = self.error_values.get(&(expr as *const Expr)).cloned() {
                self.report(expr, exit);
            }
            if self.kind == RootKind::Converted
                && let Some(exit) = self.forwarded.get(&(expr as *const Expr)).cloned()
            {
                let name = called(expr);
                let reports_elsewhere = |n: String| {
                    self.reports_its_own(&n, expr) || self.index.never_fails(self.crate_dir, &n)
                };
                if !name.is_some_and(reports_elsewhere) && !serializes(expr) {
                    // The conditions it sits under say nothing about why the call failed
                    // (`if let Some(tag) = args.tag { db.query(tag).await? }`).
                    let error = self.origin(expr, context_message(expr));
                    let span = match &exit {
                        Some(question) if self.text.text().get(question.clone()) == Some("?") => {
                            self.leaves_at(expr, question)
                        }
                        _ => span_range(self.text, expr.span()),
                    };
                    self.push_unguarded(error, span, exit);
                }
            } else if let Some(exit) = self.forwarded.get(&(expr as *const Expr)).cloned()
                && let Some(errors) = self.helper_errors(expr, false)
            {
                // The caller's conditions say nothing about why the helper failed.
                for error in errors {
                    self.push_unguarded(error, span_range(self.text, expr.span()), exit.clone());
                }
            }
        }
        visit::visit_expr(self, expr);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        let name = mac.path.segments.last().map(|s| s.ident.to_string());
        // `bail!`/`ensure!` return `Err`: a protocol error where a handler converts the
        // function's errors, and in an mcp-attr tool or a helper of one (`mcp_attr::bail!`,
        // `bail_public!`).
        let exits = match self.kind {
            RootKind::Converted | RootKind::McpAttrTool | RootKind::PulseengineTool => true,
            RootKind::RmcpHelper => self.facts.sdks.mcp_attr,
            _ => false,
        };
        if exits && matches!(name.as_deref(), Some("bail" | "ensure" | "bail_public")) {
            let parser = syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated;
            let message = mac.parse_body_with(parser).ok().and_then(|args| {
                let literal = args.iter().find(|a| matches!(a, Expr::Lit(_)));
                literal.and_then(message_of)
            });
            let error = ProtocolError {
                variant: None,
                written: format!("{}!", name.unwrap_or_default()),
                constructor: "error value".to_string(),
                code: None,
                message,
                via: None,
                call: None,
            };
            let error = self.converts(error, None);
            self.push_site(error, mac, None);
        }
        visit::visit_macro(self, mac);
    }

    fn visit_expr_return(&mut self, ret: &'a syn::ExprReturn) {
        if let (Some(value), false) = (&ret.expr, self.kind == RootKind::HandRolled) {
            let span = span_range(self.text, ret.return_token.span);
            self.mark_exits(value, Some(span));
        }
        // `if let Some(res) = tools::handle_call(..) { return res; }`: a hand-rolled root
        // answers with what the call answers.
        if let (Some(value), true) = (&ret.expr, self.kind == RootKind::HandRolled)
            && let Expr::Path(p) = &**value
            && let Some(init) = p
                .path
                .get_ident()
                .and_then(|i| self.locals.get(&i.to_string()))
        {
            self.note_callee(peel_await(init));
        }
        visit::visit_expr_return(self, ret);
    }

    fn visit_expr_try(&mut self, t: &'a syn::ExprTry) {
        // In a function returning `Option<..>` (a sub-dispatcher's `Option<Result<..>>`), a
        // `?` is an `Option`'s: `None`, not a failure.
        if self.kind != RootKind::HandRolled && !self.returns_option {
            let question = span_range(self.text, t.question_token.span);
            // `spawn_blocking(|| ..).await??`: the second `?` passes on the task's own `Err`.
            if let Expr::Try(inner) = &*t.expr
                && let Some(body) = spawned_task(&inner.expr)
            {
                self.enter_task(body, Some(question));
            } else if !self.mark_error_producer(&t.expr, Some(question.clone()))
                && self.converts_by_type(&t.expr)
            {
                // What failed is the operand: its words say what the error is about.
                let guard = Guard::new(GuardKind::Fallible, &t.expr);
                let operand = opaque_error(&t.expr);
                let error = ProtocolError {
                    variant: None,
                    written: format!("{}?", operand.written),
                    constructor: BY_TYPE.to_string(),
                    ..operand
                };
                let span = self.leaves_at(&t.expr, &question);
                self.with_guard(guard, |s| s.push_site_at(error, span, Some(question)));
            }
        }
        visit::visit_expr_try(self, t);
    }

    fn visit_expr_closure(&mut self, c: &'a syn::ExprClosure) {
        // A hand-rolled root may build its response anywhere; a typed root's flow only
        // continues into the closures of `ok_or_else`/`map_err` under a `?`.
        if self.kind == RootKind::HandRolled || self.is_entered(c) {
            visit::visit_expr_closure(self, c);
        }
    }

    fn visit_expr_async(&mut self, a: &'a syn::ExprAsync) {
        if self.kind == RootKind::HandRolled || self.is_entered(a) {
            visit::visit_expr_async(self, a);
        }
    }

    fn visit_item(&mut self, _: &'a syn::Item) {
        // A nested fn or impl is not part of this root.
    }

    fn visit_expr_if(&mut self, i: &'a syn::ExprIf) {
        self.visit_expr(&i.cond);
        let condition = Guard::new(GuardKind::Condition, &i.cond);
        // `if let McpRequest::ReadResource(..) = req.inner { .. }` answers another request.
        if matches!(&*i.cond, Expr::Let(l) if names_other_request(&l.pat)) {
            let other = Guard {
                kind: GuardKind::MatchArm(ArmKind::OtherRequest),
                ..condition
            };
            self.with_guard(other, |w| w.visit_block(&i.then_branch));
            if let Some((_, other)) = &i.else_branch {
                self.with_guard(condition, |w| w.visit_expr(other));
            }
            return;
        }
        self.with_guard(condition, |w| {
            w.visit_block(&i.then_branch);
            if let Some((_, other)) = &i.else_branch {
                w.visit_expr(other);
            }
        });
    }

    fn visit_expr_match(&mut self, m: &'a syn::ExprMatch) {
        self.visit_expr(&m.expr);
        // `match result { .. }`: what is matched is how `result` was computed.
        let subject = match &*m.expr {
            Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.locals.get(&i.to_string()).copied())
                .unwrap_or(&m.expr),
            _ => &m.expr,
        };
        for arm in &m.arms {
            let subject = raced(subject, &arm.pat).unwrap_or(subject);
            let kind = match &arm.pat {
                // `Err(e) if e.is_protocol_error() =>`: the failures of those variants.
                Pat::Guard(g) if predicate_variants(g, self.facts).is_some() => ArmKind::Failure,
                pat => arm_kind(pat),
            };
            let guard = Guard {
                arm: Some(&arm.pat),
                ..Guard::new(GuardKind::MatchArm(kind), subject)
            };
            match &arm.pat {
                // `X::CallTool(p) if denied.contains(&p.name) =>`: the arm's condition too,
                // outside the arm itself, which stays the innermost guard.
                Pat::Guard(g) => {
                    let condition = Guard::new(GuardKind::Condition, &g.guard);
                    self.with_guard(condition, |w| w.with_guard(guard, |w| w.visit_arm(arm)));
                }
                _ => self.with_guard(guard, |w| w.visit_arm(arm)),
            }
        }
    }

    fn visit_local(&mut self, local: &'a syn::Local) {
        let Some(init) = &local.init else { return };
        // A hand-rolled root reports every error response it builds: not those built for a
        // local whose `Err` is absorbed where it is read.
        if self.kind == RootKind::HandRolled
            && matches!(&local.pat, Pat::Ident(p) if self.absorbed.contains(&p.ident.to_string()))
        {
            return;
        }
        let parses = matches!(&local.pat, Pat::Type(t) if names_call_request(&t.ty));
        let outer = self.parsing_request;
        self.parsing_request |= parses;
        self.visit_expr(&init.expr);
        self.parsing_request = outer;
        if let Some((_, diverge)) = &init.diverge {
            self.with_guard(Guard::new(GuardKind::LetElse, &init.expr), |w| {
                w.visit_expr(diverge)
            });
        }
        if let Pat::Ident(p) = &local.pat {
            self.locals.entry(p.ident.to_string()).or_insert(&init.expr);
        }
    }

    fn visit_expr_method_call(&mut self, m: &'a syn::ExprMethodCall) {
        let fallible = matches!(
            m.method.to_string().as_str(),
            "ok_or" | "ok_or_else" | "map_err" | "unwrap_or_else" | "or_else" | "map_or_else"
        );
        if !fallible {
            return visit::visit_expr_method_call(self, m);
        }
        self.visit_expr(&m.receiver);
        let absent = m.method == "ok_or" || m.method == "ok_or_else";
        let kind = match absent {
            true => GuardKind::Absent,
            false => GuardKind::Fallible,
        };
        self.with_guard(Guard::new(kind, &m.receiver), |w| {
            for arg in &m.args {
                w.visit_expr(arg);
            }
        });
    }
}

impl Walker<'_, '_> {
    fn is_entered<T>(&self, node: &T) -> bool {
        self.entered.contains(&address(node))
    }
}

/// A node's address, to recognise it again during the walk.
fn address<T>(node: &T) -> *const () {
    node as *const T as *const ()
}

fn arm_kind(pat: &Pat) -> ArmKind {
    match pat {
        // `Err(e) if e.is_timeout() =>` is a narrowed case: not every failure, nor a fallback.
        Pat::Guard(g) if names_other_request(&g.pat) => ArmKind::OtherRequest,
        Pat::Guard(_) => ArmKind::Other,
        Pat::Wild(_) => ArmKind::Fallback,
        Pat::Ident(p) if p.ident == "None" => ArmKind::Missing,
        Pat::Ident(p)
            if p.subpat.is_none()
                && p.ident.to_string().starts_with(|c: char| c.is_lowercase()) =>
        {
            ArmKind::Fallback
        }
        Pat::Path(p) if p.path.is_ident("None") => ArmKind::Missing,
        Pat::TupleStruct(t) if t.path.segments.last().is_some_and(|s| s.ident == "Err") => {
            ArmKind::Failure
        }
        _ if names_other_request(pat) => ArmKind::OtherRequest,
        _ => ArmKind::Other,
    }
}

/// The variants an `Err(e) if e.is_x() =>` arm answers, where `is_x` is one of the crate's
/// error predicates (see [`super::predicates`]).
pub fn predicate_variants<'f>(g: &syn::PatGuard, facts: &'f FileFacts) -> Option<&'f [String]> {
    let Pat::TupleStruct(err) = &*g.pat else {
        return None;
    };
    if !err.path.is_ident("Err") || err.elems.len() != 1 {
        return None;
    }
    let Some(Pat::Ident(bound)) = err.elems.first() else {
        return None;
    };
    match &*g.guard {
        Expr::MethodCall(m)
            if m.args.is_empty() && is_path_named(&m.receiver, &bound.ident.to_string()) =>
        {
            facts.predicate(&m.method.to_string())
        }
        _ => None,
    }
}

/// Whether a pattern matches only requests other than tools/call, by the variants of a
/// request enum (`McpRequest::ReadResource(..)`, `ClientRequest::ListTools(_)`).
fn names_other_request(pat: &Pat) -> bool {
    let path = match pat {
        Pat::TupleStruct(t) => &t.path,
        Pat::Struct(s) => &s.path,
        Pat::Path(p) => &p.path,
        Pat::Or(o) => return o.cases.iter().all(names_other_request),
        Pat::Guard(g) => return names_other_request(&g.pat),
        _ => return false,
    };
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    matches!(segments.as_slice(), [.., request, variant]
        if request.ends_with("Request") && !variant.starts_with("CallTool"))
}

/// The future an arm of `match select(a, b).await` answers: `Either::Left(..)` is `a`'s,
/// `Either::Right(..)` is `b`'s (a tool raced against its cancellation is not cancelled in
/// the tool's arm).
fn raced<'e>(subject: &'e Expr, arm: &Pat) -> Option<&'e Expr> {
    let Expr::Call(c) = peel_await(subject) else {
        return None;
    };
    let select = matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "select"));
    let Pat::TupleStruct(t) = arm else {
        return None;
    };
    let side = t.path.segments.last()?.ident.to_string();
    match (select && c.args.len() == 2, side.as_str()) {
        (true, "Left") => Some(&c.args[0]),
        (true, "Right") => Some(&c.args[1]),
        _ => None,
    }
}

/// The closure of `iter.map(|v| ..)`.
fn mapped_closure(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::MethodCall(m) if m.method == "map" && m.args.len() == 1 => {
            matches!(&m.args[0], Expr::Closure(_)).then_some(&m.args[0])
        }
        _ => None,
    }
}

/// A success response (`JsonRpcResponse::success(id, ..)`, `self.success_response(..)`):
/// what it carries is the call's result.
fn builds_a_success(expr: &Expr) -> bool {
    let name = match expr {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        },
        Expr::MethodCall(m) => Some(m.method.to_string()),
        _ => None,
    };
    name.is_some_and(|n| n == "success" || n.starts_with("success_"))
}

/// The variant of an error enum a value is built as: `ToolError::Internal(..)`,
/// `ToolError::NotFound`, `ToolError::Denied { .. }`.
fn enum_variant(value: &Expr) -> Option<String> {
    let path = match value {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => &p.path,
            _ => return None,
        },
        Expr::Path(p) => &p.path,
        Expr::Struct(s) => &s.path,
        _ => return None,
    };
    let [.., _, variant] = &path.segments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let name = variant.ident.to_string();
    name.starts_with(char::is_uppercase).then_some(name)
}

/// `Type::function(..)`: the type's and the associated function's names, when the type is
/// capitalized and the function is not (a constructor function, not a variant).
fn type_function(value: &Expr) -> Option<(String, String)> {
    let Expr::Call(c) = value else { return None };
    let Expr::Path(p) = &*c.func else { return None };
    let [.., ty, f] = &p.path.segments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let (ty, f) = (ty.ident.to_string(), f.ident.to_string());
    (ty.starts_with(char::is_uppercase) && !f.starts_with(char::is_uppercase)).then_some((ty, f))
}

/// `McpError::invalid_params(..)`: a constructor of an error type named for a JSON-RPC error,
/// with the code its name says.
fn error_type_constructor(value: &Expr) -> Option<(String, i64)> {
    let (ty, ctor) = type_function(value)?;
    let code = super::facts::well_known_code(&ctor)?;
    ty.ends_with("Error").then_some((ctor, code))
}

/// The variant a constructor function of an error type builds, read off its name:
/// `LiteCodeError::invalid_input(..)` is `InvalidInput`, where a conversion has an arm for it.
fn constructor_variant(value: &Expr) -> Option<String> {
    let (_, name) = type_function(value)?;
    let mut camel = String::new();
    for word in name.split('_') {
        let mut chars = word.chars();
        camel.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        camel.push_str(chars.as_str());
    }
    Some(camel)
}

/// The expressions whose value is the value of `expr` (block tails, branches, arms).
pub fn tails(expr: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    collect_tails(expr, &mut out);
    out
}

/// The expressions whose value is a block's value.
pub fn block_tails(block: &syn::Block) -> Vec<&Expr> {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(tail, None)) => tails(tail),
        _ => Vec::new(),
    }
}

fn collect_tails<'e>(expr: &'e Expr, out: &mut Vec<&'e Expr>) {
    let block_tail = |b: &'e syn::Block, out: &mut Vec<&'e Expr>| {
        if let Some(syn::Stmt::Expr(tail, None)) = b.stmts.last() {
            collect_tails(tail, out);
        }
    };
    match expr {
        Expr::Block(b) => block_tail(&b.block, out),
        Expr::If(i) => {
            block_tail(&i.then_branch, out);
            if let Some((_, other)) = &i.else_branch {
                collect_tails(other, out);
            }
        }
        Expr::Match(m) => m.arms.iter().for_each(|a| match passed_on(m, a) {
            Some(Expr::Closure(c)) => collect_tails(&c.body, out),
            Some(task) => collect_tails(task, out),
            None => collect_tails(&a.body, out),
        }),
        Expr::Paren(p) => collect_tails(&p.expr, out),
        _ => out.push(expr),
    }
}

/// `serde_json::to_string(..)` and the like, `Content::json(..)`: serializing a tool's own
/// result, which cannot fail for plain data (see `CodeError::serializes_the_result`).
fn serializes(expr: &Expr) -> bool {
    let Expr::Call(c) = peel_await(expr) else {
        return false;
    };
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    match path_strings(&p.path).as_slice() {
        [.., ty, f] if ty == "serde_json" => f.starts_with("to_"),
        // rmcp 1.x calls `Content` `ContentBlock`.
        [.., ty, f] if ty == "Content" || ty == "ContentBlock" => f == "json",
        _ => false,
    }
}

/// A `map_err` argument that hands the error on as it is: `|e| e`, `|e| e.into()`,
/// `|e| e.to_string()` (the same failure, as text), `Into::into`, `From::from`.
fn passes_through(f: &Expr) -> bool {
    match f {
        Expr::Closure(c) if c.inputs.len() == 1 => {
            let Pat::Ident(param) = &c.inputs[0] else {
                return false;
            };
            let body = match &*c.body {
                Expr::MethodCall(m)
                    if (m.method == "into" || m.method == "to_string") && m.args.is_empty() =>
                {
                    &*m.receiver
                }
                other => other,
            };
            matches!(body, Expr::Path(p) if p.path.is_ident(&param.ident))
        }
        Expr::Path(p) => matches!(
            path_strings(&p.path).as_slice(),
            [.., ty, f] if (ty == "Into" && f == "into") || (ty == "From" && f == "from")
        ),
        _ => false,
    }
}

/// `McpError::from`, `ErrorData::from`: a `From` conversion named by its target.
fn is_from(f: &Expr) -> bool {
    matches!(f, Expr::Path(p) if p.path.segments.len() == 2 && p.path.segments[1].ident == "from")
}

/// The text `.context("..")`, `.with_context(|| "..")` or `.expect("..")` gives a failing call.
fn context_message(expr: &Expr) -> Option<String> {
    let Expr::MethodCall(m) = peel_await(expr) else {
        return None;
    };
    if !matches!(
        m.method.to_string().as_str(),
        "context" | "with_context" | "expect"
    ) {
        return None;
    }
    match m.args.first()? {
        Expr::Closure(c) => message_of(&c.body),
        arg => message_of(arg),
    }
}

/// The closure or async block of a spawned task (`tokio::task::spawn_blocking(move || ..)`,
/// `tokio::spawn(async move { .. })`), through `.await` and a `.map_err(..)` of its join error.
/// `Ok(result) => result`: the arm's value is what the `Ok` holds.
/// `response => response`: an arm that answers with the matched value as it is.
fn passes_on_binding(arm: &syn::Arm) -> bool {
    matches!(&arm.pat, Pat::Ident(b) if b.subpat.is_none() && is_path_named(&arm.body, &b.ident.to_string()))
}

/// `Err(e) => Err(e)`.
fn passes_on_err(arm: &syn::Arm) -> bool {
    let Pat::TupleStruct(err) = &arm.pat else {
        return false;
    };
    match (err.elems.iter().collect::<Vec<_>>().as_slice(), &*arm.body) {
        ([Pat::Ident(bound)], Expr::Call(c)) if err.path.is_ident("Err") && c.args.len() == 1 => {
            is_path_named(&c.func, "Err") && is_path_named(&c.args[0], &bound.ident.to_string())
        }
        _ => false,
    }
}

fn passes_on_ok(arm: &syn::Arm) -> bool {
    let Pat::TupleStruct(ok) = &arm.pat else {
        return false;
    };
    match ok.elems.iter().collect::<Vec<_>>().as_slice() {
        [Pat::Ident(bound)] => {
            ok.path.is_ident("Ok") && is_path_named(&arm.body, &bound.ident.to_string())
        }
        _ => false,
    }
}

/// What `arm` of `m` answers with when it passes on the result of a spawned task or of a
/// future run under a time limit (`match timeout(limit, f(..)).await { Ok(result) => result,
/// .. }`): the task, or the future.
fn passed_on<'e>(m: &'e syn::ExprMatch, arm: &syn::Arm) -> Option<&'e Expr> {
    if !passes_on_ok(arm) {
        return None;
    }
    spawned_task(&m.expr).or_else(|| match peel_await(&m.expr) {
        Expr::Call(c)
            if c.args.len() == 2
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "timeout")) =>
        {
            Some(&c.args[1])
        }
        _ => None,
    })
}

fn spawned_task(expr: &Expr) -> Option<&Expr> {
    let mut expr = peel_await(expr);
    if let Expr::MethodCall(m) = expr
        && m.method == "map_err"
    {
        expr = peel_await(&m.receiver);
    }
    let Expr::Call(c) = expr else { return None };
    let Expr::Path(f) = &*c.func else { return None };
    let spawn = f.path.segments.last().is_some_and(|s| {
        matches!(
            s.ident.to_string().as_str(),
            "spawn_blocking" | "spawn" | "spawn_local"
        )
    });
    match c.args.first() {
        Some(task @ (Expr::Closure(_) | Expr::Async(_))) if spawn && c.args.len() == 1 => {
            Some(task)
        }
        _ => None,
    }
}

/// `fn f(..) -> Option<..>`.
fn returns_option(sig: &syn::Signature) -> bool {
    matches!(&sig.output, syn::ReturnType::Type(_, ty) if matches!(&**ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option")))
}

fn peel_await(mut expr: &Expr) -> &Expr {
    loop {
        expr = match expr {
            Expr::Await(a) => &a.base,
            Expr::Paren(p) => &p.expr,
            _ => return expr,
        };
    }
}

/// `fut.instrument(span)`, `.in_current_span()`, `.with_context(cx)`, `.boxed()`: adapters
/// that wrap a future without changing its output.
fn peel_future_adapters(mut expr: &Expr) -> &Expr {
    while let Expr::MethodCall(m) = expr
        && matches!(
            m.method.to_string().as_str(),
            "instrument"
                | "in_current_span"
                | "with_context"
                | "with_current_context"
                | "boxed"
                | "boxed_local"
        )
    {
        expr = &m.receiver;
    }
    expr
}

/// The `let name = init;` of a root (a name bound twice keeps its first initializer).
/// A body's `let`s: by name where the pattern is one, and all with their patterns.
#[derive(Default)]
struct Locals<'a> {
    named: HashMap<String, &'a Expr>,
    lets: Vec<(&'a Pat, &'a Expr)>,
    /// Per name: how often it is read, and how often as what `.unwrap_or_else(..)` and the
    /// like turn into a value whatever it is.
    uses: HashMap<String, (usize, usize)>,
}

impl Locals<'_> {
    /// The locals read only through a method that absorbs their `Err` (`let result = match
    /// name { .. }; Ok(result.unwrap_or_else(|e| tool_error(e)))`): no error built for them
    /// leaves the root.
    fn absorbed(&self) -> HashSet<String> {
        let uses = self.uses.iter();
        let absorbed = uses.filter(|(_, (read, absorbed))| *absorbed > 0 && read == absorbed);
        absorbed.map(|(name, _)| name.clone()).collect()
    }
}

impl<'a> Visit<'a> for Locals<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        const ABSORBS: &[&str] = &["unwrap_or_else", "unwrap_or", "unwrap_or_default", "ok"];
        let local = |e: &Expr| match e {
            Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
            _ => None,
        };
        if let Some(name) = local(expr) {
            self.uses.entry(name).or_default().0 += 1;
        }
        if let Expr::MethodCall(m) = expr
            && ABSORBS.contains(&m.method.to_string().as_str())
            && let Some(name) = local(&m.receiver)
        {
            self.uses.entry(name).or_default().1 += 1;
        }
        visit::visit_expr(self, expr);
    }

    fn visit_local(&mut self, local: &'a syn::Local) {
        if let Some(init) = &local.init {
            // `let params: VideoParams = args.into();` is named as `let params = ..` is.
            let pat = match &local.pat {
                Pat::Type(t) => &*t.pat,
                pat => pat,
            };
            if let Pat::Ident(p) = pat {
                self.named.entry(p.ident.to_string()).or_insert(&init.expr);
            }
            self.lets.push((&local.pat, &init.expr));
        }
        visit::visit_local(self, local);
    }

    fn visit_expr_let(&mut self, l: &'a syn::ExprLet) {
        self.lets.push((&l.pat, &l.expr));
        // `if let Some(res) = tools::handle_call(..) { return res; }`: `res` is what the call
        // holds.
        if let Pat::TupleStruct(t) = &*l.pat
            && t.path.is_ident("Some")
            && let [Pat::Ident(bound)] = t.elems.iter().collect::<Vec<_>>()[..]
        {
            self.named.entry(bound.ident.to_string()).or_insert(&l.expr);
        }
        visit::visit_expr_let(self, l);
    }

    fn visit_expr_closure(&mut self, _: &'a syn::ExprClosure) {}

    fn visit_item(&mut self, _: &'a syn::Item) {}
}

/// A type for the params of a tools/call request (`CallToolParams`, `ToolCallParams`,
/// `CallToolRequest`), not for what a call answers (`ToolCallResult`).
fn names_call_request(ty: &syn::Type) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    p.path.segments.last().is_some_and(|s| {
        let name = s.ident.to_string();
        name.contains("Call")
            && name.contains("Tool")
            && !name.contains("Result")
            && !name.contains("Response")
    })
}

/// An error value whose construction is not visible here (`Err(e)`, `Err(e.into())`).
fn opaque_error(value: &Expr) -> ProtocolError {
    let text = value
        .to_token_stream()
        .to_string()
        .replace(" . ", ".")
        .replace(" :: ", "::")
        .replace("& ", "&")
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")");
    let written = if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    };
    ProtocolError {
        variant: None,
        written,
        constructor: "error value".to_string(),
        code: None,
        message: None,
        via: None,
        call: matches!(value, Expr::Call(_) | Expr::MethodCall(_))
            .then(|| callee(value))
            .flatten(),
    }
}

/// Method names too common to resolve by name to a crate function without knowing the
/// receiver's type (`client.get(url)` is not the crate's `get`).
const COMMON_METHODS: &[&str] = &[
    "get",
    "call",
    "send",
    "run",
    "execute",
    "new",
    "from",
    "into",
    "map",
    "map_err",
    "ok_or",
    "ok_or_else",
    "and_then",
    "unwrap",
    "clone",
    "to_string",
    "parse",
    "read",
    "write",
    "open",
    "connect",
    "query",
    "fetch",
    "request",
    "post",
    "put",
    "delete",
    "update",
    "insert",
    "remove",
    "lock",
    "json",
    "text",
    "recv",
    "next",
    "join",
    "wait",
    "spawn",
];

/// The crate function an expression calls, when its name identifies it: a path call
/// (`helper(..)`, `Self::helper(..)`), a method on `self` or one of its fields, or a method
/// whose name is not a common one.
pub fn callee(expr: &Expr) -> Option<String> {
    match peel_await(expr) {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => {
                let last = &p.path.segments.last()?.ident;
                let constructor = last.to_string().starts_with(char::is_uppercase);
                if constructor {
                    None
                } else {
                    names::of_path(&p.path)
                }
            }
            _ => None,
        },
        Expr::MethodCall(m) => {
            let on_self = m
                .receiver
                .to_token_stream()
                .into_iter()
                .next()
                .is_some_and(|t| t.to_string() == "self");
            let common = COMMON_METHODS.contains(&m.method.to_string().as_str());
            (on_self || !common).then(|| names::method(&m.method))
        }
        _ => None,
    }
}

/// [`callee`], or any method a call may reach, common names included (`client.send()`).
fn called(expr: &Expr) -> Option<String> {
    callee(expr).or_else(|| match expr {
        Expr::MethodCall(m) => Some(names::method(&m.method)),
        _ => None,
    })
}

/// Whether a call is on this value: `self.f(..)`, `Self::f(..)`.
fn on_self(call: &Expr) -> bool {
    match peel_await(call) {
        Expr::MethodCall(m) => matches!(&*m.receiver, Expr::Path(p) if p.path.is_ident("self")),
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if p.path.segments.len() == 2
            && p.path.segments[0].ident == "Self"),
        _ => false,
    }
}

/// The variable a place expression or method chain starts from: `params` in
/// `params.parse::<Value>()`.
pub fn base_ident(expr: &Expr) -> Option<&syn::Ident> {
    match expr {
        Expr::Path(p) => p.path.get_ident(),
        Expr::MethodCall(m) => base_ident(&m.receiver),
        Expr::Field(f) => base_ident(&f.base),
        Expr::Index(i) => base_ident(&i.expr),
        Expr::Await(a) => base_ident(&a.base),
        Expr::Try(t) => base_ident(&t.expr),
        Expr::Reference(r) => base_ident(&r.expr),
        Expr::Paren(p) => base_ident(&p.expr),
        _ => None,
    }
}

fn is_path_named(expr: &Expr, name: &str) -> bool {
    matches!(expr, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == name) && p.path.segments.len() == 1)
}

/// `Box::pin(..)`, `std::future::ready(..)` and `future::ready(..)` wrap the handler's value.
fn is_future_wrapper(func: &Expr) -> bool {
    let Expr::Path(p) = func else { return false };
    let names = path_strings(&p.path);
    matches!(names.last().map(String::as_str), Some("ready"))
        || names.ends_with(&["Box".to_string(), "pin".to_string()])
}
