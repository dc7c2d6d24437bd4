//! A crate's own error-response constructors: functions that build a JSON-RPC error object
//! whose code is one of their integer parameters (`fn err(id: Value, code: i64, message: ..)
//! -> JsonRpcResponse { .. error: Some(JsonRpcError { code, .. }) .. }`, `fn error(id, code:
//! i64, ..) -> Value { json!({"error": {"code": code, ..}}) }`). A call of one with a code
//! (`JsonRpcResponse::err(id, -32602, ..)`) is a protocol error, in every file of the crate.
//! So is a call of an error type's method that renders the error with its own code (`fn
//! to_json_rpc_error(&self, id: ..) -> Value { json!({"error": {"code": self.code(), ..}}) }`):
//! `e.to_json_rpc_error(id)` answers with the code of each value `e` can be, as does a
//! constructor writing the code of the crate error it is given (`fn error(id, err: McpError) ->
//! Self { .. JsonRpcError { code: err.code, .. } .. }`, called `JsonRpcResponse::error(id, e)`).
//!
//! Read in phase zero, from the text (as the crate's named codes are), since phase one already
//! needs them to see a handler's conversion: only a function whose signature takes an integer
//! and whose body mentions a code and an error is parsed.

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};

/// The names of the error-response constructors `text` defines.
pub fn error_constructors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // A constructor's body names a code and an error: most files are passed over here.
    let mentions = |word: &str| memchr::memmem::find(text.as_bytes(), word.as_bytes()).is_some();
    if !(mentions("code") && mentions("rror")) {
        return out;
    }
    let mut parsed = false;
    for at in memchr::memmem::find_iter(text.as_bytes(), "fn ") {
        let Some(item) = candidate(&text[at..]) else {
            continue;
        };
        parsed = true;
        if let Ok(f) = syn::parse_str::<syn::ItemFn>(item)
            && let Some(name) = builds_coded_error(&f)
        {
            out.push(name);
        }
    }
    if parsed {
        // proc-macro2 keeps every parsed text per thread unless told otherwise.
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    out
}

/// The crate's error renderers `text` defines, with the code they write: functions named for
/// an error that build one error object with a fixed code (`fn create_error_response(&self, id,
/// error: anyhow::Error) -> JsonRpcResponse { .. JsonRpcError::internal_error(msg) .. }`). A
/// hand-rolled dispatcher's `Err(e) => self.protocol.create_error_response(id, e)` is a
/// conversion with that code, from any file of the crate.
pub fn error_renderers(text: &str) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    if memchr::memmem::find(text.as_bytes(), b"rror").is_none() {
        return out;
    }
    let mut parsed = false;
    for at in memchr::memmem::find_iter(text.as_bytes(), "fn ") {
        let rest = &text[at + 3..];
        let name_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if !rest[..name_end].to_lowercase().contains("error") {
            continue;
        }
        let Some((_, item)) = function_text(&text[at..], 0) else {
            continue;
        };
        // Only a body that calls a constructor named for a JSON-RPC error is parsed.
        let names_a_constructor = [
            "_error(",
            "_params(",
            "_request(",
            "_not_found(",
            "::error(",
        ]
        .iter()
        .any(|c| item.contains(c));
        if !names_a_constructor {
            continue;
        }
        parsed = true;
        if let Ok(f) = syn::parse_str::<syn::ItemFn>(item)
            && builds_coded_error(&f).is_none()
        {
            let mut fixed = FixedCodes(Vec::new());
            fixed.visit_block(&f.block);
            fixed.0.sort_unstable();
            fixed.0.dedup();
            if let [code] = fixed.0[..] {
                out.push((f.sig.ident.to_string(), code));
            }
        }
    }
    if parsed {
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    out
}

/// The codes of the error objects a body builds: well-known ones by constructor
/// (`JsonRpcError::internal_error(..)`), or a server's own passed to a generic one
/// (`Self::error(id, -32001, message, None)`).
struct FixedCodes(Vec<i64>);

