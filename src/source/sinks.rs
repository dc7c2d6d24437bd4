//! Recognises expressions that build a JSON-RPC protocol error.
//!
//! Two sets: *typed* errors, which become a protocol error when they are the `Err` of a
//! handler (rmcp `ErrorData`, rust-mcp-sdk `RpcError`), and *response* errors, which are the
//! error object itself in a hand-rolled server (`json!({"error": {"code": ..}})`, a
//! `JsonRpcError { code, .. }` literal, `error_response(id, -32601, ..)`).

use proc_macro2::{TokenStream, TokenTree};
use syn::{Expr, ExprCall, ExprStruct, Lit, Macro};

use super::facts::{FileFacts, path_strings, well_known_code};
use super::site::{ProtocolError, RootKind};

/// rmcp's `ErrorData` constructors and the code each gives.
const RMCP_CONSTRUCTORS: &[(&str, Option<i64>)] = &[
    ("new", None),
    ("invalid_params", Some(-32602)),
    ("internal_error", Some(-32603)),
    ("invalid_request", Some(-32600)),
    ("method_not_found", Some(-32601)),
    ("parse_error", Some(-32700)),
    ("resource_not_found", Some(-32002)),
    ("header_mismatch", Some(-32020)),
    ("missing_required_client_capability", Some(-32021)),
    ("unsupported_protocol_version", Some(-32022)),
];

/// turbomcp 3's `McpError` constructors and the codes it sends them with
/// (turbomcp-core's `jsonrpc_error_code`).
const TURBOMCP_CONSTRUCTORS: &[(&str, i64)] = &[
    ("parse_error", -32700),
    ("invalid_request", -32600),
    ("method_not_found", -32601),
    ("capability_not_supported", -32601),
    ("invalid_params", -32602),
    ("tool_not_found", -32602),
    ("prompt_not_found", -32602),
    ("internal", -32603),
    ("safe_internal", -32603),
    ("tool_execution_failed", -32603),
    ("safe_tool_execution_failed", -32603),
    ("serialization", -32603),
    ("resource_not_found", -32002),
    ("resource_access_denied", -32005),
    ("authentication", -32008),
    ("rate_limited", -32009),
    ("server_overloaded", -32010),
    ("permission_denied", -32011),
    ("timeout", -32012),
    ("unavailable", -32013),
    ("transport", -32014),
    ("configuration", -32015),
    ("external_service", -32016),
    ("cancelled", -32017),
    ("security", -32018),
];

/// kodegen_mcp_schema's `McpError` variants and the codes its `From<McpError> for ErrorData`
/// sends them with; every other variant is an internal error (-32603).
const KODEGEN_VARIANTS: &[(&str, i64)] = &[
    ("InvalidArguments", -32602),
    ("ToolNotFound", -32601),
    ("ResourceNotFound", -32002),
];

