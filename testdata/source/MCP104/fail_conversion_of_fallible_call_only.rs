// A `?` on a crate function that returns the crate's error type but never an `Err` converts
// nothing: only the call that can fail is a protocol error.
use rmcp::model::{CallToolResult, Content};
use rmcp::{ErrorData, tool, tool_router};

pub enum StoreError {
    Unavailable(String),
}

impl From<StoreError> for ErrorData {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(m) => ErrorData::internal_error(m, None),
        }
    }
}

pub struct Store {
    namespace: Option<String>,
}

impl Store {
    pub async fn use_namespace(&mut self, ns: &str) -> Result<(), StoreError> {
        self.namespace = Some(ns.to_string());
        Ok(())
    }

    pub async fn fetch(&self) -> Result<String, StoreError> {
        Err(StoreError::Unavailable("store offline".into()))
    }
}

pub struct Server {
    store: Store,
}

#[tool_router]
impl Server {
    #[tool(description = "Read the default namespace")]
    async fn read(&mut self) -> Result<CallToolResult, ErrorData> {
        self.store.use_namespace("default").await?;
        let value = self.store.fetch().await?; //~ MCP104@21
        Ok(CallToolResult::success(vec![Content::text(value)]))
    }
}
