//! Phase one of the source pass: what each function of a file hands its callers, for the
//! crate index (see [`super::index`]).

use std::collections::HashSet;
use std::path::Path;

use syn::visit::{self, Visit};
use syn::{Block, Expr, GenericArgument, ImplItem, Pat, PathArguments, Signature, Type};

use super::facts::{FileFacts, path_strings};
use super::flow::{self, Body, Context, Root};
use super::index::{CrateAliases, CrateIndex, FileSummary, FnSummary, Returns, Sink, crate_dir};
use super::site::{ErrorSite, ProtocolError, RootKind};
use super::{defaults, inputs, names, results, roots, sinks, span_range, syntax};
use crate::suppress;
use crate::text::SourceText;

/// `crate_aliases`: the names the file's crate gives rmcp's error.
/// `entered`: the functions of the file (module-qualified) that a hand-rolled root of another
/// file answers with, walked as hand-rolled roots.
pub fn summarize(
    source: &SourceText,
    path: &Path,
    crate_aliases: &CrateAliases,
    entered: &HashSet<String>,
) -> FileSummary {
    let mut summary = FileSummary {
        crate_dir: crate_dir(path),
        file: source.name.clone(),
        ..FileSummary::default()
    };
    if syntax::too_deep(source.text()).is_some() {
        summary.unparsed = true;
        return summary;
    }
    match super::parse(source.text()) {
        Ok(file) => fill(&mut summary, source, &file, crate_aliases, entered),
        Err(_) => summary.unparsed = true,
    }
    proc_macro2::extra::invalidate_current_thread_spans();
    summary
}