/// An error value that becomes a protocol error when a handler of `root` returns it as `Err`.
pub fn typed_error(facts: &FileFacts, expr: &Expr, root: RootKind) -> Option<ProtocolError> {
    let mut message = None;
    let mut expr = expr;
    // Peel conversions and rust-mcp-sdk's builder chain: `RpcError::internal_error().with_message(m)`.
    loop {
        match expr {
            Expr::Paren(p) => expr = &p.expr,
            Expr::MethodCall(m) if m.method == "into" => expr = &m.receiver,
            Expr::MethodCall(m) if m.method == "with_message" || m.method == "with_data" => {
                if m.method == "with_message" {
                    message = m.args.first().and_then(message_of);
                }
                expr = &m.receiver;
            }
            Expr::Call(c) if c.args.len() == 1 && is_conversion(c) => expr = &c.args[0],
            _ => break,
        }
    }
    match expr {
        Expr::Call(call) => {
            let Expr::Path(func) = &*call.func else {
                return None;
            };
            let segments = path_strings(&func.path);
            let (ctor, ty) = segments.split_last()?;
            if ty.is_empty() {
                return None;
            }
            let written = written(&segments);
            // pmcp answers every `Error` a tool handler returns with -32603, whatever it holds;
            // ultrafast a tool handler's invalid params with -32602, any other `MCPError`
            // with -32603; turbomcp each constructor with its own code.
            let sdk_code = if facts.is_pmcp_error(ty) {
                Some(-32603)
            } else if facts.is_ultrafast_error(ty) {
                Some(if ctor == "invalid_params" {
                    -32602
                } else {
                    -32603
                })
            } else if facts.is_kodegen_error(ty) {
                let code = KODEGEN_VARIANTS.iter().find(|(name, _)| name == ctor);
                Some(code.map_or(-32603, |&(_, code)| code))
            } else if facts.is_turbomcp(ty, false) {
                let &(_, code) = TURBOMCP_CONSTRUCTORS
                    .iter()
                    .find(|(name, _)| name == ctor)?;
                Some(code)
            } else {
                None
            };
            if let Some(code) = sdk_code {
                return Some(ProtocolError {
                    variant: None,
                    written,
                    constructor: ctor.clone(),
                    code: Some(code),
                    message: call.args.first().and_then(message_of),
                    via: None,
                    call: None,
                });
            }
            if facts.is_rmcp_error(ty) {
                let &(_, code) = RMCP_CONSTRUCTORS.iter().find(|(name, _)| name == ctor)?;
                let (code, message) = if ctor == "new" {
                    (
                        call.args.first().and_then(|a| facts.int_value(a)),
                        call.args.iter().nth(1).and_then(message_of),
                    )
                } else {
                    (code, call.args.first().and_then(message_of))
                };
                return Some(ProtocolError {
                    variant: None,
                    written,
                    constructor: ctor.clone(),
                    code,
                    message,
                    via: None,
                    call: None,
                });
            }
            if facts.is_rpc_error(ty) {
                let code = well_known_code(ctor)?;
                return Some(ProtocolError {
                    variant: None,
                    written,
                    constructor: ctor.clone(),
                    code: Some(code),
                    message,
                    via: None,
                    call: None,
                });
            }
            // rust-mcp-sdk converts a `CallToolError` that escapes the core handler into
            // `RpcError::internal_error()` (-32603).
            if root == RootKind::RustMcpSdkCore && ty.last().is_some_and(|t| t == "CallToolError") {
                let message = match ctor.as_str() {
                    "unknown_tool" => Some("Unknown tool".to_string()),
                    "invalid_arguments" => Some("Invalid arguments".to_string()),
                    "new" | "from_message" => call.args.first().and_then(message_of),
                    _ => return None,
                };
                return Some(ProtocolError {
                    variant: None,
                    written,
                    constructor: ctor.clone(),
                    code: Some(-32603),
                    message,
                    via: None,
                    call: None,
                });
            }
            None
        }
        Expr::Struct(s) if facts.is_rmcp_error(&path_strings(&s.path)) => struct_error(facts, s),
        _ => None,
    }
}

