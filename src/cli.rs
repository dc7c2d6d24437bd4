//! The command line of SPEC.md. `mcp-lint src/` means `mcp-lint check src/`.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::config::Profile;
use crate::report::Format;
use crate::transcript::redact::Redactor;
use crate::walk::InputFormat;

#[derive(Debug, Parser)]
#[command(
    name = "mcp-lint",
    version,
    about = "Finds MCP servers that answer tools/call failures with JSON-RPC protocol errors (SEP-2145)",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub check: CheckArgs,
}

/// `args` with a subcommand written after options (`mcp-lint --format json rules`) moved to
/// the front, where clap looks for it; without this it would be a path to check. A directory
/// named like a subcommand is checked as `./rules` or `check rules`.
pub fn subcommand_first<I, T>(args: I) -> Vec<OsString>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = Cli::command();
    let takes_value = |option: &str| {
        cli.get_arguments().any(|a| {
            let named = match option.strip_prefix("--") {
                Some(long) => a.get_long() == Some(long),
                None => option.len() == 2 && a.get_short() == option.chars().nth(1),
            };
            named && a.get_action().takes_values()
        })
    };
    let mut i = 1;
    while let Some(arg) = args.get(i).and_then(|a| a.to_str()) {
        if !arg.starts_with('-') || arg == "-" || arg == "--" {
            break;
        }
        i += if !arg.contains('=') && takes_value(arg) {
            2
        } else {
            1
        };
    }
    let named = args.get(i).and_then(|a| a.to_str());
    if i > 1 && named.is_some_and(|n| cli.find_subcommand(n).is_some()) {
        let subcommand = args.remove(i);
        args.insert(1, subcommand);
    }
    args
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint Rust sources (the default command)
    Check(CheckArgs),
    /// Audit recorded MCP traffic (JSONL, Claude Desktop logs, HAR, Inspector exports); `-` reads standard input
    Audit(AuditArgs),
    /// Probe a running server with SEP-2145's cases and audit its answers
    Probe(ProbeArgs),
    /// Record a server's traffic as envelope JSONL, through a transparent proxy: in front of a stdio server (`-- CMD`) or a Streamable HTTP one (`--listen ADDR --upstream URL`); secrets are redacted
    Record(RecordArgs),
    /// Serve mcp-lint's checks over stdio as an MCP server (tools: check, audit, explain, rules), for coding agents
    Mcp,
    /// List the rule catalog
    Rules {
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
    /// Print a rule's documentation
    Explain {
        /// A rule code (MCP101) or name (unknown-tool-protocol-error)
        rule: String,
        /// `json`: the rule's object of `rules --format json`, its documentation included
        #[arg(long, value_enum, default_value_t = ListFormat::Human)]
        format: ListFormat,
    },
}

