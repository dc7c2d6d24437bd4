//! The source pass over a set of files, in three phases on the worker pool: which files can
//! matter (phase zero), what their functions hand their callers, merged per crate into a
//! [`CrateIndex`] (phase one), and then each named file checked with that index (phase two).

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::index::{self, CrateAliases, CrateIndex, FileSummary};
use super::names;
use crate::finding::FileReport;
use crate::pool::parallel;
use crate::rules::mcp004;
use crate::suppress::Checked;
use crate::text::SourceText;
use crate::walk;

/// Larger Rust files are reported as not checked rather than parsed (generated code, data).
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// What phase zero learns of a file: its crate, the names it gives rmcp's error, whether it
/// mentions anything this pass looks at, and whether it can hold something to report.
struct Scan {
    crate_dir: PathBuf,
    /// Its `type` aliases (name, target), resolved per crate.
    aliases: Vec<(String, String)>,
    /// Its named error codes, shared with the crate's other files.
    codes: Vec<(String, i64)>,
    /// Its error-response constructors, shared with the crate's other files.
    constructors: Vec<String>,
    /// Its error renderers with the code they write, shared likewise.
    renderers: Vec<(String, i64)>,
    /// Its error types' predicates with the variants each is true for, shared likewise.
    predicates: Vec<(String, Vec<String>)>,
    /// Its dispatchers with a `"tools/call"` arm and the calls that arm passes on, shared with
    /// the crate's other files (a caller in another file converts their `Err`).
    dispatchers: Vec<(String, Vec<String>)>,
    matters: bool,
    reports: bool,
    /// The paths of the modules it declares `#[cfg(test)] mod name;`: test code, in files of
    /// their own.
    test_modules: Vec<PathBuf>,
    /// It does not split into Rust tokens: reported even if nothing in it matters.
    unlexable: bool,
}

/// Checks the Rust files `files` (paths relative to `cwd`, or absolute); results in input
/// order. The crate facts come from every file of the crates involved, even when only some
/// are named (pre-commit names the staged files): a helper may live in an unchanged file.
pub fn check_files(files: &[PathBuf], cwd: &Path) -> Vec<Result<Checked, String>> {
    check_texts(files, cwd, &Texts::default())
}

/// The texts of some files as they would be after fixes, read in place of the files' own.
#[derive(Debug, Default)]
pub struct Texts {
    /// By absolute, normalized path.
    pub by_path: HashMap<PathBuf, String>,
}

impl Texts {
    fn get(&self, path: &Path, cwd: &Path) -> Option<&String> {
        match self.by_path.is_empty() {
            true => None,
            false => self.by_path.get(&walk::normalize(&cwd.join(path))),
        }
    }

    fn len(&self, path: &Path, cwd: &Path) -> std::io::Result<u64> {
        match self.get(path, cwd) {
            Some(text) => Ok(text.len() as u64),
            None => Ok(std::fs::metadata(path)?.len()),
        }
    }

    fn bytes(&self, path: &Path, cwd: &Path) -> std::io::Result<Vec<u8>> {
        match self.get(path, cwd) {
            Some(text) => Ok(text.clone().into_bytes()),
            None => std::fs::read(path),
        }
    }

    fn string(&self, path: &Path, cwd: &Path) -> Option<String> {
        String::from_utf8(self.bytes(path, cwd).ok()?).ok()
    }
}

