//! Crate-wide facts, gathered from every file before any file is checked: which functions
//! return rmcp's error, with which constructors (directly, through `?` or tail calls into
//! other such functions), and what each `impl From<X> for ErrorData` builds. The roots then
//! see `helper(..)?`, a tail `self.call_tool_impl(..).await` or `Err(tool_not_found(..))` as
//! protocol errors, reported "via" the helper.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::defaults::CrateTools;
use super::inputs::{Feed, Origin};
use super::names;
use super::site::ProtocolError;

/// A protocol error a helper builds, and where.
#[derive(Debug, Clone)]
pub struct Sink {
    /// As built there. An error value built by calling this crate function
    /// (`Err(tool_not_found(x))`) names it in `call`; the index substitutes that function's own
    /// error when it knows it.
    pub error: ProtocolError,
    /// The file (as named to mcp-lint) and 1-based line where it is built.
    pub file: String,
    pub line: usize,
    /// In a `From<X>`, the variants of `X` whose arm builds it; empty for any.
    pub variants: Vec<String>,
}

impl Sink {
    /// This error as a root meets it: `written` at the root, reached `through` a helper or a
    /// conversion ("via `call_plugin` (src/plugin.rs:120)").
    pub fn reached_via(&self, written: String, through: &str) -> ProtocolError {
        ProtocolError {
            variant: None,
            written,
            via: Some(Via {
                text: format!("via {through} ({}:{})", self.file, self.line),
                file: self.file.clone(),
                line: self.line,
            }),
            call: None,
            ..self.error.clone()
        }
    }
}

/// How a protocol error reaches a root from where it is built.
#[derive(Debug, Clone)]
pub struct Via {
    pub text: String,
    pub file: String,
    pub line: usize,
}

/// What a function hands its caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Returns {
    /// `-> ErrorData`: an error value, to return or wrap.
    ErrorValue,
    /// `-> Result<_, ErrorData>`.
    RmcpResult,
    /// `-> Result<_, X>`, converted at the caller's `?` if the crate has `From<X> for ErrorData`.
    ResultOf(String),
}

#[derive(Debug, Clone)]
pub struct FnSummary {
    pub name: String,
    /// A `#[tool]`: a root of its own, called by name only on `self` (`client.search(..)` in
    /// the tool `search` is another type's method).
    pub tool: bool,
    pub returns: Returns,
    /// The protocol errors its body returns itself.
    pub sinks: Vec<Sink>,
    /// Functions whose `Err` it passes on (`?` or tail).
    pub forwards: Vec<String>,
    /// Of those, the ones it passes on only for some variants of their error, with those
    /// (`Err(e) if e.is_protocol_error() => Err(e)`).
    pub narrowed: Vec<(String, Vec<String>)>,
    /// Whether its body can return an error at all (`Err`, `?`, `bail!`): a handler's
    /// conversion of a function that cannot fail is reported where it converts.
    pub fails: bool,
    /// For `Result<_, X>`: the variants of `X` its body names (`X::NotFound`); empty when
    /// it names none, so any may come out of it.
    pub variants: Vec<String>,
}

/// A failure that starts in a converted function: its case and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub code: &'static str,
    pub file: String,
    pub line: usize,
    /// The variant of the crate's error it is built as, when known: a conversion's arm for
    /// another variant does not answer it.
    pub variant: Option<String>,
}

/// One file's contribution.
#[derive(Debug, Clone, Default)]
pub struct FileSummary {
    pub crate_dir: PathBuf,
    /// As named to mcp-lint.
    pub file: String,
    /// Functions whose `Err` a tools/call root of this file passes on.
    pub root_calls: Vec<String>,
    /// Of those, the ones a tool hands its whole arguments (its implementation).
    pub handed_calls: Vec<String>,
    /// Calls whose failure a tools/call handler (or a helper of one) of this file turns into a
    /// protocol error in one place, with the error it builds, and whether a hand-rolled
    /// dispatcher converts it (the call is the tools/call handler itself).
    pub converted_calls: Vec<(String, Sink, bool)>,
    /// Calls whose failure a helper of this file converts, handing them a parameter of its
    /// whole, by helper: the tools' implementation where tools feed the helper their
    /// arguments (the index knows which).
    pub handed_by_helpers: Vec<(String, String)>,
    /// Functions of other modules whose value a hand-rolled tools/call root of this file
    /// answers with (`tools::call(params, id)`).
    pub hand_rolled_calls: Vec<String>,
    /// Whether the file routes tools (`#[tool_handler]`).
    pub routes_tools: bool,
    /// The lines of its tools' typed arguments.
    pub typed_arguments: Vec<usize>,
    pub fns: Vec<FnSummary>,
    /// What each variant of the file's error types is sent as (see
    /// [`FileFacts::variant_code`]): (type, variant, code).
    pub variant_codes: Vec<(String, String, i64)>,
    /// `impl From<X> for ErrorData`: `X` and what `from` builds.
    pub froms: Vec<(String, Vec<Sink>)>,
    /// Per caller: the calls that pass on a tool's arguments or the caller's parameters.
    pub feeds: Vec<(String, Feed)>,
    /// Functions it imports under another name: (that name, the function's own).
    pub renames: Vec<(String, String)>,
    /// The file could not be parsed: phase two must parse it again to report why.
    pub unparsed: bool,
    /// Phase two can find something in it whatever the index says: a tools/call root, an SDK
    /// default, a result, a suppression comment. Without one, and without helpers the index
    /// walks, the file is not parsed again.
    pub reports: bool,
}

/// How deep forwarding is followed.
const MAX_DEPTH: usize = 4;

