#!/usr/bin/env bash
# Runs mcp-lint on the reviewed corpus (testdata/corpus: real servers from crates.io, pinned by
# its Cargo.lock) and compares with the reviewed expectations. Fails on any finding a reviewer
# did not agree with, and on any reviewed finding that disappears; prints precision and recall.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/testdata/corpus"
bin="${MCP_LINT:-$root/target/debug/mcp-lint}"
[ -x "$bin" ] || cargo build --quiet --manifest-path "$root/Cargo.toml"

cargo fetch --quiet --locked --manifest-path "$corpus/Cargo.toml"
registry=$(cargo metadata --locked --format-version 1 --manifest-path "$corpus/Cargo.toml" \
  | python3 -c 'import json,sys,os; m=json.load(sys.stdin); print(os.path.dirname(os.path.dirname([p for p in m["packages"] if p["name"]=="nu-mcp"][0]["manifest_path"])))')

actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
# Every pinned crate is checked, the clean ones too. The MCP1xx findings are what a reviewer
# judged; advice and warnings about error texts (MCP2xx) are not part of the figures.
crates=$(sed -n 's/^\([a-z0-9_-]*\) = "=\(.*\)"$/\1-\2/p' "$corpus/Cargo.toml")
for crate in $crates; do
  (cd "$registry" && "$bin" --format concise "$crate" || true) | grep -v '^mcp-lint:' \
    | sed -E 's/^([^ ]+): (MCP[0-9]+) .*/\1 \2/' | grep ' MCP1' >> "$actual" || true
done

python3 - "$corpus/expected.txt" "$actual" <<'PY'
import sys
expected, misses = set(), set()
for line in open(sys.argv[1]):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    if line.startswith("miss "):
        misses.add(line[5:])
    else:
        expected.add(line)
actual = set(l.strip() for l in open(sys.argv[2]) if l.strip())
unexpected, lost = sorted(actual - expected), sorted(expected - actual)
for f in unexpected:
    print("not reviewed (a false positive, or review it into expected.txt):", f)
for f in lost:
    print("reviewed finding no longer found:", f)
for f in sorted(misses):
    print("known miss:", f)
agreed = len(actual & expected)
print(f"corpus: precision {agreed}/{len(actual)}, recall {agreed}/{len(expected) + len(misses)}")
sys.exit(1 if unexpected or lost else 0)
PY
