pub fn get(key: &str) -> Result<String, (i32, String)> {
    let text = std::fs::read_to_string("store.txt").map_err(|e| (-32603, e.to_string()))?;
    if text.is_empty() {
        return Err((-32603, "the store is empty".to_string()));
    }
    let line = text.lines().find(|l| l.starts_with(key)).unwrap_or_default();
    Ok(line.to_string())
}