/// [`check_files`], with `texts` read in place of the files they stand for.
pub fn check_texts(files: &[PathBuf], cwd: &Path, texts: &Texts) -> Vec<Result<Checked, String>> {
    let (context, named) = crate_files(files, cwd);
    // Phase zero: the names each crate gives rmcp's error (`pub type McpError = ..`), and which
    // files mention anything this pass looks at: only those are parsed.
    let scans = parallel(context.len(), |i| {
        // Oversized files are not read here; phase two reports them without reading either.
        if texts.len(&context[i], cwd).ok()? > MAX_SOURCE_BYTES {
            return None;
        }
        let text = texts.string(&context[i], cwd)?;
        let matters = super::may_matter(&text, &[]);
        Some(Scan {
            crate_dir: index::crate_dir(&context[i]),
            aliases: index::type_aliases(&text),
            codes: index::error_codes(&text),
            constructors: super::constructors::error_constructors(&text),
            renderers: super::constructors::error_renderers(&text),
            predicates: super::predicates::error_predicates(&text),
            dispatchers: super::roots::dispatchers_in(&text),
            matters,
            reports: matters && super::may_report(&text),
            test_modules: test_modules(&context[i], &text),
            unlexable: super::lex_error(&text).is_some(),
        })
    });
    // Compared as absolute paths: a file may be named absolute and its crate walked relative.
    let absolute = |path: &Path| walk::normalize(&cwd.join(path));
    let test_code: HashSet<PathBuf> = scans
        .iter()
        .flatten()
        .flat_map(|s| &s.test_modules)
        .map(|m| absolute(m))
        .collect();
    // A test module's file, or a file under its directory.
    let is_test_code = |path: &Path| {
        let path = absolute(path);
        !test_code.is_empty()
            && (test_code.contains(&path.with_extension(""))
                || path.ancestors().any(|dir| test_code.contains(dir)))
    };
    // Helpers matter only to crates with something to report: the others are not summarized.
    let reporting: HashSet<&PathBuf> = scans
        .iter()
        .flatten()
        .filter(|scan| scan.reports)
        .map(|scan| &scan.crate_dir)
        .collect();
    let mut written: HashMap<&PathBuf, Vec<(String, String)>> = HashMap::new();
    let mut codes: HashMap<&PathBuf, Vec<(String, i64)>> = HashMap::new();
    let mut constructors: HashMap<&PathBuf, HashSet<String>> = HashMap::new();
    let mut renderers: HashMap<&PathBuf, Vec<(String, i64)>> = HashMap::new();
    let mut predicates: HashMap<&PathBuf, Vec<(String, Vec<String>)>> = HashMap::new();
    let mut dispatchers: HashMap<&PathBuf, HashMap<String, Vec<String>>> = HashMap::new();
    for scan in scans.iter().flatten() {
        let entry = written.entry(&scan.crate_dir).or_default();
        entry.extend(scan.aliases.iter().cloned());
        let entry = codes.entry(&scan.crate_dir).or_default();
        entry.extend(scan.codes.iter().cloned());
        let entry = constructors.entry(&scan.crate_dir).or_default();
        entry.extend(scan.constructors.iter().cloned());
        let entry = renderers.entry(&scan.crate_dir).or_default();
        entry.extend(scan.renderers.iter().cloned());
        let entry = predicates.entry(&scan.crate_dir).or_default();
        entry.extend(scan.predicates.iter().cloned());
        let entry = dispatchers.entry(&scan.crate_dir).or_default();
        entry.extend(scan.dispatchers.iter().cloned());
    }
    let aliases: HashMap<PathBuf, CrateAliases> = written
        .into_iter()
        .map(|(dir, written)| {
            let mut names = CrateAliases::resolve(&written);
            names.codes = index::unambiguous(codes.remove(dir).unwrap_or_default());
            names.constructors = constructors.remove(dir).unwrap_or_default();
            names.renderers = index::unambiguous(renderers.remove(dir).unwrap_or_default());
            names.predicates = index::unambiguous(predicates.remove(dir).unwrap_or_default());
            names.dispatchers = dispatchers.remove(dir).unwrap_or_default();
            (dir.clone(), names)
        })
        .filter(|(_, names)| {
            !names.errors.is_empty()
                || !names.results.is_empty()
                || !names.codes.is_empty()
                || !names.other_results.is_empty()
                || !names.constructors.is_empty()
                || !names.renderers.is_empty()
                || !names.predicates.is_empty()
                || !names.dispatchers.is_empty()
        })
        .collect();
    let none = CrateAliases::default();
    let crate_aliases = |path: &Path| aliases.get(&index::crate_dir(path)).unwrap_or(&none);
    let mut relevant: Vec<bool> = context
        .iter()
        .zip(&scans)
        .map(|(path, scan)| match scan {
            Some(scan) if !reporting.contains(&scan.crate_dir) => false,
            Some(_) if is_test_code(path) => false,
            Some(scan) if scan.matters => true,
            // Only a crate alias of rmcp's error would make it matter: read it again for those.
            Some(scan) => aliases.get(&scan.crate_dir).is_some_and(|names| {
                let text = texts.string(path, cwd).unwrap_or_default();
                let names: Vec<&str> = names
                    .errors
                    .iter()
                    .chain(&names.results)
                    .map(String::as_str)
                    .collect();
                super::may_matter(&text, &names)
            }),
            None => true, // unreadable or oversized: reported in phase two
        })
        .collect();
    // Phase one: what every relevant file's functions hand their callers, merged per crate.
    let none_entered = HashSet::new();
    let summarize = |i: usize| {
        summarize_one(
            &context[i],
            crate_aliases(&context[i]),
            texts,
            cwd,
            &none_entered,
        )
    };
    let mut summaries = parallel(context.len(), |i| match relevant[i] {
        true => summarize(i),
        false => None,
    });
    // A function of another module a hand-rolled root answers with (`"tools/call" =>
    // tools::call(params, id)`) is a hand-rolled root in its own file, whatever that file
    // mentions: summarized (again) knowing it.
    let mut entries: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    for summary in summaries.iter().flatten() {
        let calls = summary.hand_rolled_calls.iter().cloned();
        entries
            .entry(summary.crate_dir.clone())
            .or_default()
            .extend(calls);
    }
    let entered = parallel(context.len(), |i| {
        let path = &context[i];
        let wanted = entries.get(&index::crate_dir(path))?;
        let text = texts.string(path, cwd)?;
        let name = path.display().to_string();
        let defined: HashSet<String> = fn_names(&text)
            .filter_map(|f| names::in_module(&name, f))
            .filter(|f| wanted.contains(f))
            .collect();
        (!defined.is_empty()).then_some(defined)
    });
    for (i, defined) in entered.iter().enumerate() {
        if let Some(defined) = defined {
            let path = &context[i];
            summaries[i] = summarize_one(path, crate_aliases(path), texts, cwd, defined);
            relevant[i] = true;
        }
    }
    // A domain error with `From<X> for ErrorData` is often returned by functions of files
    // that mention nothing MCP (`fn fetch(..) -> Result<_, FetchError>`): summarize the
    // files that name such an `X` too, so `fetch(..)?` in a tool is seen converting.
    let mut converted: HashMap<&Path, Vec<&str>> = HashMap::new();
    for summary in summaries.iter().flatten() {
        let types = converted.entry(&summary.crate_dir).or_default();
        types.extend(summary.froms.iter().map(|(ty, _)| ty.as_str()));
    }
    let more = parallel(context.len(), |i| {
        let types = converted.get(index::crate_dir(&context[i]).as_path())?;
        if relevant[i] || types.is_empty() {
            return None;
        }
        let text = texts.string(&context[i], cwd)?;
        types
            .iter()
            .any(|ty| text.contains(ty))
            .then(|| summarize(i))?
    });
    for (summary, more) in summaries.iter_mut().zip(more) {
        *summary = summary.take().or(more);
    }
    // A handler converts the errors of the crate's own functions (`self.repos.resolve(..)
    // .map_err(..)`), often defined in files that mention nothing MCP, as are the functions
    // whose errors those pass on: summarize the files that define them, a few calls deep.
    let mut searched = HashSet::new();
    for _ in 0..CONVERTED_DEPTH {
        let wanted = converted_names(&summaries, &mut searched);
        let found = parallel(context.len(), |i| {
            let names = wanted.get(&index::crate_dir(&context[i]))?;
            if summaries[i].is_some() || is_test_code(&context[i]) {
                return None;
            }
            let text = texts.string(&context[i], cwd)?;
            fn_names(&text)
                .any(|name| names.contains(name))
                .then(|| summarize(i))?
        });
        if found.iter().all(Option::is_none) {
            break;
        }
        for (summary, found) in summaries.iter_mut().zip(found) {
            *summary = summary.take().or(found);
        }
    }
    let unparsed = flags(&summaries, |s| s.unparsed);
    let quiet = flags(&summaries, |s| !s.reports && !s.unparsed);
    let unlexable = flags(&scans, |s| s.unlexable);
    // A named file that mentions MCP in a crate with nothing to report is still parsed, so
    // that a syntax error in it is said.
    let matters = flags(&scans, |s| s.matters);
    let mut index = CrateIndex::build(summaries.into_iter().flatten().collect(), aliases);
    // Phase one and a half: the failures of the functions whose errors a handler converts.
    let failures = parallel(context.len(), |i| {
        let path = &context[i];
        if !index.defines_converted(&path.display().to_string()) {
            return None;
        }
        let source = read_source(path, texts, cwd).ok()?.ok()?;
        let walk = || super::converted_failures(&source, path, &index);
        catch_unwind(AssertUnwindSafe(walk)).ok()
    });
    for (path, found) in context.iter().zip(failures) {
        for (name, failures) in found.into_iter().flatten() {
            index.add_failures(&index::crate_dir(path), &name, failures);
        }
    }
    // Phase two: every named file, with the crate's helpers known.
    parallel(files.len(), |i| {
        let path = &files[i];
        // A file named twice under two spellings (`x.rs`, `./x.rs`) is checked under the first.
        let needs = match Some(named[i]).filter(|&at| context[at] == *path) {
            Some(at) if relevant[at] && quiet[at] => Needs::Nothing,
            Some(at) if relevant[at] => Needs::Check {
                unparsed: unparsed[at],
            },
            Some(at) if unlexable[at] || matters[at] => Needs::SyntaxOnly,
            _ => Needs::Nothing,
        };
        Some(check_one(path, &index, needs, texts, cwd))
    })
    .into_iter()
    .map(|r| {
        r.unwrap_or_else(|| {
            Err("internal error: the file was not checked; please report it".to_string())
        })
    })
    .collect()
}

