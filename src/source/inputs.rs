//! Which parameters of a crate's functions carry a tool's arguments. A tool hands its input to
//! helpers (`self.insert(&p.id, ..)`, `handle_inbox(id, title)`); a helper's check of such a
//! parameter (`if id.is_empty()`) is a check of the tool's input, while a parameter the tool
//! fills with something else (`self.reload(&config)`, `3`) is not.

use syn::visit::{self, Visit};
use syn::{Block, Expr, FnArg, Pat, Signature};

use super::names;
use super::site::{Subject, inspects_arguments, subject};

/// Where a value passed to a call comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The arguments of the `#[tool]` making the call.
    Tool,
    /// The caller's own parameter at this position (receiver not counted).
    Param(usize),
}

/// A call that passes a value of `origin` at `position` of `callee`'s parameters.
#[derive(Debug, Clone)]
pub struct Feed {
    pub callee: String,
    pub position: usize,
    pub origin: Origin,
}

/// The feeds of a function's body: from a tool, its arguments (`arguments`, as the tool binds
/// them); from any other function, its parameters.
pub fn feeds(sig: &Signature, block: &Block, arguments: Option<Vec<String>>) -> Vec<Feed> {
    let tracked = match arguments {
        Some(names) => names.into_iter().map(|n| (n, Origin::Tool)).collect(),
        None => params(sig)
            .into_iter()
            .enumerate()
            .filter_map(|(i, name)| Some((name?, Origin::Param(i))))
            .collect(),
    };
    let mut flow = Flow {
        tracked,
        feeds: Vec::new(),
    };
    flow.visit_block(block);
    flow.feeds
}

/// The names of a signature's parameters by position, receiver not counted; `None` for a
/// pattern that is not a plain name.
pub fn params(sig: &Signature) -> Vec<Option<String>> {
    sig.inputs
        .iter()
        .filter_map(|input| match input {
            FnArg::Typed(t) => Some(match &*t.pat {
                Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            }),
            FnArg::Receiver(_) => None,
        })
        .collect()
}

struct Flow {
    /// Names bound to tracked values: parameters, and locals made of them.
    tracked: Vec<(String, Origin)>,
    feeds: Vec<Feed>,
}

impl Flow {
    /// The tool's, where `expr` reads a tools/call request's arguments (`params["arguments"]`,
    /// `request.arguments`); else the origin of the first tracked name `expr` mentions.
    fn origin(&self, expr: &Expr) -> Option<Origin> {
        struct Mentions<'t>(&'t [(String, Origin)], Option<Origin>);
        impl<'a> Visit<'a> for Mentions<'_> {
            fn visit_ident(&mut self, ident: &'a proc_macro2::Ident) {
                if self.1.is_none() {
                    self.1 = self.0.iter().find(|(n, _)| ident == n).map(|(_, o)| *o);
                }
            }
        }
        if reads_arguments(expr) {
            return Some(Origin::Tool);
        }
        let mut mentions = Mentions(&self.tracked, None);
        mentions.visit_expr(expr);
        mentions.1
    }

    /// `only_tool`: record only what the tool's arguments feed.
    fn record<'e>(
        &mut self,
        callee: String,
        args: impl Iterator<Item = &'e Expr>,
        only_tool: bool,
    ) {
        for (position, arg) in args.enumerate() {
            if let Some(origin) = self
                .origin(arg)
                .filter(|o| !only_tool || *o == Origin::Tool)
            {
                self.feeds.push(Feed {
                    callee: callee.clone(),
                    position,
                    origin,
                });
            }
        }
    }
}

impl<'a> Visit<'a> for Flow {
    fn visit_local(&mut self, local: &'a syn::Local) {
        visit::visit_local(self, local);
        // `let id = p.id.trim();`: `id` carries what `p` does.
        let origin = local.init.as_ref().and_then(|init| self.origin(&init.expr));
        let name = match &local.pat {
            Pat::Type(t) => &*t.pat,
            pat => pat,
        };
        if let (Some(origin), Pat::Ident(i)) = (origin, name) {
            self.tracked.push((i.ident.to_string(), origin));
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            // `helper(a, b)`, `Self::helper(a, b)`, `module::helper(a, b)`.
            Expr::Call(c) => {
                if let Expr::Path(p) = &*c.func
                    && let Some(name) = names::of_path(&p.path)
                {
                    self.record(name, c.args.iter(), false);
                }
            }
            // `self.helper(a, b)`, `self.repos.resolve(a)` (a method of the server's own
            // state): the receiver is not a parameter position.
            Expr::MethodCall(m) if on_self(&m.receiver) => {
                self.record(names::method(&m.method), m.args.iter(), false);
            }
            // `handlers.handle_tool_call(name, arguments)` in a hand-rolled dispatcher: another
            // value's method, which a tool's arguments alone make worth following.
            Expr::MethodCall(m) => self.record(names::method(&m.method), m.args.iter(), true),
            _ => {}
        }
        visit::visit_expr(self, expr);
    }
}

