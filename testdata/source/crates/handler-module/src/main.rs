mod mcp;
mod store;
mod tools;

fn main() {}
