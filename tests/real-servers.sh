#!/usr/bin/env bash
# Probes real third-party servers, pinned in testdata/real-servers:
# - npm @modelcontextprotocol/server-everything must pass every probe, and a `record`ing of a
#   probe of it must audit exactly like the probe's own transcript;
# - PyPI mcp-server-time must fail the unknown-tool clause (it answers -32602);
# - PyPI mcp 2.x (mcp-server-time's SDK, and mcp2_server.py on it) and npm
#   @modelcontextprotocol/server 2.x (ts2_server.mjs) speak 2026-07-28: the probe must find it
#   by server/discover, and give the same verdicts forced to 2025-11-25, over stdio and
#   stateless Streamable HTTP.
# Each is skipped, saying so, only where Node.js/npm or Python is missing.
# `tests/real-servers.sh eras` runs the last part only.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pins="$root/testdata/real-servers"
work="$root/target/real-servers"
bin="${MCP_LINT:-$root/target/debug/mcp-lint}"
[ -x "$bin" ] || cargo build --quiet --manifest-path "$root/Cargo.toml"
mkdir -p "$work"

fail() { echo "real-servers: FAIL: $*" >&2; exit 1; }

only=${1:-all}

if [ "$only" = all ] && command -v node >/dev/null && command -v npm >/dev/null; then
  cp "$pins/package.json" "$pins/package-lock.json" "$work/"
  npm ci --prefix "$work" --no-audit --no-fund --loglevel=error >/dev/null
  everything="$work/node_modules/.bin/mcp-server-everything"

  out=$("$bin" probe --color never --call 'get-structured-content={"location":"Chicago"}' \
    -- "$everything" 2>/dev/null) || fail "server-everything: probe exited $?: $out"
  echo "$out" | grep -q 'FAIL' && fail "server-everything failed a clause: $out"
  for clause in 'unknown tool     ' 'invalid input    ' 'output validation' 'malformed request'; do
    echo "$out" | grep -q "^  $clause   pass" || fail "server-everything: $clause did not pass: $out"
  done
  echo "server-everything passes the probe:"
  echo "$out" | sed 's/^/  /'

  # The same probe through `record`: both transcripts must audit alike, finding for finding.
  "$bin" probe --format json --save "$work/probed.jsonl" -- \
    "$bin" record -o "$work/recorded.jsonl" -- "$everything" >/dev/null 2>&1 \
    || fail "server-everything: probe through record exited $?"
  audit() { "$bin" audit --format json "$work/$1.jsonl" | sed "s|$work/$1.jsonl|TRANSCRIPT|"; }
  [ "$(audit probed)" = "$(audit recorded)" ] || fail "the recording audits unlike the probe"
  [ "$(wc -l < "$work/probed.jsonl")" = "$(wc -l < "$work/recorded.jsonl")" ] \
    || fail "the recording does not hold every message of the probe"
  echo "record: the recording of a probe of server-everything audits like the probe ($(wc -l < "$work/recorded.jsonl") messages)"

  # --explore without any --call probes tool failure and output validation, and calls only
  # read-only tools, each with arguments its inputSchema accepts (checked with ajv, which the
  # pinned tree holds). trigger-long-running-operation is skipped: its default duration is the
  # probe's timeout, so whether its answer comes in time would be a race.
  out=$("$bin" probe --color never --explore --skip-tool trigger-long-running-operation \
    --save "$work/explored.jsonl" -- "$everything" 2>/dev/null) \
    || fail "server-everything: probe --explore exited $?: $out"
  for clause in 'tool failure     ' 'output validation'; do
    echo "$out" | grep -q "^  $clause   pass .*(--explore: " \
      || fail "server-everything: --explore did not probe $clause: $out"
  done
  calls=$(node - "$work/explored.jsonl" "$work/node_modules/ajv" <<'JS'
const [saved, ajvPath] = process.argv.slice(2);
const Ajv = require(ajvPath).default;
const lines = require("fs").readFileSync(saved, "utf8").trim().split("\n").map(JSON.parse);
const tools = new Map();
for (const l of lines) for (const t of l.msg.result?.tools ?? []) tools.set(t.name, t);
// The explored calls come after the SEP's probes, of which the unknown method is the last.
const after = lines.findIndex((l) => l.msg.method === "mcp-lint/no-such-method");
const ajv = new Ajv({ strict: false });
let calls = 0;
for (const l of lines.slice(after)) {
  if (l.dir !== "c2s" || l.msg.method !== "tools/call") continue;
  const tool = tools.get(l.msg.params.name);
  const hints = tool.annotations ?? {};
  if (hints.readOnlyHint !== true || hints.destructiveHint === true)
    throw new Error(`${tool.name} is not read-only`);
  if (!ajv.validate(tool.inputSchema, l.msg.params.arguments))
    throw new Error(`${tool.name} ${JSON.stringify(l.msg.params.arguments)}: ${ajv.errorsText()}`);
  calls++;
}
console.log(calls);
JS
  ) || fail "server-everything: --explore sent a call it should not have"
  echo "probe --explore: $calls calls of server-everything's read-only tools, each valid:"
  echo "$out" | sed -n '5,6p' | sed 's/^/  /'

  # The same server over Streamable HTTP (sessions, SSE answers), on a free loopback port.
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  PORT=$port "$everything" streamableHttp > "$work/http.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  for _ in $(seq 100); do grep -q listening "$work/http.log" && break; sleep 0.1; done
  out=$("$bin" probe --color never --url "http://127.0.0.1:$port/mcp" \
    --call 'get-structured-content={"location":"Chicago"}' 2>&1) \
    || fail "server-everything over HTTP: probe exited $?: $out"
  echo "$out" | grep -q 'FAIL' && fail "server-everything over HTTP failed a clause: $out"
  kill $server 2>/dev/null || true
  echo "server-everything over Streamable HTTP passes the probe too ($(echo "$out" | head -1))"