#[derive(Debug, Default)]
pub struct CrateIndex {
    /// Per crate and function name: what calling it may return as a protocol error, and
    /// whether it returns an error value rather than a `Result`.
    fns: HashMap<(PathBuf, String), (Vec<Sink>, bool)>,
    /// Per crate and type: what `From<type> for ErrorData` builds.
    froms: HashMap<(PathBuf, String), Vec<Sink>>,
    /// Per crate: the names its files give rmcp's error and results of it.
    aliases: HashMap<PathBuf, CrateAliases>,
    /// Per crate, the functions returning rmcp's `Result` that a tools/call root reaches
    /// (through `?` or a tail call, transitively). Each is walked as a root of its own, so its
    /// errors are reported once, where they are built, with its own conditions.
    helpers: HashSet<(PathBuf, String)>,
    /// The files that define such helpers.
    helper_files: HashSet<String>,
    /// Per crate, its `#[tool]` functions, which report their own errors.
    tool_fns: HashSet<(PathBuf, String)>,
    /// Per crate: where its server routes its tools, and its tools' typed arguments.
    tools: HashMap<PathBuf, CrateTools>,
    /// Per crate, the functions returning another error type whose errors a tools/call
    /// handler converts into a protocol error (transitively through `?`), with the error
    /// the conversion builds: one per arm where the conversion answers each variant of the
    /// error in its own way. Each is walked as a root of its own (`RootKind::Converted`).
    converted: HashMap<(PathBuf, String), Vec<Sink>>,
    /// The files that define such functions.
    converted_files: HashSet<String>,
    /// Converted functions that a hand-rolled dispatcher converts (transitively): a tools/call
    /// handler's own, whose failures are reported where they start; with the files whose
    /// definitions of the name are (those in the handler's module).
    dispatched: HashMap<(PathBuf, String), HashSet<String>>,
    /// Per crate and function returning another error type: the failures its body starts (once
    /// the index knows it is converted: see [`CrateIndex::add_failures`]), and the functions
    /// whose `Err` it passes on.
    failures: HashMap<(PathBuf, String), (Vec<Failure>, Vec<String>)>,
    /// Per crate and function: the positions of its parameters that carry a tool's
    /// arguments, a bit each.
    inputs: HashMap<(PathBuf, String), u64>,
    /// Per crate, the functions returning another error type whose every definition never
    /// returns an `Err` (an operation that answers its failures with an isError result):
    /// passing on their `Err` starts no failure.
    infallible: HashSet<(PathBuf, String)>,
    /// Functions a hand-rolled root of another file answers with, by module-qualified name.
    hand_rolled: HashSet<(PathBuf, String)>,
    /// Per crate, type and variant: the code the crate's impl of the type sends it as, for
    /// the values built in other files.
    variant_codes: HashMap<(PathBuf, String, String), i64>,
    /// Per crate, the module-qualified names its free functions are known by (`search::run`).
    qualified: HashSet<(PathBuf, String)>,
}

/// The crates whose `Result<T>` carries a catch-all error (`anyhow::Result<T>`).
pub const ANYHOW_CRATES: &[&str] = &["anyhow", "eyre", "color_eyre"];