fn fill(
    summary: &mut FileSummary,
    source: &SourceText,
    file: &syn::File,
    crate_aliases: &CrateAliases,
    entered: &HashSet<String>,
) {
    let facts = FileFacts::new(file, crate_aliases);
    summary.variant_codes = facts.variant_codes().collect();
    summary.renames = facts.renamed_fns().collect();
    summary.renames.sort();
    let mut items = Items::default();
    items.visit_file(file);
    let empty = CrateIndex::default();
    let ctx = Context {
        facts: &facts,
        text: source,
        index: &empty,
        crate_dir: &summary.crate_dir,
    };
    let sink = |error: ProtocolError, span: std::ops::Range<usize>| Sink {
        error,
        file: source.name.clone(),
        line: source.position(span.start).line,
        variants: Vec::new(),
    };
    let values_of = |tails: Vec<&Expr>| -> Vec<Sink> {
        tails
            .into_iter()
            .filter_map(|e| {
                sinks::typed_error(&facts, e, RootKind::RmcpTool)
                    .map(|p| sink(p, span_range(source, syn::spanned::Spanned::span(e))))
            })
            .collect()
    };
    let values = |block: &Block| values_of(flow::block_tails(block));
    // `match err { X::NotFound(..) => ErrorData::invalid_params(..), .. }`: each arm's sinks
    // carry the variants it handles.
    let from_values = |block: &Block| -> Vec<Sink> {
        // `let code = match &err { X::NotFound(_) => ErrorCode::INVALID_PARAMS, .. };
        // ErrorData::new(code, err.to_string(), None)`: one sink per arm, with its code.
        if let Some(codes) = codes_by_variant(&facts, block) {
            let built = values(block);
            return codes
                .into_iter()
                .flat_map(|(variants, code)| {
                    built.iter().cloned().map(move |mut s| {
                        s.error.code = s.error.code.or(code);
                        s.variants = variants.clone();
                        s
                    })
                })
                .collect();
        }
        let Some(syn::Stmt::Expr(Expr::Match(m), None)) = block.stmts.last() else {
            return values(block);
        };
        m.arms
            .iter()
            .flat_map(|arm| {
                let variants = pattern_variants(&arm.pat);
                values_of(flow::tails(&arm.body))
                    .into_iter()
                    .map(move |mut s| {
                        s.variants = variants.clone();
                        s
                    })
            })
            .collect()
    };
    // Not gated on `use rmcp`: `#[rmcp::tool_handler]` may be written out in full.
    let defaults_report;
    (
        summary.routes_tools,
        summary.typed_arguments,
        defaults_report,
    ) = defaults::tools_of(file, &facts, source);
    // `delegation`: whether a site's delegation (a tool handing its whole arguments) is known
    // here, not left to the index (a helper's, [`FileSummary::handed_by_helpers`]).
    let converted_calls = |sites: &[ErrorSite], delegation: bool| -> Vec<(String, Sink, bool)> {
        let converted = sites.iter().flat_map(|s| {
            let (calls, _) = facts.through_dispatchers(flow::converted_calls(s));
            calls.into_iter().map(move |name| (name, s))
        });
        converted
            .map(|(name, s)| {
                let dispatched = s.root == RootKind::HandRolled || (delegation && s.delegated);
                let mut sink = sink(s.error.clone(), s.span.clone());
                sink.variants = arm_variants(s, &facts);
                (name, sink, dispatched)
            })
            .collect()
    };
    let mut roots = roots::find_roots(file, &facts);
    roots.extend(roots::entered(&facts, &source.name, |name| {
        entered.contains(name)
    }));
    // Phase two parses the file again only if it can find something in it without the index.
    summary.reports = !roots.is_empty()
        || defaults_report
        || summary.routes_tools
        || !results::check(file, source).is_empty()
        || source.text().contains(suppress::MARKER);
    let mut followed = HashSet::new();
    for root in roots {
        let walk = flow::walk(&ctx, root);
        summary
            .converted_calls
            .extend(converted_calls(&walk.sites, true));
        if root.kind != RootKind::HandRolled {
            summary.root_calls.extend(walk.forwards);
        }
        summary.handed_calls.extend(walk.handed);
        summary.hand_rolled_calls.extend(walk.callees_elsewhere);
        // What the file's own functions a hand-rolled root calls answer with, as phase two
        // follows them (`handle_tool_call` returning `tools::handle_call(..)`'s answer).
        let mut queue: Vec<(String, usize)> = walk.callees.into_iter().map(|c| (c, 1)).collect();
        while let Some((name, depth)) = queue.pop() {
            if facts.is_dispatcher(&name) || !followed.insert(name.clone()) {
                continue;
            }
            for &block in facts.fns.get(&name).into_iter().flatten() {
                let walk = flow::walk(&ctx, Root::new(RootKind::HandRolled, Body::Block(block)));
                summary.hand_rolled_calls.extend(walk.callees_elsewhere);
                if depth < super::MAX_CALL_DEPTH {
                    queue.extend(walk.callees.into_iter().map(|c| (c, depth + 1)));
                }
            }
        }
    }
    for f in &items.fns {
        let arguments = f.tool.then(|| flow::argument_names(f.sig));
        let feeds = inputs::feeds(f.sig, f.block, arguments);
        summary
            .feeds
            .extend(feeds.into_iter().map(|feed| (f.name.clone(), feed)));
    }
    for Function {
        name,
        sig,
        block,
        tool,
    } in items.fns
    {
        let Some(returns) = returns(&facts, sig) else {
            continue;
        };
        let mut fails = false;
        let mut narrowed = Vec::new();
        let (sinks, forwards) = match &returns {
            Returns::ErrorValue => (values(block), Vec::new()),
            Returns::RmcpResult => {
                // As phase two walks it: a function other than a tool is a helper, where a
                // call passing on `name` is not a lookup of the tool.
                let kind = if tool {
                    RootKind::RmcpTool
                } else {
                    roots::helper_kind(&facts)
                };
                let mut root = Root::new(kind, Body::Block(block));
                if !tool {
                    root.unfed_helper = Some(sig);
                }
                let walk = flow::walk(&ctx, root);
                // Handed a parameter whole: the index decides whether a tool fed it.
                let handed = walk.sites.iter().filter(|s| s.delegated);
                let handed =
                    handed.flat_map(|s| facts.through_dispatchers(flow::converted_calls(s)).0);
                summary
                    .handed_by_helpers
                    .extend(handed.map(|callee| (name.clone(), callee)));
                summary
                    .converted_calls
                    .extend(converted_calls(&walk.sites, false));
                let sites = walk
                    .sites
                    .into_iter()
                    .filter(|s| !s.evidence().is_permitted());
                (
                    sites.map(|s| sink(s.error, s.span)).collect(),
                    walk.forwards,
                )
            }
            // What it passes on, in case a handler converts its errors (`RootKind::Converted`).
            Returns::ResultOf(_) => {
                let walk = flow::walk(&ctx, Root::new(RootKind::Converted, Body::Block(block)));
                fails = !walk.sites.is_empty();
                narrowed = walk.narrowed;
                (Vec::new(), walk.forwards)
            }
        };
        let variants = match &returns {
            Returns::ResultOf(ty) => {
                let mut named = Variants(ty, Vec::new());
                named.visit_block(block);
                named.1
            }
            _ => Vec::new(),
        };
        summary.fns.push(FnSummary {
            name,
            tool,
            returns,
            sinks,
            forwards,
            narrowed,
            fails,
            variants,
        });
    }
    for (from, target, block) in items.froms {
        if let Type::Path(target) = target
            && facts.is_rmcp_error(&path_strings(&target.path))
        {
            summary.froms.push((from, from_values(block)));
        }
    }
}

