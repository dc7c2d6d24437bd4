//! Configuration (SPEC.md): `mcp-lint.toml`, or `[package.metadata.mcp-lint]` /
//! `[workspace.metadata.mcp-lint]` in `Cargo.toml`, the nearest one walking up from the
//! working directory, or `--config PATH`. The command line wins over the file.
//!
//! A level comes from, in order: the rule's default, the profile, the file's `[rules]`, the
//! command line (`--warn`, `--allow`), then `[per-path]` ignores and `--deny warnings`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::rules::mcp108::UNKNOWN_TOOL_ASPECT;
use crate::rules::{self, Level, RuleMeta};
use crate::rules::{did_you_mean, unknown_rule};
use crate::text::closest;
use crate::walk::InputFormat;
use crate::walk::normalize;

/// What the rules are judged against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Profile {
    /// SEP-2145: every tools/call failure is a tool execution error (the default)
    #[value(name = "sep-2145")]
    Sep2145,
    /// The 2025-11-25 spec text: unknown and disabled tools may be protocol errors (MCP101,
    /// MCP102 and MCP108's unknown-tool part are off)
    #[value(name = "mcp-2025-11-25")]
    Mcp20251125,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Sep2145 => "sep-2145",
            Profile::Mcp20251125 => "mcp-2025-11-25",
        }
    }

    /// Rules, or parts of rules (`(code, aspect)`), whose verdict the profile's spec text
    /// does not support.
    fn off(self) -> &'static [(&'static str, Option<&'static str>)] {
        match self {
            Profile::Sep2145 => &[],
            Profile::Mcp20251125 => &[
                ("MCP101", None),
                ("MCP102", None),
                ("MCP108", Some(UNKNOWN_TOOL_ASPECT)),
            ],
        }
    }

    fn from_name(name: &str) -> Option<Profile> {
        [Profile::Sep2145, Profile::Mcp20251125]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// The file's contents, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    profile: Option<Spanned<String>>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default, rename = "per-path")]
    per_path: BTreeMap<String, Vec<Spanned<String>>>,
    transcripts: Option<RawTranscripts>,
    #[serde(rename = "unsafe-fixes")]
    unsafe_fixes: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTranscripts {
    input_format: Option<Spanned<String>>,
}

/// `Cargo.toml`, for its `metadata.mcp-lint` tables only.
#[derive(Deserialize)]
struct Manifest {
    package: Option<Metadata>,
    workspace: Option<Metadata>,
}

#[derive(Deserialize)]
struct Metadata {
    metadata: Option<Tool>,
}

#[derive(Deserialize)]
struct Tool {
    #[serde(rename = "mcp-lint")]
    mcp_lint: Option<RawConfig>,
}

/// The settings of a run.
#[derive(Debug)]
pub struct Config {
    pub profile: Profile,
    /// Levels set by the file's `[rules]`, per rule code; `None` is off.
    file_levels: HashMap<&'static str, Option<Level>>,
    /// Levels set on the command line, which win.
    cli_levels: HashMap<&'static str, Option<Level>>,
    /// Where relative paths in the file start.
    dir: PathBuf,
    exclude: Vec<PathPattern>,
    per_path: Vec<(PathPattern, Vec<&'static str>)>,
    pub input_format: Option<InputFormat>,
    /// `unsafe-fixes = true`: `--fix` applies the fixes that change the wire too.
    unsafe_fixes: bool,
    /// Found by walking up from the working directory (not named with `--config`): files
    /// below it may have a nearer configuration of their own.
    discovered: bool,
    /// The profile the command line set, which holds in nearer configurations too.
    pub cli_profile: Option<Profile>,
    /// Configurations nearer to some of the files, deepest first (see
    /// [`Config::discover_nearer`]).
    nearer: Vec<Config>,
}

/// An `exclude` or `[per-path]` entry, relative to the configuration's directory: a path
/// (`src/proxy/`: it and what lies under it), or a glob with gitignore's meaning (`*.rs` and
/// `generated` match at any depth, `src/*.rs` and `/build` only there, `src/**` everything
/// under `src`; a glob that matches a directory matches what lies under it).
#[derive(Debug)]
enum PathPattern {
    Prefix(PathBuf),
    Glob(globset::GlobSet),
}

impl PathPattern {
    fn new(text: &str) -> Result<PathPattern, globset::Error> {
        if !text.contains(['*', '?', '[', '{']) {
            return Ok(PathPattern::Prefix(PathBuf::from(text)));
        }
        let trimmed = text.trim_end_matches('/');
        let anchored = match trimmed.strip_prefix('/') {
            Some(rooted) => rooted.to_string(),
            None if trimmed.contains('/') => trimmed.to_string(),
            None => format!("**/{trimmed}"),
        };
        let mut set = globset::GlobSetBuilder::new();
        for glob in [anchored.clone(), format!("{anchored}/**")] {
            set.add(
                globset::GlobBuilder::new(&glob)
                    .literal_separator(true)
                    .build()?,
            );
        }
        set.build().map(PathPattern::Glob)
    }
}

/// A configuration error, pointing into the file where it can.
#[derive(Debug)]
pub struct ConfigError {
    pub file: String,
    pub text: String,
    pub span: Option<Range<usize>>,
    pub message: String,
    pub help: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config::from_raw(RawConfig::default(), PathBuf::from("/"), "", "")
            .expect("the empty config is valid")
    }
}

impl Config {
    /// The nearest configuration above `cwd`, or `path` when given.
    pub fn load(path: Option<&Path>, cwd: &Path) -> Result<Config, ConfigError> {
        if let Some(path) = path {
            let text = std::fs::read_to_string(cwd.join(path))
                .map_err(|e| ConfigError::plain(path, format!("cannot read it: {e}")))?;
            return Config::parse(path, cwd, &text)?.map_or_else(
                || {
                    Err(ConfigError::plain(
                        path,
                        "it has no [package.metadata.mcp-lint] table".into(),
                    ))
                },
                Ok,
            );
        }
        for dir in cwd.ancestors() {
            if let Some(config) = Config::in_dir(dir, cwd)? {
                return Ok(config);
            }
        }
        Ok(Config {
            discovered: true,
            ..Config::default()
        })
    }

    /// The configuration file of `dir` itself, if it has one (paths shown relative to `cwd`).
    fn in_dir(dir: &Path, cwd: &Path) -> Result<Option<Config>, ConfigError> {
        for name in ["mcp-lint.toml", "Cargo.toml"] {
            let path = dir.join(name);
            let shown = path.strip_prefix(cwd).unwrap_or(&path);
            // A file that is there but cannot be read (not UTF-8, no permission) is an
            // error, as with `--config`: skipping it would silently use other settings.
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(_) if !path.is_file() => continue,
                Err(e) => {
                    return Err(ConfigError::plain(shown, format!("cannot read it: {e}")));
                }
            };
            if let Some(mut config) = Config::parse(shown, cwd, &text)? {
                config.discovered = true;
                return Ok(Some(config));
            }
        }
        Ok(None)
    }

    /// Finds, for each of `files`, a configuration nearer to it than this one (as ruff does:
    /// `mcp-lint crate-a/src` from a monorepo's root uses `crate-a/mcp-lint.toml`). None when
    /// this one was named with `--config`, which holds for every file. The command line's
    /// levels and profile hold in each.
    pub fn discover_nearer(&mut self, files: &[PathBuf], cwd: &Path) -> Result<(), ConfigError> {
        if !self.discovered {
            return Ok(());
        }
        let mut dirs: Vec<PathBuf> = files
            .iter()
            .filter_map(|f| normalize(&cwd.join(f)).parent().map(Path::to_path_buf))
            .collect();
        dirs.sort();
        dirs.dedup();
        let mut seen = HashSet::new();
        for dir in dirs {
            // Up to this configuration's own directory, which is not nearer.
            for dir in dir
                .ancestors()
                .take_while(|d| *d != self.dir && !self.dir.starts_with(d))
            {
                if !seen.insert(dir.to_path_buf()) {
                    break;
                }
                if let Some(mut nearer) = Config::in_dir(dir, cwd)? {
                    nearer.cli_levels = self.cli_levels.clone();
                    if let Some(profile) = self.cli_profile {
                        nearer.profile = profile;
                    }
                    self.nearer.push(nearer);
                }
            }
        }
        // Deepest first, so the first that holds a path is its nearest.
        self.nearer
            .sort_by_key(|c| std::cmp::Reverse(c.dir.components().count()));
        Ok(())
    }

    /// The configuration that holds for `path`: the nearest one found for it, or this one.
    fn for_path(&self, path: &Path, cwd: &Path) -> &Config {
        let path = normalize(&cwd.join(path));
        self.nearer
            .iter()
            .find(|c| path.starts_with(&c.dir))
            .unwrap_or(self)
    }

    /// Reads the file at `path` (as shown to the user, relative to `cwd` or absolute);
    /// `Ok(None)`: a `Cargo.toml` without an mcp-lint table.
    fn parse(path: &Path, cwd: &Path, text: &str) -> Result<Option<Config>, ConfigError> {
        let file = path.display().to_string();
        let dir = normalize(cwd.join(path).parent().unwrap_or(cwd));
        let error = |e: toml::de::Error| ConfigError::from_toml(&file, text, e);
        let raw: RawConfig = if path.file_name().is_some_and(|n| n == "Cargo.toml") {
            // Spans of nested tables are offsets in the whole manifest, so errors point into it.
            let manifest: Manifest = toml::from_str(text).map_err(error)?;
            let table = [manifest.package, manifest.workspace]
                .into_iter()
                .flatten()
                .find_map(|m| m.metadata?.mcp_lint);
            let Some(table) = table else { return Ok(None) };
            table
        } else {
            toml::from_str(text).map_err(error)?
        };
        Config::from_raw(raw, dir, &file, text).map(Some)
    }

    fn from_raw(
        raw: RawConfig,
        dir: PathBuf,
        file: &str,
        text: &str,
    ) -> Result<Config, ConfigError> {
        let at = |span: Range<usize>, message: String, help: Option<String>| ConfigError {
            file: file.to_string(),
            text: text.to_string(),
            span: Some(span),
            message,
            help,
        };
        let profile = match &raw.profile {
            None => Profile::Sep2145,
            Some(p) => Profile::from_name(p.get_ref()).ok_or_else(|| {
                at(
                    p.span(),
                    format!("unknown profile `{}`", p.get_ref()),
                    Some("use `sep-2145` or `mcp-2025-11-25`".into()),
                )
            })?,
        };
        let mut config = Config {
            profile,
            file_levels: HashMap::new(),
            cli_levels: HashMap::new(),
            dir,
            exclude: Vec::new(),
            per_path: Vec::new(),
            input_format: None,
            unsafe_fixes: raw.unsafe_fixes.unwrap_or(false),
            discovered: false,
            cli_profile: None,
            nearer: Vec::new(),
        };
        // A rule named in the file, by code or name; an unknown one is an error at its place.
        let rule_at = |name: &Spanned<String>| {
            rules::lookup(name.get_ref()).ok_or_else(|| {
                at(
                    name.span(),
                    unknown_rule(name.get_ref()),
                    did_you_mean(name.get_ref()),
                )
            })
        };
        for (rule, level) in &raw.rules {
            let meta = rule_at(rule)?;
            let level = parse_level(level.get_ref()).ok_or_else(|| {
                at(
                    level.span(),
                    format!("unknown level `{}`", level.get_ref()),
                    Some("use `error`, `warning`, `advice` or `off`".into()),
                )
            })?;
            if config.file_levels.insert(meta.code, level).is_some() {
                let message = format!("{} is set twice in [rules], by code and by name", meta.code);
                let help = format!("keep one of `{}` and `{}`", meta.code, meta.name);
                return Err(at(rule.span(), message, Some(help)));
            }
        }
        let pattern = |text: &str, table: &str| {
            PathPattern::new(text).map_err(|e| {
                let message = format!("`{text}` in {table} is not a valid glob: {e}");
                ConfigError::plain(Path::new(file), message)
            })
        };
        for text in &raw.exclude {
            config.exclude.push(pattern(text, "exclude")?);
        }
        for (prefix, codes) in &raw.per_path {
            let mut ignored = Vec::new();
            for code in codes {
                let meta = rule_at(code)?;
                ignored.push(meta.code);
            }
            config
                .per_path
                .push((pattern(prefix, "[per-path]")?, ignored));
        }
        if let Some(format) = raw.transcripts.and_then(|t| t.input_format) {
            let parsed = <InputFormat as clap::ValueEnum>::from_str(format.get_ref(), false);
            config.input_format = Some(parsed.map_err(|_| {
                at(
                    format.span(),
                    format!("unknown input format `{}`", format.get_ref()),
                    Some("use auto, envelope, jsonl, claude, har or inspector".into()),
                )
            })?);
        }
        Ok(config)
    }

    /// `--warn CODE` / `--allow CODE` (off).
    pub fn set_level(&mut self, rule: &'static RuleMeta, level: Option<Level>) {
        self.cli_levels.insert(rule.code, level);
    }

    /// The level of a finding of `rule` (of its part `aspect`) in `path`; `None` if off there.
    pub fn level(
        &self,
        rule: &RuleMeta,
        aspect: Option<&str>,
        path: &Path,
        cwd: &Path,
    ) -> Option<Level> {
        let config = self.for_path(path, cwd);
        let off = config
            .profile
            .off()
            .iter()
            .any(|(code, part)| *code == rule.code && (part.is_none() || *part == aspect));
        let by_profile = (!off).then_some(rule.level);
        let set = config
            .cli_levels
            .get(rule.code)
            .or_else(|| config.file_levels.get(rule.code));
        let level = set.copied().unwrap_or(by_profile)?;
        let ignored = config
            .per_path
            .iter()
            .any(|(prefix, codes)| codes.contains(&rule.code) && config.under(path, prefix, cwd));
        (!ignored).then_some(level)
    }

    /// Whether `unsafe-fixes = true` in the configuration that holds for `path`: the nearest
    /// one's key wins, as the nearest one's levels do.
    pub fn unsafe_fixes(&self, path: &Path, cwd: &Path) -> bool {
        self.for_path(path, cwd).unsafe_fixes
    }

    /// Whether `path` lies under an `exclude` entry of the configuration that holds for it.
    pub fn excluded(&self, path: &Path, cwd: &Path) -> bool {
        let config = self.for_path(path, cwd);
        config
            .exclude
            .iter()
            .any(|prefix| config.under(path, prefix, cwd))
    }

    /// Whether `path` (relative to `cwd`) is matched by `pattern` (relative to the
    /// configuration's directory), compared lexically: no symlink is resolved.
    fn under(&self, path: &Path, pattern: &PathPattern, cwd: &Path) -> bool {
        let path = normalize(&cwd.join(path));
        match pattern {
            PathPattern::Prefix(prefix) => path.starts_with(normalize(&self.dir.join(prefix))),
            PathPattern::Glob(set) => path
                .strip_prefix(normalize(&self.dir))
                .is_ok_and(|relative| set.is_match(relative)),
        }
    }
}