/// How many calls deep [`converted_names`] are looked for in files that mention nothing MCP.
const CONVERTED_DEPTH: usize = 3;

/// Per crate, the functions whose errors a handler converts, or that such a function passes
/// on, not looked for before (`searched`). Names are looked for even where a summarized file
/// defines one: methods of other types share them (a handler's `create_transaction` and its
/// API client's).
fn converted_names(
    summaries: &[Option<FileSummary>],
    searched: &mut HashSet<(PathBuf, String)>,
) -> HashMap<PathBuf, HashSet<String>> {
    let mut wanted: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    for summary in summaries.iter().flatten() {
        let crate_wants = wanted.entry(summary.crate_dir.clone()).or_default();
        // As written after `fn `: a file's text does not say whether it is a method.
        let shown = |name: &String| names::shown(name).to_string();
        crate_wants.extend(summary.converted_calls.iter().map(|(name, ..)| shown(name)));
        crate_wants.extend(summary.hand_rolled_calls.iter().map(shown));
        for f in &summary.fns {
            if matches!(f.returns, index::Returns::ResultOf(_)) {
                crate_wants.extend(f.forwards.iter().map(shown));
            }
        }
    }
    for (dir, names) in &mut wanted {
        names.retain(|name| searched.insert((dir.clone(), name.clone())));
    }
    wanted.retain(|_, names| !names.is_empty());
    wanted
}

