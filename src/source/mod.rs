//! The source pass: parses Rust server code with syn and reports the protocol errors that
//! answer a `tools/call`.
//!
//! Per file: gather [`facts::FileFacts`] once, find the tools/call roots, walk each root for
//! the protocol errors that reach its response ([`site::ErrorSite`]), and let the MCP101-MCP105
//! rules classify each one.

mod callers;
mod constructors;
mod defaults;
mod deps;
mod expand;
mod facts;
mod files;
mod flow;
pub mod index;
mod inputs;
mod macro_args;
mod names;
mod predicates;
mod results;
mod roots;
pub(crate) mod sinks;
pub mod site;
mod summary;
mod syntax;

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::Path;

use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use crate::finding::{Elsewhere, Finding, Label};
use crate::fix;
use crate::rules;
use crate::suppress::{self, Suppression};
use crate::text::SourceText;
use facts::FileFacts;
use flow::{Body, Root};
use index::{CrateIndex, Returns};
use site::{ErrorSite, RootKind};

/// How many calls deep a hand-rolled root is followed into the file's own functions.
const MAX_CALL_DEPTH: usize = 3;

pub use files::{Texts, check_files, check_texts};
use summary::summarize;
use syntax::too_deep;

/// Words without one of which a file holds no tools/call handler, protocol error, helper of
/// one, result this pass reads, nor suppression: such a file is not parsed at all.
const MARKERS: &[&str] = &[
    "rmcp",
    "ErrorData",
    "McpError",
    "RpcError",
    "CallTool",
    "call_tool",
    "tools/call",
    "ServerHandler",
    "isError",
    "JsonRpc",
    "jsonrpc",
    // `e.to_json_rpc_error(id)`
    "json_rpc",
    "RouterRequest",
    "mcp_attr",
    "McpRouter",
    "pmcp",
    "ultrafast_mcp",
    "turul_mcp",
    "pulseengine_mcp",
    "mcp-lint:",
];

/// Words without one of which a file has no tools/call handler, result, default or
/// suppression to report: it can still hold helpers (phase one), but phase two skips it.
const CHECK_MARKERS: &[&str] = &[
    "ServerHandler",
    "tool",
    // `impl Tool for X`, `impl ToolHandler for X`, `CallToolResult`, ..
    "Tool",
    "RouterRequest",
    "mcp-lint:",
];

/// Whether phase two has anything to look at in a file (see [`CHECK_MARKERS`]).
pub fn may_report(text: &str) -> bool {
    static CHECK: std::sync::OnceLock<Markers> = std::sync::OnceLock::new();
    CHECK
        .get_or_init(|| Markers::new(CHECK_MARKERS))
        .found_in(text)
}

/// Whether a file's text can matter to this pass: it mentions one of [`MARKERS`] or one of
/// `aliases` (its crate's names for rmcp's error). One scan for all of them: this runs over
/// every file of the tree.
pub fn may_matter(text: &str, aliases: &[&str]) -> bool {
    static BASE: std::sync::OnceLock<Markers> = std::sync::OnceLock::new();
    BASE.get_or_init(|| Markers::new(MARKERS)).found_in(text)
        || (!aliases.is_empty() && aliases.iter().any(|a| text.contains(a)))
}

/// A few words looked for in every file of a tree: with SIMD (aho-corasick's packed Teddy
/// searcher) where the CPU has it, else with an automaton.
struct Markers {
    packed: Option<aho_corasick::packed::Searcher>,
    automaton: aho_corasick::AhoCorasick,
}

impl Markers {
    fn new(words: &[&str]) -> Markers {
        Markers {
            packed: aho_corasick::packed::Searcher::new(words),
            automaton: aho_corasick::AhoCorasick::new(words).expect("valid markers"),
        }
    }

    fn found_in(&self, text: &str) -> bool {
        match &self.packed {
            Some(searcher) => searcher.find(text).is_some(),
            None => self.automaton.is_match(text),
        }
    }
}

