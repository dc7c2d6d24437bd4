"""A small server on PyPI `mcp` 2.x (pinned in requirements.txt), for tests/real-servers.sh:
`python mcp2_server.py` serves stdio, `python mcp2_server.py PORT` Streamable HTTP on
127.0.0.1:PORT/mcp. The SDK's own handling is what is probed: an unknown tool, bad
arguments, a tool that raises, and a structured result."""

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("mcp-lint-real-server")


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


@server.tool()
def fail() -> str:
    """Always fails, as a tool whose upstream is down."""
    raise RuntimeError("the upstream service is unavailable")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        server.run(transport="streamable-http", port=int(sys.argv[1]))
    else:
        server.run()
