//! The rmcp version a source file is built with: from the nearest `Cargo.lock` above it, else
//! from a `0.x` requirement in the nearest `Cargo.toml` (a `1.x` requirement does not say
//! whether it is before or after a behaviour change). Looked up once per directory.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;

/// A crate version, compared numerically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u64, pub u64, pub u64);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

impl Version {
    fn parse(text: &str) -> Option<Version> {
        let text = text.trim().trim_start_matches(['^', '=', '~', ' ']);
        let mut parts = text.split(['.', '-', '+']).map(|p| p.parse::<u64>().ok());
        let major = parts.next()??;
        Some(Version(
            major,
            parts.next().flatten().unwrap_or(0),
            parts.next().flatten().unwrap_or(0),
        ))
    }
}

#[derive(Deserialize)]
struct Lock {
    #[serde(default)]
    package: Vec<Package>,
}

#[derive(Deserialize)]
struct Package {
    name: String,
    version: String,
}

#[derive(Deserialize)]
struct Manifest {
    dependencies: Option<HashMap<String, toml::Value>>,
}

/// The rmcp version for a file at `path`, if its crate's lock file or manifest tells.
pub fn rmcp_version(path: &Path) -> Option<Version> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Option<Version>>>> = OnceLock::new();
    let dir = std::fs::canonicalize(path).ok()?.parent()?.to_path_buf();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(known) = cache.lock().ok()?.get(&dir) {
        return *known;
    }
    let found = look_up(&dir);
    cache.lock().ok()?.insert(dir, found);
    found
}

fn look_up(dir: &Path) -> Option<Version> {
    let mut manifest_version = None;
    for ancestor in dir.ancestors() {
        if manifest_version.is_none()
            && let Ok(text) = std::fs::read_to_string(ancestor.join("Cargo.toml"))
        {
            manifest_version = Some(from_manifest(&text));
        }
        if let Ok(text) = std::fs::read_to_string(ancestor.join("Cargo.lock")) {
            let lock: Lock = toml::from_str(&text).ok()?;
            let locked = lock
                .package
                .iter()
                .filter(|p| p.name == "rmcp")
                .filter_map(|p| Version::parse(&p.version))
                .max();
            return locked.or(manifest_version.flatten());
        }
    }
    manifest_version.flatten()
}

fn from_manifest(text: &str) -> Option<Version> {
    let manifest: Manifest = toml::from_str(text).ok()?;
    let requirement = match manifest.dependencies?.get("rmcp")? {
        toml::Value::String(s) => s.clone(),
        toml::Value::Table(t) => t.get("version")?.as_str()?.to_string(),
        _ => return None,
    };
    Version::parse(&requirement).filter(|v| v.0 == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_from_requirements() {
        assert_eq!(Version::parse("^0.5.1"), Some(Version(0, 5, 1)));
        assert_eq!(Version::parse("1.8"), Some(Version(1, 8, 0)));
        assert_eq!(
            from_manifest(
                "[dependencies]\nrmcp = { version = \"0.4\", features = [\"server\"] }\n"
            ),
            Some(Version(0, 4, 0))
        );
        assert_eq!(
            from_manifest("[dependencies]\nrmcp = \"1.2\"\n"),
            None,
            "1.2 may resolve to 1.9"
        );
    }
}