/// Checks one Rust file, found at `path` (whose crate's `Cargo.lock` gives the rmcp version),
/// with the crate's helpers from `index`: its findings, and its suppression comments
/// (malformed ones are findings too).
pub fn check(
    source: &SourceText,
    path: &Path,
    index: &CrateIndex,
) -> (Vec<Finding>, Vec<Suppression>) {
    if let Some(deep) = deep_nesting(source) {
        return (vec![deep], Vec::new());
    }
    let (mut findings, extents) = match parse(source.text()) {
        Ok(file) => (check_parsed(source, &file, path, index), Extents::of(&file)),
        Err(error) => (vec![parse_error(source, &error)], Extents::default()),
    };
    // proc-macro2 keeps every parsed file's text per thread unless told otherwise.
    proc_macro2::extra::invalidate_current_thread_spans();
    let (suppressions, invalid) = suppress::parse(source, |line| extents.0.get(&line).copied());
    findings.extend(invalid);
    (findings, suppressions)
}

/// The MCP004 finding of a file that is not valid Rust, for a file checked for nothing else.
pub fn syntax_error(source: &SourceText) -> Option<Finding> {
    let finding = deep_nesting(source).or_else(|| {
        let error = parse(source.text()).err()?;
        Some(parse_error(source, &error))
    });
    proc_macro2::extra::invalidate_current_thread_spans();
    finding
}

/// Brackets nested too deep for the parser's stack: the file is not parsed at all.
fn deep_nesting(source: &SourceText) -> Option<Finding> {
    let deep = too_deep(source.text())?;
    let message = format!("{}, so the file was not checked", deep.message);
    Some(not_parsed(source, deep.at, message))
}

/// The last line of the outermost statement, item or match arm that starts on each line.
#[derive(Default)]
struct Extents(std::collections::HashMap<usize, usize>);

impl Extents {
    fn of(file: &syn::File) -> Extents {
        let mut extents = Extents::default();
        extents.visit_file(file);
        extents
    }

    fn note(&mut self, node: &impl Spanned) {
        let span = node.span();
        let end = self.0.entry(span.start().line).or_default();
        *end = (*end).max(span.end().line);
    }
}

impl<'a> Visit<'a> for Extents {
    fn visit_item(&mut self, item: &'a syn::Item) {
        self.note(item);
        visit::visit_item(self, item);
    }

    fn visit_impl_item(&mut self, item: &'a syn::ImplItem) {
        self.note(item);
        visit::visit_impl_item(self, item);
    }

    fn visit_stmt(&mut self, stmt: &'a syn::Stmt) {
        self.note(stmt);
        visit::visit_stmt(self, stmt);
    }

    fn visit_arm(&mut self, arm: &'a syn::Arm) {
        self.note(arm);
        visit::visit_arm(self, arm);
    }
}

