//! A search client; its errors become protocol errors through `From<ClientError>`.
use rmcp::ErrorData;

pub enum ClientError {
    Unreachable(String),
}

impl From<ClientError> for ErrorData {
    fn from(error: ClientError) -> Self {
        match error {
            ClientError::Unreachable(host) => ErrorData::internal_error(format!("{host} is unreachable"), None),
        }
    }
}

pub struct Client;

impl Client {
    pub async fn search(&self, query: &str) -> Result<Vec<String>, ClientError> {
        if query.is_empty() {
            return Ok(Vec::new());
        }
        Err(ClientError::Unreachable("search.example".to_string()))
    }
}
