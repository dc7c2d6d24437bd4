// A hand-rolled auditor that *describes* errors it reads (`ErrorAnswer { code, message }`) is
// not answering with one: only structs named as error objects (`JsonRpcError`, `ErrorObject`,
// `ErrorResponse`) are taken for responses.
use serde_json::Value;

pub struct ErrorAnswer<'a> {
    pub code: Option<i64>,
    pub message: &'a str,
}

pub fn judge(method: &str, response: &Value) -> Option<String> {
    match method {
        "tools/list" | "initialize" => None,
        "tools/call" => {
            let error = response.get("error")?;
            let answer = ErrorAnswer {
                code: error.get("code").and_then(Value::as_i64),
                message: error.get("message").and_then(Value::as_str).unwrap_or(""),
            };
            Some(format!("{:?}: {}", answer.code, answer.message))
        }
        _ => None,
    }
}
