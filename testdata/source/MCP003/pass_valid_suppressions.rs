// Valid directives, by code and by name, one of them for several rules; none silences
// anything here but the rules it names are real (an unused one would be MCP002, which the
// configuration in this test does not run: see tests/fixtures.rs).
pub fn nothing() {
    let _s = "// mcp-lint: allow() is text in a string";
    let _r = r#"// mcp-lint: disable(MCP101)"#;
    let _c = '/'; // a char literal, then a plain comment
}
