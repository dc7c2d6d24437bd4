use std::path::Path;

use super::{NoteArgs, NoteError};

pub fn call(dir: &Path, args: NoteArgs) -> Result<String, NoteError> {
    if args.name.contains('/') {
        return Err(NoteError::BadName(args.name)); //~ MCP103@20
    }
    std::fs::read_to_string(dir.join(&args.name)).map_err(NoteError::Io) //~ MCP104@59
}

pub fn exists(dir: &Path, name: &str) -> Result<(), NoteError> {
    match dir.join(name).exists() {
        true => Ok(()),
        false => Err(NoteError::NotFound(name.to_string())),
    }
}
