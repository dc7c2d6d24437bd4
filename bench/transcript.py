"""Writes a realistic envelope transcript of about SIZE MiB: a catalog with input and output
schemas, then tool calls with successes carrying structured content, tool errors, and
protocol errors for unknown tools (one call in UNKNOWN_EVERY, 20 unless given; 1 makes every
call a finding). Usage: transcript.py PATH SIZE_MIB [UNKNOWN_EVERY]"""
import json
import random
import sys

path, size = sys.argv[1], int(sys.argv[2]) << 20
every = int(sys.argv[3]) if len(sys.argv) > 3 else 20
random.seed(7)
tools = [
    {
        "name": f"tool_{i}",
        "description": f"Tool number {i}",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"]},
        "outputSchema": {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "integer"}}}, "required": ["items"]},
    }
    for i in range(50)
]
text = "lorem ipsum dolor sit amet " * 12
with open(path, "w") as out:
    def write(direction, message):
        out.write(json.dumps({"ts": "2026-11-30T10:00:00.000Z", "dir": direction, "msg": message}) + "\n")
    write("c2s", {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})
    write("s2c", {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}}})
    write("c2s", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    write("s2c", {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}})
    i = 2
    while out.tell() < size:
        kind = i % every
        name = "no_such_tool" if kind == 0 else f"tool_{i % 50}"
        write("c2s", {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": {"q": "hello", "n": i}}})
        if kind == 0:
            write("s2c", {"jsonrpc": "2.0", "id": i, "error": {"code": -32602, "message": f"Tool {name} not found"}})
        elif kind == 1:
            write("s2c", {"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": f"upstream failed: {text}"}], "isError": True}})
        else:
            items = [random.randint(0, 999) for _ in range(8)]
            write("s2c", {"jsonrpc": "2.0", "id": i, "result": {"content": [{"type": "text", "text": text}], "structuredContent": {"items": items}}})
        i += 1
