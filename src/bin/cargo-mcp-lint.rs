//! `cargo mcp-lint`: cargo finds this binary on PATH, installed beside `mcp-lint` by the same
//! `cargo install`, and runs it as `cargo-mcp-lint mcp-lint ARGS...`.

fn main() {
    mcp_lint::main(mcp_lint::run_cargo)
}
