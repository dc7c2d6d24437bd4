#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SearchArgs {
    pub query: String,
}

pub fn run(args: SearchArgs) -> anyhow::Result<String> {
    if args.query.is_empty() {
        anyhow::bail!("`query` is empty"); //~ MCP103@9
    }
    let history = std::fs::read_to_string("history.txt")?; //~ MCP104@19
    Ok(matching(&history, &args.query))
}

fn matching(history: &str, query: &str) -> String {
    let lines = history.lines().filter(|l| l.contains(query));
    lines.collect::<Vec<_>>().join("\n")
}
