// Valid Rust with newer syntax: let chains, async closures, raw strings.
pub async fn fine(v: Option<i32>) -> i32 {
    let f = async |x: i32| x + 1;
    if let Some(n) = v && n > 0 {
        return f(n).await;
    }
    let _s = r#"{"error": {"code": -32602}}"#;
    0
}