/// An expression that is a JSON-RPC error object, or sends one, in a hand-rolled server.
pub fn response_error(facts: &FileFacts, expr: &Expr) -> Option<ProtocolError> {
    match expr {
        Expr::Macro(m) => json_error(facts, &m.mac),
        Expr::Struct(s) => {
            // `JsonRpcError`, `ErrorObject`, `ErrorResponse { code, .. }`; not a struct that
            // merely describes an error (`ErrorAnswer { code, message }`).
            let ty = s.path.segments.last()?.ident.to_string().to_lowercase();
            let names_an_error = [
                "error",
                "errorobject",
                "errorresponse",
                "errordata",
                "errorbody",
            ]
            .iter()
            .any(|end| ty.ends_with(end));
            (names_an_error && field(s, "code").is_some())
                .then(|| struct_error(facts, s))
                .flatten()
        }
        Expr::Call(call) => {
            let Expr::Path(func) = &*call.func else {
                return None;
            };
            let segments = path_strings(&func.path);
            let (ctor, ty) = segments.split_last()?;
            let ty_name = ty.last().map(|t| t.to_lowercase()).unwrap_or_default();
            // Or an error type whose constructor is named for a JSON-RPC error
            // (`McpError::invalid_params(..)`, defined in another file of the crate).
            // Named for a JSON-RPC error object: built with any code, even one computed
            // (`JsonRpcError::new(e.error_code(), e.message(), None)`).
            let names_rpc_error = (ty_name.contains("rpc") && ty_name.contains("error"))
                || ty_name == "errorobject"
                || ty_name == "errorobjectowned";
            let is_rpc_type = names_rpc_error
                || facts.is_rpc_error(ty)
                || (ty_name.ends_with("error") && well_known_code(ctor).is_some());
            if is_rpc_type {
                let variant_code = ty.last().and_then(|t| facts.variant_code(t, ctor));
                let code = coded_args(facts, call.args.iter())
                    .or(variant_code)
                    .or_else(|| well_known_code(ctor));
                // `JsonRpcErrorResponse::new(id, JsonRpcError::new(..))`: the inner one.
                let wraps_one = call.args.iter().any(|a| response_error(facts, a).is_some());
                // `JsonRpcErrorPayload::from(&e)`: the crate's conversion renders each error
                // value with the code its variant is given.
                if code.is_none() && names_rpc_error && is_conversion(call) && call.args.len() == 1
                {
                    return Some(rendered_by_itself(written(&segments)));
                }
                if code.is_none() && (wraps_one || !(names_rpc_error && call.args.len() >= 2)) {
                    return None;
                }
                return Some(ProtocolError {
                    variant: None,
                    written: written(&segments),
                    constructor: ctor.clone(),
                    code,
                    message: call.args.iter().find_map(message_of),
                    via: None,
                    call: None,
                });
            }
            // `JsonRpcResponse::error(id, McpError::tool_not_found(name))`: an error response
            // built of a crate error whose constructor names the case.
            if ty_name.ends_with("response") && ctor.starts_with("error") {
                // One the walker recognizes on its own is reported where it is built.
                let inner = call.args.iter().find_map(|arg| match arg {
                    Expr::Call(c) if response_error(facts, arg).is_none() => match &*c.func {
                        Expr::Path(p) if p.path.segments.len() >= 2 => Some((p, c)),
                        _ => None,
                    },
                    _ => None,
                });
                if let Some((path, inner)) = inner {
                    let segments = path_strings(&path.path);
                    let (inner_ctor, ty) = segments.split_last()?;
                    if ty
                        .last()
                        .is_some_and(|t| t.to_lowercase().ends_with("error"))
                    {
                        return Some(ProtocolError {
                            variant: None,
                            written: written(&segments),
                            constructor: inner_ctor.clone(),
                            code: coded_args(facts, inner.args.iter())
                                .or_else(|| {
                                    ty.last().and_then(|t| facts.variant_code(t, inner_ctor))
                                })
                                .or_else(|| well_known_code(inner_ctor)),
                            message: inner.args.iter().find_map(message_of),
                            via: None,
                            call: None,
                        });
                    }
                }
            }
            (!ty_name.contains("result") && !ty_name.contains("content"))
                .then(|| helper_error(facts, &written(&segments), ctor, call.args.iter()))
                .flatten()
        }
        // `e.to_json_rpc_error(id)`: an error that renders itself with the code it carries.
        Expr::MethodCall(m)
            if facts.is_error_constructor(&m.method.to_string())
                && matches!(&*m.receiver, Expr::Path(p) if p.path.get_ident().is_some_and(|i| i != "self"))
                && coded_args(facts, m.args.iter()).is_none() =>
        {
            Some(rendered_by_itself(m.method.to_string()))
        }
        Expr::MethodCall(m) => helper_error(
            facts,
            &m.method.to_string(),
            &m.method.to_string(),
            m.args.iter(),
        ),
        _ => None,
    }
}

/// `error_response(id, METHOD_NOT_FOUND, msg)`, `self.send_error(id, -32000, msg)`: a function
/// named for errors, or one of the crate's error-response constructors (`Response::err(id,
/// -32602, msg)`), given a JSON-RPC error code.
fn helper_error<'e>(
    facts: &FileFacts,
    written: &str,
    name: &str,
    args: impl Iterator<Item = &'e Expr> + Clone,
) -> Option<ProtocolError> {
    let lower = name.to_lowercase();
    let named = lower.contains("error") && !lower.starts_with("is_") && !lower.contains("tool");
    if !named && !facts.is_error_constructor(name) {
        return None;
    }
    let code = coded_args(facts, args.clone()).or_else(|| facts.renderer_code(name));
    // `error(id, refusal.code, ..)`: the code the error value carries, each origin its own.
    let carried = match code {
        Some(_) => None,
        None => args.clone().find_map(reads_a_code),
    };
    if code.is_none() && carried.is_none() {
        // `JsonRpcResponse::error(id, e)`: a constructor of the crate that writes the code of
        // the error value it is given; each value renders with its own.
        let renders = facts.is_error_constructor(name)
            && args.clone().any(
                |a| matches!(a, Expr::Path(p) if p.path.get_ident().is_some_and(|i| i != "id")),
            );
        return renders.then(|| rendered_by_itself(written.to_string()));
    }
    Some(ProtocolError {
        variant: None,
        written: written.to_string(),
        constructor: carried.unwrap_or(name).to_string(),
        code,
        message: args.into_iter().find_map(message_of),
        via: None,
        call: None,
    })
}