impl CrateIndex {
    pub fn build(files: Vec<FileSummary>, aliases: HashMap<PathBuf, CrateAliases>) -> CrateIndex {
        let (files, qualified) = qualify(files);
        let mut froms: HashMap<(PathBuf, String), Vec<Sink>> = HashMap::new();
        let mut fns: HashMap<(PathBuf, String), Vec<FnSummary>> = HashMap::new();
        let mut defined_in: HashMap<(PathBuf, String), Vec<String>> = HashMap::new();
        let mut queue: Vec<(PathBuf, String)> = Vec::new();
        let mut tools: HashMap<PathBuf, CrateTools> = HashMap::new();
        let mut others: HashMap<(PathBuf, String), Vec<String>> = HashMap::new();
        // The arms of one conversion (`Err(E::A(m)) => .., Err(E::B(m)) => ..`) convert together.
        let mut conversions: Vec<((PathBuf, String), Vec<Sink>)> = Vec::new();
        let mut tool_fns = HashSet::new();
        let mut failures = HashMap::new();
        let mut dispatched_calls = Vec::new();
        let mut inputs = fed_inputs(&files);
        // `use tools::run::execute as run_tool`: `run_tool(..)` calls `execute`.
        let renames: HashMap<(PathBuf, String), String> = files
            .iter()
            .flat_map(|file| {
                let renames = file.renames.iter();
                renames.map(|(used, own)| ((file.crate_dir.clone(), used.clone()), own.clone()))
            })
            .collect();
        let own_name =
            |key: &(PathBuf, String)| renames.get(key).map(|own| (key.0.clone(), own.clone()));
        let variant_codes = files
            .iter()
            .flat_map(|file| {
                let codes = file.variant_codes.iter();
                codes.map(|(ty, variant, code)| {
                    ((file.crate_dir.clone(), ty.clone(), variant.clone()), *code)
                })
            })
            .collect();
        let mut infallible = HashSet::new();
        for file in &files {
            for f in file
                .fns
                .iter()
                .filter(|f| matches!(f.returns, Returns::ResultOf(_)))
            {
                infallible.insert((file.crate_dir.clone(), f.name.clone()));
            }
        }
        for file in &files {
            for f in file.fns.iter().filter(|f| f.fails) {
                let key = (file.crate_dir.clone(), f.name.clone());
                infallible.remove(&key);
                others.entry(key).or_default().push(file.file.clone());
            }
            for (helper, name) in &file.handed_by_helpers {
                if inputs
                    .get(&(file.crate_dir.clone(), helper.clone()))
                    .is_some_and(|&fed| fed != 0)
                {
                    dispatched_calls.push((file.crate_dir.clone(), name.clone()));
                }
            }
            for (name, sink, dispatched) in &file.converted_calls {
                let key = (file.crate_dir.clone(), name.clone());
                if *dispatched {
                    dispatched_calls.push(key.clone());
                }
                match conversions.last_mut() {
                    Some((last, sinks)) if *last == key => sinks.push(sink.clone()),
                    _ => conversions.push((key, vec![sink.clone()])),
                }
            }
        }
        for file in &files {
            let crate_tools = tools.entry(file.crate_dir.clone()).or_default();
            if file.routes_tools && crate_tools.router.as_ref().is_none_or(|r| &file.file < r) {
                crate_tools.router = Some(file.file.clone());
            }
            let lines = file.typed_arguments.iter();
            crate_tools
                .typed_arguments
                .extend(lines.map(|line| (file.file.clone(), *line)));
        }
        let mut handed = Vec::new();
        let mut hand_rolled = HashSet::new();
        for file in files {
            hand_rolled.extend(
                file.hand_rolled_calls
                    .iter()
                    .map(|name| (file.crate_dir.clone(), name.clone())),
            );
            queue.extend(
                file.root_calls
                    .iter()
                    .map(|name| (file.crate_dir.clone(), name.clone())),
            );
            handed.extend(
                file.handed_calls
                    .iter()
                    .map(|name| (file.crate_dir.clone(), name.clone())),
            );
            for f in file.fns.iter().filter(|f| f.tool) {
                tool_fns.insert((file.crate_dir.clone(), f.name.clone()));
            }
            for f in file
                .fns
                .iter()
                .filter(|f| f.returns == Returns::RmcpResult && !f.tool)
            {
                defined_in
                    .entry((file.crate_dir.clone(), f.name.clone()))
                    .or_default()
                    .push(file.file.clone());
            }
            for (ty, sinks) in file.froms {
                froms
                    .entry((file.crate_dir.clone(), ty))
                    .or_default()
                    .extend(sinks);
            }
            for f in file
                .fns
                .iter()
                .filter(|f| matches!(f.returns, Returns::ResultOf(_)))
            {
                let entry = failures
                    .entry((file.crate_dir.clone(), f.name.clone()))
                    .or_insert_with(|| (Vec::new(), Vec::new()));
                entry.1.extend(f.forwards.iter().cloned());
            }
            // A tool's errors are reported in the tool; what a name resolves to is the rest.
            for f in file.fns.into_iter().filter(|f| !f.tool) {
                fns.entry((file.crate_dir.clone(), f.name.clone()))
                    .or_default()
                    .push(f);
            }
        }
        // A function is known by the names it is imported under too, unless the crate defines
        // a function of that name.
        for used in renames.keys() {
            let Some(own) = own_name(used) else { continue };
            if fns.contains_key(used) || !fns.contains_key(&own) {
                continue;
            }
            fns.insert(used.clone(), fns[&own].clone());
            for map in [&mut defined_in, &mut others] {
                if let Some(files) = map.get(&own).cloned() {
                    map.insert(used.clone(), files);
                }
            }
            if let Some(entry) = failures.get(&own).cloned() {
                failures.insert(used.clone(), entry);
            }
            if infallible.contains(&own) {
                infallible.insert(used.clone());
            }
            if let Some(&fed) = inputs.get(used) {
                *inputs.entry(own).or_default() |= fed;
            }
        }
        // A tool's implementation, handed its whole arguments, failing with an error of the
        // crate that a `From` makes a protocol error: its failures are the tool's own, reported
        // where they start with the code the `From` gives each (first: the `From` is what
        // converts them, whatever a `map_err(Into::into)` at the call reads as).
        let mut by_from = Vec::new();
        for key in handed {
            for f in fns.get(&key).into_iter().flatten() {
                let Returns::ResultOf(ty) = &f.returns else {
                    continue;
                };
                let Some(sinks) = froms.get(&(key.0.clone(), ty.clone())) else {
                    continue;
                };
                dispatched_calls.push(key.clone());
                // Every arm: a `?` in it may build a variant its body does not name.
                by_from.push((key.clone(), sinks.clone()));
            }
        }
        by_from.append(&mut conversions);
        let mut index = CrateIndex {
            fns: HashMap::new(),
            froms: HashMap::new(),
            aliases,
            helpers: HashSet::new(),
            helper_files: HashSet::new(),
            tool_fns,
            tools,
            converted: HashMap::new(),
            converted_files: HashSet::new(),
            failures,
            dispatched: HashMap::new(),
            inputs,
            infallible,
            hand_rolled,
            variant_codes,
            qualified: HashSet::new(),
        };
        // Through the calls of the handler's module: its file's directory and below. What it
        // calls in another (a store, a client) fails where the handler calls it.
        let mut dispatched_calls: Vec<_> =
            dispatched_calls.into_iter().map(|k| (k, None)).collect();
        while let Some((key, callers)) = dispatched_calls.pop() {
            let Some(defined) = others.get(&key) else {
                continue;
            };
            let files: Vec<String> = defined
                .iter()
                .filter(|d| {
                    callers
                        .as_ref()
                        .is_none_or(|c: &Vec<String>| in_module_of(c, d))
                })
                .cloned()
                .collect();
            let known = index.dispatched.entry(key.clone()).or_default();
            let before = known.len();
            known.extend(files.iter().cloned());
            if known.len() == before {
                continue;
            }
            if let Some(own) = own_name(&key) {
                index
                    .dispatched
                    .entry(own)
                    .or_default()
                    .extend(files.iter().cloned());
            }
            for f in fns.get(&key).into_iter().flatten() {
                let calls = f
                    .forwards
                    .iter()
                    .map(|n| ((key.0.clone(), n.clone()), Some(files.clone())));
                dispatched_calls.extend(calls);
            }
        }
        // Breadth first, so each function keeps the conversion nearest a handler.
        let mut next = std::collections::VecDeque::from(by_from);
        while let Some((key, sinks)) = next.pop_front() {
            let Some(files) = others.get(&key) else {
                continue;
            };
            if index.converted.contains_key(&key) {
                continue;
            }
            if let Some(own) = own_name(&key) {
                index.converted.entry(own).or_insert_with(|| sinks.clone());
            }
            index.converted.insert(key.clone(), sinks.clone());
            index.converted_files.extend(files.iter().cloned());
            for f in fns.get(&key).into_iter().flatten() {
                next.extend(f.forwards.iter().map(|n| {
                    let passed = f.narrowed.iter().find(|(m, _)| m == n);
                    let sinks = match passed {
                        Some((_, variants)) => narrowed(&sinks, variants),
                        None => sinks.clone(),
                    };
                    ((key.0.clone(), n.clone()), sinks)
                }));
            }
        }
        while let Some(key) = queue.pop() {
            let Some(files) = defined_in.get(&key) else {
                continue;
            };
            if !index.helpers.insert(key.clone()) {
                continue;
            }
            index.helpers.extend(own_name(&key));
            index.helper_files.extend(files.iter().cloned());
            for f in fns.get(&key).into_iter().flatten() {
                queue.extend(f.forwards.iter().map(|n| (key.0.clone(), n.clone())));
            }
        }
        for (key, summaries) in &fns {
            let sinks = resolve(&fns, &froms, &key.0, &key.1, MAX_DEPTH);
            let value = summaries.iter().any(|s| s.returns == Returns::ErrorValue);
            if !sinks.is_empty() {
                index.fns.insert(key.clone(), (sinks, value));
            }
        }
        index.froms = froms
            .into_iter()
            .filter(|(_, sinks)| !sinks.is_empty())
            .collect();
        // A call by the plain name may reach the function of any module.
        for key in &qualified {
            let plain = (key.0.clone(), names::unqualified(&key.1).to_string());
            if index.helpers.contains(&plain) {
                index.helpers.insert(key.clone());
            }
            if let Some(files) = index.dispatched.get(&plain).cloned() {
                index
                    .dispatched
                    .entry(key.clone())
                    .or_default()
                    .extend(files);
            }
            if let Some(sinks) = index.converted.get(&plain).cloned() {
                index.converted.entry(key.clone()).or_insert(sinks);
            }
            if let Some(&fed) = index.inputs.get(&plain) {
                *index.inputs.entry(key.clone()).or_default() |= fed;
            }
        }
        index.qualified = qualified;
        index
    }