/// `cargo mcp-lint`, run by cargo as `cargo-mcp-lint mcp-lint [ARGS...]`.
#[derive(Debug, Parser)]
#[command(
    name = "cargo-mcp-lint",
    bin_name = "cargo mcp-lint",
    version,
    about = "Lints the current package's MCP server sources (every member's at a workspace root): `mcp-lint check` for cargo",
    long_about = "Lints the current package's MCP server sources, or every workspace member's at a \
                  workspace root: `mcp-lint check` over what cargo compiles (src/, examples/, \
                  tests/, benches/, the build script and each target's `path`), found by \
                  reading the manifests. cargo itself is not run and target/ is not read. \
                  Options, formats and exit statuses are those of `mcp-lint check`."
)]
pub struct CargoCli {
    /// Files and directories to check instead of the package's sources
    #[arg(conflicts_with = "manifest_path")]
    pub paths: Vec<PathBuf>,
    /// The package's or workspace's Cargo.toml (default: the nearest one at or above the
    /// working directory); a workspace root's manifest checks every member
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub baseline: BaselineArgs,
    #[command(flatten)]
    pub fix: FixArgs,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files and directories to check (directories are searched for *.rs files; other files
    /// named here are audited as transcripts)
    #[arg(default_value = ".")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub baseline: BaselineArgs,
    #[command(flatten)]
    pub fix: FixArgs,
}

/// Rewriting the sources (`check` only).
#[derive(Debug, Default, Args)]
pub struct FixArgs {
    /// Apply the safe fixes in place, then report what remains
    #[arg(long, conflicts_with_all = ["write_baseline"])]
    pub fix: bool,
    /// With --fix or --diff, also the unsafe fixes: those that change what clients see on the
    /// wire (every MCP101-MCP105 rewrite); the configuration's `unsafe-fixes = true` does too
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print the fixes as a unified diff and write nothing; exit status 1 when something
    /// would change
    #[arg(long, conflicts_with_all = ["fix", "write_baseline"])]
    pub diff: bool,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Transcripts, `-` for standard input, pipes (`<(zcat x.jsonl.gz)`, read in the order
    /// given), or directories (searched for *.jsonl, *.ndjson, *.log, *.har)
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The format of transcripts whose content shows none (each file's is detected from its
    /// first line); overrides `[transcripts] input-format`
    #[arg(long, value_enum)]
    pub input_format: Option<InputFormat>,
    /// Take the files named as a directory walk takes them: one that holds no MCP traffic (a
    /// `package.json`) is skipped, not MCP004 (for hooks that pass every staged `*.json`)
    #[arg(long)]
    pub skip_non_transcripts: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub baseline: BaselineArgs,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("server").required(true).args(["url", "command"]))]
pub struct ProbeArgs {
    /// A Streamable HTTP server's endpoint (`http://127.0.0.1:3000/mcp`)
    #[arg(long)]
    pub url: Option<String>,
    /// An HTTP header sent with every request (`Authorization: Bearer ...`)
    #[arg(long, value_name = "NAME: VALUE", requires = "url")]
    pub header: Vec<String>,
    /// Also call TOOL with these arguments, which must be valid (tools have side effects, so
    /// only the tools named here, and with --explore the read-only ones, are called for
    /// real); its result is checked against the
    /// tool's outputSchema (an answer over 64 MiB is not read: MCP001, unverifiable)
    #[arg(long, value_name = "TOOL=JSON")]
    pub call: Vec<String>,
    /// Also call the read-only tools (annotated readOnlyHint: true, not destructiveHint) with
    /// arguments generated from their inputSchema (empty and very long strings, zero,
    /// negative and huge numbers, each enum value, optional properties left out, paths and
    /// URLs that name nothing), each checked against the schema before it is sent; a call
    /// answered with a protocol error is shrunk to the smallest arguments that still get it
    #[arg(long)]
    pub explore: bool,
    /// With --explore, also call TOOL, whatever its annotations say
    #[arg(long, value_name = "TOOL", requires = "explore")]
    pub allow_tool: Vec<String>,
    /// With --explore, never call TOOL
    #[arg(long, value_name = "TOOL", requires = "explore")]
    pub skip_tool: Vec<String>,
    /// With --explore, the most calls it makes (shrinking included)
    #[arg(long, value_name = "N", default_value_t = 100, requires = "explore")]
    pub max_calls: usize,
    /// With --explore, the seconds after which it makes no further call
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 60.0,
        requires = "explore"
    )]
    pub max_time: f64,
    /// Save the probe's transcript (envelope JSONL) to FILE, secrets redacted (see --redact)
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Seconds to wait for each answer before the request counts as unanswered
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Speak this protocol version (2026-07-28, 2025-11-25, ...) instead of the newest the
    /// server supports, which `server/discover`, else `initialize`, finds
    #[arg(long, value_name = "VERSION")]
    pub protocol_version: Option<String>,
    #[command(flatten)]
    pub redact: RedactArgs,
    /// A stdio server's command and arguments, after `--`
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<OsString>,
    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The transcript to write (envelope JSONL)
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Append to FILE instead of replacing it; each run is a session of its own
    #[arg(long)]
    pub append: bool,
    /// Relay Streamable HTTP from this address (`127.0.0.1:8000`; port 0 picks one, which is
    /// said on stderr) to the upstream, at the same paths: point the client at
    /// http://ADDR/PATH, PATH the upstream URL's. Ctrl-C stops it
    #[arg(long, value_name = "ADDR", requires = "upstream")]
    pub listen: Option<String>,
    /// The Streamable HTTP server's MCP endpoint (`http://127.0.0.1:3000/mcp`); the messages
    /// sent there are recorded, other paths (OAuth) are only relayed
    #[arg(long, value_name = "URL", requires = "listen")]
    pub upstream: Option<String>,
    #[command(flatten)]
    pub redact: RedactArgs,
    /// A stdio server's command and arguments, after `--`
    #[arg(
        last = true,
        required_unless_present = "listen",
        conflicts_with = "listen",
        value_name = "CMD"
    )]
    pub command: Vec<OsString>,
}

/// What `record` and `probe --save` keep out of the transcripts they write.
#[derive(Debug, Args)]
pub struct RedactArgs {
    /// Also replace the string values of JSON members named KEY (any case) with
    /// "[redacted]"; always replaced: password, token, secret, api_key, apikey, authorization,
    /// access_token, refresh_token, cookie, set-cookie, and names ending in -api-key or -token
    #[arg(long, value_name = "KEY", conflicts_with = "no_redact")]
    pub redact: Vec<String>,
    /// Write secrets as they were sent (transcripts hold no HTTP headers either way, only
    /// the Mcp-Session-Id as `session`)
    #[arg(long)]
    pub no_redact: bool,
}

impl RedactArgs {
    pub fn redactor(&self) -> Option<Redactor> {
        (!self.no_redact).then(|| Redactor::new(&self.redact))
    }
}

/// Options of every command that reports findings.
#[derive(Debug, Args)]
pub struct OutputArgs {
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// When to colour human output; NO_COLOR turns `auto` off
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Treat findings of this level as errors (exit status 1)
    #[arg(long, value_enum)]
    pub deny: Option<Deny>,
    /// Show only errors, and no summary
    #[arg(long, short)]
    pub quiet: bool,
    /// Count findings per rule instead of listing them
    #[arg(long)]
    pub statistics: bool,
    /// The configuration file (default: the nearest mcp-lint.toml, or Cargo.toml with
    /// [package.metadata.mcp-lint], walking up from the working directory)
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// The rules to judge against
    #[arg(long, value_enum)]
    pub profile: Option<Profile>,
    /// Report this rule (code or name) as a warning
    #[arg(long, value_name = "RULE")]
    pub warn: Vec<String>,
    /// Turn this rule (code or name) off
    #[arg(long, value_name = "RULE")]
    pub allow: Vec<String>,
}

/// Adopting mcp-lint on code that already has findings (`check` and `audit`).
#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// Report only the findings that are not in FILE (written by --write-baseline); matched
    /// by fingerprint (rule, file, offending text, repeat), not by line. The summary counts
    /// the findings baselined and the entries that matched nothing (stale)
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub baseline: Option<PathBuf>,
    /// Record the findings in FILE as a baseline (JSON) instead of reporting them: exit
    /// status 0, whatever they are. Inputs that could not be checked (MCP004) are never
    /// recorded
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
}

/// How `rules` prints the catalog and `explain` a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Deny {
    Warnings,
}