/// The constructor of an error object written with the code of the error value it renders
/// (`framing::error(id, refusal.code, ..)`): where that value is built says the code.
pub const CARRIED_CODE: &str = "the error's own code";

/// The constructor of an error object an error renders itself as (`e.to_json_rpc_error(id)`,
/// see [`super::constructors`]), or one given a code computed from the error where it is
/// rendered (`let (code, msg) = match e { .. }; error(id, code, msg)`): every value of its
/// type, coded by variant or converted by `?`, is answered so.
pub const RENDERS_ITSELF: &str = "the error's own rendering";

/// An error object written by [`RENDERS_ITSELF`]: the code is each value's own.
fn rendered_by_itself(written: String) -> ProtocolError {
    ProtocolError {
        variant: None,
        written,
        constructor: RENDERS_ITSELF.to_string(),
        code: None,
        message: None,
        via: None,
        call: None,
    }
}

/// Whether a conversion writes the code of the error value it renders: it adds none, the
/// values are reported where they are built.
pub fn renders_own_code(constructor: &str) -> bool {
    constructor == CARRIED_CODE || constructor == RENDERS_ITSELF
}

/// Whether an error object is written with the code of the error value it renders
/// (`ErrorObject::new(code, message)` in `Err(Failure::Protocol(code, message)) =>`).
pub fn writes_a_carried_code(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(c) if c.args.iter().any(|a| reads_a_code(a).is_some()))
}

/// `e.code`, `&e.code`: the code a bound error value carries
/// ([`CARRIED_CODE`]); `code`: one bound from the error or computed from it
/// ([`RENDERS_ITSELF`]: `Err((code, message)) =>`, `let (code, msg) = match e { .. }`).
fn reads_a_code(arg: &Expr) -> Option<&'static str> {
    let on_a_value = |e: &Expr| matches!(e, Expr::Path(p) if p.path.get_ident().is_some());
    let names_a_code = |name: String| name == "code" || name.ends_with("_code");
    let read = match arg {
        Expr::Reference(r) => return reads_a_code(&r.expr),
        // A conversion of the integer: `i64::from(code)`, `code as i64`, `code.into()`.
        Expr::Cast(c) => return reads_a_code(&c.expr),
        Expr::Call(c) if c.args.len() == 1 && is_conversion(c) => return reads_a_code(&c.args[0]),
        Expr::MethodCall(m) if m.method == "into" && m.args.is_empty() => {
            return reads_a_code(&m.receiver);
        }
        Expr::Path(p) => {
            let named = p
                .path
                .get_ident()
                .is_some_and(|i| names_a_code(i.to_string()));
            return named.then_some(RENDERS_ITSELF);
        }
        Expr::Field(f) => {
            matches!(&f.member, syn::Member::Named(n) if names_a_code(n.to_string()))
                && on_a_value(&f.base)
        }
        // `e.code()` computes a code for every value of the type, as a rendering of its own
        // does: a value converted by `?` has one too.
        Expr::MethodCall(m) => {
            let computed =
                names_a_code(m.method.to_string()) && m.args.is_empty() && on_a_value(&m.receiver);
            return computed.then_some(RENDERS_ITSELF);
        }
        _ => false,
    };
    read.then_some(CARRIED_CODE)
}

