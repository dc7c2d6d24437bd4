//! Cargo manifests, read as cargo reads them, for `cargo mcp-lint`: which packages a manifest
//! stands for (a workspace's members) and where each one's targets are compiled from. Only
//! the manifests are read: cargo is never run (no network, no build) and `target/` is never
//! walked.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::walk;

#[derive(Debug, Default, Deserialize)]
struct Manifest {
    package: Option<Package>,
    workspace: Option<Workspace>,
    lib: Option<Target>,
    #[serde(default)]
    bin: Vec<Target>,
    #[serde(default)]
    example: Vec<Target>,
    #[serde(default)]
    test: Vec<Target>,
    #[serde(default)]
    bench: Vec<Target>,
}

#[derive(Debug, Default, Deserialize)]
struct Package {
    /// `build = "path"`, or `false` for none; absent means `build.rs` if there is one.
    build: Option<toml::Value>,
}

#[derive(Debug, Default, Deserialize)]
struct Workspace {
    #[serde(default)]
    members: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Target {
    path: Option<PathBuf>,
}

/// The files and directories `cargo mcp-lint` checks when it is given no path: the targets of
/// the package of `manifest_path` (default: the nearest `Cargo.toml` at or above `cwd`), or of
/// every member when it is a workspace root. Named relative to `cwd`, as a user would name
/// them, so findings print the same way.
pub fn sources(manifest_path: Option<&Path>, cwd: &Path) -> Result<Vec<PathBuf>, String> {
    let manifest_path = match manifest_path {
        Some(path) => walk::normalize(&cwd.join(path)),
        None => cwd
            .ancestors()
            .map(|dir| dir.join("Cargo.toml"))
            .find(|m| m.is_file())
            .ok_or_else(|| {
                format!(
                    "could not find `Cargo.toml` in `{}` or any parent directory",
                    cwd.display()
                )
            })?,
    };
    let root = manifest_path.parent().unwrap_or(Path::new("/"));
    let mut manifest = read(&manifest_path)?;
    let workspace = manifest.workspace.take();
    let mut packages = Vec::new();
    if manifest.package.is_some() {
        packages.push((root.to_path_buf(), manifest));
    } else if workspace.is_none() {
        return Err(format!(
            "{}: neither a package nor a workspace",
            manifest_path.display()
        ));
    }
    if let Some(workspace) = workspace {
        for dir in members(root, &workspace)? {
            let member = read(&dir.join("Cargo.toml"))?;
            packages.push((dir, member));
        }
    }
    let mut paths: Vec<PathBuf> = packages
        .iter()
        .flat_map(|(dir, manifest)| targets(dir, manifest))
        .map(|path| relative_to(&path, &walk::normalize(cwd)))
        .collect();
    paths.sort();
    paths.dedup();
    Ok(paths)
}

/// What cargo compiles the package in `dir` from (see [`targets`]); a manifest that does not
/// read gives cargo's default layout.
pub fn targets_of(dir: &Path) -> Vec<PathBuf> {
    let manifest = read(&dir.join("Cargo.toml")).unwrap_or_default();
    targets(dir, &manifest)
}

fn read(path: &Path) -> Result<Manifest, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The member directories of the workspace rooted at `root`, sorted: `members` entries
/// (globs expanded as cargo expands them; a match without a `Cargo.toml` is no package and is
/// skipped), less those under an `exclude` entry unless a member names them outright.
fn members(root: &Path, workspace: &Workspace) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for member in &workspace.members {
        if !member.contains(['*', '?', '[']) {
            let dir = walk::normalize(&root.join(member));
            if !dir.join("Cargo.toml").is_file() {
                return Err(format!(
                    "{}: workspace member `{member}` has no Cargo.toml",
                    root.join("Cargo.toml").display()
                ));
            }
            found.push((dir, true));
            continue;
        }
        let glob = globset::GlobBuilder::new(member)
            .literal_separator(true)
            .build()
            .map_err(|e| format!("{}: {e}", root.join("Cargo.toml").display()))?
            .compile_matcher();
        // The walk starts below the glob's literal prefix and goes no deeper than it can match.
        let literal: PathBuf = Path::new(member)
            .components()
            .take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
            .collect();
        let depth = match member.contains("**") {
            true => usize::MAX,
            false => Path::new(member).components().count() - literal.components().count(),
        };
        let walker = walkdir::WalkDir::new(root.join(&literal))
            .min_depth(1)
            .max_depth(depth)
            .sort_by_file_name();
        for entry in walker.into_iter().filter_map(Result::ok) {
            let dir = entry.path();
            let relative = dir.strip_prefix(root).unwrap_or(dir);
            if entry.file_type().is_dir()
                && glob.is_match(relative)
                && dir.join("Cargo.toml").is_file()
            {
                found.push((walk::normalize(dir), false));
            }
        }
    }
    let excluded = |dir: &Path| {
        let excluded = |e: &String| dir.starts_with(walk::normalize(&root.join(e)));
        workspace.exclude.iter().any(excluded)
    };
    let mut dirs: Vec<PathBuf> = found
        .into_iter()
        .filter(|(dir, named)| *named || !excluded(dir))
        .map(|(dir, _)| dir)
        .collect();
    dirs.sort();
    dirs.dedup();
    Ok(dirs)
}

/// What cargo compiles the package in `dir` from: `src/`, `examples/`, `tests/`, `benches/`
/// and the build script where they exist, and each target's `path` (its directory, where its
/// modules are; the file alone when it lies beside the manifest).
fn targets(dir: &Path, manifest: &Manifest) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["src", "examples", "tests", "benches"]
        .iter()
        .map(|d| dir.join(d))
        .filter(|d| d.is_dir())
        .collect();
    let build = manifest.package.as_ref().and_then(|p| p.build.as_ref());
    match build {
        Some(toml::Value::String(path)) => out.push(dir.join(path)),
        Some(_) => {} // `build = false`
        None if dir.join("build.rs").is_file() => out.push(dir.join("build.rs")),
        None => {}
    }
    let declared = manifest.lib.iter().chain(&manifest.bin);
    let declared = declared.chain(&manifest.example).chain(&manifest.test);
    for path in declared
        .chain(&manifest.bench)
        .filter_map(|t| t.path.as_ref())
    {
        let file = walk::normalize(&dir.join(path));
        out.push(match file.parent() {
            Some(parent) if parent != dir => parent.to_path_buf(),
            _ => file,
        });
    }
    out
}

/// `path` relative to `base` (both absolute and normalized), with `..` where it lies outside.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let common = path
        .components()
        .zip(base.components())
        .take_while(|(a, b)| a == b)
        .count();
    let up = base.components().count() - common;
    let mut out: PathBuf = std::iter::repeat_n("..", up).collect();
    out.extend(path.components().skip(common));
    match out.as_os_str().is_empty() {
        true => PathBuf::from("."),
        false => out,
    }
}

#[cfg(test)]
mod tests {
    use super::relative_to;
    use std::path::Path;

    #[test]
    fn paths_are_named_from_the_working_directory() {
        let rel = |p: &str, base: &str| relative_to(Path::new(p), Path::new(base));
        assert_eq!(rel("/w/a/src", "/w"), Path::new("a/src"));
        assert_eq!(rel("/w/a/src", "/w/a/src"), Path::new("."));
        assert_eq!(rel("/w/src", "/w/src/bin"), Path::new(".."));
        assert_eq!(rel("/w/b/src", "/w/a"), Path::new("../b/src"));
    }
}
