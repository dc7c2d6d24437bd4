pub mod fetch;
pub mod search;

pub struct Client;

impl Client {
    pub async fn get(&self, path: &str) -> Result<String, std::io::Error> {
        Ok(path.to_string())
    }
}
