#!/usr/bin/env bash
# `record --listen` between real Streamable HTTP peers: npm @modelcontextprotocol/server-everything
# (pinned in testdata/real-servers, as tests/real-servers.sh pins it) behind the proxy, and
# - mcp-lint's probe as the client: the recording must audit exactly like the probe's own
#   transcript, finding for finding, and hold every message of it;
# - the MCP TypeScript SDK's client (the server's own dependency), GET stream and DELETE
#   included: every request it sent is on file, in one session;
# and neither file holds the secret sent in an Authorization header or a `password` argument.
# Skipped, saying so, where Node.js/npm is missing. Needs the npm registry once (npm ci).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pins="$root/testdata/real-servers"
work="$root/target/record-http"
bin="${MCP_LINT:-$root/target/debug/mcp-lint}"
[ -x "$bin" ] || cargo build --quiet --manifest-path "$root/Cargo.toml"

fail() { echo "record-http: FAIL: $*" >&2; exit 1; }

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "record-http: SKIPPED: Node.js or npm is not installed"
  exit 0
fi
mkdir -p "$work"
cp "$pins/package.json" "$pins/package-lock.json" "$work/"
npm ci --prefix "$work" --no-audit --no-fund --loglevel=error >/dev/null
everything="$work/node_modules/.bin/mcp-server-everything"
sdk="$work/node_modules/@modelcontextprotocol/sdk"

pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$port "$everything" streamableHttp > "$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q listening "$work/server.log" && break; sleep 0.1; done
upstream="http://127.0.0.1:$port/mcp"

# Starts the proxy recording to $1; sets $proxy (its pid) and $url (where clients connect).
start_proxy() {
  rm -f "$1" "$work/proxy.err"
  "$bin" record -o "$1" --listen 127.0.0.1:0 --upstream "$upstream" 2> "$work/proxy.err" &
  proxy=$!
  pids+=("$proxy")
  for _ in $(seq 100); do grep -qs recording "$work/proxy.err" && break; sleep 0.1; done
  url=$(sed -n 's/^mcp-lint: recording \([^ ]*\) .*/\1/p' "$work/proxy.err")
  [ -n "$url" ] || fail "the proxy said no address: $(cat "$work/proxy.err")"
}
stop_proxy() {
  kill -INT "$proxy"
  wait "$proxy" || fail "the proxy exited $? on SIGINT"
}
no_secret() {
  if grep -q -e hunter2 -e s3cret "$1"; then fail "$1 holds a secret"; fi
}

start_proxy "$work/recorded.jsonl"
"$bin" probe --format json --url "$url" --save "$work/probed.jsonl" \
  --header 'Authorization: Bearer s3cret-header' \
  --call 'echo={"message":"hi","password":"hunter2"}' \
  --call 'get-structured-content={"location":"Chicago"}' >/dev/null \
  || fail "the probe through the proxy exited $?"
stop_proxy
# The same findings on the same lines; the recording's lines carry a `session` besides.
findings() {
  "$bin" audit --format json "$work/$1.jsonl" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
for f in doc["findings"]:
    print(f["code"], f["line"], f["request_id"], f["message"])
print(doc["summary"])'
}
[ "$(findings probed)" = "$(findings recorded)" ] || fail "the recording audits unlike the probe"
[ "$(wc -l < "$work/probed.jsonl")" = "$(wc -l < "$work/recorded.jsonl")" ] \
  || fail "the recording does not hold every message of the probe"
no_secret "$work/recorded.jsonl"
no_secret "$work/probed.jsonl"
grep -q '"password":"\[redacted\]"' "$work/recorded.jsonl" || fail "the password is not on file, redacted"
echo "record-http: a probe of server-everything through the proxy audits like the probe ($(wc -l < "$work/recorded.jsonl") messages)"

start_proxy "$work/sdk.jsonl"
node "$root/tests/record-http/client.mjs" "$url" "$sdk" > "$work/client.out" \
  || fail "the SDK client exited $?"
stop_proxy
no_secret "$work/sdk.jsonl"
python3 - "$work/sdk.jsonl" <<'EOF' || fail "the SDK session is not on file as sent"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
sessions = {l.get("session") for l in lines}
asked = [l["msg"].get("method") for l in lines if l["dir"] == "c2s"]
answered = [l["msg"].get("id") for l in lines if l["dir"] == "s2c" and "id" in l["msg"]]
assert len(sessions) == 1 and None not in sessions, sessions
assert asked == ["initialize", "notifications/initialized", "tools/list", "tools/call", "tools/call"], asked
assert sorted(answered, key=str) == sorted([l["msg"]["id"] for l in lines if l["dir"] == "c2s" and "id" in l["msg"]], key=str), answered
EOF
"$bin" audit --format concise "$work/sdk.jsonl" > /dev/null \
  || fail "the SDK session audits with errors: $("$bin" audit --format concise "$work/sdk.jsonl")"
echo "record-http: an SDK client's session through the proxy is on file ($(wc -l < "$work/sdk.jsonl") messages, $(cat "$work/client.out"))"
