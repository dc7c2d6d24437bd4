//! Facts about one file, gathered once before checking: what its `use` items bring in, its
//! type aliases, integer constants and functions, and which MCP SDKs it uses. The checks ask
//! these facts what a path means instead of matching on a name alone (`McpError` is rmcp's
//! `ErrorData` in one crate and turbomcp's error in another).

use std::collections::{HashMap, HashSet};

use syn::{Expr, File, ImplItem, Item, Lit, Type, UnOp, UseTree};

use super::index::CrateAliases;
use super::names;

/// MCP SDKs a file can use, recognised by the crate a `use` item or path starts with.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sdks {
    pub rmcp: bool,
    pub rust_mcp_sdk: bool,
    /// turbomcp, pmcp, mcp-attr, ultrafast, turul, tower-mcp, mcpr: their own error types.
    pub other: bool,
    /// mcp-attr, whose `#[mcp_server]` answers unknown tools with a protocol error.
    pub mcp_attr: bool,
    /// tower-mcp, whose transports and `CatchError` answer a failing tower layer with a
    /// protocol error.
    pub tower_mcp: bool,
    /// pmcp, which sends every `Err` of a `ToolHandler` but `ToolRejected` as a JSON-RPC error.
    pub pmcp: bool,
    /// ultrafast-mcp, which sends every `Err` of a `ToolHandler` as a JSON-RPC error.
    pub ultrafast: bool,
    /// jsonrpc-core, which sends every `Err` of a method as a JSON-RPC error.
    pub jsonrpc: bool,
    /// turbomcp, whose 3.x `McpHandler::call_tool` sends its `Err` as a JSON-RPC error (its
    /// `#[tool]` functions' errors become `isError` results).
    pub turbomcp: bool,
    /// kodegen_mcp_schema, whose `ToolHandler` sends every `Err` of a `Tool` as a JSON-RPC
    /// error (its `McpError` converted into rmcp's by variant).
    pub kodegen: bool,
    /// pulseengine-mcp, whose `#[mcp_tools]` sends every `Err` of a tool as a JSON-RPC error.
    pub pulseengine: bool,
}

const OTHER_SDKS: &[&str] = &[
    "turbomcp",
    "turbomcp_core",
    "turbomcp_server",
    "turbomcp_protocol",
    "pmcp",
    "mcp_attr",
    "ultrafast_mcp",
    "ultrafast_mcp_server",
    "ultrafast_mcp_core",
    "turul_mcp_server",
    "turul_mcp_protocol",
    "tower_mcp",
    "mcpr",
    "kodegen_mcp_schema",
    "pulseengine_mcp_macros",
    "pulseengine_mcp_server",
    "pulseengine_mcp_protocol",
];

#[derive(Default)]
pub struct FileFacts<'a> {
    /// Local name -> full path, from `use` items (`McpError` -> `rmcp::ErrorData`).
    uses: HashMap<String, Vec<String>>,
    /// Prefixes of glob imports (`use rmcp::model::*` -> `rmcp::model`).
    globs: Vec<Vec<String>>,
    type_aliases: HashMap<String, &'a Type>,
    local_types: HashSet<String>,
    consts: HashMap<String, i64>,
    /// Function and method bodies by name (see [`super::names`]), for following calls within
    /// the file.
    pub fns: HashMap<String, Vec<&'a syn::Block>>,
    pub sdks: Sdks,
    /// Names other files of the crate give rmcp's error (`pub type McpError = rmcp::ErrorData`).
    crate_aliases: HashSet<String>,
    /// Names other files of the crate give results of it (`pub type ToolResult = ..`).
    crate_results: HashSet<String>,
    /// Results of another error type that files of the crate name (`AppResult` -> `AppError`).
    other_results: HashMap<String, String>,
    /// The crate's own error-response constructors (see [`super::constructors`]).
    constructors: HashSet<String>,
    /// The crate's error renderers with the code each writes.
    renderers: HashMap<String, i64>,
    /// The crate's error predicates with the variants each is true for.
    predicates: HashMap<String, Vec<String>>,
    /// The code a file's own error enum gives each variant (`RpcError::ToolError` -> -32000),
    /// read off `fn code(&self) { match self { Self::ToolError(_) => -32000, .. } }`.
    variant_codes: HashMap<(String, String), i64>,
    /// Impl blocks, read for `variant_codes` once the file's constants are known.
    impls: Vec<&'a syn::ItemImpl>,
    /// The file's functions that dispatch tools/call and pass its failures on to their caller,
    /// with the calls they pass on (see [`super::roots::dispatchers`]).
    pub dispatchers: HashMap<String, Vec<String>>,
}

