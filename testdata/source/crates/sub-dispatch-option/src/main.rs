mod mcp;

fn main() {
    let response = mcp::handler::handle_request("tools/call", &serde_json::json!({}));
    println!("{}", response.result.is_some());
}
