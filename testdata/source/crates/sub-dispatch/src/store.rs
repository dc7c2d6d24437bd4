//! The store client, below the handlers' module: the handler passes its failures on.
use crate::error::{NotesMcpError, Result};

pub struct Store {
    pub path: std::path::PathBuf,
}

impl Store {
    pub fn create_note(&self, title: &str) -> Result<u64> {
        std::fs::write(self.path.join(title), "")
            .map_err(|e| NotesMcpError::Store(e.to_string()))?;
        Ok(1)
    }
}
