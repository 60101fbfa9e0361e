#!/usr/bin/env python3
"""How the bundled model fails, counted from `kvlens-cli eval --predictions` files
(the model card's failure figures). Standard library only.

    kvlens-cli eval --model bundled --suite retrieval,text2json --n 200 \\
        --tokens 64:512 --seed 7 --predictions p.jsonl
    resources/train/failure_counts.py p.jsonl

single / multikey: whose code a wrong answer gave (a near-miss record sharing the
asked surname or first name, or another record); multiquery: right answers by the
number of names asked, and four-name answers that skip the third name; multivalue:
right answers by the number of codes, and how the list went wrong; text2json: object
count, names, and each field's value where the name matches."""
import json
import re
import sys
from collections import Counter, defaultdict

RECORD = re.compile(r"The access code of ([A-Z][a-z]+ [A-Z][a-z]+) is (\d+)")


def numbers(text):
    return re.findall(r"\d+", text)


def lookup(rows, variant):
    wrong = [d for d in rows if d["score"] < 1]
    kinds = Counter()
    for d in wrong:
        asked = d["meta"]["keys"][0]
        owners = [name for name, code in RECORD.findall(d["context"])
                  if code == d["prediction"].strip()]
        first, last = asked.split()
        if any(o != asked and (o.endswith(" " + last) or o.startswith(first + " "))
               for o in owners):
            kinds["a near-miss record's code"] += 1
        elif owners:
            kinds["another record's code"] += 1
        else:
            kinds["no record's code"] += 1
    print(f"  {variant}: {len(rows) - len(wrong)}/{len(rows)} right")
    for k, v in kinds.most_common():
        print(f"    wrong answers giving {k}: {v}/{len(wrong)}")


def multiquery(rows):
    by_n = defaultdict(lambda: [0, 0])
    third_skipped = four = 0
    for d in rows:
        keys = d["meta"]["keys"]
        by_n[len(keys)][0] += 1
        by_n[len(keys)][1] += d["score"] == 1
        if len(keys) == 4:
            four += 1
            names = re.findall(r"([A-Z][a-z]+ [A-Z][a-z]+) is", d["prediction"])
            third_skipped += len(names) >= 3 and names[2] == keys[3]
    print("  multiquery: " + ", ".join(
        f"{n} names {by_n[n][1]}/{by_n[n][0]}" for n in sorted(by_n)) + " right")
    if four:
        print(f"    four names: the third skipped (the fourth written next) {third_skipped}/{four}")


def multivalue(rows):
    kinds = Counter()
    by_n = defaultdict(lambda: [0, 0])
    for d in rows:
        gold, got = d["meta"]["values"], numbers(d["prediction"])
        by_n[len(gold)][0] += 1
        by_n[len(gold)][1] += d["score"] == 1
        if sorted(got) == sorted(gold):
            kinds["every code"] += 1
        elif set(gold) <= set(got):
            kinds["every code, then more"] += 1
        elif set(got) < set(gold):
            kinds["stopped early (some codes)"] += 1
        else:
            kinds["a code that is not the name's"] += 1
    print("  multivalue: " + ", ".join(
        f"{n} codes {by_n[n][1]}/{by_n[n][0]}" for n in sorted(by_n)) + " right")
    for k, v in kinds.most_common():
        print(f"    {k}: {v}/{len(rows)}")


def text2json(rows):
    count_right = distinct = parsed = repeats = 0
    right, total = Counter(), Counter()
    for d in rows:
        gold = {o["name"]: o for o in d["meta"]["objects"]}
        try:
            pred = [o for o in json.loads(d["prediction"].strip()) if isinstance(o, dict)]
        except (ValueError, TypeError):
            continue
        parsed += 1
        names = [o.get("name") for o in pred]
        count_right += len(pred) == len(gold)
        distinct += len(names) == len(gold) and set(names) == set(gold)
        repeats += len(names) != len(set(names))
        for o in pred:
            g = gold.get(o.get("name"))
            for field in d["meta"]["fields"] if g else []:
                total[field] += 1
                right[field] += o.get(field) == g.get(field)
    n = len(rows)
    print(f"  text2json: valid JSON {parsed}/{n}, as many objects as people {count_right}/{n}, "
          f"every person named once {distinct}/{n}, someone named twice or more {repeats}/{n}")
    print("    field right where the name matches: " + ", ".join(
        f"{f} {right[f] / total[f]:.2f} ({total[f]})" for f in sorted(total)))


def main(paths):
    rows = [json.loads(line) for path in paths for line in open(path) if line.strip()]
    groups = defaultdict(list)
    for d in rows:
        groups[(d["suite"], d["variant"])].append(d)
    for variant in ("single", "multikey"):
        if groups[("retrieval", variant)]:
            lookup(groups[("retrieval", variant)], variant)
    if groups[("retrieval", "multiquery")]:
        multiquery(groups[("retrieval", "multiquery")])
    if groups[("retrieval", "multivalue")]:
        multivalue(groups[("retrieval", "multivalue")])
    t2j = [d for d in rows if d["suite"] == "text2json"]
    if t2j:
        text2json(t2j)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
