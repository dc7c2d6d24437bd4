//! An `ErrorSite` is one protocol error that reaches the response of a `tools/call`: where it
//! is, and the syntax its evidence is read from ([`ErrorSite::evidence`]: the constructor, code
//! and message, and the conditions it sits under). Rules read the evidence, never syntax.

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, Lit};

use super::index::Via;
use crate::evidence::{self, CodeError, REASON_GUARDS};
pub use crate::evidence::{ArmKind, GuardKind, RootKind, Subject};

/// The protocol error as written: `McpError::invalid_params("..", None)` gives constructor
/// `invalid_params`, code -32602 and the message literal.
#[derive(Debug, Clone)]
pub struct ProtocolError {
    /// The expression's head as the user wrote it, for messages (`McpError::invalid_params`).
    pub written: String,
    /// The constructor's name (`invalid_params`, `new`, `json!`, ...).
    pub constructor: String,
    pub code: Option<i64>,
    /// The message literal, or a `format!` string.
    pub message: Option<String>,
    /// The helper the error comes through: "via `call_plugin` (src/plugin.rs:120)".
    pub via: Option<Via>,
    /// For an error value built by a call this file cannot see into (`Err(tool_not_found(x))`),
    /// the function called, for the crate index to resolve.
    pub call: Option<String>,
    /// The variant of the crate's own error enum the value is built as (`ToolError::Internal`
    /// in `Err(ToolError::Internal(..))`), for a conversion that answers each differently.
    pub variant: Option<String>,
}

/// A condition the error sits under, innermost last.
#[derive(Debug, Clone, Copy)]
pub struct Guard<'a> {
    pub kind: GuardKind,
    pub subject: &'a Expr,
    /// A `match` arm's pattern: which variants of an error a conversion's arm answers.
    pub arm: Option<&'a syn::Pat>,
}

impl<'a> Guard<'a> {
    pub fn new(kind: GuardKind, subject: &'a Expr) -> Self {
        Guard {
            kind,
            subject,
            arm: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct ErrorSite<'a> {
    pub root: RootKind,
    /// Whether it converts the failures of a call handed the tool's whole arguments: the
    /// tool's implementation, whose failures are reported where they start.
    pub delegated: bool,
    pub error: ProtocolError,
    /// Outermost first.
    pub guards: Vec<Guard<'a>>,
    /// The names the tool binds its arguments to, when the root is a tool function.
    pub arguments: Vec<String>,
    /// The error expression.
    pub span: Range<usize>,
    /// Where it leaves the tool when that is elsewhere: the `?` or `return`.
    pub exit: Option<Range<usize>>,
}

impl ErrorSite<'_> {
    /// What the rules classify this error by.
    pub fn evidence(&self) -> CodeError {
        let explaining = self.guards.len().saturating_sub(REASON_GUARDS);
        // `Err(ServerError::UnknownTool(..))` rendered by a conversion: the variant names the
        // case as a constructor's name would (`unknown_tool`).
        let constructor = match (&self.error.variant, self.error.constructor.as_str()) {
            (Some(variant), "error value") => snake_case(variant),
            _ => self.error.constructor.clone(),
        };
        CodeError {
            root: self.root,
            constructor,
            code: self.error.code,
            message: self.error.message.clone(),
            guards: self.guards[explaining..]
                .iter()
                .map(|g| {
                    let tokens = g.subject.to_token_stream();
                    let checks_input = match g.kind {
                        // `if args.limit > 100`, `match args.mode.as_str() { .., _ => }`,
                        // `store.get(&args.id).ok_or(..)`: the input is checked or names nothing.
                        GuardKind::Condition
                        | GuardKind::MatchArm(ArmKind::Fallback | ArmKind::Missing)
                        | GuardKind::LetElse
                        | GuardKind::Absent => inspects_arguments(g.subject, &self.arguments),
                        GuardKind::Fallible | GuardKind::MatchArm(ArmKind::Failure) => {
                            validates_arguments(g.subject, &self.arguments)
                        }
                        _ => false,
                    };
                    evidence::Guard {
                        kind: g.kind,
                        // A lookup by a value the tool was given as an argument (a helper's
                        // `name` parameter) is a lookup of the argument, not of the tool.
                        subject: match subject(g.subject) {
                            Subject::Other | Subject::ToolLookup if checks_input => {
                                Subject::Argument
                            }
                            // `args.get("name")` of a tool's arguments: an argument that
                            // happens to be called `name`, not the request's tool name.
                            Subject::RequestField
                                if reads_a_named_argument(g.subject, &self.arguments) =>
                            {
                                Subject::Argument
                            }
                            other => other,
                        },
                        words: words(tokens.clone()),
                        idents: idents(tokens),
                    }
                })
                .collect(),
        }
    }
}

/// Lower-cased identifiers and string literal contents of a token stream.
pub fn words(tokens: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    collect_words(tokens, &mut out);
    out
}

fn collect_words(tokens: TokenStream, out: &mut Vec<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(i) => out.push(i.to_string().to_lowercase()),
            TokenTree::Literal(l) => out.push(l.to_string().trim_matches('"').to_lowercase()),
            TokenTree::Group(g) => collect_words(g.stream(), out),
            TokenTree::Punct(_) => {}
        }
    }
}

