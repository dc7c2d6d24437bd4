#!/usr/bin/env bash
# Runs mcp-lint on the corpus of real servers from crates.io (testdata/corpus, pinned by the
# Cargo.lock of its manifests: crates that cannot share one resolution live in sets/N) and
# compares the MCP1xx findings with the expectations:
#   - expected.txt: reviewed findings at exact line:column (the first corpus);
#   - expected/CRATE-VERSION.txt: expectations written blind, by reading every tools/call path
#     before running mcp-lint. A finding matches an expected line of the same file within
#     LINE_SLACK lines (the reviewer wrote where the error is built, not our span). `miss`
#     marks a line mcp-lint does not find yet; `fp` a finding reviewed as a false positive.
# Fails on an expected (not `miss`) line no longer found, and on a finding nobody reviewed: in
# the first corpus, one not in expected.txt; in the blind corpus, one that matches no line and
# is not a reviewed `fp` (those count against precision).
# Prints precision and recall, per style and per rule.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/testdata/corpus"
bin="${MCP_LINT:-$root/target/debug/mcp-lint}"
[ -x "$bin" ] || cargo build --quiet --manifest-path "$root/Cargo.toml"

manifests=("$corpus/Cargo.toml" "$corpus"/sets/*/Cargo.toml)
for manifest in "${manifests[@]}"; do
  cargo fetch --quiet --locked --manifest-path "$manifest"
done
registry=$(cargo metadata --locked --format-version 1 --manifest-path "$corpus/Cargo.toml" \
  | python3 -c 'import json,sys,os; m=json.load(sys.stdin); print(os.path.dirname(os.path.dirname([p for p in m["packages"] if p["name"]=="nu-mcp"][0]["manifest_path"])))')

actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
# Every pinned crate is checked, the clean ones too. Advice and warnings about error texts
# (MCP2xx) are not part of the figures.
# `name = "=1.0"`, or with features: `name = { version = "=1.0", features = [..] }`.
crates=$(sed -n -e 's/^\([a-zA-Z0-9_-]*\) = "=\(.*\)"$/\1-\2/p' \
  -e 's/^\([a-zA-Z0-9_-]*\) = { version = "=\([^"]*\)".*$/\1-\2/p' "${manifests[@]}")
for crate in $crates; do
  (cd "$registry" && "$bin" --format concise "$crate" || true) | grep -v '^mcp-lint:' \
    | sed -E 's/^([^ ]+): (MCP[0-9]+) .*/\1 \2/' | grep ' MCP1' >> "$actual" || true
done

python3 "$root/tests/corpus_score.py" "$corpus" "$actual"
