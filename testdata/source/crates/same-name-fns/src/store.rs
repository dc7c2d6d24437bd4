use std::path::PathBuf;

pub enum StoreError {
    Io(std::io::Error),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Io(e) => write!(f, "{e}"),
        }
    }
}

pub struct Store {
    pub index: PathBuf,
}

impl Store {
    pub fn describe(&self, id: &str) -> Result<String, StoreError> {
        let text = std::fs::read_to_string(&self.index).map_err(StoreError::Io)?;
        Ok(format!("{id}: {}", text.len()))
    }
}
