//! Plain domain code: no MCP in sight.
use crate::error::FetchError;

pub fn check_url(url: &str) -> Result<(), FetchError> {
    if !url.starts_with("https://") {
        return Err(FetchError::InvalidUrl { url: url.to_string() });
    }
    Ok(())
}

pub fn download(url: &str) -> Result<String, FetchError> {
    if url.ends_with(".invalid") {
        return Err(FetchError::Http { status: 404 });
    }
    std::fs::read_to_string(url).map_err(FetchError::Io)
}

/// Names no variant: any of them may come out.
pub fn fetch_any(url: &str) -> Result<String, FetchError> {
    check_url(url)?;
    download(url)
}