fn check_parsed(
    source: &SourceText,
    file: &syn::File,
    path: &Path,
    index: &CrateIndex,
) -> Vec<Finding> {
    let crate_dir = index::crate_dir(path);
    let facts = FileFacts::new(file, index.aliases(&crate_dir));
    let ctx = flow::Context {
        facts: &facts,
        text: source,
        index,
        crate_dir: &crate_dir,
    };
    let crate_tools = index.tools(&crate_dir);
    let rmcp_major = || deps::rmcp_version(path).map(|v| v.0);
    let rewriter = fix::rmcp::Rewriter::new(file, source, &rmcp_major);
    let mut findings = defaults::check(
        file,
        &facts,
        source,
        &rewriter,
        || deps::rmcp_version(path),
        crate_tools,
    );
    findings.extend(results::check(file, source));
    let mut roots = roots::find_roots(file, &facts);
    roots.extend(roots::entered(&facts, &source.name, |name| {
        index.is_hand_rolled_entry(&crate_dir, name)
    }));
    let walked: HashMap<*const syn::Block, usize> = roots
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r.body {
            Body::Block(block) => Some((block as *const _, i)),
            _ => None,
        })
        .collect();
    for (name, sig, block, returns) in summary::fallible_fns(file, &facts) {
        let name = names::in_module(&source.name, &name).unwrap_or(name);
        let mut root = match returns {
            Returns::RmcpResult if index.is_helper(&crate_dir, &name) => {
                Root::new(roots::helper_kind(&facts), Body::Block(block))
            }
            // Only a tools/call handler's own: other converted functions' failures are
            // reported where the handler converts them (`site_findings`).
            Returns::ResultOf(_) if !index.is_dispatched_in(&crate_dir, &name, &source.name) => {
                continue;
            }
            Returns::ResultOf(_) => match index.conversion_of(&crate_dir, &name) {
                Some(converter) => {
                    let mut root = Root::new(RootKind::Converted, Body::Block(block));
                    root.converter = Some(converter);
                    root.dispatched = true;
                    root
                }
                None => continue,
            },
            _ => continue,
        };
        root.helper_sig = Some((sig, index.inputs(&crate_dir, &name)));
        match walked.get(&(block as *const _)) {
            // `fn handle_tools_call(..) -> Result<Value, String>` whose errors the dispatcher
            // converts: its `Err`s are what the conversion answers.
            Some(&i)
                if roots[i].kind == RootKind::HandRolled && root.kind == RootKind::Converted =>
            {
                roots[i] = root;
            }
            Some(_) => {}
            None => roots.push(root),
        }
    }
    // With each root, whether only the handler reaches it: a function the handler calls may
    // have other callers, which a fix there would change too.
    let called_once = callers::called_once(file);
    let mut queue: Vec<(Root, usize, bool)> = roots.into_iter().map(|r| (r, 0, true)).collect();
    let mut followed = HashSet::new();
    // One finding per place and rule: a helper that builds two codes (`invalid_params` or
    // `internal_error` by variant) for one case is one mistake there.
    let mut reported = HashSet::new();
    // A converted function's origins, where another root reports the same place already.
    let mut origins = Vec::new();
    while let Some((root, depth, sole)) = queue.pop() {
        let walk = flow::walk(&ctx, root);
        let findings = match root.kind {
            RootKind::Converted => &mut origins,
            _ => &mut findings,
        };
        for site in &walk.sites {
            let (calls, dispatched) = facts.through_dispatchers(flow::converted_calls(site));
            let variants = summary::arm_variants(site, &facts);
            let failures = index.converted_failures(&crate_dir, &calls, &variants);
            // What a dispatcher's tools/call arm passes on cannot fail: only other methods'
            // errors reach this conversion.
            if dispatched && failures.is_empty() {
                continue;
            }
            let found = site_findings(site, &failures, source, (file, sole), &rewriter);
            findings.extend(
                found
                    .into_iter()
                    .filter(|f| reported.insert((f.span.clone(), f.rule.code))),
            );
        }
        if depth >= MAX_CALL_DEPTH {
            continue;
        }
        for name in walk.callees {
            // A dispatcher's tools/call arm is a root of its own; its other arms answer other
            // methods.
            if facts.is_dispatcher(&name) || !followed.insert(name.clone()) {
                continue;
            }
            for &block in facts.fns.get(&name).into_iter().flatten() {
                queue.push((
                    Root::new(RootKind::HandRolled, Body::Block(block)),
                    depth + 1,
                    sole && called_once.contains(names::shown(&name)),
                ));
            }
        }
    }
    let places: HashSet<Range<usize>> = findings.iter().map(|f| f.span.clone()).collect();
    findings.extend(origins.into_iter().filter(|f| !places.contains(&f.span)));
    findings
}

