//! Turns the paths on the command line into the sorted list of files to check.

use std::path::{Component, Path, PathBuf};

use walkdir::WalkDir;

/// What an input file is checked as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Rust,
    Transcript,
}

/// How a transcript is read: `--input-format` and `[transcripts] input-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Detect from the first line
    Auto,
    /// `{"ts", "dir", "msg"}` per line
    Envelope,
    /// One JSON-RPC message per line
    Jsonl,
    /// Claude Desktop `mcp.log` / `mcp-server-<name>.log`
    Claude,
    /// HAR capture of Streamable HTTP (JSON or `text/event-stream` bodies)
    Har,
    /// MCP Inspector export (a JSON array of `{direction, message}`)
    Inspector,
}

impl InputFormat {
    /// What a transcript was read as, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            InputFormat::Auto | InputFormat::Jsonl => "JSON-RPC lines",
            InputFormat::Envelope => "envelope JSONL",
            InputFormat::Claude => "a Claude Desktop log",
            InputFormat::Har => "a HAR capture",
            InputFormat::Inspector => "an Inspector export",
        }
    }
}

/// An input: a path, or `-` for standard input (a transcript).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Input {
    pub path: PathBuf,
    pub kind: Kind,
    /// Found by a directory walk, not named: a walked file in which no MCP message is found
    /// is not a transcript (Claude Desktop's folder holds other logs), not an unchecked one.
    pub walked: bool,
}

/// The files to check, and the paths that could not be used.
#[derive(Debug, Default)]
pub struct Inputs {
    pub files: Vec<Input>,
    /// The transcripts read once, as they come, in the order given (`files` is sorted):
    /// standard input (`-`) and pipes, such as a shell's `<(zcat x.jsonl.gz)`. A pipe has no
    /// size to stat and cannot be read twice, and its writer may wait on the one before.
    pub streams: Vec<PathBuf>,
    pub errors: Vec<String>,
}

/// Extensions a directory walk takes as transcripts under `audit`, gzipped (`.jsonl.gz`) too.
const TRANSCRIPT_EXTENSIONS: &[&str] = &["jsonl", "ndjson", "log", "har"];

/// For `check`: directories are walked for `*.rs` files, skipping `target/`, `.git/`, hidden
/// folders and `tests/` (integration tests build deliberately broken servers); a file named
/// explicitly is a Rust source if it ends in `.rs` and a transcript otherwise. For `audit`
/// (`transcripts_only`) every named file is a transcript and walks look for transcripts. The
/// result is sorted, so output is deterministic.
pub fn collect(paths: &[PathBuf], transcripts_only: bool) -> Inputs {
    let mut inputs = Inputs::default();
    for path in paths {
        let rust = !transcripts_only && path.extension().is_some_and(|x| x == "rs");
        if path.as_os_str() == "-" || (is_pipe(path) && !rust) {
            inputs.files.push(Input {
                path: path.clone(),
                kind: Kind::Transcript,
                walked: false,
            });
            inputs.streams.push(path.clone());
        } else if path.is_dir() {
            walk_dir(path, transcripts_only, &mut inputs);
        } else if path.is_file() {
            let kind = if rust { Kind::Rust } else { Kind::Transcript };
            inputs.files.push(Input {
                path: path.clone(),
                kind,
                walked: false,
            });
        } else if path.exists() {
            // A socket or device (or a pipe named as a Rust source, parsed from a file): reading
            // it could block forever.
            inputs.errors.push(format!(
                "{}: not a regular file, so it was not read",
                path.display()
            ));
        } else {
            inputs
                .errors
                .push(format!("{}: no such file or directory", path.display()));
        }
    }
    inputs.files.sort();
    let mut seen = std::collections::BTreeSet::new();
    inputs.streams.retain(|path| seen.insert(path.clone()));
    // Named and walked too: named.
    inputs
        .files
        .dedup_by(|b, a| a.path == b.path && a.kind == b.kind);
    inputs
}

/// Whether `path` is a pipe (after symlinks: `/dev/fd/63` is one), read as a stream.
#[cfg(unix)]
fn is_pipe(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

#[cfg(not(unix))]
fn is_pipe(_: &Path) -> bool {
    false
}

fn walk_dir(root: &Path, transcripts_only: bool, inputs: &mut Inputs) {
    let (kind, extensions): (Kind, &[&str]) = match transcripts_only {
        true => (Kind::Transcript, TRANSCRIPT_EXTENSIONS),
        false => (Kind::Rust, &["rs"]),
    };
    // Symlinks are followed, as users of ruff and ripgrep's `-L` expect of a linter: a
    // symlinked `src/` is the server's code. A loop is reported by walkdir and skipped: what
    // it leads to was walked already.
    let walker = WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0 || !e.file_type().is_dir() || !is_skipped_dir(e.file_name())
        });
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_file() && has_extension(e.path(), extensions) => {
                inputs.files.push(Input {
                    path: e.into_path(),
                    kind,
                    walked: true,
                });
            }
            Ok(_) => {}
            Err(error) if error.loop_ancestor().is_some() => {}
            Err(error) => inputs.errors.push(error.to_string()),
        }
    }
}

/// Whether `path` ends in one of `extensions`, or (a transcript) in one of them and `.gz`.
fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    let plain = |p: &Path| {
        p.extension()
            .is_some_and(|x| extensions.iter().any(|e| x == *e))
    };
    let compressed = extensions == TRANSCRIPT_EXTENSIONS
        && path.extension().is_some_and(|x| x == "gz")
        && plain(&path.with_extension(""));
    plain(path) || compressed
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name == "target" || name == "tests" || name.starts_with('.')
}

/// `path` with `.` and `..` resolved lexically (no symlink is followed).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