/// The names of the functions `text` appears to define (`fn name(`, `fn name<`), in one pass.
fn fn_names(text: &str) -> impl Iterator<Item = &str> {
    memchr::memmem::find_iter(text.as_bytes(), "fn ").filter_map(|at| {
        let rest = text[at + 3..].trim_start();
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let follows = rest[end..].trim_start().chars().next();
        (end > 0 && matches!(follows, Some('(' | '<'))).then(|| &rest[..end])
    })
}

/// Per file, whether its fact (what a phase learned of it, if anything) satisfies `test`.
fn flags<T>(facts: &[Option<T>], test: impl Fn(&T) -> bool) -> Vec<bool> {
    facts
        .iter()
        .map(|f| f.as_ref().is_some_and(&test))
        .collect()
}

/// The modules `text` (the file at `path`) declares under `#[cfg(test)]` (or `#[cfg(all(test,
/// ..))]`) without a body, as the path of their file without its extension (`src/test_util`)
/// or their directory: one is `src/test_util.rs` or `src/test_util/mod.rs`, with what it
/// declares in turn.
fn test_modules(path: &Path, text: &str) -> Vec<PathBuf> {
    let Some(parent) = path.parent() else {
        return Vec::new();
    };
    let dir = match path.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs" | "main.rs" | "mod.rs") => parent.to_path_buf(),
        _ => parent.join(path.file_stem().unwrap_or_default()),
    };
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(text.as_bytes(), "#[cfg(") {
        let attribute = &text[at + "#[cfg(".len()..];
        // `#[cfg(test)]`, or `#[cfg(all(test, ..))]`: built only when testing.
        let rest = match attribute.strip_prefix("test)]") {
            Some(rest) => rest,
            None if attribute.starts_with("all(test,") => match attribute.find(")]") {
                Some(end) => &attribute[end + ")]".len()..],
                None => continue,
            },
            None => continue,
        };
        let rest = rest.trim_start();
        let rest = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|v| rest.strip_prefix(v))
            .unwrap_or(rest);
        let Some(rest) = rest.strip_prefix("mod ") else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let declared = rest.trim_start()[name.len()..]
            .trim_start()
            .starts_with(';');
        if declared && !name.is_empty() {
            out.push(dir.join(name));
        }
    }
    out
}

