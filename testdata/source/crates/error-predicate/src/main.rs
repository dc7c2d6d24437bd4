mod error;
mod protocol;
mod tools;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

async fn write_response(
    stdout: &mut tokio::io::Stdout,
    response: &serde_json::Value,
) -> std::io::Result<()> {
    stdout.write_all(format!("{response}\n").as_bytes()).await
}

async fn handle_input(input: &str, stdout: &mut tokio::io::Stdout) -> Result<(), Box<dyn std::error::Error>> {
    let msg: serde_json::Value = match serde_json::from_str(input.trim()) {
        Ok(v) => v,
        Err(e) => {
            let err_response = serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": { "code": -32700, "message": format!("Parse error: {e}") }
            });
            write_response(stdout, &err_response).await?;
            return Ok(());
        }
    };
    match protocol::handle_message(msg).await {
        Ok(response) => write_response(stdout, &response).await?,
        Err(e) => {
            let err_response = e.to_json_rpc_error(serde_json::Value::Null);
            write_response(stdout, &err_response).await?;
        }
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Ok(Some(line)) = lines.next_line().await {
        let _ = handle_input(&line, &mut stdout).await;
    }
}