pub fn parse_level(text: &str) -> Option<Option<Level>> {
    Some(match text {
        "error" => Some(Level::Error),
        "warning" | "warn" => Some(Level::Warning),
        "advice" => Some(Level::Advice),
        "off" => None,
        _ => return None,
    })
}

/// The keys a configuration may have, for "did you mean" on an unknown one.
const KEYS: &[&str] = &[
    "profile",
    "exclude",
    "rules",
    "per-path",
    "transcripts",
    "input-format",
    "unsafe-fixes",
];

impl ConfigError {
    fn plain(path: &Path, message: String) -> ConfigError {
        ConfigError {
            file: path.display().to_string(),
            text: String::new(),
            span: None,
            message,
            help: None,
        }
    }

    fn from_toml(file: &str, text: &str, error: toml::de::Error) -> ConfigError {
        let message = error.message().trim().to_string();
        let help = message
            .split('`')
            .nth(1)
            .filter(|_| message.starts_with("unknown field"))
            .and_then(|key| closest(key, KEYS.iter().copied()))
            .map(|k| format!("did you mean `{k}`?"));
        ConfigError {
            file: file.to_string(),
            text: text.to_string(),
            span: error.span(),
            message,
            help,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        Config::parse(Path::new("mcp-lint.toml"), Path::new("/repo"), text)
            .expect("valid")
            .expect("a configuration")
    }

    #[test]
    fn exclude_takes_paths_and_globs_as_gitignore_means_them() {
        let c = config(
            "exclude = [\"examples/legacy/\", \"*.gen.rs\", \"src/*_test.rs\", \"/gen*\", \"vendor/**\"]",
        );
        let excluded = |path: &str| c.excluded(Path::new(path), Path::new("/repo"));
        assert!(excluded("examples/legacy/a/b.rs"));
        assert!(excluded("src/deep/er/x.gen.rs"), "no slash: at any depth");
        assert!(excluded("src/a_test.rs"));
        assert!(!excluded("src/sub/a_test.rs"), "`*` stops at a slash");
        assert!(
            excluded("generated/out.rs"),
            "a glob naming a directory takes what is under it"
        );
        assert!(!excluded("src/gen/x.rs"), "a leading slash anchors");
        assert!(excluded("vendor/a/b/c.rs"));
        assert!(!excluded("src/main.rs"));
    }

    #[test]
    fn per_path_globs_turn_rules_off() {
        let c = config("[per-path]\n\"src/**/proxy_*.rs\" = [\"MCP104\"]\n");
        let at = |path: &str| {
            c.level(
                &crate::rules::mcp104::META,
                None,
                Path::new(path),
                Path::new("/repo"),
            )
        };
        assert_eq!(at("src/a/proxy_http.rs"), None);
        assert_eq!(at("src/proxy_http.rs"), None);
        assert!(at("src/server.rs").is_some());
    }

    #[test]
    fn a_broken_glob_is_a_configuration_error() {
        let error = Config::parse(
            Path::new("mcp-lint.toml"),
            Path::new("/r"),
            "exclude = [\"src/[a\"]",
        )
        .expect_err("invalid");
        assert!(
            error.message.contains("not a valid glob"),
            "{}",
            error.message
        );
    }
}