/// Every Rust file of the crates `files` belong to (see [`index::crate_dir`]), walked as `check`
/// walks directories; each file once, the named ones first; and where each named file is in it.
fn crate_files(files: &[PathBuf], cwd: &Path) -> (Vec<PathBuf>, Vec<usize>) {
    let mut dirs: Vec<PathBuf> = files.iter().map(|p| index::crate_dir(p)).collect();
    dirs.sort();
    dirs.dedup();
    // Compared as absolute paths, lexically: a stat per file of a large tree costs seconds.
    let mut seen: HashMap<PathBuf, usize> = HashMap::new();
    let mut context = Vec::new();
    let mut add = |path: PathBuf| {
        let at = *seen
            .entry(walk::normalize(&cwd.join(&path)))
            .or_insert(context.len());
        if at == context.len() {
            context.push(path);
        }
        at
    };
    let named = files.iter().map(|p| add(p.clone())).collect();
    // Crate directories are absolute; the files found in them are named relative to the
    // working directory when they are under it, as the user names files, so a finding that
    // points into another file ("via `helper` (src/x.rs:3)") prints its path the same way.
    // A loose file is a crate of its own: walking it finds itself. A crate's walk leaves out
    // what is not its own (test data, nested crates).
    let walked = walk::collect(&dirs, false)
        .files
        .into_iter()
        .filter(|i| dirs.binary_search(&index::crate_dir(&i.path)).is_ok())
        .map(|i| match i.path.strip_prefix(cwd) {
            Ok(relative) => relative.to_path_buf(),
            Err(_) => i.path,
        });
    for path in walked {
        add(path);
    }
    (context, named)
}