    /// The key a call of `name` in the crate at `dir` looks up: a module-qualified name the
    /// crate does not define is the plain one.
    fn key(&self, dir: &Path, name: &str) -> (PathBuf, String) {
        let key = (dir.to_path_buf(), name.to_string());
        match name.contains("::") && !self.qualified.contains(&key) {
            true => (key.0, names::unqualified(name).to_string()),
            false => key,
        }
    }

    /// The names the crate at `dir` gives rmcp's error and results of it.
    pub fn aliases(&self, dir: &Path) -> &CrateAliases {
        static NONE: std::sync::OnceLock<CrateAliases> = std::sync::OnceLock::new();
        self.aliases
            .get(dir)
            .unwrap_or_else(|| NONE.get_or_init(CrateAliases::default))
    }

    /// What converting a `ty` into rmcp's error builds, if the crate has such a `From`.
    /// `variant` is the one the value was built as (`Error::NotFound(..)`), when known.
    pub fn conversion(&self, dir: &Path, ty: &str, variant: Option<&str>) -> Option<Sink> {
        let sinks = self.froms.get(&(dir.to_path_buf(), ty.to_string()))?;
        conversion_for(sinks, variant)
    }

    /// Where the crate at `dir` routes its tools, and its tools' typed arguments.
    pub fn tools(&self, dir: &Path) -> &CrateTools {
        static NONE: std::sync::OnceLock<CrateTools> = std::sync::OnceLock::new();
        self.tools
            .get(dir)
            .unwrap_or_else(|| NONE.get_or_init(CrateTools::default))
    }

    /// Whether `name`, in the crate at `dir`, is a helper whose errors are reported in place.
    pub fn is_helper(&self, dir: &Path, name: &str) -> bool {
        self.helpers.contains(&self.key(dir, name))
    }

    /// Whether `name`, in the crate at `dir`, is a `#[tool]` function.
    pub fn is_tool(&self, dir: &Path, name: &str) -> bool {
        self.tool_fns.contains(&self.key(dir, name))
    }

    /// Whether the file named `file` defines a helper or a converted function, whose errors
    /// are reported in place.
    pub fn defines_helpers(&self, file: &str) -> bool {
        self.helper_files.contains(file) || self.converted_files.contains(file)
    }

    /// The protocol errors a handler converts the errors of `name` (in the crate at `dir`)
    /// into, when `name` is a converted function: one per arm of a conversion by variant.
    pub fn conversion_of(&self, dir: &Path, name: &str) -> Option<&[Sink]> {
        self.converted.get(&self.key(dir, name)).map(Vec::as_slice)
    }

    /// Whether the file named `file` defines a converted function.
    pub fn defines_converted(&self, file: &str) -> bool {
        self.converted_files.contains(file)
    }

    /// Records the failures that start in the converted function `name` of the crate at
    /// `dir`, found by walking it with this index.
    /// A function of a module is known by its plain name too.
    pub fn add_failures(&mut self, dir: &Path, name: &str, found: Vec<Failure>) {
        let key = self.key(dir, name);
        if key.1.contains("::") {
            let plain = (dir.to_path_buf(), names::unqualified(name).to_string());
            self.failures
                .entry(plain)
                .or_default()
                .0
                .extend(found.clone());
        }
        self.failures.entry(key).or_default().0.extend(found);
    }

    /// Whether the definition of `name` in `file` (named as mcp-lint names it) is a tools/call
    /// handler's own: converted by a hand-rolled dispatcher, in the handler's module.
    pub fn is_dispatched_in(&self, dir: &Path, name: &str, file: &str) -> bool {
        let files = self.dispatched.get(&self.key(dir, name));
        files.is_some_and(|files| files.contains(file))
    }

    /// Whether a call of `name` from `file` reaches a tools/call handler's own definition of
    /// it: one in the module of `file` (its directory or below); with `elsewhere`, one not in
    /// `file` itself (the call is another type's method of the caller's name).
    pub fn is_dispatched_from(&self, dir: &Path, name: &str, file: &str, elsewhere: bool) -> bool {
        let files = self.dispatched.get(&self.key(dir, name));
        let caller = [file.to_string()];
        let reached = |f: &&String| in_module_of(&caller, f) && !(elsewhere && *f == file);
        files.is_some_and(|files| files.iter().any(|f| reached(&f)))
    }

