//! An `ErrorSite` is one protocol error that reaches the response of a `tools/call`, with the
//! evidence the rules classify it by: the constructor, code and message, and the conditions
//! (guards) it sits under. Rules read it; they never walk syntax themselves.

use std::ops::Range;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, Lit};

use super::index::Via;

/// Which kind of tools/call handler the error leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKind {
    /// `impl ServerHandler { fn call_tool }` (rmcp).
    RmcpCallTool,
    /// A `#[tool]` function whose error type is rmcp's `ErrorData`.
    RmcpTool,
    /// The `CallToolRequest` arm of rust-mcp-sdk's `ServerHandlerCore::handle_request`, or
    /// `handle_call_tool_request_mrtr`.
    RustMcpSdkCore,
    /// A hand-rolled JSON-RPC dispatcher's `"tools/call"` branch and the functions it calls.
    HandRolled,
}

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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArmKind {
    /// `_ =>` or a plain binding: what no other arm matched.
    Fallback,
    /// `None =>`: what was looked for is not there.
    Missing,
    /// `Err(..) =>`: what was done failed.
    Failure,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardKind {
    /// Either branch of an `if` (or `if let`) on the subject.
    Condition,
    /// An arm of a `match` on the subject.
    MatchArm(ArmKind),
    /// The `else` of `let PAT = subject else { .. }`.
    LetElse,
    /// The error of `subject.ok_or(..)` or `.ok_or_else(..)`: the subject is absent.
    Absent,
    /// The error of `subject.map_err(..)` and the like: the subject failed.
    Fallible,
}

/// A condition the error sits under, innermost last.
#[derive(Debug, Clone, Copy)]
pub struct Guard<'a> {
    pub kind: GuardKind,
    pub subject: &'a Expr,
}

/// What a guard's subject is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// Reads `name` or `params` out of the request itself (`params.get("name")`, `req.params`).
    RequestField,
    /// Looks up a tool by its name (`self.tools.get(&name)`, `.find(|t| t.name == name)`).
    ToolLookup,
    /// Reads one argument by key (`args.get("path")`, `arguments["limit"]`).
    Argument,
    Other,
}

#[derive(Debug, Clone)]
pub struct ErrorSite<'a> {
    pub root: RootKind,
    pub error: ProtocolError,
    /// Outermost first.
    pub guards: Vec<Guard<'a>>,
    /// The error expression.
    pub span: Range<usize>,
    /// Where it leaves the tool when that is elsewhere: the `?` or `return`.
    pub exit: Option<Range<usize>>,
}

/// Identifiers that hold a tool's name (or the part of it that picks a plugin or upstream
/// server, in proxies that namespace tools as `plugin__tool`).
const TOOL_NAME_IDENTS: &[&str] = &[
    "name",
    "tool_name",
    "toolname",
    "tool",
    "tool_id",
    "plugin_name",
    "server_name",
];

/// Identifiers that hold a name (not a resolved `tool`, whose failure is the tool's own).
const NAME_IDENTS: &[&str] = &[
    "name",
    "tool_name",
    "toolname",
    "plugin_name",
    "server_name",
];

/// Whether an expression uses the call's arguments (`args`, `arguments_value`, `params`): it
/// then does the tool's work rather than resolve its name.
fn mentions_argument(expr: &Expr) -> bool {
    words(expr.to_token_stream())
        .iter()
        .any(|w| ["arg", "param", "input"].iter().any(|a| w.contains(a)))
}