impl<'a> Visit<'a> for FixedCodes {
    fn visit_expr_call(&mut self, c: &'a syn::ExprCall) {
        if let syn::Expr::Path(p) = &*c.func
            && let [.., ty, ctor] = &p.path.segments.iter().collect::<Vec<_>>()[..]
        {
            let ty = ty.ident.to_string().to_lowercase();
            let known = super::facts::well_known_code(&ctor.ident.to_string());
            if let (true, Some(code)) = (ty.contains("error"), known) {
                self.0.push(code);
            } else if ctor.ident == "error" && (ty == "self" || ty.contains("response")) {
                self.0.extend(c.args.iter().find_map(negative_literal));
            }
        }
        visit::visit_expr_call(self, c);
    }
}

/// `-32001`.
fn negative_literal(expr: &syn::Expr) -> Option<i64> {
    match expr {
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse::<i64>().ok().map(|v| -v),
            _ => None,
        },
        _ => None,
    }
}

/// The text of the function starting at `fn `, through its body (whose `{` is looked for from
/// `from`), with where the body starts; none for a declaration without a body.
pub(super) fn function_text(text: &str, from: usize) -> Option<(usize, &str)> {
    let bytes = text.as_bytes();
    let signature_end = bytes.len().min(from + MAX_SIGNATURE);
    let body = from
        + bytes[from.min(signature_end)..signature_end]
            .iter()
            .position(|b| *b == b'{' || *b == b';')?;
    if bytes[body] != b'{' {
        return None;
    }
    let end = body + block_end(&bytes[body..bytes.len().min(body + MAX_BODY)])?;
    Some((body, &text[..end]))
}

/// How far a signature and a body are looked for: constructors are short, and a bound keeps
/// the scan linear on any text.
const MAX_SIGNATURE: usize = 1024;
const MAX_BODY: usize = 8192;
/// Deeper blocks are not a constructor's (and are not handed to the parser).
const MAX_DEPTH: usize = 32;

/// The text of the function starting at `fn ` when its parameters include an integer (or it is
/// a method, whose receiver may carry the code) and its body mentions a code and an error.
fn candidate(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let find = |from: usize, limit: usize, wanted: &[u8]| {
        let end = bytes.len().min(from + limit);
        bytes[from..end]
            .iter()
            .position(|b| wanted.contains(b))
            .map(|at| from + at)
    };
    let open = find(0, MAX_SIGNATURE, b"({;")?;
    if bytes[open] != b'(' {
        return None;
    }
    let close = find(open, MAX_SIGNATURE, b")")?;
    let params = &text[open..close];
    let integer = [": i64", ": i32", ": i16", ": isize"]
        .iter()
        .any(|ty| params.contains(ty));
    // Or an error value whose code it writes (`fn error(id, err: McpError) -> Self { ..
    // code: err.code .. }`).
    if !integer && !params.starts_with("(&self") && !params.contains("Error") {
        return None;
    }
    let (body, item) = function_text(text, close)?;
    let block = &item[body..];
    (block.contains("code") && block.contains("rror")).then_some(item)
}

/// The length of the `{ .. }` block `bytes` starts with, through its closing brace; strings
/// and line comments are skipped (a mismatch only costs a failed parse).
fn block_end(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' if depth == MAX_DEPTH => return None,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => {
                i = super::syntax::string_end(bytes, i + 1)?;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += bytes[i..].iter().position(|b| *b == b'\n')?;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The function's name, if an error object it builds takes its code from an integer
/// parameter or from its receiver (`self.code`, `self.json_rpc_code()`): a `code` field of a
/// struct named for an error, or `"code"` in a `json!` error object.
fn builds_coded_error(f: &syn::ItemFn) -> Option<String> {
    let params: Vec<String> = f
        .sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Typed(t) if is_integer(&t.ty) || names_an_error(&t.ty) => match &*t.pat {
                syn::Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            },
            syn::FnArg::Receiver(_) => Some("self".to_string()),
            _ => None,
        })
        .collect();
    let mut found = CodedError {
        params: &params,
        found: false,
    };
    found.visit_block(&f.block);
    found.found.then(|| f.sig.ident.to_string())
}

/// `McpError`, `&RpcError`: the crate's error value, whose code field a constructor may write
/// (not `anyhow::Error` or `io::Error`, which carry no JSON-RPC code).
fn names_an_error(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => names_an_error(&r.elem),
        syn::Type::Path(p) => p.path.get_ident().is_some_and(|i| {
            let name = i.to_string();
            name.ends_with("Error") && name != "Error"
        }),
        _ => false,
    }
}