    /// The failures that start in the converted functions `names` (in the crate at `dir`) or
    /// in the functions whose `Err` they pass on: what a handler's conversion of their errors
    /// answers: those of its `variants` of the crate's error (any, when empty). One per case,
    /// the first where it starts (by file and line).
    pub fn converted_failures(
        &self,
        dir: &Path,
        names: &[String],
        variants: &[String],
    ) -> Vec<&Failure> {
        let mut seen = HashSet::new();
        let mut queue: Vec<&str> = names
            .iter()
            .filter(|n| self.conversion_of(dir, n).is_some())
            .map(String::as_str)
            .collect();
        let mut found: Vec<&Failure> = Vec::new();
        while let Some(name) = queue.pop() {
            if !seen.insert(name) {
                continue;
            }
            let Some((own, forwards)) = self.failures.get(&self.key(dir, name)) else {
                continue;
            };
            let answered = |f: &&Failure| {
                variants.is_empty() || f.variant.as_ref().is_none_or(|v| variants.contains(v))
            };
            found.extend(own.iter().filter(answered));
            queue.extend(forwards.iter().map(String::as_str));
        }
        found.sort_by(|a, b| (a.code, &a.file, a.line).cmp(&(b.code, &b.file, b.line)));
        found.dedup_by(|a, b| a.code == b.code);
        found
    }

    /// The code `ty::variant` is sent as, where a file of the crate at `dir` says.
    pub fn variant_code(&self, dir: &Path, ty: &str, variant: &str) -> Option<i64> {
        let key = (dir.to_path_buf(), ty.to_string(), variant.to_string());
        self.variant_codes.get(&key).copied()
    }

    /// Whether a hand-rolled tools/call root of another file answers with the value of
    /// `name` (module-qualified), a function of the crate at `dir`.
    pub fn is_hand_rolled_entry(&self, dir: &Path, name: &str) -> bool {
        self.hand_rolled
            .contains(&(dir.to_path_buf(), name.to_string()))
    }

    /// Whether `name` (in the crate at `dir`) returns another error type and never an `Err`.
    pub fn never_fails(&self, dir: &Path, name: &str) -> bool {
        self.infallible.contains(&self.key(dir, name))
    }

    /// The positions of `name`'s parameters (in the crate at `dir`) that carry a tool's
    /// arguments, a bit each.
    pub fn inputs(&self, dir: &Path, name: &str) -> u64 {
        self.inputs.get(&self.key(dir, name)).copied().unwrap_or(0)
    }

    /// What a call of `name` in the crate at `dir` may return as a protocol error, one sink
    /// per code (a `to_mcp_error(&e)` that picks `invalid_params` or `internal_error` by the
    /// error's variant is both cases), and whether the function returns the error as a value.
    pub fn lookup(&self, dir: &Path, name: &str) -> Option<(Vec<&Sink>, bool)> {
        let (sinks, value) = self.fns.get(&self.key(dir, name))?;
        let mut codes = HashSet::new();
        let distinct: Vec<&Sink> = sinks
            .iter()
            .filter(|s| codes.insert(s.error.code))
            .collect();
        (!distinct.is_empty()).then_some((distinct, *value))
    }
}

/// Each free function of a module file is known by its module-qualified name too
/// (`search::run`), with the names its callers call it by; a qualified name no file of the
/// crate defines is the plain one (a re-export, `std::fs::read`). With the qualified names.
fn qualify(mut files: Vec<FileSummary>) -> (Vec<FileSummary>, HashSet<(PathBuf, String)>) {
    let mut defined = HashSet::new();
    for file in &mut files {
        let copies: Vec<FnSummary> = file
            .fns
            .iter()
            .filter_map(|f| {
                let name = names::in_module(&file.file, &f.name)?;
                Some(FnSummary { name, ..f.clone() })
            })
            .collect();
        defined.extend(
            copies
                .iter()
                .map(|f| (file.crate_dir.clone(), f.name.clone())),
        );
        file.fns.extend(copies);
        let feeds: Vec<(String, Feed)> = file
            .feeds
            .iter()
            .filter_map(|(caller, feed)| {
                Some((names::in_module(&file.file, caller)?, feed.clone()))
            })
            .collect();
        file.feeds.extend(feeds);
    }
    for file in &mut files {
        let dir = file.crate_dir.clone();
        let known = |name: &mut String| {
            if name.contains("::") && !defined.contains(&(dir.clone(), name.clone())) {
                *name = names::unqualified(name).to_string();
            }
        };
        file.root_calls.iter_mut().for_each(known);
        file.handed_calls.iter_mut().for_each(known);
        file.converted_calls.iter_mut().for_each(|(n, ..)| known(n));
        file.feeds
            .iter_mut()
            .for_each(|(_, f)| known(&mut f.callee));
        for f in &mut file.fns {
            f.forwards.iter_mut().for_each(known);
            f.narrowed.iter_mut().for_each(|(n, _)| known(n));
            let calls = f.sinks.iter_mut().filter_map(|s| s.error.call.as_mut());
            calls.for_each(known);
        }
    }
    (files, defined)
}

/// Words that put a module in a crate's tool layer, below `src/`: where servers keep their
/// tools, their handlers and the checks of their arguments (`src/tools/registry.rs`,
/// `src/json_tools/handler.rs`, `src/arguments.rs`, `src/validation.rs`).
const TOOL_LAYER_WORDS: &[&str] = &["tool", "handler", "argument", "param", "valid"];

