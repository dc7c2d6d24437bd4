//! The package and target a file belongs to, as cargo names them in its messages: from the
//! nearest `Cargo.toml` with a `[package]` above the file, and cargo's default target layout
//! (`src/lib.rs`, `src/main.rs`, `src/bin/`, `tests/`, `examples/`, `benches/`, `build.rs`).
//! rust-analyzer keys its diagnostics by `package_id`; the rest is for other cargo tooling.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

/// A package as a `compiler-message` names it.
pub struct Package {
    /// `path+file:///abs/dir#name@version`, cargo's form since 1.77 (`#version` where the
    /// directory is named like the package).
    pub id: String,
    pub manifest_path: String,
    pub target: Target,
}

/// Cargo's target object, fields in its order.
#[derive(Serialize)]
pub struct Target {
    kind: Vec<&'static str>,
    crate_types: Vec<&'static str>,
    name: String,
    src_path: String,
    edition: String,
    doc: bool,
    doctest: bool,
    test: bool,
}

#[derive(Deserialize)]
struct Manifest {
    package: Option<Fields>,
}

/// `version` and `edition` may be inherited from the workspace (`version.workspace = true`);
/// they are then cargo's defaults here, which only cargo tooling other than rust-analyzer reads.
#[derive(Deserialize, Clone)]
struct Fields {
    name: String,
    version: Option<toml::Value>,
    edition: Option<toml::Value>,
}

/// Looks packages up once per directory.
#[derive(Default)]
pub struct Packages {
    manifests: BTreeMap<PathBuf, Option<(PathBuf, Fields)>>,
}

impl Packages {
    /// The package of the file at `path` (absolute), or one named after the file alone where
    /// no manifest lies above it (a transcript outside any crate).
    pub fn of(&mut self, path: &Path) -> Package {
        let dir = path.parent().unwrap_or(path);
        match self.nearest(dir) {
            Some((root, fields)) => package(&root, &fields, path),
            None => Package {
                id: format!("path+file://{}", dir.display()),
                manifest_path: dir.join("Cargo.toml").display().to_string(),
                target: Target::new(&[], name_of(path), path, "2015".into()),
            },
        }
    }

    fn nearest(&mut self, dir: &Path) -> Option<(PathBuf, Fields)> {
        if let Some(known) = self.manifests.get(dir) {
            return known.clone();
        }
        let here = std::fs::read_to_string(dir.join("Cargo.toml"))
            .ok()
            .and_then(|text| toml::from_str::<Manifest>(&text).ok())
            .and_then(|m| m.package);
        let found = match here {
            Some(fields) => Some((dir.to_path_buf(), fields)),
            None => dir.parent().and_then(|up| self.nearest(up)),
        };
        self.manifests.insert(dir.to_path_buf(), found.clone());
        found
    }
}

fn package(root: &Path, fields: &Fields, path: &Path) -> Package {
    let text = |value: &Option<toml::Value>, default: &str| {
        value
            .as_ref()
            .and_then(|v| v.as_str())
            .unwrap_or(default)
            .to_string()
    };
    let version = text(&fields.version, "0.0.0");
    let edition = text(&fields.edition, "2015");
    let relative = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = relative
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let stem = |part: &str| part.strip_suffix(".rs").unwrap_or(part).to_string();
    // A file in a directory target (`tests/it/mod.rs`) belongs to its `main.rs`.
    let root_of = |dir: &str, part: &str| match part.strip_suffix(".rs") {
        Some(_) => root.join(dir).join(part),
        None => root.join(dir).join(part).join("main.rs"),
    };
    let (kind, name, src_path): (&[&str], String, PathBuf) = match parts.as_slice() {
        ["src", "bin", part, ..] => (&["bin"], stem(part), root_of("src/bin", part)),
        ["tests", part, ..] => (&["test"], stem(part), root_of("tests", part)),
        ["examples", part, ..] => (&["example"], stem(part), root_of("examples", part)),
        ["benches", part, ..] => (&["bench"], stem(part), root_of("benches", part)),
        ["build.rs"] => (
            &["custom-build"],
            "build-script-build".into(),
            root.join("build.rs"),
        ),
        _ if root.join("src/lib.rs").exists() => (
            &["lib"],
            fields.name.replace('-', "_"),
            root.join("src/lib.rs"),
        ),
        _ => (&["bin"], fields.name.clone(), root.join("src/main.rs")),
    };
    // Cargo leaves the name out where the directory already says it.
    let id = if root.file_name().is_some_and(|dir| *dir == *fields.name) {
        format!("path+file://{}#{version}", root.display())
    } else {
        format!("path+file://{}#{}@{version}", root.display(), fields.name)
    };
    Package {
        id,
        manifest_path: root.join("Cargo.toml").display().to_string(),
        target: Target::new(kind, name, &src_path, edition),
    }
}

fn name_of(path: &Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

impl Target {
    fn new(kind: &[&'static str], name: String, src_path: &Path, edition: String) -> Target {
        // Everything that is not a library is a binary crate, as cargo says.
        let crate_types = kind
            .iter()
            .map(|k| if *k == "lib" { "lib" } else { "bin" })
            .collect();
        Target {
            kind: kind.to_vec(),
            crate_types,
            name,
            src_path: src_path.display().to_string(),
            edition,
            doc: kind == ["lib"] || kind == ["bin"],
            doctest: kind == ["lib"],
            test: !kind.is_empty(),
        }
    }
}