/// The code and message an error value is built with: `Refusal { code: INVALID_PARAMS,
/// message: .. }`, `(INVALID_PARAMS, message)`, the struct a function of the file returns (`invalid("..")`), or a variant
/// whose code the file's `impl` says (`GatewayError::UnknownServer(name)`).
/// `crate_code`: what a variant is sent as where another file of the crate says.
pub fn carried_code(
    facts: &FileFacts,
    value: &Expr,
    crate_code: impl Fn(&str, &str) -> Option<i64>,
) -> Option<(i64, Option<String>)> {
    let variant = |path: &syn::Path| {
        let segments = path_strings(path);
        let [.., ty, variant] = segments.as_slice() else {
            return None;
        };
        facts
            .variant_code(ty, variant)
            .or_else(|| crate_code(ty, variant))
    };
    let built = match value {
        Expr::Path(p) => return variant(&p.path).map(|code| (code, None)),
        Expr::Call(call) => {
            let Expr::Path(func) = &*call.func else {
                return None;
            };
            if let Some(code) = variant(&func.path) {
                return Some((code, call.args.first().and_then(message_of)));
            }
            let name = func.path.get_ident()?.to_string();
            let [body] = facts.fns.get(&name)?.as_slice() else {
                return None;
            };
            match body.stmts.last()? {
                syn::Stmt::Expr(tail, None) => tail,
                _ => return None,
            }
        }
        other => other,
    };
    if let Expr::Tuple(pair) = built
        && let [code, message] = pair.elems.iter().collect::<Vec<_>>().as_slice()
    {
        return Some((facts.int_value(code)?, message_of(message)));
    }
    let Expr::Struct(s) = built else { return None };
    let code = facts.int_value(field(s, "code")?)?;
    Some((code, field(s, "message").and_then(message_of)))
}

/// The first argument that is a JSON-RPC error code: negative, or a named standard code.
/// The first negative integer among `args`: the JSON-RPC code a constructor or helper is given.
pub(super) fn coded_args<'e>(
    facts: &FileFacts,
    mut args: impl Iterator<Item = &'e Expr>,
) -> Option<i64> {
    args.find_map(|a| facts.int_value(a).filter(|v| *v < 0))
}

fn struct_error(facts: &FileFacts, s: &ExprStruct) -> Option<ProtocolError> {
    Some(ProtocolError {
        variant: None,
        written: written(&path_strings(&s.path)),
        constructor: "struct literal".to_string(),
        code: field(s, "code").and_then(|e| facts.int_value(e)),
        message: field(s, "message").and_then(message_of),
        via: None,
        call: None,
    })
}

fn field<'s>(s: &'s ExprStruct, name: &str) -> Option<&'s Expr> {
    s.fields
        .iter()
        .find(|f| matches!(&f.member, syn::Member::Named(n) if n == name))
        .map(|f| &f.expr)
}

/// `json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": ..}})`, or a bare
/// `json!({"code": .., "message": ..})` error object. A `json!` with `content`, `isError` or
/// `result` at its top is a result, not an error.
fn json_error(facts: &FileFacts, mac: &Macro) -> Option<ProtocolError> {
    if mac.path.segments.last()?.ident != "json" {
        return None;
    }
    let top = object_entries(single_brace_group(mac.tokens.clone())?);
    let has = |key: &str| top.iter().any(|e| e.key == key);
    if has("content") || has("isError") || has("result") {
        return None;
    }
    let error = |fields: &[JsonEntry]| {
        let value = |key: &str| {
            fields
                .iter()
                .find(|e| e.key == key)
                .and_then(|e| syn::parse2::<Expr>(e.value.clone()).ok())
        };
        ProtocolError {
            variant: None,
            written: "json!".to_string(),
            constructor: "json!".to_string(),
            code: value("code").and_then(|e| facts.int_value(&e)),
            message: value("message").as_ref().and_then(message_of),
            via: None,
            call: None,
        }
    };
    if let Some(entry) = top.iter().find(|e| e.key == "error") {
        let inner = single_brace_group(entry.value.clone()).map(object_entries);
        // A JSON-RPC error is an object with a code; `{"error": e.to_string()}` or `{"status":
        // "error", "error": {"message": ..}}` alone is a tool's own payload (sent inside a
        // result), unless the envelope says it is a response.
        let coded = inner
            .as_ref()
            .is_some_and(|fields| fields.iter().any(|e| e.key == "code"));
        if !coded && !has("jsonrpc") && !has("id") {
            return None;
        }
        return Some(error(&inner.unwrap_or_default()));
    }
    (has("code") && has("message")).then(|| error(&top))
}

pub(crate) fn single_brace_group(tokens: TokenStream) -> Option<TokenStream> {
    let mut iter = tokens.into_iter();
    match (iter.next(), iter.next()) {
        (Some(TokenTree::Group(g)), None) if g.delimiter() == proc_macro2::Delimiter::Brace => {
            Some(g.stream())
        }
        _ => None,
    }
}