/// Whether `file` is in the tools/call handler's module of `files`: one of them, in the
/// directory of one of them or below it (a module file of `src/` itself is its own module), or
/// in the crate's tool layer (see [`TOOL_LAYER_WORDS`]). All named as mcp-lint names them.
fn in_module_of(files: &[String], file: &str) -> bool {
    // Below `src/`: the crate's own directory may be named anything (`tools-mcp`).
    let components: Vec<_> = Path::new(file).components().collect();
    let below_src = components.iter().rposition(|c| c.as_os_str() == "src");
    let tool_layer = components[below_src.map_or(0, |n| n + 1)..]
        .iter()
        .any(|c| {
            let c = c.as_os_str().to_string_lossy();
            TOOL_LAYER_WORDS.iter().any(|w| c.contains(w))
        });
    tool_layer
        || files.iter().any(|f| {
            let dir = Path::new(f).parent().unwrap_or(Path::new(""));
            let flat = dir.file_name().is_some_and(|d| d == "src");
            f == file || (!flat && Path::new(file).starts_with(dir))
        })
}

/// Which parameters carry a tool's arguments: those a tool passes its arguments to, then,
/// until nothing changes, those a function passes such a parameter of its own to.
fn fed_inputs(files: &[FileSummary]) -> HashMap<(PathBuf, String), u64> {
    const POSITIONS: usize = 64;
    let mut fed: HashMap<(PathBuf, String), u64> = HashMap::new();
    let mut edges = Vec::new();
    for file in files {
        for (caller, feed) in &file.feeds {
            if feed.position >= POSITIONS {
                continue;
            }
            let callee = (file.crate_dir.clone(), feed.callee.clone());
            match feed.origin {
                Origin::Tool => *fed.entry(callee).or_default() |= 1 << feed.position,
                Origin::Param(from) if from < POSITIONS => {
                    let caller = (file.crate_dir.clone(), caller.clone());
                    edges.push((caller, from, callee, feed.position));
                }
                Origin::Param(_) => {}
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for (caller, from, callee, position) in &edges {
            let carries = fed.get(caller).is_some_and(|bits| bits & (1 << from) != 0);
            let known = fed
                .get(callee)
                .is_some_and(|bits| bits & (1 << position) != 0);
            if carries && !known {
                *fed.entry(callee.clone()).or_default() |= 1 << position;
                changed = true;
            }
        }
    }
    fed
}

/// The sinks behind a function name: its own, those of what it forwards, and the `From`
/// conversions of the error type it returns.
fn resolve(
    fns: &HashMap<(PathBuf, String), Vec<FnSummary>>,
    froms: &HashMap<(PathBuf, String), Vec<Sink>>,
    dir: &Path,
    name: &str,
    depth: usize,
) -> Vec<Sink> {
    let mut out = Vec::new();
    for f in fns
        .get(&(dir.to_path_buf(), name.to_string()))
        .into_iter()
        .flatten()
    {
        match &f.returns {
            Returns::ErrorValue => out.extend(f.sinks.iter().cloned()),
            Returns::RmcpResult => {
                for sink in &f.sinks {
                    let built = sink
                        .error
                        .call
                        .as_ref()
                        .filter(|_| depth > 0)
                        .map(|h| resolve(fns, froms, dir, h, depth - 1));
                    match built {
                        Some(built) if !built.is_empty() => out.extend(built),
                        _ => out.push(sink.clone()),
                    }
                }
                if depth > 0 {
                    for next in f.forwards.iter().filter(|n| *n != name) {
                        out.extend(resolve(fns, froms, dir, next, depth - 1));
                    }
                }
            }
            // A function that never returns an `Err` converts nothing.
            Returns::ResultOf(ty) if f.fails => {
                if let Some(sinks) = froms.get(&(dir.to_path_buf(), ty.clone())) {
                    out.extend(converting(sinks, &f.variants));
                }
            }
            Returns::ResultOf(_) => {}
        }
    }
    out
}

/// What a `From` builds for values of `variants` (any, when empty). Where those arms build
/// errors with different codes, one sink stands for them with neither code nor message: which
/// one a `?` meets is not known.
/// The conversion of an error built as `variant` (any, when unknown) among a conversion's
/// `sinks`: the one arm that answers it, or, where arms of other codes may, one of no code.
pub fn conversion_for(sinks: &[Sink], variant: Option<&str>) -> Option<Sink> {
    let variants: Vec<String> = variant.map(str::to_string).into_iter().collect();
    let answering = converting(sinks, &variants);
    match answering.is_empty() {
        true => converting(sinks, &[]).into_iter().next(),
        false => answering.into_iter().next(),
    }
}

/// `sinks` answering only `variants` of the error: each keeps those of its own it shares.
fn narrowed(sinks: &[Sink], variants: &[String]) -> Vec<Sink> {
    sinks
        .iter()
        .filter_map(|s| {
            let kept: Vec<String> = match s.variants.is_empty() {
                true => variants.to_vec(),
                false => s
                    .variants
                    .iter()
                    .filter(|v| variants.contains(v))
                    .cloned()
                    .collect(),
            };
            (!kept.is_empty()).then(|| Sink {
                variants: kept,
                ..s.clone()
            })
        })
        .collect()
}

fn converting(sinks: &[Sink], variants: &[String]) -> Vec<Sink> {
    let mut out: Vec<Sink> = sinks
        .iter()
        .filter(|s| {
            variants.is_empty()
                || s.variants.is_empty()
                || s.variants.iter().any(|v| variants.contains(v))
        })
        .cloned()
        .collect();
    if out.windows(2).any(|w| w[0].error.code != w[1].error.code) {
        out.truncate(1);
        out[0].error.code = None;
        out[0].error.message = None;
    }
    out
}

/// The names a crate gives rmcp's error and results of it, for all its files.
#[derive(Debug, Default, Clone)]
pub struct CrateAliases {
    /// `type McpError = rmcp::model::ErrorData;`, `pub use rmcp::ErrorData as McpError;`.
    pub errors: HashSet<String>,
    /// `type McpResult<T> = Result<T, McpError>;`, `type ToolResult = McpResult<CallToolResult>;`.
    pub results: HashSet<String>,
    /// `pub const ERR_CODE_NO_METHOD: i32 = -32601;` in any file: the codes a crate names, for
    /// the files that use them (`McpResponse::error(id, ERR_CODE_NO_METHOD, ..)`).
    pub codes: HashMap<String, i64>,
    /// `type AppResult<T> = Result<T, AppError>;`: results of another error type, by name, with
    /// that type's name, for functions that return one (`fn run(..) -> AppResult<Value>`).
    pub other_results: HashMap<String, String>,
    /// The crate's own error-response constructors (see [`super::constructors`]).
    pub constructors: HashSet<String>,
    /// The crate's error renderers, with the code each writes (see
    /// [`super::constructors::error_renderers`]).
    pub renderers: HashMap<String, i64>,
    /// The crate's error predicates, with the variants each is true for (see
    /// [`super::predicates`]).
    pub predicates: HashMap<String, Vec<String>>,
    /// The crate's dispatchers with a `"tools/call"` arm, in any file, with the calls that arm
    /// passes on (see [`super::roots::dispatchers`]).
    pub dispatchers: HashMap<String, Vec<String>>,
}

impl CrateAliases {
    /// Resolves the `type` aliases of a crate's files (name, target as written), through each
    /// other (`ToolResult` -> `McpResult<..>` -> `Result<_, McpError>` -> rmcp's error).
    pub fn resolve(aliases: &[(String, String)]) -> CrateAliases {
        let mut names = CrateAliases::default();
        loop {
            let before = (names.errors.len(), names.results.len());
            for (name, target) in aliases {
                if names.errors.contains(name) || names.results.contains(name) {
                    continue;
                }
                if names.is_error(target) {
                    names.errors.insert(name.clone());
                } else if names.is_result(target) {
                    names.results.insert(name.clone());
                }
            }
            if (names.errors.len(), names.results.len()) == before {
                break;
            }
        }
        for (name, target) in aliases {
            if names.results.contains(name) {
                continue;
            }
            if let Some((head, args)) = target.trim().split_once('<')
                && last_segment(head) == "Result"
            {
                let args = args.trim_end().strip_suffix('>').unwrap_or(args);
                let error = last_segment(top_level_last(args)).trim();
                // `type McpResult<T> = anyhow::Result<T>;`: anyhow's error, as a function
                // returning `anyhow::Result` itself has.
                let anyhow = head
                    .trim()
                    .split_once("::")
                    .is_some_and(|(krate, _)| ANYHOW_CRATES.contains(&krate));
                if !error.is_empty() && args.contains(',') {
                    names.other_results.insert(name.clone(), error.to_string());
                } else if anyhow && !args.contains(',') {
                    names
                        .other_results
                        .insert(name.clone(), "anyhow::Error".to_string());
                }
            }
        }
        names
    }

    /// `rmcp::ErrorData`, `rmcp::model::ErrorData`, `rmcp::Error`, or a known alias of one.
    fn is_error(&self, ty: &str) -> bool {
        let ty = ty.trim();
        (ty.starts_with("rmcp::") && (ty.ends_with("::ErrorData") || ty.ends_with("::Error")))
            || self.errors.contains(last_segment(ty))
    }

    /// `Result<T, E>` with `E` rmcp's error, or a known result alias applied to a type.
    fn is_result(&self, ty: &str) -> bool {
        let ty = ty.trim();
        let Some((head, args)) = ty.split_once('<') else {
            return false;
        };
        let head = last_segment(head);
        if head == "Result" {
            let args = args.trim_end().strip_suffix('>').unwrap_or(args);
            let error = top_level_last(args);
            return self.is_error(error);
        }
        self.results.contains(head)
    }
}

/// `a::b::C` -> `C`.
fn last_segment(path: &str) -> &str {
    path.trim().rsplit("::").next().unwrap_or_default().trim()
}

/// The last comma-separated part of generic arguments, at the top level (`T, E` -> `E`).
fn top_level_last(args: &str) -> &str {
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in args.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => start = i + 1,
            _ => {}
        }
    }
    args[start..].trim()
}

