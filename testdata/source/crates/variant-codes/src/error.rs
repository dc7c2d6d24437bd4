use rmcp::model::ErrorCode;

pub enum NoteError {
    OutsideVault(String),
    Io(std::io::Error),
}

impl From<NoteError> for rmcp::ErrorData {
    fn from(err: NoteError) -> Self {
        let code = match &err {
            NoteError::OutsideVault(_) => ErrorCode::INVALID_PARAMS,
            NoteError::Io(_) => ErrorCode::INTERNAL_ERROR,
        };
        rmcp::ErrorData::new(code, "note error".to_string(), None)
    }
}