/// Whether `expr` reads the `arguments` of a request: `params["arguments"]`,
/// `params.get("arguments")`, `request.arguments`.
pub fn reads_arguments(expr: &Expr) -> bool {
    struct Reads(bool);
    impl<'a> Visit<'a> for Reads {
        fn visit_expr(&mut self, expr: &'a Expr) {
            let named = |e: &Expr| matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) if s.value() == "arguments");
            self.0 |= match expr {
                Expr::Index(i) => named(&i.index),
                Expr::MethodCall(m) => {
                    matches!(m.method.to_string().as_str(), "get" | "remove" | "take")
                        && m.args.first().is_some_and(named)
                }
                Expr::Field(f) => matches!(&f.member, syn::Member::Named(n) if n == "arguments"),
                _ => false,
            };
            if !self.0 {
                visit::visit_expr(self, expr);
            }
        }
    }
    let mut reads = Reads(false);
    reads.visit_expr(expr);
    reads.0
}

/// `self`, or a field of it (`self.repos`, `self.state.db`).
fn on_self(receiver: &Expr) -> bool {
    match receiver {
        Expr::Path(p) => p.path.is_ident("self"),
        Expr::Field(f) => on_self(&f.base),
        _ => false,
    }
}

/// The names a body binds the tool's arguments to, beyond `names` (its parameters), from its
/// `let`s (`(pattern, initializer)`, `if let` included): locals that only inspect one (`let id =
/// p.id.trim()`, `if let Some(kind) = args.kind`), and locals that read one by key (`let path =
/// args.get("path")..`, the arguments of a hand-rolled handler). A local made by work on one
/// (`let page = fetch(&args.url).await?`) is not: a check of it checks the work.
pub fn derived_arguments(lets: &[(&Pat, &Expr)], mut names: Vec<String>) -> Vec<String> {
    loop {
        let before = names.len();
        for (pat, init) in lets {
            let reads = inspects_arguments(init, &names)
                || (subject(init) == Subject::Argument
                    || reads_by_key(init, &names)
                    || indexes_arguments(init, &names))
                    && !awaits(init);
            if reads {
                bindings(pat, &mut names);
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

/// An accessor given the arguments and a key: `str_arg(args, "module")?`,
/// `required(&params, "path")`, `args.get_str("name")`. The arguments are a known binding, or
/// in a hand-rolled handler, one named for them (`args`, `arguments`, `params`).
fn reads_by_key(init: &Expr, names: &[String]) -> bool {
    let mut expr = init;
    while let Expr::Try(t) = expr {
        expr = &t.expr;
    }
    let inputs: Vec<&Expr> = match expr {
        Expr::Call(c) => c.args.iter().collect(),
        Expr::MethodCall(m) => std::iter::once(&*m.receiver).chain(&m.args).collect(),
        _ => return false,
    };
    let keyed = inputs
        .iter()
        .any(|i| matches!(i, Expr::Lit(l) if matches!(l.lit, syn::Lit::Str(_))));
    let given_arguments = inputs.iter().any(|input| {
        let mut e = *input;
        while let Expr::Reference(r) = e {
            e = &r.expr;
        }
        matches!(e, Expr::Path(p) if p.path.get_ident().is_some_and(|i| {
            let i = i.to_string();
            names.contains(&i) || ["args", "arguments", "params", "input"].contains(&i.as_str())
        }))
    });
    keyed && given_arguments
}

/// A value read out of the arguments by key and converted: `params["title"].as_str()
/// .ok_or_else(..)?`, `args["limit"].as_u64().unwrap_or(10)`.
fn indexes_arguments(init: &Expr, names: &[String]) -> bool {
    let mut expr = init;
    loop {
        expr = match expr {
            Expr::Try(t) => &t.expr,
            Expr::Reference(r) => &r.expr,
            Expr::MethodCall(m) => &m.receiver,
            Expr::Index(i) => {
                let keyed = matches!(&*i.index, Expr::Lit(l) if matches!(l.lit, syn::Lit::Str(_)));
                return keyed
                    && matches!(&*i.expr, Expr::Path(p) if p.path.get_ident().is_some_and(|id| names.iter().any(|n| id == n)));
            }
            _ => return false,
        };
    }
}

/// The names a pattern binds (`Some(x)`, `Req { path, .. }`, `(a, b)`), appended to `out` where
/// new.
pub fn bindings(pat: &Pat, out: &mut Vec<String>) {
    match pat {
        Pat::Ident(i) => {
            let name = i.ident.to_string();
            if !out.contains(&name) {
                out.push(name);
            }
        }
        Pat::TupleStruct(t) => t.elems.iter().for_each(|p| bindings(p, out)),
        Pat::Tuple(t) => t.elems.iter().for_each(|p| bindings(p, out)),
        Pat::Struct(s) => s.fields.iter().for_each(|f| bindings(&f.pat, out)),
        Pat::Reference(r) => bindings(&r.pat, out),
        Pat::Type(t) => bindings(&t.pat, out),
        _ => {}
    }
}

fn awaits(expr: &Expr) -> bool {
    struct Awaits(bool);
    impl<'a> Visit<'a> for Awaits {
        fn visit_expr_await(&mut self, _: &'a syn::ExprAwait) {
            self.0 = true;
        }
    }
    let mut a = Awaits(false);
    a.visit_expr(expr);
    a.0
}