/// The negative integer constants of a file's text (`const NAME: i32 = -32601;`): the
/// JSON-RPC error codes it names. A name given two values is left out.
pub fn error_codes(text: &str) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(text.as_bytes(), "const ") {
        // Word by word, so that `const fn` and other items are dismissed at once.
        let (name, rest) = word(&text[at + "const ".len()..]);
        let Some(rest) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let (ty, rest) = word(rest);
        let Some(rest) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let Some((value, _)) = rest.split_once(';') else {
            continue;
        };
        let integer = matches!(ty, "i16" | "i32" | "i64" | "isize");
        let value: Option<i64> = integer
            .then(|| value.trim().replace('_', "").parse().ok())
            .flatten();
        if let Some(value) = value.filter(|v| *v < 0)
            && !name.is_empty()
        {
            out.push((name.to_string(), value));
        }
    }
    out
}

/// The identifier `text` starts with (after blanks), and what follows it.
fn word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    text.split_at(end)
}

/// The names given one value only.
pub fn unambiguous<T: PartialEq>(named: Vec<(String, T)>) -> HashMap<String, T> {
    let mut values: HashMap<String, Option<T>> = HashMap::new();
    for (name, value) in named {
        match values.entry(name) {
            Entry::Vacant(v) => {
                v.insert(Some(value));
            }
            Entry::Occupied(mut o) => {
                if o.get().as_ref() != Some(&value) {
                    o.insert(None);
                }
            }
        }
    }
    values
        .into_iter()
        .filter_map(|(name, value)| Some((name, value?)))
        .collect()
}

