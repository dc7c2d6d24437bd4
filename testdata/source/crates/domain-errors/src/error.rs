//! The domain error, and what rmcp makes of each variant.
use rmcp::ErrorData;

pub enum FetchError {
    InvalidUrl { url: String },
    Http { status: u16 },
    Io(std::io::Error),
}

impl From<FetchError> for ErrorData {
    fn from(error: FetchError) -> Self {
        match error {
            FetchError::InvalidUrl { url } => ErrorData::invalid_params(format!("bad url {url}"), None),
            FetchError::Http { status } => ErrorData::internal_error(format!("HTTP {status}"), None),
            FetchError::Io(e) => ErrorData::internal_error(e.to_string(), None),
        }
    }
}