/// Phase one and a half: the failures that start in a file's converted functions, each
/// walked as phase two would (with the converter, and the parameters that carry a tool's
/// arguments), so a handler's conversion of them can say which cases it answers.
pub fn converted_failures(
    source: &SourceText,
    path: &Path,
    index: &CrateIndex,
) -> Vec<(String, Vec<index::Failure>)> {
    let Ok(file) = parse(source.text()) else {
        return Vec::new();
    };
    let crate_dir = index::crate_dir(path);
    let facts = FileFacts::new(&file, index.aliases(&crate_dir));
    let ctx = flow::Context {
        facts: &facts,
        text: source,
        index,
        crate_dir: &crate_dir,
    };
    let mut out = Vec::new();
    for (name, sig, block, returns) in summary::fallible_fns(&file, &facts) {
        let name = names::in_module(&source.name, &name).unwrap_or(name);
        let converter = index.conversion_of(&crate_dir, &name);
        let (Returns::ResultOf(_), Some(converter)) = (returns, converter) else {
            continue;
        };
        let mut root = Root::new(RootKind::Converted, Body::Block(block));
        root.converter = Some(converter);
        root.helper_sig = Some((sig, index.inputs(&crate_dir, &name)));
        root.dispatched = index.is_dispatched_in(&crate_dir, &name, &source.name);
        let failures = flow::walk(&ctx, root)
            .sites
            .iter()
            .filter_map(|site| {
                let rule = rules::classify_code(&site.evidence())?;
                Some(index::Failure {
                    code: rule.meta.code,
                    file: source.name.clone(),
                    line: source.position(site.span.start).line,
                    variant: site.error.variant.clone(),
                })
            })
            .collect();
        out.push((name, failures));
    }
    proc_macro2::extra::invalidate_current_thread_spans();
    out
}

/// The findings of one site. A site that converts the errors of the crate's own functions
/// (`fetch(..).map_err(|e| internal_error(..))`) answers each failure that starts in them:
/// one finding per case among those `failures`, where the conversion is, since that is where
/// the fix goes.
fn site_findings(
    site: &ErrorSite,
    failures: &[&index::Failure],
    source: &SourceText,
    (file, sole): (&syn::File, bool),
    rewriter: &fix::rmcp::Rewriter,
) -> Vec<Finding> {
    // A conversion that writes the code its error carries adds none: the errors are
    // reported where they are built, each with its own.
    if sinks::renders_own_code(&site.error.constructor) {
        return Vec::new();
    }
    let evidence = site.evidence();
    let Some(own) = rules::classify_code(&evidence) else {
        return Vec::new();
    };
    // A conversion that names its case (`invalid_params`) is taken at its word: what fails
    // in the callee (a path that does not resolve) is what the argument made fail.
    let mcp104 = rules::mcp104::RULE.meta.code;
    if failures.is_empty() || own.meta.code != mcp104 {
        return vec![finding(site, own, source, (file, sole), Some(rewriter))];
    }
    // One fix for the one conversion, with the words of a tool failure where that is a case.
    let fixed_with = failures.iter().position(|f| f.code == mcp104);
    let mut out = Vec::new();
    for (i, failure) in failures.iter().enumerate() {
        let Some(rule) = rules::by_code(failure.code) else {
            continue;
        };
        let rewriter = (i == fixed_with.unwrap_or(0)).then_some(rewriter);
        let mut finding = finding(site, rule, source, (file, sole), rewriter);
        point_at(
            &mut finding,
            source,
            (&failure.file, failure.line),
            rules::STARTS_LABEL,
        );
        out.push(finding);
    }
    out
}

/// `rewriter`: where the finding offers a fix.
fn finding(
    site: &ErrorSite,
    rule: &rules::ProtocolErrorRule,
    source: &SourceText,
    (file, sole): (&syn::File, bool),
    rewriter: Option<&fix::rmcp::Rewriter>,
) -> Finding {
    let evidence = site.evidence();
    let via = site.error.via.as_ref().map(|v| v.text.as_str());
    let mut finding = rule
        .in_code(&evidence, &site.error.written, via)
        .at(site.span.clone());
    if let Some(rewriter) = rewriter {
        let fixed = match site.root {
            // Built in a function the handler calls: its other callers may want the error.
            RootKind::HandRolled if !sole => Err(fix::response::IN_A_CALLEE),
            RootKind::HandRolled => fix::response::tool_error(file, source, &site.span),
            root => rewriter.tool_error(root, &site.span, rule.fix_text),
        };
        fix::attach(&mut finding, fixed);
    }
    let exit = |span: &Range<usize>| Label {
        span: span.clone(),
        text: rules::exit_label(site.root).into(),
    };
    finding.related = site.exit.iter().map(exit).collect();
    if let Some(via) = &site.error.via {
        point_at(
            &mut finding,
            source,
            (&via.file, via.line),
            rules::BUILT_LABEL,
        );
    }
    finding
}