/// A Rust file's text, or the report that says why it cannot be read as Rust.
fn read_source(
    path: &Path,
    texts: &Texts,
    cwd: &Path,
) -> Result<Result<Arc<SourceText>, FileReport>, String> {
    let name = path.display().to_string();
    let size = texts.len(path, cwd).map_err(|e| e.to_string())?;
    if size > MAX_SOURCE_BYTES {
        let source = Arc::new(SourceText::new(name, String::new()));
        let message = format!(
            "file is {size} bytes, over the {MAX_SOURCE_BYTES}-byte limit, so it was not checked"
        );
        let finding = mcp004::not_checked(message, None).at(0..0);
        return Ok(Err(FileReport::new(source, vec![finding])));
    }
    let bytes = texts.bytes(path, cwd).map_err(|e| e.to_string())?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Ok(Arc::new(SourceText::new(name, text)))),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let source = Arc::new(SourceText::new(
                name,
                String::from_utf8_lossy(e.as_bytes()).into_owned(),
            ));
            let message = format!("not valid UTF-8 (byte {at}), so it was not checked");
            let finding = mcp004::not_checked(message, None).at(at..at);
            Ok(Err(FileReport::new(source, vec![finding])))
        }
    }
}

/// `entered`: its functions a hand-rolled root of another file answers with.
fn summarize_one(
    path: &Path,
    crate_aliases: &CrateAliases,
    texts: &Texts,
    cwd: &Path,
    entered: &HashSet<String>,
) -> Option<FileSummary> {
    let source = read_source(path, texts, cwd).ok()?.ok()?;
    catch_unwind(AssertUnwindSafe(|| {
        super::summarize(&source, path, crate_aliases, entered)
    }))
    .ok()
}

/// What phase two does with a named file.
enum Needs {
    /// Nothing MCP-related in it, or nothing phase one saw that could be reported, and it is
    /// Rust: not read again unless it defines helpers the index walks.
    Nothing,
    /// Nothing to check in it, but it does not split into Rust tokens, or it mentions MCP in a
    /// crate with nothing to report: parsed only to say a syntax error.
    SyntaxOnly,
    /// Check it; `unparsed`: phase one could not parse it, so it is parsed again to say why.
    Check { unparsed: bool },
}

/// Checks a Rust file as phase zero found it. A file without findings does not keep its text.
fn check_one(
    path: &Path,
    index: &CrateIndex,
    needs: Needs,
    texts: &Texts,
    cwd: &Path,
) -> Result<Checked, String> {
    let nothing = || Checked {
        report: FileReport::new(
            Arc::new(SourceText::new(path.display().to_string(), String::new())),
            Vec::new(),
        ),
        suppressions: Vec::new(),
    };
    let helpers = index.defines_helpers(&path.display().to_string());
    let unparsed = match needs {
        Needs::Nothing if !helpers => return Ok(nothing()),
        Needs::Check { unparsed } => unparsed,
        _ => false,
    };
    let source = match read_source(path, texts, cwd)? {
        Ok(source) => source,
        Err(unreadable) => {
            return Ok(Checked {
                report: unreadable,
                suppressions: Vec::new(),
            });
        }
    };
    if matches!(needs, Needs::SyntaxOnly) && !helpers {
        return Ok(match super::syntax_error(&source) {
            Some(finding) => Checked {
                report: FileReport::new(source, vec![finding]),
                suppressions: Vec::new(),
            },
            None => nothing(),
        });
    }
    if !unparsed && !helpers && !super::may_report(source.text()) {
        return Ok(nothing());
    }
    let checked = catch_unwind(AssertUnwindSafe(|| super::check(&source, path, index)));
    let (findings, suppressions) = checked
        .map_err(|_| "internal error while checking this file; please report it".to_string())?;
    if findings.is_empty() && suppressions.is_empty() {
        return Ok(nothing());
    }
    Ok(Checked {
        report: FileReport::new(source, findings),
        suppressions,
    })
}