impl<'a> ErrorSite<'a> {
    fn innermost(&self) -> Option<&Guard<'a>> {
        self.guards.last()
    }

    /// The guards that explain the error: the innermost two. Outer conditions are usually
    /// about something else (the whole handler sits under `if let Some(args) = ..`).
    fn reason_guards(&self) -> &[Guard<'a>] {
        &self.guards[self.guards.len().saturating_sub(2)..]
    }

    /// Whether an identifier or string in the explaining `if` conditions contains one of
    /// `needles`: a check (`if self.disabled.contains(name)`), not a call's failure that
    /// merely passes such a value (`match tool.call(args, authorization)`).
    pub fn condition_mentions(&self, needles: &[&str]) -> bool {
        self.reason_guards()
            .iter()
            .filter(|g| g.kind == GuardKind::Condition)
            .flat_map(|g| words(g.subject.to_token_stream()))
            .any(|w| needles.iter().any(|n| w.contains(n)))
    }

    /// Whether an identifier or string in the explaining guards contains one of `needles`.
    pub fn guard_mentions(&self, needles: &[&str]) -> bool {
        self.reason_guards()
            .iter()
            .flat_map(|g| words(g.subject.to_token_stream()))
            .any(|w| needles.iter().any(|n| w.contains(n)))
    }

    /// Whether the message literal, lower-cased, contains one of `needles`.
    pub fn message_mentions(&self, needles: &[&str]) -> bool {
        self.error
            .message
            .as_deref()
            .map(str::to_lowercase)
            .is_some_and(|m| needles.iter().any(|n| m.contains(n)))
    }

    /// The error answers a lookup of the tool by name: the fallback arm of a `match` on the
    /// name, or the failure of `tools.get(&name)` and the like.
    pub fn follows_tool_lookup(&self) -> bool {
        let Some(guard) = self.innermost() else {
            return false;
        };
        match (guard.kind, subject(guard.subject)) {
            (_, Subject::ToolLookup) => true,
            (GuardKind::MatchArm(ArmKind::Fallback), _) => mentions_tool_name(guard.subject),
            // `let tool = ..find(..)` then `None =>`: no such tool.
            (GuardKind::MatchArm(ArmKind::Missing) | GuardKind::LetElse | GuardKind::Absent, _) => {
                mentions_tool_name(guard.subject) && !mentions_argument(guard.subject)
            }
            // `parse_namespaced_name(request.name)` failing: the name resolves to no tool; but
            // `tool.call(args)` failing is the tool's own failure.
            (GuardKind::MatchArm(ArmKind::Failure) | GuardKind::Fallible, _) => {
                mentions(guard.subject, NAME_IDENTS) && !mentions_argument(guard.subject)
            }
            _ => false,
        }
    }

    /// The error answers a missing or unusable argument (`args.get("path")` failed).
    pub fn follows_argument_lookup(&self) -> bool {
        self.innermost().is_some_and(|g| {
            g.kind != GuardKind::MatchArm(ArmKind::Other) && subject(g.subject) == Subject::Argument
        })
    }

    /// The request itself is malformed (no `params`, no `name`): a protocol error is right.
    pub fn is_malformed_request(&self) -> bool {
        let absent = self.innermost().is_some_and(|g| {
            g.kind != GuardKind::MatchArm(ArmKind::Other)
                && g.kind != GuardKind::MatchArm(ArmKind::Fallback)
                && subject(g.subject) == Subject::RequestField
        });
        absent
            || self.message_mentions(&[
                "missing tool name",
                "missing name",
                "missing 'name'",
                "missing `name`",
                "missing \"name\"",
                "missing params",
                "missing 'params'",
                "missing parameters",
                "tool name is required",
                "name is required",
                "name must be a string",
                "invalid tool name type",
            ])
    }

    /// Protocol errors the SEP keeps: spec-defined codes, rmcp's own conversion of argument
    /// errors (>= 1.8), and server failures before any result exists.
    pub fn is_permitted(&self) -> bool {
        const KEPT_CONSTRUCTORS: &[&str] = &[
            "header_mismatch",
            "unsupported_protocol_version",
            "missing_required_client_capability",
        ];
        // URL elicitation required, header mismatch, missing capability, unsupported version.
        const KEPT_CODES: &[i64] = &[-32042, -32020, -32021, -32022];
        KEPT_CONSTRUCTORS.contains(&self.error.constructor.as_str())
            || self.error.code.is_some_and(|c| KEPT_CODES.contains(&c))
            || self.message_mentions(&["failed to deserialize parameters:"])
            // The client cancelled: the cancellation utility governs the answer, not SEP-2145.
            || self.guard_mentions(&["cancel"])
            || self.message_mentions(&["cancel"])
            // MRTR: a tampered or unknown `requestState` is a protocol error by design.
            || self.guard_mentions(&["request_state", "requeststate"])
            || self.message_mentions(&["request state", "requeststate", "request_state"])
            || self.message_mentions(&[
                "not initialized",
                "not initialised",
                "lock poisoned",
                "failed to serialize",
                "fail to serialize",
                "could not serialize",
            ])
            || self.is_malformed_request()
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

fn mentions_tool_name(expr: &Expr) -> bool {
    mentions(expr, TOOL_NAME_IDENTS)
}

/// Whether an identifier of `expr` is one of `idents`.
fn mentions(expr: &Expr, idents: &[&str]) -> bool {
    fn walk(tokens: TokenStream, idents: &[&str]) -> bool {
        tokens.into_iter().any(|tree| match tree {
            TokenTree::Ident(i) => idents.contains(&i.to_string().as_str()),
            TokenTree::Group(g) => walk(g.stream(), idents),
            _ => false,
        })
    }
    walk(expr.to_token_stream(), idents)
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
                _ if m.args.iter().any(mentions_tool_name) => Subject::ToolLookup,
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
