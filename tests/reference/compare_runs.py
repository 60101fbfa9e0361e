#!/usr/bin/python3
"""Compares two KVLens run files row for row (issue 36: a sweep with the exact GEMV
equals the same sweep without it). Every table but `run` (dates, status) is read in
full and ordered by its leading key columns; timings (columns ending in _ms, JSON keys
holding _ms or ending in _seconds) and row_checksum (which covers the timings) are left out,
blobs compared by their SHA-1. Prints one JSON line: rows per table and the first
differences; exits 1 when any table differs or holds no rows in either file.

  /usr/bin/python3 compare_runs.py BEFORE.kvl AFTER.kvl
"""
import hashlib
import json
import sqlite3
import sys

TABLES = ["sample", "config", "result", "mask", "attention", "intervention", "retrieval"]


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if not ("_ms" in k or k.endswith("_seconds"))}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def table_rows(path, table):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
    keep = [c for c in columns if not c.endswith("_ms") and c != "row_checksum"]
    rows = []
    for row in db.execute(f"SELECT {','.join(keep)} FROM {table}"):
        values = []
        for name, value in zip(keep, row):
            if isinstance(value, bytes):
                value = hashlib.sha1(value).hexdigest()
            elif name.endswith("_json") and value:
                value = json.dumps(without_timings(json.loads(value)), sort_keys=True)
            values.append(value)
        rows.append(tuple(values))
    db.close()
    return keep, sorted(rows, key=repr)


def main():
    before, after = sys.argv[1], sys.argv[2]
    report = {"tables": {}, "differences": []}
    failed = False
    for table in TABLES:
        names, a = table_rows(before, table)
        _, b = table_rows(after, table)
        report["tables"][table] = [len(a), len(b)]
        if len(a) != len(b):
            failed = True
            report["differences"].append(f"{table}: {len(a)} rows against {len(b)}")
            continue
        for x, y in zip(a, b):
            if x != y:
                failed = True
                cells = [f"{n}: {str(u)[:160]!r} / {str(v)[:160]!r}"
                         for n, u, v in zip(names, x, y) if u != v]
                if len(report["differences"]) < 8:
                    report["differences"].append(f"{table}: " + "; ".join(cells[:3]))
    for table in ["sample", "config", "result"]:
        if report["tables"][table][0] == 0:
            failed = True
            report["differences"].append(f"{table}: no rows")
    report["equal"] = not failed
    print(json.dumps(report))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
