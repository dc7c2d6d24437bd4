pub enum LookupError {
    Unknown(String),
}

impl std::fmt::Display for LookupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LookupError::Unknown(id) => write!(f, "no item {id}"),
        }
    }
}

const KNOWN: &[&str] = &["anvil", "bellows"];

pub fn describe(id: &str) -> Result<String, LookupError> {
    match KNOWN.iter().find(|known| **known == id) {
        Some(known) => Ok(known.to_string()),
        None => Err(LookupError::Unknown(id.to_string())),
    }
}
