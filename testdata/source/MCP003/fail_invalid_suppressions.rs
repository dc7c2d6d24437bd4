// Directives that are not valid suppressions: a rule is required, and must exist.
// mcp-lint: allow //~ MCP003@1
// mcp-lint: allow() everything //~ MCP003@1
// mcp-lint: allow(MCP999) //~ MCP003@1
// mcp-lint: disable(MCP101) //~ MCP003@1
// mcp-lint: allow(unknown-tool) legacy clients //~ MCP003@1
pub fn nothing() {}