/// The functions of `file` (not of its test modules) that return a `Result` or rmcp's error:
/// name (see [`super::names`]), signature, body and what they return. The crate index says
/// which to walk as roots of their own (see [`CrateIndex::is_helper`] and
/// [`CrateIndex::conversion_of`]).
pub fn fallible_fns<'a>(
    file: &'a syn::File,
    facts: &FileFacts,
) -> Vec<(String, &'a syn::Signature, &'a Block, Returns)> {
    let mut items = Items::default();
    items.visit_file(file);
    items
        .fns
        .into_iter()
        .filter_map(|f| Some((f.name, f.sig, f.block, returns(facts, f.sig)?)))
        .collect()
}

/// The variants of the crate's error that the `Err(..)` arm a site sits in answers
/// (`Err(ToolError::Internal(msg)) =>`, `Err(e) if e.is_protocol_error() =>`); empty for any.
pub fn arm_variants(site: &ErrorSite, facts: &FileFacts) -> Vec<String> {
    err_arm_variants(
        flow::converting_guard(&site.guards).and_then(|g| g.arm),
        facts,
    )
}

/// The variants an `Err(..)` arm pattern answers; empty for any.
pub fn err_arm_variants(arm: Option<&Pat>, facts: &FileFacts) -> Vec<String> {
    match arm {
        Some(Pat::TupleStruct(t))
            if t.elems.len() == 1 && t.path.segments.last().is_some_and(|s| s.ident == "Err") =>
        {
            pattern_variants(&t.elems[0])
        }
        Some(Pat::Guard(g)) => flow::predicate_variants(g, facts)
            .map(<[String]>::to_vec)
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The variants an arm pattern names (`X::A(..) | X::B { .. }`); empty for a catch-all.
pub(super) fn pattern_variants(pat: &Pat) -> Vec<String> {
    let path = match pat {
        Pat::TupleStruct(t) => &t.path,
        Pat::Struct(s) => &s.path,
        Pat::Path(p) => &p.path,
        Pat::Or(o) => return o.cases.iter().flat_map(pattern_variants).collect(),
        _ => return Vec::new(),
    };
    match path.segments.len() {
        0 | 1 => Vec::new(),
        _ => path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .into_iter()
            .collect(),
    }
}

/// The variants of error type `.0` a function body names (`FetchError::InvalidUrl { .. }`).
struct Variants<'t>(&'t str, Vec<String>);

impl<'a> Visit<'a> for Variants<'_> {
    fn visit_path(&mut self, path: &'a syn::Path) {
        let segments: Vec<_> = path.segments.iter().collect();
        // A variant, not a constructor function of the type (`FileError::invalid_input(..)`).
        if let [.., ty, variant] = segments[..]
            && ty.ident == self.0
            && variant.ident.to_string().starts_with(char::is_uppercase)
            && !self.1.iter().any(|v| variant.ident == v)
        {
            self.1.push(variant.ident.to_string());
        }
        visit::visit_path(self, path);
    }
}

/// What a signature hands its caller, when rmcp's error may be in it.
fn returns(facts: &FileFacts, sig: &Signature) -> Option<Returns> {
    let syn::ReturnType::Type(_, ty) = &sig.output else {
        return None;
    };
    let is_rmcp =
        |t: &Type| matches!(t, Type::Path(p) if facts.is_rmcp_error(&path_strings(&p.path)));
    if is_rmcp(ty) {
        return Some(Returns::ErrorValue);
    }
    if facts.is_sdk_result(ty) {
        return Some(Returns::RmcpResult);
    }
    let Some(error) = facts.result_error_type(ty) else {
        if let Some(error) = facts.other_result_error(ty) {
            return Some(Returns::ResultOf(error.to_string()));
        }
        return anyhow_result(facts, ty).then(|| Returns::ResultOf("anyhow::Error".to_string()));
    };
    let error = match error {
        Type::Path(error) => error,
        // `Result<Value, (i32, String)>`: a code and a message, rendered by the caller.
        Type::Tuple(pair) if pair.elems.len() == 2 => {
            return Some(Returns::ResultOf("(code, message)".to_string()));
        }
        _ => return None,
    };
    if facts.is_rmcp_error(&path_strings(&error.path)) {
        return Some(Returns::RmcpResult);
    }
    Some(Returns::ResultOf(
        error.path.segments.last()?.ident.to_string(),
    ))
}

