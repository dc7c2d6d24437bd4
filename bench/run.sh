#!/usr/bin/env bash
# Measures mcp-lint against comparable tools on the same inputs, in one run, and prints the
# ratios the project targets (README, "Performance"). Each figure is the best of 3 runs
# (RUNS=1 for a quick look):
#   - source pass on a large real Rust tree (the corpus' dependency graph, vendored: ~34k
#     files) vs ast-grep running one pattern on it, and vs plainly reading the files;
#   - transcript audit on a generated ~400 MB transcript vs `jq -c 'select(.error)'`, with
#     peak memory, and peak memory on a 1 GiB transcript and on one where every call is a
#     finding (>= 150,000 findings): memory must not grow with either.
# PART=audit runs the audit half only (no vendoring, no ast-grep).
# Needs network once (cargo vendor, PyPI for ast-grep-cli); everything lands in target/bench.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/bench"
mkdir -p "$work"
cd "$root"

cargo build --release --quiet
bin="$root/target/release/mcp-lint"
if [ "${PART:-all}" != audit ]; then
  [ -d "$work/vendor" ] || cargo vendor --quiet --locked --manifest-path testdata/corpus/Cargo.toml "$work/vendor" >/dev/null
  if [ ! -x "$work/venv/bin/ast-grep" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install --quiet --disable-pip-version-check ast-grep-cli
  fi
fi
command -v jq >/dev/null || { echo "bench: jq is needed (apt-get install jq)"; exit 2; }
[ -f "$work/transcript.jsonl" ] || python3 bench/transcript.py "$work/transcript.jsonl" 400
[ -f "$work/transcript-1g.jsonl" ] || python3 bench/transcript.py "$work/transcript-1g.jsonl" 1024
[ -f "$work/findings.jsonl" ] || python3 bench/transcript.py "$work/findings.jsonl" 64 1

# Wall-clock seconds and peak RSS (MiB) of a command, its output discarded: the best of
# RUNS runs (3 unless set), so a moment of load on the machine does not decide a ratio.
measure() {
  local best="" peak=0 seconds kib
  for _ in $(seq "${RUNS:-3}"); do
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
    read -r seconds kib < <(tail -n 1 "$work/time.txt")
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(not $seconds < $best)"; then
      best=$seconds
    fi
    peak=$((kib / 1024 > peak ? kib / 1024 : peak))
  done
  echo "$best $peak"
}

files=0 bytes=0 read_s=nan lint_s=nan lint_mb=nan sg_s=nan
if [ "${PART:-all}" != audit ]; then
  files=$(find "$work/vendor" -name '*.rs' | wc -l)
  bytes=$(du -sb "$work/vendor" | cut -f1)
  # Warm the page cache so every tool reads from memory.
  find "$work/vendor" -name '*.rs' -print0 | xargs -0 cat >/dev/null

  read -r read_s _ < <(measure sh -c "find '$work/vendor' -name '*.rs' -print0 | xargs -0 cat")
  read -r lint_s lint_mb < <(measure "$bin" --format json "$work/vendor")
  read -r sg_s _ < <(measure "$work/venv/bin/ast-grep" run --lang rust --pattern 'Err($E)' "$work/vendor")
fi

size=$(stat -c %s "$work/transcript.jsonl")
cat "$work/transcript.jsonl" >/dev/null
read -r audit_s audit_mb < <(measure "$bin" audit --format json "$work/transcript.jsonl")
read -r jq_s _ < <(measure jq -c 'select(.msg.error)' "$work/transcript.jsonl")
read -r big_s big_mb < <(measure "$bin" audit --format json "$work/transcript-1g.jsonl")
found=$("$bin" audit --format jsonl "$work/findings.jsonl" | grep -c '"code"' || true)
read -r many_s many_mb < <(measure "$bin" audit --format json "$work/findings.jsonl")

python3 - "$files" "$bytes" "$read_s" "$lint_s" "$lint_mb" "$sg_s" "$size" "$audit_s" "$audit_mb" "$jq_s" \
  "$big_s" "$big_mb" "$found" "$many_s" "$many_mb" <<'PY'
import sys
(files, bytes_, read_s, lint_s, lint_mb, sg_s, size, audit_s, audit_mb, jq_s,
 big_s, big_mb, found, many_s, many_mb) = sys.argv[1:]
f = lambda x: float(x)
print(f"machine: {__import__('os').cpu_count()} cores")
if files != "0":
  print(f"source pass, {files} files, {int(bytes_) / 2**20:.0f} MiB:")
  print(f"  read the files      {f(read_s):7.2f} s")
  print(f"  mcp-lint check      {f(lint_s):7.2f} s  ({lint_mb} MiB peak)")
  print(f"  ast-grep, 1 pattern {f(sg_s):7.2f} s")
  print(f"  mcp-lint is {f(sg_s) / f(lint_s):.1f}x faster than ast-grep (target >= 3x), "
        f"{f(lint_s) / max(f(read_s), 0.01):.1f}x reading (target <= 3x)")
mb = int(size) / 2**20
print(f"transcript audit, {mb:.0f} MiB:")
print(f"  mcp-lint audit      {f(audit_s):7.2f} s  {mb / f(audit_s):6.0f} MiB/s  ({audit_mb} MiB peak, target < 100)")
print(f"  jq select(.error)   {f(jq_s):7.2f} s  {mb / f(jq_s):6.0f} MiB/s")
print(f"  mcp-lint has {f(jq_s) / f(audit_s):.1f}x the throughput of jq (target >= 8x)")
print(f"transcript audit, 1 GiB: {f(big_s):.2f} s, {big_mb} MiB peak (target <= 100)")
print(f"transcript audit, {found} findings: {f(many_s):.2f} s, {many_mb} MiB peak (target <= 100)")
PY
