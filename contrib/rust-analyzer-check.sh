#!/bin/sh
# rust-analyzer's check command with mcp-lint: clippy's diagnostics, then mcp-lint's, both as
# cargo's JSON messages, so the editor shows MCP findings inline beside clippy's. Set it in
# the editor's settings (see README.md, "In the editor"):
#
#   "rust-analyzer.check.overrideCommand": ["contrib/rust-analyzer-check.sh"]
#
# rust-analyzer runs it in the workspace root. Arguments go to clippy; MCP_LINT names the
# binary if `mcp-lint` is not on PATH.
cargo clippy --workspace --all-targets --message-format=json-diagnostic-rendered-ansi "$@"
clippy=$?
"${MCP_LINT:-mcp-lint}" --format cargo .
# 1 only says there were findings, which the editor shows; 2 is a failure of its own.
lint=$?
if [ "$lint" -eq 2 ]; then
    exit 2
fi
exit "$clippy"