/// `anyhow::Result<T>` or `eyre::Result<T>`, however imported, or the file's alias of one
/// (`type VtResult<T> = anyhow::Result<T>;`, through at most a few aliases).
fn anyhow_result(facts: &FileFacts, ty: &Type) -> bool {
    let mut ty = ty;
    for _ in 0..4 {
        let Type::Path(p) = ty else { return false };
        let full = facts.expand(&path_strings(&p.path));
        if full.last().is_some_and(|s| s == "Result")
            && full
                .first()
                .is_some_and(|s| super::index::ANYHOW_CRATES.contains(&s.as_str()))
        {
            return true;
        }
        let alias = p.path.segments.last().map(|last| last.ident.to_string());
        match alias.and_then(|name| facts.type_alias(&name)) {
            Some(target) => ty = target,
            None => return false,
        }
    }
    false
}

/// A function of a file: its name (see [`super::names`]), signature and body, and whether
/// it is a `#[tool]`.
struct Function<'a> {
    name: String,
    sig: &'a Signature,
    block: &'a Block,
    tool: bool,
}

impl<'a> Function<'a> {
    fn new(name: String, sig: &'a Signature, block: &'a Block, attrs: &[syn::Attribute]) -> Self {
        let tool = super::is_tool_fn(attrs);
        Function {
            name,
            sig,
            block,
            tool,
        }
    }
}

/// The functions of a file (not of its test modules), and its `From` impls' `from` bodies.
#[derive(Default)]
struct Items<'a> {
    fns: Vec<Function<'a>>,
    froms: Vec<(String, &'a Type, &'a Block)>,
}

impl<'a> Visit<'a> for Items<'a> {
    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        let name = names::free(&f.sig.ident);
        self.fns
            .push(Function::new(name, &f.sig, &f.block, &f.attrs));
        visit::visit_item_fn(self, f);
    }

    fn visit_item_impl(&mut self, item: &'a syn::ItemImpl) {
        let from = item.trait_.as_ref().and_then(|(path, _)| {
            let last = path.segments.last().filter(|s| s.ident == "From")?;
            let PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            match args.args.first()? {
                GenericArgument::Type(Type::Path(p)) => {
                    Some(p.path.segments.last()?.ident.to_string())
                }
                _ => None,
            }
        });
        for f in item.items.iter().filter_map(|i| {
            if let ImplItem::Fn(f) = i {
                Some(f)
            } else {
                None
            }
        }) {
            match &from {
                Some(source) if f.sig.ident == "from" => {
                    self.froms.push((source.clone(), &item.self_ty, &f.block))
                }
                _ => {
                    let name = names::method(&f.sig.ident);
                    self.fns
                        .push(Function::new(name, &f.sig, &f.block, &f.attrs))
                }
            }
        }
        visit::visit_item_impl(self, item);
    }

    fn visit_trait_item_fn(&mut self, f: &'a syn::TraitItemFn) {
        if let Some(block) = &f.default {
            let name = names::method(&f.sig.ident);
            self.fns.push(Function::new(name, &f.sig, block, &[]));
        }
    }
}

/// The codes a `From` body picks by variant before building one error with it: `let code =
/// match &err { X::A(_) | X::B => ErrorCode::INVALID_PARAMS, .. };` whose name the tail passes
/// (`ErrorData::new(code, ..)`). Each arm's variants and code.
fn codes_by_variant(facts: &FileFacts, block: &Block) -> Option<Vec<(Vec<String>, Option<i64>)>> {
    let syn::Stmt::Expr(tail, None) = block.stmts.last()? else {
        return None;
    };
    block.stmts.iter().find_map(|stmt| {
        let syn::Stmt::Local(local) = stmt else {
            return None;
        };
        let (syn::Pat::Ident(name), Some(init)) = (&local.pat, &local.init) else {
            return None;
        };
        let Expr::Match(m) = &*init.expr else {
            return None;
        };
        let passed = super::site::words(quote::ToTokens::to_token_stream(tail))
            .contains(&name.ident.to_string().to_lowercase());
        passed.then(|| {
            m.arms
                .iter()
                .map(|arm| {
                    let code = flow::tails(&arm.body)
                        .into_iter()
                        .find_map(|t| facts.int_value(t));
                    (pattern_variants(&arm.pat), code)
                })
                .collect()
        })
    })
}