impl<'a> FileFacts<'a> {
    /// What the file's own `type` alias of that name stands for.
    pub fn type_alias(&self, name: &str) -> Option<&'a Type> {
        self.type_aliases.get(name).copied()
    }

    /// The facts of `file`, in a crate whose files alias rmcp's error and its results as
    /// `crate_aliases` says.
    pub fn new(file: &'a File, crate_aliases: &CrateAliases) -> Self {
        let mut facts = FileFacts {
            crate_aliases: crate_aliases.errors.clone(),
            crate_results: crate_aliases.results.clone(),
            other_results: crate_aliases.other_results.clone(),
            constructors: crate_aliases.constructors.clone(),
            renderers: crate_aliases.renderers.clone(),
            predicates: crate_aliases.predicates.clone(),
            // The file's own constants, collected next, take precedence.
            consts: crate_aliases.codes.clone(),
            ..FileFacts::default()
        };
        facts.collect(&file.items);
        // The crate's, then the file's own.
        facts.dispatchers = crate_aliases.dispatchers.clone();
        facts.dispatchers.extend(super::roots::dispatchers(file));
        for i in std::mem::take(&mut facts.impls) {
            facts.add_variant_codes(i);
        }
        if !facts.crate_aliases.is_empty() {
            facts.sdks.rmcp = true;
        }
        facts
    }

    fn collect(&mut self, items: &'a [Item]) {
        for item in items {
            match item {
                Item::Use(u) => self.add_use(&u.tree, Vec::new()),
                Item::Type(t) => {
                    self.type_aliases.insert(t.ident.to_string(), &t.ty);
                }
                Item::Struct(s) => {
                    self.local_types.insert(s.ident.to_string());
                }
                Item::Enum(e) => {
                    self.local_types.insert(e.ident.to_string());
                }
                Item::Const(c) => self.add_const(&c.ident, &c.expr),
                Item::Fn(f) => self.add_fn(names::free(&f.sig.ident), &f.block),
                Item::Impl(i) => {
                    self.impls.push(i);
                    for item in &i.items {
                        match item {
                            ImplItem::Fn(f) => self.add_fn(names::method(&f.sig.ident), &f.block),
                            ImplItem::Const(c) => self.add_const(&c.ident, &c.expr),
                            _ => {}
                        }
                    }
                }
                Item::Mod(m) => {
                    if let Some((_, items)) = &m.content {
                        self.collect(items);
                    }
                }
                _ => {}
            }
        }
    }

    /// `impl E { fn code(&self) -> i32 { match self { E::A(..) => -32000, Self::B => .. } } }`:
    /// what each variant of `E` is sent as.
    fn add_variant_codes(&mut self, i: &syn::ItemImpl) {
        let Type::Path(ty) = &*i.self_ty else { return };
        let Some(ty) = ty.path.segments.last().map(|s| s.ident.to_string()) else {
            return;
        };
        for item in &i.items {
            let ImplItem::Fn(f) = item else { continue };
            let Some(syn::Stmt::Expr(Expr::Match(m), None)) = f.block.stmts.last() else {
                continue;
            };
            for arm in &m.arms {
                // `E::A(_) | E::B(_) => -32603`: each case.
                let cases: Vec<&syn::Pat> = match &arm.pat {
                    syn::Pat::Or(o) => o.cases.iter().collect(),
                    pat => vec![pat],
                };
                for case in cases {
                    let path = match case {
                        syn::Pat::Path(p) => &p.path,
                        syn::Pat::TupleStruct(t) => &t.path,
                        syn::Pat::Struct(s) => &s.path,
                        _ => continue,
                    };
                    let segments = path_strings(path);
                    let owner = segments.iter().rev().nth(1).map(String::as_str);
                    if !matches!(owner, Some(o) if o == ty || o == "Self") {
                        continue;
                    }
                    if let (Some(variant), Some(code)) =
                        (segments.last(), self.int_value(&arm.body))
                    {
                        self.variant_codes
                            .insert((ty.clone(), variant.clone()), code);
                    }
                }
            }
        }
    }

    /// Whether `name` is one of the crate's error-response constructors, which build an error
    /// object with the code they are given.
    pub fn is_error_constructor(&self, name: &str) -> bool {
        self.constructors.contains(name)
    }

    /// The code one of the crate's error renderers writes (`create_error_response(id, e)`).
    pub fn renderer_code(&self, name: &str) -> Option<i64> {
        self.renderers.get(name).copied()
    }

    /// The variants one of the crate's error predicates is true for (`e.is_protocol_error()`).
    pub fn predicate(&self, name: &str) -> Option<&[String]> {
        self.predicates.get(name).map(Vec::as_slice)
    }

    /// What each variant of the file's error types is sent as: (type, variant, code).
    pub fn variant_codes(&self) -> impl Iterator<Item = (String, String, i64)> + '_ {
        self.variant_codes
            .iter()
            .map(|((ty, variant), code)| (ty.clone(), variant.clone(), *code))
    }

    /// The code `ty::variant` is sent as, if the file's impl of `ty` says.
    pub fn variant_code(&self, ty: &str, variant: &str) -> Option<i64> {
        self.variant_codes
            .get(&(ty.to_string(), variant.to_string()))
            .copied()
    }

    /// Functions imported under another name (`use tools::run::execute as run_tool`): (the
    /// name used here, the function's own name).
    pub fn renamed_fns(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.uses.iter().filter_map(|(used, path)| {
            let own = path.last()?;
            let function = own.starts_with(|c: char| c.is_lowercase() || c == '_');
            (function && own != used).then(|| (used.clone(), own.clone()))
        })
    }

    fn add_use(&mut self, tree: &UseTree, prefix: Vec<String>) {
        match tree {
            UseTree::Path(p) => {
                let mut next = prefix;
                next.push(p.ident.to_string());
                self.add_use(&p.tree, next);
            }
            UseTree::Name(n) => {
                let mut full = prefix;
                full.push(n.ident.to_string());
                self.note_sdk(&full);
                self.uses.insert(n.ident.to_string(), full);
            }
            UseTree::Rename(r) => {
                let mut full = prefix;
                full.push(r.ident.to_string());
                self.note_sdk(&full);
                self.uses.insert(r.rename.to_string(), full);
            }
            UseTree::Glob(_) => {
                self.note_sdk(&prefix);
                self.globs.push(prefix);
            }
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.add_use(tree, prefix.clone());
                }
            }
        }
    }

    fn note_sdk(&mut self, path: &[String]) {
        match path.first().map(String::as_str) {
            Some("rmcp") => self.sdks.rmcp = true,
            Some("jsonrpc_core") => self.sdks.jsonrpc = true,
            Some("rust_mcp_sdk" | "rust_mcp_schema") => self.sdks.rust_mcp_sdk = true,
            Some(root) if OTHER_SDKS.contains(&root) => {
                self.sdks.other = true;
                self.sdks.mcp_attr |= root == "mcp_attr";
                self.sdks.tower_mcp |= root == "tower_mcp";
                self.sdks.pmcp |= root == "pmcp";
                self.sdks.ultrafast |= root.starts_with("ultrafast_mcp");
                self.sdks.turbomcp |= root.starts_with("turbomcp");
                self.sdks.kodegen |= root == "kodegen_mcp_schema";
                self.sdks.pulseengine |= root.starts_with("pulseengine_mcp");
            }
            _ => {}
        }
    }

    fn add_const(&mut self, ident: &syn::Ident, expr: &Expr) {
        if let Some(value) = self.int_value(expr) {
            self.consts.insert(ident.to_string(), value);
        }
    }

    fn add_fn(&mut self, name: String, block: &'a syn::Block) {
        self.fns.entry(name).or_default().push(block);
    }

    /// The full path a written path stands for, expanding its first segment through `use`.
    pub fn expand(&self, segments: &[String]) -> Vec<String> {
        let mut segments = segments.to_vec();
        if segments.first().is_some_and(|s| s.is_empty()) {
            segments.remove(0); // `::rmcp::ErrorData`
        }
        match segments.first().and_then(|first| self.uses.get(first)) {
            Some(full) => full.iter().chain(&segments[1..]).cloned().collect(),
            None => segments,
        }
    }

    /// Whether a type path names rmcp's `ErrorData` (also spelled `rmcp::Error`, `McpError`),
    /// or another framework's error it sends as a JSON-RPC error the same way (mcp-attr's,
    /// pmcp's, jsonrpc-core's `Error`, turbomcp's `McpError`).
    pub fn is_rmcp_error(&self, segments: &[String]) -> bool {
        self.is_rmcp_error_at_depth(segments, 0)
    }

    fn is_rmcp_error_at_depth(&self, segments: &[String], depth: usize) -> bool {
        if self.is_turbomcp(segments, false) {
            return true; // sent as a JSON-RPC error from a manual `call_tool`
        }
        let full = self.expand(segments);
        let Some(last) = full.last() else {
            return false;
        };
        let in_crate = matches!(full[0].as_str(), "crate" | "super" | "self");
        if full.len() >= 2 {
            // mcp-attr's, pmcp's and jsonrpc-core's `Error` are sent as JSON-RPC errors just as
            // rmcp's is.
            let from_rmcp = (full[0] == "rmcp" && (last == "ErrorData" || last == "Error"))
                || (full[0] == "kodegen_mcp_schema" && last == "McpError")
                || (matches!(full[0].as_str(), "mcp_attr" | "pmcp" | "jsonrpc_core")
                    && last == "Error");
            return from_rmcp || (in_crate && self.crate_aliases.contains(last));
        }
        if let Some(Type::Path(target)) = self.type_aliases.get(last.as_str()) {
            return depth < 4
                && self.is_rmcp_error_at_depth(&path_strings(&target.path), depth + 1);
        }
        if self.local_types.contains(last) {
            return false;
        }
        if self.crate_aliases.contains(last) && !self.uses.contains_key(last) {
            return true; // `use super::*` or a sibling module's alias
        }
        let rmcp_glob = self
            .globs
            .iter()
            .any(|g| g.first().is_some_and(|s| s == "rmcp"));
        // Brought in by a glob, or by `use super::*` in a module of an rmcp server.
        (last == "ErrorData" && rmcp_glob)
            || (self.sdks.rmcp && !self.sdks.other && (last == "ErrorData" || last == "McpError"))
    }

    /// Whether a type path names turbomcp's `McpError` (or, with `result`, its `McpResult`):
    /// imported from turbomcp, or through its prelude's glob.
    pub fn is_turbomcp(&self, segments: &[String], result: bool) -> bool {
        let full = self.expand(segments);
        let name = if result { "McpResult" } else { "McpError" };
        let glob = || {
            let turbomcp = |g: &Vec<String>| g.first().is_some_and(|s| s.starts_with("turbomcp"));
            full.len() == 1 && !self.local_types.contains(name) && self.globs.iter().any(turbomcp)
        };
        full.last().is_some_and(|l| l == name)
            && (full.first().is_some_and(|s| s.starts_with("turbomcp")) || glob())
    }

    /// Whether a type path names kodegen_mcp_schema's `McpError`.
    pub fn is_kodegen_error(&self, segments: &[String]) -> bool {
        let full = self.expand(segments);
        full.len() >= 2
            && full[0] == "kodegen_mcp_schema"
            && full.last().is_some_and(|l| l == "McpError")
    }

    /// Whether a type path names pmcp's `Error`, which pmcp sends as -32603 whatever it holds.
    pub fn is_pmcp_error(&self, segments: &[String]) -> bool {
        let full = self.expand(segments);
        full.len() >= 2 && full[0] == "pmcp" && full.last().is_some_and(|l| l == "Error")
    }

    /// Whether a type path names ultrafast-mcp's `MCPError`.
    pub fn is_ultrafast_error(&self, segments: &[String]) -> bool {
        let full = self.expand(segments);
        full.len() >= 2
            && full[0].starts_with("ultrafast_mcp")
            && full.last().is_some_and(|l| l == "MCPError")
    }

    /// Whether a return type is mcp-attr's or pmcp's `Result<T>` (its error type is the SDK's
    /// `Error`), however imported or aliased, or a crate's alias of a result of rmcp's error.
    pub fn is_sdk_result(&self, ty: &Type) -> bool {
        let mut ty = ty;
        for _ in 0..4 {
            let Type::Path(p) = ty else { return false };
            if self.is_turbomcp(&path_strings(&p.path), true) {
                return true;
            }
            let full = self.expand(&path_strings(&p.path));
            let sdk = full.first().is_some_and(|s| {
                matches!(s.as_str(), "mcp_attr" | "pmcp" | "jsonrpc_core")
                    || s.starts_with("ultrafast_mcp")
            });
            if sdk
                && full
                    .last()
                    .is_some_and(|s| s == "Result" || s == "MCPResult")
            {
                return true;
            }
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let Some(alias) = self.type_aliases.get(&last.ident.to_string()) else {
                return self.is_crate_result(&full);
            };
            ty = alias;
        }
        false
    }

    /// Whether a type path names a result of rmcp's error that another file of the crate
    /// defines. The file's own types win, and a `Result` counts only imported from a module:
    /// unqualified, or from std and the error crates, it is theirs.
    fn is_crate_result(&self, full: &[String]) -> bool {
        let Some(last) = full.last() else {
            return false;
        };
        if !self.crate_results.contains(last) || self.local_types.contains(last) {
            return false;
        }
        let external = ["std", "core", "anyhow", "eyre", "color_eyre", "io"];
        last != "Result" || full.len() >= 2 && !external.contains(&full[0].as_str())
    }

    /// Whether a type path names rust-mcp-sdk's `RpcError`.
    pub fn is_rpc_error(&self, segments: &[String]) -> bool {
        let full = self.expand(segments);
        full.last().is_some_and(|l| l == "RpcError")
            && (full.len() >= 2 && full[0].starts_with("rust_mcp")
                || (self.sdks.rust_mcp_sdk && !self.local_types.contains("RpcError")))
    }

    /// The `Result<_, E>` error type of a return type, through local aliases
    /// (`type McpResult<T> = Result<T, McpError>`).
    pub fn result_error_type(&self, ty: &'a Type) -> Option<&'a Type> {
        let mut ty = ty;
        for _ in 0..4 {
            let Type::Path(p) = ty else { return None };
            let last = p.path.segments.last()?;
            if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
                let types: Vec<&Type> = args
                    .args
                    .iter()
                    .filter_map(|a| match a {
                        syn::GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect();
                if last.ident == "Result" && types.len() == 2 {
                    return Some(types[1]);
                }
                // A sub-dispatcher's `Option<Result<Value, E>>`, `None` when the tool is not
                // its own.
                if last.ident == "Option" && types.len() == 1 {
                    ty = types[0];
                    continue;
                }
            }
            ty = self.type_aliases.get(&last.ident.to_string())?;
        }
        None
    }

    /// Whether `name` (as called: `mcp::dispatch`) is one of the crate's dispatchers.
    pub fn is_dispatcher(&self, name: &str) -> bool {
        self.dispatchers.contains_key(names::unqualified(name))
    }

    /// The calls a conversion of `names`' errors answers for tools/call: a dispatcher of the
    /// file stands for the calls its tools/call arm passes on. And whether one did.
    pub fn through_dispatchers(&self, names: Vec<String>) -> (Vec<String>, bool) {
        let mut dispatched = false;
        let calls = names
            .into_iter()
            .flat_map(
                |name| match self.dispatchers.get(names::unqualified(&name)) {
                    Some(passed) => {
                        dispatched = true;
                        passed.clone()
                    }
                    None => vec![name],
                },
            )
            .collect();
        (calls, dispatched)
    }

    /// The error type a crate alias of a `Result` of another error type names (`fn run(..) ->
    /// AppResult<Value>` with `type AppResult<T> = Result<T, AppError>` in another file).
    pub fn other_result_error(&self, ty: &Type) -> Option<&str> {
        let Type::Path(p) = ty else { return None };
        let last = p.path.segments.last()?.ident.to_string();
        if self.type_aliases.contains_key(&last) {
            return None; // the file's own alias, which `result_error_type` reads
        }
        self.other_results.get(&last).map(String::as_str)
    }

    /// The value of an integer expression: a literal, `-literal`, a local `const`, or a
    /// well-known JSON-RPC error code name (`ErrorCode::INVALID_PARAMS`, `METHOD_NOT_FOUND`).
    pub fn int_value(&self, expr: &Expr) -> Option<i64> {
        match expr {
            Expr::Lit(l) => match &l.lit {
                Lit::Int(i) => i.base10_parse().ok(),
                _ => None,
            },
            Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => self.int_value(&u.expr).map(|v| -v),
            Expr::Paren(p) => self.int_value(&p.expr),
            Expr::Group(g) => self.int_value(&g.expr),
            Expr::Cast(c) => self.int_value(&c.expr),
            Expr::Path(p) => {
                let name = p.path.segments.last()?.ident.to_string();
                match self.consts.get(&name) {
                    Some(v) if p.path.segments.len() == 1 => Some(*v),
                    _ => well_known_code(&name),
                }
            }
            // `ErrorCode(-32602)`, `ErrorCode::ServerError(-32000)`, `i32::from(..)`.
            Expr::Call(c) if c.args.len() == 1 => self.int_value(&c.args[0]),
            // `ErrorCode::InvalidParams.code()`
            Expr::MethodCall(m) if m.method == "code" || m.method == "into" => {
                self.int_value(&m.receiver)
            }
            _ => None,
        }
    }
}

/// The codes JSON-RPC and MCP name, in the spellings SDKs use (`INVALID_PARAMS`,
/// `InvalidParams`, `INVALID_PARAMS_CODE`).
pub fn well_known_code(name: &str) -> Option<i64> {
    let key: String = name
        .trim_end_matches("_CODE")
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .to_ascii_uppercase();
    Some(match key.as_str() {
        "PARSEERROR" => -32700,
        "INVALIDREQUEST" => -32600,
        "METHODNOTFOUND" => -32601,
        "INVALIDPARAMS" => -32602,
        "INTERNALERROR" => -32603,
        "RESOURCENOTFOUND" => -32002,
        "HEADERMISMATCH" => -32020,
        "MISSINGREQUIREDCLIENTCAPABILITY" => -32021,
        "UNSUPPORTEDPROTOCOLVERSION" => -32022,
        "URLELICITATIONREQUIRED" => -32042,
        _ => return None,
    })
}

pub fn path_strings(path: &syn::Path) -> Vec<String> {
    let mut out: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    if path.leading_colon.is_some() {
        out.insert(0, String::new());
    }
    out
}
