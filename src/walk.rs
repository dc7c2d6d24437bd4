//! Turns the paths on the command line into the sorted list of files to check.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// The files to check, and the paths that could not be used.
#[derive(Debug, Default)]
pub struct Inputs {
    pub files: Vec<PathBuf>,
    pub errors: Vec<String>,
}

/// Walks directories for `*.rs` files, skipping `target/`, `.git/`, hidden folders and
/// `tests/` (integration tests build deliberately broken servers); files named explicitly
/// are taken as they are. The result is sorted, so output is deterministic.
pub fn collect(paths: &[PathBuf]) -> Inputs {
    let mut inputs = Inputs::default();
    for path in paths {
        if path.is_dir() {
            walk_dir(path, &mut inputs);
        } else if path.is_file() {
            inputs.files.push(path.clone());
        } else {
            inputs
                .errors
                .push(format!("{}: no such file or directory", path.display()));
        }
    }
    inputs.files.sort();
    inputs.files.dedup();
    inputs
}

fn walk_dir(root: &Path, inputs: &mut Inputs) {
    let walker = WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            e.depth() == 0 || !e.file_type().is_dir() || !is_skipped_dir(e.file_name())
        });
    for entry in walker {
        match entry {
            Ok(e) if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs") => {
                inputs.files.push(e.into_path());
            }
            Ok(_) => {}
            Err(error) => inputs.errors.push(error.to_string()),
        }
    }
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name == "target" || name == "tests" || name.starts_with('.')
}