/// The identifiers of a token stream, as written.
fn idents(tokens: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    for tree in tokens {
        match tree {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => out.extend(idents(g.stream())),
            _ => {}
        }
    }
    out
}

/// Whether an expression only inspects the tool's own arguments (`params.solution == RESERVED`,
/// `to.is_empty()`, `self.projects.get(&id)`): it names one, and does no work of its own (no
/// call, no `.await`, only methods that inspect a value or look it up), so a check of it that
/// fails is the input's fault, not the tool's.
pub fn inspects_arguments(condition: &Expr, arguments: &[String]) -> bool {
    struct Check<'n> {
        arguments: &'n [String],
        names_one: bool,
        works: bool,
    }
    impl<'a> syn::visit::Visit<'a> for Check<'_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            match e {
                Expr::Await(_) | Expr::Call(_) | Expr::Macro(_) => self.works = true,
                Expr::MethodCall(m) if !inspects(&m.method.to_string()) => self.works = true,
                Expr::Path(p)
                    if p.path
                        .get_ident()
                        .is_some_and(|i| self.arguments.iter().any(|a| i == a)) =>
                {
                    self.names_one = true
                }
                _ => {}
            }
            syn::visit::visit_expr(self, e);
        }
    }
    /// Methods that look at a value without doing anything.
    const INSPECTING: &[&str] = &[
        "is_empty",
        "is_none",
        "is_some",
        "len",
        "contains",
        "contains_key",
        "starts_with",
        "ends_with",
        "as_str",
        "as_deref",
        "as_ref",
        "trim",
        "chars",
        "any",
        "all",
        "iter",
        "is_ascii",
        "is_absolute",
        "is_relative",
        "eq",
        "ne",
        "unwrap_or",
        "unwrap_or_default",
        "is_nan",
        "is_finite",
        "to_lowercase",
        "to_uppercase",
        "clone",
        "cloned",
        "copied",
        "to_string",
        "to_owned",
        "map",
        "filter",
        "and_then",
        "keys",
        "values",
        "eq_ignore_ascii_case",
    ];
    /// Lookups in memory (`find_project_by_id`, `get`, `contains_key`): the name given them
    /// names nothing when they find nothing. A lookup that goes elsewhere awaits or calls.
    /// (`get_*` is not one: `get_file_contents` reads.)
    const LOOKUPS: &[&str] = &["find", "lookup", "contains", "exists", "has_"];
    fn inspects(method: &str) -> bool {
        INSPECTING.contains(&method)
            || method.ends_with("iter")
            || matches!(method, "get" | "get_mut")
            || LOOKUPS.iter().any(|l| method.starts_with(l))
    }
    if arguments.is_empty() {
        return false;
    }
    let mut check = Check {
        arguments,
        names_one: false,
        works: false,
    };
    syn::visit::Visit::visit_expr(&mut check, condition);
    check.names_one && !check.works
}