/// Labels `line` of `file` (named as mcp-lint names it) with `text`: under the line where it is
/// in the finding's own file, else as a place in another file.
fn point_at(finding: &mut Finding, source: &SourceText, (file, line): (&str, usize), text: &str) {
    let text = text.to_string();
    let start = source.offset_of(line, 0);
    let in_source = source.text().get(start..start + source.line_len(start));
    if let Some(in_source) = in_source.filter(|_| file == source.name) {
        // The line, from its first non-blank character.
        let indent = in_source.len() - in_source.trim_start().len();
        let span = start + indent..start + in_source.trim_end().len();
        finding.related.push(Label { span, text });
    } else {
        finding.elsewhere.push(Elsewhere {
            file: file.to_string(),
            line,
            text,
        });
    }
}

/// Why a file does not even split into Rust tokens (an unclosed delimiter or string), if it
/// does not. Lexing is cheap; the scan in front of it is cheaper, and is trusted only to say
/// where and why.
pub(crate) fn lex_error(text: &str) -> Option<String> {
    let problem = syntax::problem(text)?;
    if problem.too_deep {
        return None; // reported where it matters, before parsing
    }
    let lexed = text.parse::<proc_macro2::TokenStream>();
    proc_macro2::extra::invalidate_current_thread_spans();
    lexed.err().map(|_| problem.message)
}

fn parse_error(source: &SourceText, error: &syn::Error) -> Finding {
    // The lexer's own words ("cannot parse string into token stream") say nothing: say what
    // rustc would, at the delimiter or literal at fault.
    let (reason, span) = match syntax::problem(source.text()) {
        Some(problem) => (problem.message, problem.at),
        None => (error.to_string(), span_range(source, error.span())),
    };
    let message = format!("could not parse this file as Rust: {reason}; it was not checked");
    not_parsed(source, span, message)
}

fn not_parsed(source: &SourceText, span: Range<usize>, message: String) -> Finding {
    let end = span.end.min(source.text().len());
    rules::mcp004::unparsable(message).at(span.start.min(end)..end)
}

/// The byte range of a span in `source`.
pub(crate) fn span_range(source: &SourceText, span: proc_macro2::Span) -> Range<usize> {
    let (start, end) = (span.start(), span.end());
    let start = source.offset_of(start.line, start.column);
    let end = source.offset_of(end.line, end.column).max(start);
    start..end
}

/// A file as the passes see it: without its `#[cfg(test)]` modules, since test code answers
/// no client (one place, so no check can forget it).
pub(crate) fn parse(text: &str) -> syn::Result<syn::File> {
    let mut file = syn::parse_file(text)?;
    // Tools written inside a `macro_rules!` are read where they are written.
    if memchr::memmem::find(text.as_bytes(), b"macro_rules!").is_some()
        && let Some(expanded) = expand::macro_bodies_as_items(text, &file)
    {
        file = expanded;
    }
    without_tests(&mut file.items);
    macro_args::expose(&mut file);
    Ok(file)
}

fn without_tests(items: &mut Vec<syn::Item>) {
    items.retain(|item| !matches!(item, syn::Item::Mod(m) if is_cfg_test(&m.attrs)));
    for item in items {
        if let syn::Item::Mod(m) = item
            && let Some((_, inner)) = &mut m.content
        {
            without_tests(inner);
        }
    }
}

/// `#[tool]` on a function (rmcp, turbomcp, mcp-attr), not 0.1's `#[tool(tool_box)]` on an impl.
pub(crate) fn is_tool_fn(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().segments.last().is_some_and(|s| s.ident == "tool")
            && !a.meta.to_token_stream().to_string().contains("tool_box")
    })
}

/// `#[cfg(test)]`: test code answers no client.
fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Meta>().is_ok_and(|m| only_in_tests(&m))
    })
}

/// `test`, or `all(test, ..)`: a configuration that holds only when testing.
fn only_in_tests(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => p.is_ident("test"),
        syn::Meta::List(l) if l.path.is_ident("all") => l
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|all| all.iter().any(only_in_tests)),
        _ => false,
    }
}