/// One `"key": value` pair of a `json!` object; the value stays unparsed.
pub(crate) struct JsonEntry {
    pub key: String,
    pub key_span: proc_macro2::Span,
    pub value: TokenStream,
}

/// The `"key": value, ...` pairs of a `json!` object.
pub(crate) fn object_entries(tokens: TokenStream) -> Vec<JsonEntry> {
    let mut entries = Vec::new();
    let mut key: Option<(String, proc_macro2::Span)> = None;
    let mut value = Vec::new();
    let mut seen_colon = false;
    let mut flush = |key: &mut Option<(String, proc_macro2::Span)>, value: &mut Vec<TokenTree>| {
        if let Some((key, key_span)) = key.take() {
            let value = value.drain(..).collect();
            entries.push(JsonEntry {
                key,
                key_span,
                value,
            });
        }
        value.clear();
    };
    for tree in tokens {
        match &tree {
            TokenTree::Punct(p) if p.as_char() == ',' && seen_colon => {
                flush(&mut key, &mut value);
                seen_colon = false;
            }
            TokenTree::Punct(p) if p.as_char() == ':' && !seen_colon && key.is_some() => {
                seen_colon = true
            }
            TokenTree::Literal(l) if key.is_none() && !seen_colon => {
                key = Some((l.to_string().trim_matches('"').to_string(), l.span()));
            }
            _ if seen_colon => value.push(tree),
            _ => {}
        }
    }
    flush(&mut key, &mut value);
    entries
}

/// The message text of an argument: a literal, `format!("..")`, `"..".to_string()`, ...
pub fn message_of(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        // `format!("..")`, and the error values `anyhow!("..")`, `eyre!("..")`.
        Expr::Macro(m)
            if m.mac.path.segments.last().is_some_and(|s| {
                matches!(
                    s.ident.to_string().as_str(),
                    "format" | "anyhow" | "eyre" | "format_err"
                )
            }) =>
        {
            match m.mac.tokens.clone().into_iter().next() {
                Some(TokenTree::Literal(l)) => syn::parse_str::<syn::LitStr>(&l.to_string())
                    .ok()
                    .map(|s| s.value()),
                _ => None,
            }
        }
        Expr::MethodCall(m)
            if matches!(
                m.method.to_string().as_str(),
                "to_string" | "to_owned" | "into"
            ) =>
        {
            message_of(&m.receiver)
        }
        Expr::Call(c) if c.args.len() == 1 => message_of(&c.args[0]),
        // `Error::invalid_param("limit", "Limit must be greater than 0")`: the field, then the
        // message.
        Expr::Call(c) => c.args.iter().rev().find_map(message_of),
        Expr::Reference(r) => message_of(&r.expr),
        Expr::Paren(p) => message_of(&p.expr),
        _ => None,
    }
}

/// `From::from(e)`, `Into::into(e)`, `McpError::from(e)`: the value converted.
fn is_conversion(call: &ExprCall) -> bool {
    matches!(&*call.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from" || s.ident == "into"))
}

fn written(segments: &[String]) -> String {
    let start = segments.len().saturating_sub(2);
    segments[start..].join("::")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code of the protocol error `json!` builds (0 when it names none), if it builds one.
    fn json_error_code(written: &str) -> Option<i64> {
        let file: syn::File = syn::parse_str("").expect("an empty file parses");
        let facts = FileFacts::new(&file, &Default::default());
        let Ok(Expr::Macro(m)) = syn::parse_str::<Expr>(written) else {
            panic!("{written} is a macro call");
        };
        json_error(&facts, &m.mac).map(|e| e.code.unwrap_or(0))
    }

    #[test]
    fn an_error_object_needs_a_code_or_an_envelope() {
        let coded = r#"json!({ "error": { "code": -32602, "message": "bad" } })"#;
        assert_eq!(json_error_code(coded), Some(-32602));
        let enveloped = r#"json!({ "jsonrpc": "2.0", "id": id, "error": e })"#;
        assert_eq!(json_error_code(enveloped), Some(0));
        // A tool's own payload, sent inside a result.
        let payload = r#"json!({ "status": "error", "error": { "message": "blocked" } })"#;
        assert_eq!(json_error_code(payload), None);
        assert_eq!(
            json_error_code(r#"json!({ "error": e.to_string() })"#),
            None
        );
    }
}
