#!/usr/bin/env bash
# Tests the pre-commit hooks for real: a sample repository uses them from this repository's
# HEAD; a clean commit goes through, a commit with a violation in Rust or in a transcript is
# blocked. Needs the `pre-commit` tool (.ci/run installs it) and a committed HEAD.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$root" rev-parse HEAD)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/cache"
# Reuse this checkout's build directory for the hook's `cargo install`.
export CARGO_TARGET_DIR="$root/target/pre-commit"

git init -q "$work/sample"
cd "$work/sample"
git config user.email ci@example.invalid
git config user.name "mcp-lint CI"
git config commit.gpgsign false
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $root
    rev: $rev
    hooks:
      - id: mcp-lint
      - id: mcp-lint-transcripts
YAML
pre-commit install >/dev/null
mkdir -p src logs

passed=0
failed=0
outcome() { # name, expected (pass|block), actual status, log
  local actual=pass
  [ "$3" -eq 0 ] || actual=block
  if [ "$actual" = "$2" ] && { [ "$2" = pass ] || grep -q "$5" "$4"; }; then
    echo "ok: $1"
    passed=$((passed + 1))
  else
    echo "FAILED: $1 (expected $2, got $actual)"
    cat "$4"
    failed=$((failed + 1))
  fi
}

# left_alone NAME LOG WHY: the hook's output must not mention NAME, a file it should skip.
left_alone() {
  if grep -q "$1" "$2"; then
    echo "FAIL: $3"
    failed=$((failed + 1))
  fi
}

cp "$root/testdata/source/MCP101/pass_rmcp_call_tool.rs" src/server.rs
cp "$root/testdata/transcripts/MCP101/pass_unknown_tool_is_error.jsonl" logs/session.jsonl
git add -A
status=0; git commit -qm "clean server and transcript" >"$work/log1" 2>&1 || status=$?
outcome "a clean tree commits" pass "$status" "$work/log1" ""

cp "$root/testdata/source/MCP101/fail_rmcp_call_tool.rs" src/server.rs
git add -A
status=0; git commit -qm "unknown tools as protocol errors" >"$work/log2" 2>&1 || status=$?
outcome "a Rust violation blocks the commit" block "$status" "$work/log2" "MCP101"
git checkout -q HEAD -- src/server.rs

cp "$root/testdata/transcripts/MCP104/fail_tool_failure.jsonl" logs/session.jsonl
git add -A
status=0; git commit -qm "a session with tool failures" >"$work/log3" 2>&1 || status=$?
outcome "a transcript violation blocks the commit" block "$status" "$work/log3" "MCP104"

git checkout -q HEAD -- logs/session.jsonl
cp "$root/testdata/transcripts/formats/fail_claude_server.log" logs/mcp-server-weather.log
echo "2026-12-01 10:00:00 unrelated application log" > logs/app.log
git add -A
status=0; git commit -qm "a Claude Desktop log" >"$work/log4" 2>&1 || status=$?
outcome "a Claude Desktop log is audited" block "$status" "$work/log4" "MCP104"
left_alone "app.log" "$work/log4" "logs/app.log, no Claude Desktop log, was audited"

git rm -q --cached logs/mcp-server-weather.log logs/app.log
rm logs/mcp-server-weather.log logs/app.log
cp "$root/testdata/transcripts/formats/fail_inspector_export.json" logs/inspector.json
printf '{\n  "name": "sample",\n  "version": "1.0.0"\n}\n' > package.json
git add -A
status=0; git commit -qm "an Inspector export" >"$work/log5" 2>&1 || status=$?
outcome "an Inspector export is audited" block "$status" "$work/log5" "MCP101"
left_alone "package.json" "$work/log5" "package.json, no transcript, was reported"
git rm -q --cached logs/inspector.json
rm logs/inspector.json
status=0; git commit -qm "other JSON" >"$work/log6" 2>&1 || status=$?
outcome "other JSON commits" pass "$status" "$work/log6" ""

echo "pre-commit hooks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
