#!/usr/bin/env python3
"""Condenses `ncu --import report --page raw --csv` into one row per kernel and grid (the median
of its launches), the memory counters that say which bytes bound a GEMM: time, DRAM reads, L2
traffic, what L2 delivered to the SMs, hit rate, load and clock.

  ncu --import r.ncu-rep --page raw --csv | scripts/ncu_table.py [--all-metrics PATTERN]

Bytes are printed in MB and rates in TB/s over the kernel's own duration. A metric the report does
not hold prints "-". The kernels' names, shortened, follow the table as a legend.
--all-metrics PATTERN also prints every column whose name matches the regular expression (e.g.
'^lts__t_sectors.*read' to find which L2 counters a TMA load moves on this GPU).
"""
import argparse
import csv
import re
import statistics
import sys

# (heading, metric, scale to the printed unit): sectors are 32 bytes.
COLUMNS = [
    ("us", "gpu__time_duration.sum", None),
    ("DRAM rd MB", "dram__bytes_read.sum", 1e-6),
    ("L2 MB", "lts__t_bytes.sum", 1e-6),
    ("L2 rd MB", "lts__t_sectors_op_read.sum", 32e-6),
    ("L2 rd SM MB", "lts__t_sectors_srcunit_tex_op_read.sum", 32e-6),
    ("L2->SM MB", "l1tex__m_xbar2l1tex_read_bytes.sum", 1e-6),
    ("L2 hit %", "lts__t_sector_hit_rate.pct", 1.0),
    ("L2 load %", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1.0),
    ("GHz", "sm__cycles_elapsed.avg.per_second", None),
]

TIME_UNITS = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "second": 1e6}
RATE_UNITS = {"hz": 1e-9, "khz": 1e-6, "mhz": 1e-3, "ghz": 1.0, "cycle/nsecond": 1.0, "cycle/usecond": 1e-3,
              "cycle/second": 1e-9}
BYTE_UNITS = {"byte": 1.0, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def shorten(name):
    """The kernel's demangled name without its namespaces, parameter list and common type names."""
    name = re.sub(r"^void\s+", "", name)
    depth, cut = 0, len(name)
    for i, c in enumerate(name):  # the parameter list: the first '(' outside the template brackets
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            cut = i
            break
    name = name[:cut]
    for long, short in (("strata::", ""), ("__nv_bfloat16", "bf16"), ("__half", "f16"), ("cute::", ""),
                        ("cutlass::", "")):
        name = name.replace(long, short)
    return re.sub(r"\s+", " ", name)


def scaled(value, unit, metric, scale):
    if value is None:
        return None
    unit = unit.strip().lower()
    if metric == "gpu__time_duration.sum":
        return value * TIME_UNITS.get(unit, 1.0)
    if metric.endswith("per_second"):
        return value * RATE_UNITS.get(unit, 1e-9)
    if unit in BYTE_UNITS:
        value *= BYTE_UNITS[unit]
    return value * scale


def row(cells):
    """A table row: the kernel's number, grid and launch count narrow, the figures 11 wide."""
    widths = [3, 13, 3]
    return "  ".join(f"{c:>{widths[i] if i < 3 else 11}}" for i, c in enumerate(cells))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all-metrics", default=None)
    args = parser.parse_args()
    rows = list(csv.reader(sys.stdin))
    # ncu prints its own lines (==PROF==, warnings) before the table; the header row names "ID".
    start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if start is None or start + 1 >= len(rows):
        sys.exit("ncu_table.py: no ncu raw table on stdin")
    header, units, data = rows[start], rows[start + 1], rows[start + 2:]
    col = {h: i for i, h in enumerate(header)}
    for needed in ("Kernel Name", "Grid Size"):
        if needed not in col:
            sys.exit(f"ncu_table.py: the table has no column {needed!r}")
    extra = [h for h in header if args.all_metrics and re.search(args.all_metrics, h)]
    groups, order = {}, []
    for r in data:
        if len(r) != len(header):
            continue
        key = (shorten(r[col["Kernel Name"]]), r[col["Grid Size"]])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(r)
    names = []
    heading = ["#", "grid", "n"] + [h for h, _, _ in COLUMNS] + ["L2->SM TB/s"] + extra
    print(row(heading))
    for key in order:
        if key[0] not in names:
            names.append(key[0])
        cells = [str(names.index(key[0])), key[1], str(len(groups[key]))]
        values = {}
        for h, metric, scale in COLUMNS:
            if metric not in col:
                cells.append("-")
                continue
            got = [scaled(number(r[col[metric]]), units[col[metric]], metric, scale) for r in groups[key]]
            got = [g for g in got if g is not None]
            values[metric] = statistics.median(got) if got else None
            cells.append("-" if values[metric] is None else f"{values[metric]:.3g}" if values[metric] < 100
                         else f"{values[metric]:.0f}")
        us, delivered = values.get("gpu__time_duration.sum"), values.get("l1tex__m_xbar2l1tex_read_bytes.sum")
        cells.append(f"{delivered / us:.2f}" if us and delivered is not None else "-")  # MB / us = TB/s
        for h in extra:
            got = [number(r[col[h]]) for r in groups[key]]
            got = [g for g in got if g is not None]
            cells.append(f"{statistics.median(got):.4g}" if got else "-")
        print(row(cells))
    print()
    for i, name in enumerate(names):
        print(f"{i:>4}  {name}")


if __name__ == "__main__":
    main()