/// Whether a failing call validates the tool's own arguments (`validate_path(req.path(), ..)`,
/// `req.validate()`, `check_sql(&params.query)`): its name says it checks, and it is given
/// one of them, so its failure is the input's fault. A check of what the server may do with
/// the input (`check_may_fetch_url(url)`, `ensure_allowed(path)`) consults policy or remote
/// state, not the input, so it is not one.
fn validates_arguments(call: &Expr, arguments: &[String]) -> bool {
    const VALIDATORS: &[&str] = &["validate", "check", "verify", "ensure", "sanitize"];
    const PERMISSIONS: &[&str] = &[
        "may",
        "can",
        "allowed",
        "permitted",
        "permission",
        "access",
        "auth",
        "rate",
        "quota",
    ];
    let (name, inputs): (_, Vec<&Expr>) = match peel(call) {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => (
                p.path.segments.last().map(|s| &s.ident),
                c.args.iter().collect(),
            ),
            _ => return false,
        },
        Expr::MethodCall(m) => (
            Some(&m.method),
            std::iter::once(&*m.receiver).chain(&m.args).collect(),
        ),
        _ => return false,
    };
    let validates = name.is_some_and(|n| {
        let n = n.to_string();
        VALIDATORS.iter().any(|v| n.starts_with(v))
            && !n.split('_').any(|word| PERMISSIONS.contains(&word))
    });
    validates
        && inputs.iter().any(|input| {
            idents(input.to_token_stream())
                .iter()
                .any(|i| arguments.contains(i))
        })
}

/// Whether `subject` reads from a value that holds the tool's arguments, under a name that is
/// not the request's own (`params`, `request`).
fn reads_a_named_argument(subject: &Expr, arguments: &[String]) -> bool {
    super::flow::base_ident(subject).is_some_and(|base| {
        !matches!(base.to_string().as_str(), "params" | "request" | "req")
            && arguments.iter().any(|a| base == a)
    })
}

/// Classifies what a guard's subject reads.
pub fn subject(expr: &Expr) -> Subject {
    match peel(expr) {
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "get"
                    | "get_mut"
                    | "contains_key"
                    | "contains"
                    | "remove"
                    | "find"
                    | "position"
                    | "any"
                    | "is_match"
                    | "find_map"
                    | "filter"
            ) =>
        {
            match m.args.first().map(peel) {
                Some(Expr::Lit(key)) if is_request_key(key) => Subject::RequestField,
                Some(Expr::Lit(_)) => Subject::Argument,
                _ if m.args.iter().any(names_a_tool) => Subject::ToolLookup,
                _ => Subject::Other,
            }
        }
        Expr::Index(i) => match peel(&i.index) {
            Expr::Lit(key) if is_request_key(key) => Subject::RequestField,
            Expr::Lit(_) => Subject::Argument,
            _ => Subject::Other,
        },
        Expr::Field(f) => match &f.member {
            syn::Member::Named(n) if n == "params" || n == "name" => Subject::RequestField,
            _ => Subject::Other,
        },
        Expr::Path(p) if p.path.is_ident("params") => Subject::RequestField,
        Expr::Let(l) => subject(&l.expr),
        _ => Subject::Other,
    }
}

/// Whether an identifier of `expr` holds a tool's name.
fn names_a_tool(expr: &Expr) -> bool {
    idents(expr.to_token_stream())
        .iter()
        .any(|i| evidence::TOOL_NAME_IDENTS.contains(&i.as_str()))
}

fn is_request_key(key: &syn::ExprLit) -> bool {
    matches!(&key.lit, Lit::Str(s) if s.value() == "name" || s.value() == "params")
}

/// Strips the wrappers that do not change what an expression is about.
fn peel(mut expr: &Expr) -> &Expr {
    loop {
        expr = match expr {
            Expr::Paren(p) => &p.expr,
            Expr::Reference(r) => &r.expr,
            Expr::Unary(u) => &u.expr,
            Expr::Await(a) => &a.base,
            Expr::Try(t) => &t.expr,
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "as_str"
                        | "as_ref"
                        | "as_deref"
                        | "and_then"
                        | "cloned"
                        | "clone"
                        | "copied"
                        | "to_string"
                        | "to_owned"
                        | "as_object"
                        | "as_array"
                        | "as_u64"
                        | "as_i64"
                        | "as_f64"
                        | "as_bool"
                        | "map"
                        | "ok"
                        | "read"
                        | "write"
                        | "lock"
                        | "unwrap"
                        | "iter"
                        | "is_none"
                        | "is_some"
                        | "is_err"
                        | "into_iter"
                ) =>
            {
                &m.receiver
            }
            _ => return expr,
        };
    }
}

/// `UnknownTool` -> `unknown_tool`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}
