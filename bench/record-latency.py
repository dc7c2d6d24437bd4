#!/usr/bin/env python3
"""The latency `mcp-lint record` adds per message: round trips of `ping` to the fixture server,
sent one at a time, straight and through the proxy; prints the median and 99th percentile.

Usage: python3 bench/record-latency.py MCP_LINT FIXTURE_SERVER [ROUNDS]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def round_trips(command, rounds):
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    times = []
    for i in range(rounds):
        line = json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}).encode() + b"\n"
        start = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        answer = proc.stdout.readline()
        times.append(time.perf_counter() - start)
        assert json.loads(answer)["id"] == i, answer
    proc.stdin.close()
    proc.wait()
    return times


def summary(times):
    times = sorted(times)
    return statistics.median(times) * 1e6, times[int(len(times) * 0.99)] * 1e6


def main():
    mcp_lint, server = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    with tempfile.TemporaryDirectory() as tmp:
        transcript = os.path.join(tmp, "recorded.jsonl")
        round_trips([server], 200)  # warm up
        direct = summary(round_trips([server], rounds))
        proxied = summary(round_trips([mcp_lint, "record", "-o", transcript, "--", server], rounds))
        recorded = sum(1 for _ in open(transcript))
    assert recorded == 2 * rounds, recorded
    print(f"{rounds} ping round trips, one at a time ({recorded} messages recorded)")
    print(f"  direct:            median {direct[0]:7.1f} us   p99 {direct[1]:7.1f} us")
    print(f"  through `record`:  median {proxied[0]:7.1f} us   p99 {proxied[1]:7.1f} us")
    added = proxied[0] - direct[0]
    print(f"  added per round trip (two messages): median {added:.1f} us, "
          f"{added / 2:.1f} us per message")


if __name__ == "__main__":
    main()
