"""Scores mcp-lint's findings on the corpus against its expectations (see tests/corpus.sh).

Usage: corpus_score.py CORPUS_DIR ACTUAL_FILE, where ACTUAL_FILE has one finding a line:
`crate-version/path:line:column CODE`.
"""
import collections
import glob
import os
import re
import sys

LINE_SLACK = 3

corpus, actual_file = sys.argv[1], sys.argv[2]
# A list, not a set: two findings of one rule on one line (MCP108's two defaults) are two.
actual = sorted(l.strip() for l in open(actual_file) if l.strip())


def parse(finding):
    where, code = finding.rsplit(" ", 1)
    path, line = re.match(r"(.+?):(\d+)(?::\d+)?$", where).groups()
    return path, int(line), code


# The first corpus: exact positions.
exact, exact_misses = set(), set()
for line in open(os.path.join(corpus, "expected.txt")):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    (exact_misses if line.startswith("miss ") else exact).add(line.removeprefix("miss "))
exact_crates = {l.split("/")[0] for l in exact | exact_misses}

# The blind corpus: one file per crate, matched by line with slack.
blind = []  # (status, path, line, code, style)
fps = set()
blind_crates, styles = set(), {}
for name in sorted(glob.glob(os.path.join(corpus, "expected", "*.txt"))):
    crate = os.path.basename(name)[: -len(".txt")]
    blind_crates.add(crate)
    style = "?"
    for raw in open(name):
        text = raw.split("  #")[0].strip()
        m = re.match(r"# crate: \S+\s.*style: (\S+)", raw)
        if m:
            style = m.group(1)
        if not text or text.startswith("#"):
            continue
        status = "expected"
        for prefix in ("miss ", "fp "):
            if text.startswith(prefix):
                status, text = prefix.strip(), text[len(prefix):]
        path, line, code = parse(text)
        if status == "fp":
            fps.add((path, line, code))
        else:
            blind.append((status, path, line, code, style))
    styles[crate] = style

unreviewed, lost, unmatched_blind = [], [], []
agreed = 0
# Exact corpus.
exact_actual = sorted({a for a in actual if a.split("/")[0] in exact_crates})
for a in exact_actual:
    if a in exact:
        agreed += 1
    elif a in exact_misses:
        print(f"found a `miss` (mark it expected): {a}")
    else:
        unreviewed.append(a)
lost += [f"{e}" for e in sorted(exact - set(exact_actual))]
found_exact = len(exact & set(exact_actual))

# Blind corpus: greedy one-to-one matching, nearest line first; same code first, then any.
blind_actual = [parse(a) for a in actual if a.split("/")[0] in blind_crates]
unmatched = set(range(len(blind_actual)))
right_code, any_code = {}, {}
for want_same_code in (True, False):
    pairs = []
    for i, (_, path, line, code, _) in enumerate(blind):
        if i in any_code:
            continue
        for j in unmatched:
            p, l, c = blind_actual[j]
            if p == path and abs(l - line) <= LINE_SLACK and (c == code or not want_same_code):
                pairs.append((abs(l - line), i, j))
    for _, i, j in sorted(pairs):
        if i in any_code or j not in unmatched:
            continue
        any_code[i] = j
        if want_same_code:
            right_code[i] = j
        unmatched.discard(j)
for j in sorted(unmatched):
    if blind_actual[j] in fps:
        continue
    p, l, c = blind_actual[j]
    unmatched_blind.append(f"{p}:{l} {c}")
for i, (status, path, line, code, _) in enumerate(blind):
    if status == "expected" and i not in any_code:
        lost.append(f"{path}:{line} {code}")
    if status == "miss" and i in any_code:
        print(f"found a `miss` (mark it expected): {path}:{line} {code}")

for f in unreviewed:
    print("not reviewed (a false positive, or review it into the expectations):", f)
for f in unmatched_blind:
    print("blind corpus, matches no expectation (review it: `fp` or a fix):", f)
for f in lost:
    print("expected finding not found (mark it `miss` if it never was):", f)

total_exact = len(exact) + len(exact_misses)
print(f"first corpus: precision {agreed}/{len(exact_actual)}, recall {found_exact}/{total_exact}")
n = len(blind)
matched_blind = len(blind_actual) - len(unmatched)
print(
    f"blind corpus ({len(blind_crates)} crates, {n} expected sites): "
    f"recall {len(any_code)}/{n} any MCP1xx, {len(right_code)}/{n} right code; "
    f"precision {matched_blind}/{len(blind_actual)} ({len(blind_actual) - matched_blind} reviewed as `fp`)"
)
by_style, by_rule = collections.defaultdict(lambda: [0, 0, 0]), collections.defaultdict(lambda: [0, 0, 0])
for i, (_, _, _, code, style) in enumerate(blind):
    for key, table in ((style, by_style), (code, by_rule)):
        table[key][0] += 1
        table[key][1] += i in any_code
        table[key][2] += i in right_code
for title, table in (("style", by_style), ("rule", by_rule)):
    for key in sorted(table):
        total, found, right = table[key]
        print(f"  {title} {key:<14} {found}/{total} found, {right}/{total} right code")
sys.exit(1 if unreviewed or lost or unmatched_blind else 0)
