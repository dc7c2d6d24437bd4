// A small server on npm @modelcontextprotocol/server 2.x (pinned in package-lock.json), for
// tests/real-servers.sh, which copies it next to its node_modules: `node ts2_server.mjs`
// serves stdio, `node ts2_server.mjs PORT` Streamable HTTP on 127.0.0.1:PORT/mcp through the
// SDK's createMcpHandler (2026-07-28 per request, and a stateless fallback for older
// clients). The SDK's own handling is what is probed.
import http from 'node:http';
import { createMcpHandler, McpServer, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

function build() {
    const server = new McpServer(
        { name: 'mcp-lint-real-server', version: '1.0.0' },
        { supportedProtocolVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS] }
    );
    server.registerTool(
        'add',
        {
            description: 'Adds two numbers',
            inputSchema: z.object({ a: z.number(), b: z.number() }),
            outputSchema: z.object({ sum: z.number() })
        },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } })
    );
    server.registerTool('fail', { description: 'Always fails, as a tool whose upstream is down' }, async () => {
        throw new Error('the upstream service is unavailable');
    });
    return server;
}

const port = Number(process.argv[2]);
if (!port) {
    await build().connect(new StdioServerTransport());
} else {
    const handler = createMcpHandler(build);
    http.createServer(async (req, res) => {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
            method: req.method,
            headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map(x => [k, x]) : [[k, v]])),
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks)
        });
        const response = await handler.fetch(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
    }).listen(port, '127.0.0.1', () => console.log('listening'));
}
