pub enum NotesMcpError {
    Generic(String),
    Store(String),
}

impl std::fmt::Display for NotesMcpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotesMcpError::Generic(m) | NotesMcpError::Store(m) => f.write_str(m),
        }
    }
}

impl From<anyhow::Error> for NotesMcpError {
    fn from(e: anyhow::Error) -> Self {
        NotesMcpError::Generic(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, NotesMcpError>;
