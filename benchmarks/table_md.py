#!/usr/bin/env python3
"""Turns the JSON lines written by compare_cupy.py --json into the Markdown table of docs/benchmarks.md.

Usage: python3 benchmarks/table_md.py compare.jsonl > table.md
"""
import json
import math
import sys


def fmt(v, digits=4):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.{digits}f}"


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    print("| id | case | cusci ms | CuPy ms | CuPy / cusci | % of 4139 GB/s |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        roof = r.get("roof_pct")
        roof = f"{roof:.1f}" if isinstance(roof, (int, float)) else "—"
        ratio = r.get("ratio")
        print(f"| {r['id']} | {r['case']} | {fmt(r.get('cusci_ms'))} | {fmt(r.get('cupy_ms'))} | "
              f"{fmt(ratio, 2)} | {roof} |")


if __name__ == "__main__":
    main()