/// The type aliases a file gives the rest of its crate, as (name, target as written):
/// `type X<T> = Target;` and `use rmcp::..::ErrorData as X;`. Read from the text, before any
/// file is parsed, since every later phase needs them.
pub fn type_aliases(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(text.as_bytes(), "type ") {
        // `type` as a keyword at the start of an item: after a line start or a visibility.
        let before = text[..at].trim_end_matches([' ', '\t']);
        let keyword = before.is_empty()
            || before.ends_with('\n')
            || before.ends_with("pub")
            || before.ends_with(')');
        let Some(rest) = text[at + "type ".len()..].split_once(';') else {
            continue;
        };
        let Some((name, target)) = rest.0.split_once('=') else {
            continue;
        };
        let name = name.split('<').next().unwrap_or_default().trim();
        if keyword && !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            out.push((name.to_string(), target.trim().to_string()));
        }
    }
    if text.contains("rmcp") {
        for line in text.lines().filter(|l| l.contains("rmcp")) {
            let line = line.trim();
            let line = ["pub(crate) ", "pub "]
                .iter()
                .find_map(|v| line.strip_prefix(v))
                .unwrap_or(line);
            let Some(rest) = line.strip_prefix("use ") else {
                continue;
            };
            // `use rmcp::{tool, ErrorData as McpError};`: each item of the group.
            let (prefix, items) = match rest.split_once('{') {
                Some((prefix, group)) => (prefix, group.split_once('}').map_or(group, |g| g.0)),
                None => ("", rest.trim_end_matches(';')),
            };
            for item in items.split(',') {
                if let Some((target, name)) = item.split_once(" as ") {
                    let target = format!("{prefix}{}", target.trim());
                    out.push((name.trim().to_string(), target));
                }
            }
        }
    }
    out
}

/// The crate a file belongs to: the nearest directory above it with a `Cargo.toml`, if the
/// file lies where cargo compiles from (`src/`, `examples/`, `tests/`, `benches/`, the build
/// script, a target's `path`). A file elsewhere (test data, a loose script) is a crate of its
/// own, so that helpers of unrelated files with the same names are not taken for its own.
/// Manifests are looked up once per directory: every phase asks it of every file.
pub fn crate_dir(path: &Path) -> PathBuf {
    type Cache = std::sync::Mutex<HashMap<PathBuf, (PathBuf, Option<Arc<Vec<PathBuf>>>)>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let parent = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let cache = CACHE.get_or_init(Default::default);
    let cached = cache.lock().ok().and_then(|c| c.get(&parent).cloned());
    let (absolute, package) = cached.unwrap_or_else(|| {
        let absolute = std::fs::canonicalize(&parent).unwrap_or_else(|_| parent.clone());
        let package = absolute
            .ancestors()
            .find(|dir| dir.join("Cargo.toml").is_file())
            .map(package_targets);
        if let Ok(mut cache) = cache.lock() {
            cache.insert(parent, (absolute.clone(), package.clone()));
        }
        (absolute, package)
    });
    let file = match path.file_name() {
        Some(name) => absolute.join(name),
        None => absolute,
    };
    match package {
        Some(targets) if targets[1..].iter().any(|t| file.starts_with(t)) => targets[0].clone(),
        _ => file,
    }
}

/// A package's directory, then what its targets are compiled from; read once per package.
fn package_targets(dir: &Path) -> Arc<Vec<PathBuf>> {
    static PACKAGES: std::sync::OnceLock<std::sync::Mutex<HashMap<PathBuf, Arc<Vec<PathBuf>>>>> =
        std::sync::OnceLock::new();
    let packages = PACKAGES.get_or_init(Default::default);
    if let Some(found) = packages.lock().ok().and_then(|p| p.get(dir).cloned()) {
        return found;
    }
    let mut targets = vec![dir.to_path_buf()];
    targets.extend(crate::manifest::targets_of(dir));
    let targets = Arc::new(targets);
    if let Ok(mut packages) = packages.lock() {
        packages.insert(dir.to_path_buf(), Arc::clone(&targets));
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::{crate_dir, error_codes, type_aliases, unambiguous};

    #[test]
    fn a_crate_names_its_error_codes_once() {
        let text = "pub const ERR_NO_METHOD: i32 = -32601;\nconst LIMIT: usize = 3;\n\
                    const OK: i64 = 0;\nconst CODE: i64 = -32_000;\nconst CODE: i64 = -1;";
        let codes = error_codes(text);
        assert_eq!(
            codes,
            [
                ("ERR_NO_METHOD".to_string(), -32601),
                ("CODE".to_string(), -32000),
                ("CODE".to_string(), -1)
            ]
        );
        let named = unambiguous(codes);
        assert_eq!(named.len(), 1);
        assert_eq!(named["ERR_NO_METHOD"], -32601);
    }

    #[test]
    fn a_crate_is_what_cargo_compiles() {
        let dir = std::env::temp_dir().join(format!("mcp-lint-crate-dir-{}", std::process::id()));
        for file in [
            "src/a.rs",
            "tools/b.rs",
            "testdata/c.rs",
            "nested/src/d.rs",
            "build.rs",
        ] {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "").unwrap();
        }
        let manifest = "[package]\nname = \"x\"\n[[bin]]\nname = \"b\"\npath = \"tools/b.rs\"\n";
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
        std::fs::write(dir.join("nested/Cargo.toml"), "[package]\nname = \"n\"\n").unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        assert_eq!(crate_dir(&dir.join("src/a.rs")), root);
        assert_eq!(crate_dir(&dir.join("tools/b.rs")), root);
        assert_eq!(crate_dir(&dir.join("build.rs")), root);
        assert_eq!(crate_dir(&dir.join("nested/src/d.rs")), root.join("nested"));
        // Test data is no part of the crate: a file of its own.
        assert_eq!(
            crate_dir(&dir.join("testdata/c.rs")),
            root.join("testdata/c.rs")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_import_under_another_name_is_an_alias() {
        let aliases = |text: &str| type_aliases(text);
        assert_eq!(
            aliases("use rmcp::ErrorData as McpError;"),
            vec![("McpError".to_string(), "rmcp::ErrorData".to_string())]
        );
        assert_eq!(
            aliases("use rmcp::{tool, ErrorData as McpError, ServerHandler};"),
            vec![("McpError".to_string(), "rmcp::ErrorData".to_string())]
        );
        assert_eq!(
            aliases("pub use rmcp::model::{ErrorData as E, CallToolResult as R};"),
            vec![
                ("E".to_string(), "rmcp::model::ErrorData".to_string()),
                ("R".to_string(), "rmcp::model::CallToolResult".to_string()),
            ]
        );
    }
}
