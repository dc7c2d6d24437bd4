use std::path::PathBuf;

pub struct Repos {
    pub known: Vec<(String, PathBuf)>,
}

impl Repos {
    /// The repository named by the tool's `repo` argument.
    pub fn resolve(&self, name: &str) -> anyhow::Result<PathBuf> {
        let (_, path) = self
            .known
            .iter()
            .find(|(n, _)| n == name)
            .ok_or_else(|| anyhow::anyhow!("no repository named {name}"))?;
        Ok(std::fs::canonicalize(path)?)
    }

    pub fn head(&self, path: &PathBuf) -> anyhow::Result<String> {
        let head = std::fs::read_to_string(path.join(".git/HEAD"))?;
        Ok(head.trim().to_string())
    }
}
