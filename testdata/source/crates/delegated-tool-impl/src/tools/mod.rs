pub mod read;
pub mod write;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct NoteArgs {
    pub name: String,
}

#[derive(Debug)]
pub enum NoteError {
    BadName(String),
    NotFound(String),
    Io(std::io::Error),
}

impl std::fmt::Display for NoteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoteError::BadName(name) => write!(f, "a note name has no `/`: {name}"),
            NoteError::NotFound(name) => write!(f, "no note named {name}"),
            NoteError::Io(e) => write!(f, "{e}"),
        }
    }
}