elif [ "$only" = all ]; then
  echo "real-servers: SKIPPED server-everything: Node.js or npm is not installed"
fi

if command -v python3 >/dev/null; then
  [ -x "$work/venv/bin/python" ] || python3 -m venv "$work/venv"
  "$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$pins/requirements.txt"
fi

if [ "$only" = all ] && command -v python3 >/dev/null; then
  status=0
  out=$("$bin" probe --color never -- "$work/venv/bin/mcp-server-time" 2>/dev/null) || status=$?
  [ "$status" = 1 ] || fail "mcp-server-time: probe exited $status, expected 1: $out"
  echo "$out" | grep -q '^  unknown tool        FAIL        MCP101 at line' \
    || fail "mcp-server-time: the unknown-tool clause did not fail: $out"
  echo "mcp-server-time fails the unknown-tool clause, as expected:"
  echo "$out" | sed -n '1,8p' | sed 's/^/  /'
elif [ "$only" = all ]; then
  echo "real-servers: SKIPPED mcp-server-time: Python is not installed"
fi

# Probes a server in both eras: by discovery (which must find `$1`) and forced to 2025-11-25;
# the verdicts must be the same. The rest of the arguments are the probe's.
both_eras() {
  local expected=$1 name=$2; shift 2
  local new old
  new=$("$bin" probe --color never "$@" 2>&1) || [ $? = 1 ] || fail "$name: probe exited: $new"
  old=$("$bin" probe --color never --protocol-version 2025-11-25 "$@" 2>&1) || [ $? = 1 ] \
    || fail "$name forced to 2025-11-25: probe exited: $old"
  echo "$new" | head -1 | grep -q "protocol $expected\$" || fail "$name: not spoken in $expected: $new"
  echo "$old" | head -1 | grep -q 'protocol 2025-11-25$' || fail "$name: not spoken in 2025-11-25: $old"
  # Lines differ between the eras' transcripts (discover, or initialize and its notification).
  verdicts() { echo "$1" | sed -n '2,8p' | sed 's/ at line [0-9]*//g'; }
  [ "$(verdicts "$new")" = "$(verdicts "$old")" ] \
    || fail "$name: the eras' verdicts differ:\n$new\n---\n$old"
  echo "$name: the same verdicts in $expected and 2025-11-25:"
  echo "$new" | sed -n '1,8p' | sed 's/^/  /'
}

