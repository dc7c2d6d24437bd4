use std::path::PathBuf;

use crate::errors::{RepoError, RepoResult};

pub struct Repos {
    pub known: Vec<(String, PathBuf)>,
    pub branches: Vec<String>,
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

    /// The log of the branch named by the tool's `branch` argument: a result of the crate's
    /// own error type, through an alias defined in another file.
    pub fn log(&self, branch: &str) -> RepoResult<String> {
        let branch = self
            .branches
            .iter()
            .find(|b| *b == branch)
            .ok_or_else(|| RepoError::NoBranch(branch.to_string()))?;
        std::fs::read_to_string(branch).map_err(RepoError::Io)
    }
}
