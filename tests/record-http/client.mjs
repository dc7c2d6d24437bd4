// A real MCP SDK client session through `mcp-lint record --listen`: initialize (the SDK then
// opens the GET stream), tools/list, a call of `echo` with a secret among its arguments and
// one of a tool that does not exist, sent with an Authorization header; then it ends the
// session (DELETE). Usage: node client.mjs URL SDK_DIR
const [url, sdk] = process.argv.slice(2);
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${sdk}/dist/esm/client/streamableHttp.js`);

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: "Bearer s3cret-header" } },
});
const client = new Client({ name: "record-http-test", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
await client.callTool({ name: "echo", arguments: { message: "hi", password: "hunter2" } });
try {
  await client.callTool({ name: "mcp_lint_no_such_tool", arguments: {} });
} catch (e) {
  // A server may answer this one with a protocol error: that is what the audit judges.
}
await transport.terminateSession();
await client.close();
console.log(`${tools.length} tools`);