if command -v node >/dev/null && command -v npm >/dev/null; then
  [ "$only" = all ] || {
    cp "$pins/package.json" "$pins/package-lock.json" "$work/"
    npm ci --prefix "$work" --no-audit --no-fund --loglevel=error >/dev/null
  }
  cp "$pins/ts2_server.mjs" "$work/"
  calls=(--call 'add={"a":1,"b":2}' --call 'fail={}')
  # Its McpServer over stdio answers server/discover with -32601 (modern serving is the
  # HTTP handler's): the probe falls back to initialize.
  both_eras 2025-11-25 "npm @modelcontextprotocol/server 2.x (stdio)" "${calls[@]}" -- node "$work/ts2_server.mjs"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  node "$work/ts2_server.mjs" "$port" > "$work/ts2-http.log" 2>&1 &
  ts2=$!
  trap 'kill $ts2 2>/dev/null || true' EXIT
  for _ in $(seq 100); do grep -q listening "$work/ts2-http.log" && break; sleep 0.1; done
  both_eras 2026-07-28 "npm @modelcontextprotocol/server 2.x (Streamable HTTP)" "${calls[@]}" --url "http://127.0.0.1:$port/mcp"
  kill $ts2 2>/dev/null || true
else
  echo "real-servers: SKIPPED @modelcontextprotocol/server 2.x: Node.js or npm is not installed"
fi

if command -v python3 >/dev/null; then
  python="$work/venv/bin/python"
  calls=(--call 'add={"a":1,"b":2}' --call 'fail={}')
  both_eras 2026-07-28 "mcp-server-time (mcp 2.x, stdio)" -- "$work/venv/bin/mcp-server-time"
  # A recording of the new wire audits like the probe's own transcript of it.
  "$bin" probe --format json --save "$work/probed-2026.jsonl" -- \
    "$bin" record -o "$work/recorded-2026.jsonl" -- "$work/venv/bin/mcp-server-time" >/dev/null 2>&1 \
    || [ $? = 1 ] || fail "mcp-server-time: probe through record failed"
  audit26() { "$bin" audit --format json "$work/$1.jsonl" | sed "s|$work/$1.jsonl|TRANSCRIPT|"; }
  [ "$(audit26 probed-2026)" = "$(audit26 recorded-2026)" ] \
    || fail "mcp-server-time: the 2026-07-28 recording audits unlike the probe"
  echo "record: a recording of the 2026-07-28 wire audits like the probe ($(wc -l < "$work/recorded-2026.jsonl") messages)"
  both_eras 2026-07-28 "mcp 2.x MCPServer (stdio)" "${calls[@]}" -- "$python" "$pins/mcp2_server.py"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$python" "$pins/mcp2_server.py" "$port" > "$work/mcp2-http.log" 2>&1 &
  mcp2=$!
  trap 'kill $mcp2 2>/dev/null || true' EXIT
  for _ in $(seq 100); do grep -q 'Uvicorn running' "$work/mcp2-http.log" && break; sleep 0.1; done
  both_eras 2026-07-28 "mcp 2.x MCPServer (Streamable HTTP)" "${calls[@]}" --url "http://127.0.0.1:$port/mcp"
  # The new wire has no session: the probe's transcript names none.
  "$bin" probe --format json --save "$work/mcp2-http.jsonl" --url "http://127.0.0.1:$port/mcp" >/dev/null || true
  grep -q '"session"' "$work/mcp2-http.jsonl" && fail "mcp 2.x over HTTP: a session on the 2026-07-28 wire"
  kill $mcp2 2>/dev/null || true
else
  echo "real-servers: SKIPPED mcp 2.x: Python is not installed"
fi
