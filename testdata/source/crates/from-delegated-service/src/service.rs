use crate::error::FileError;

pub struct EditInput {
    pub path: String,
    pub text: String,
}

pub struct Files;

impl Files {
    pub async fn edit_file(&self, input: EditInput) -> Result<String, FileError> {
        if !input.path.starts_with('/') {
            return Err(FileError::InvalidInput(format!("{} is not absolute", input.path))); //~ MCP103@24
        }
        let old = std::fs::read_to_string(&input.path)?; //~ MCP104@19
        std::fs::write(&input.path, &input.text)?; //~ MCP104@9
        Ok(old)
    }

    pub async fn remove_file(&self, input: EditInput) -> Result<(), FileError> {
        if input.path.is_empty() {
            return Err(FileError::invalid_input("Nothing to remove")); //~ MCP103@24
        }
        std::fs::remove_file(&input.path)?; //~ MCP104@9
        Ok(())
    }

    pub fn has_file(&self, path: &str) -> Result<bool, FileError> {
        if path.is_empty() {
            return Err(FileError::InvalidInput("empty path".to_string()));
        }
        Ok(std::path::Path::new(path).is_file())
    }
}