fn is_integer(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.get_ident().is_some_and(|i| ["i64", "i32", "i16", "isize"].iter().any(|t| i == t)))
}

struct CodedError<'p> {
    params: &'p [String],
    found: bool,
}

impl CodedError<'_> {
    fn is_param(&self, expr: &syn::Expr) -> bool {
        let expr = match expr {
            syn::Expr::Cast(c) => &*c.expr,
            // `self.code`, `self.json_rpc_code()`: what the receiver carries.
            syn::Expr::Field(f) => &*f.base,
            syn::Expr::MethodCall(m) if m.args.is_empty() => &*m.receiver,
            other => other,
        };
        matches!(expr, syn::Expr::Path(p) if p.path.get_ident().is_some_and(|i| self.params.iter().any(|n| i == n)))
    }

    /// `"code": code` somewhere in a `json!` body.
    fn json_code(&self, tokens: TokenStream) -> bool {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        trees.windows(3).any(|w| match w {
            [
                TokenTree::Literal(key),
                TokenTree::Punct(colon),
                TokenTree::Ident(value),
            ] => {
                key.to_string() == "\"code\""
                    && colon.as_char() == ':'
                    && self.params.iter().any(|n| value == n)
            }
            _ => false,
        }) || trees.iter().any(|t| match t {
            TokenTree::Group(g) => self.json_code(g.stream()),
            _ => false,
        })
    }
}

impl<'a> Visit<'a> for CodedError<'_> {
    fn visit_expr_struct(&mut self, s: &'a syn::ExprStruct) {
        let names_an_error = s
            .path
            .segments
            .last()
            .is_some_and(|seg| seg.ident.to_string().to_lowercase().ends_with("error"));
        let coded = s.fields.iter().any(|f| {
            matches!(&f.member, syn::Member::Named(n) if n == "code") && self.is_param(&f.expr)
        });
        self.found |= names_an_error && coded;
        visit::visit_expr_struct(self, s);
    }

    fn visit_macro(&mut self, mac: &'a syn::Macro) {
        let json = mac.path.segments.last().is_some_and(|s| s.ident == "json");
        let text = mac.tokens.to_string();
        // A JSON-RPC error object has a message, or sits under `"error"`.
        let error = text.contains("\"error\"") || text.contains("\"message\"");
        self.found |= json && error && self.json_code(mac.tokens.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::error_constructors;

    #[test]
    fn a_constructor_gives_its_code_parameter_to_an_error_object() {
        let text = r#"
impl Response {
    pub fn ok(id: Value, result: Value) -> Self { Self { id, result: Some(result), error: None } }
    pub fn err(id: Value, code: i64, message: impl Into<String>) -> Self {
        Self { id, result: None, error: Some(JsonRpcError { code, message: message.into() }) }
    }
}
pub fn error(id: &Value, code: i64, message: &str) -> Value {
    let error = json!({ "code": code, "message": message }); // a brace: }
    json!({ "jsonrpc": "2.0", "id": id, "error": error })
}
pub fn reply(id: &Value, code: i32) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code as i64, "message": "no" } })
}
fn limit(n: i64) -> Result<i64, String> { if n < 0 { Err("negative error code".into()) } else { Ok(n) } }
fn status(code: i64) -> Status { Status { code, text: "error" } }
trait Send { fn send_error(&self, code: i64); }
"#;
        assert_eq!(error_constructors(text), ["err", "error", "reply"]);
    }

    #[test]
    fn hostile_text_is_scanned_in_bounded_steps() {
        let unclosed = "fn e(code: i64) -> E { E { code, error: 1 ".repeat(20_000);
        assert!(error_constructors(&unclosed).is_empty());
        let nested = format!(
            "fn e(code: i64) {}error code{}",
            "{".repeat(5000),
            "}".repeat(5000)
        );
        assert!(error_constructors(&nested).is_empty());
        assert!(error_constructors("fn é(ü: i64) { \"é\" }").is_empty());
        assert!(error_constructors(&"fn ".repeat(100_000)).is_empty());
    }
}
