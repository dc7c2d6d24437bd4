use rmcp::ErrorData;

#[derive(Debug)]
pub enum FileError {
    InvalidInput(String),
    Io(std::io::Error),
}

impl FileError {
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::InvalidInput(message.into())
    }
}

impl From<std::io::Error> for FileError {
    fn from(e: std::io::Error) -> Self {
        FileError::Io(e)
    }
}

impl From<FileError> for ErrorData {
    fn from(value: FileError) -> Self {
        match value {
            FileError::InvalidInput(message) => ErrorData::invalid_params(message, None),
            FileError::Io(e) => ErrorData::internal_error(e.to_string(), None),
        }
    }
}
