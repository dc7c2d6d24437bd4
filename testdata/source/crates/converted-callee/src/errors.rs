pub type RepoResult<T> = Result<T, RepoError>;

pub enum RepoError {
    NoBranch(String),
    Io(std::io::Error),
}

impl std::fmt::Display for RepoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RepoError::NoBranch(name) => write!(f, "no branch named {name}"),
            RepoError::Io(e) => write!(f, "{e}"),
        }
    }
}
