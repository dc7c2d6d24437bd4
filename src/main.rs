fn main() {
    mcp_lint::main(mcp_lint::run)
}
