"""Percentiles, memory and the printed tables."""

from __future__ import annotations

import math
import os
import platform
import resource
import sqlite3
import sys
from pathlib import Path

from bench.workload import Sample


def percentile(values: list[int], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0–100) of ``values``; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return float(ordered[rank - 1])


def memory() -> tuple[float, float]:
    """(current RSS, peak RSS) of this process in MiB."""
    fields: dict[str, float] = {}
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    peak = fields.get("VmHWM", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return fields.get("VmRSS", peak), peak


def memory_line(label: str) -> str:
    rss, peak = memory()
    return f"{label:<44} RSS {rss:7.1f} MiB   peak {peak:7.1f} MiB"


def load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unavailable"
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def environment() -> str:
    return (
        f"Python {platform.python_version()} ({sys.implementation.name}), SQLite"
        f" {sqlite3.sqlite_version}, {platform.system()} {platform.machine()},"
        f" {_cpus()} CPU(s)"
    )


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _ms(ns: float) -> str:
    return f"{ns / 1e6:.2f}"


def _us(ns: float) -> str:
    return f"{ns / 1e3:.1f}"


def _times(family: Sample, ceiling: Sample) -> str:
    """How many ceiling operations one command costs: the ratio of the p50 latencies
    (medians, so another process stealing the CPU now and then doesn't skew it)."""
    ours, theirs = percentile(family.latencies_ns, 50), percentile(ceiling.latencies_ns, 50)
    return f"{ours / theirs:,.0f}x" if ours and theirs else "-"


def _per_op(sample: Sample) -> str:
    return f"{sample.db_calls / sample.ops:.1f}" if sample.ops else "-"


def _stmts(sample: Sample) -> str:
    return f"{sample.statements / sample.ops:.1f}" if sample.ops else "-"


def _floor_times(sample: Sample, floor: Sample) -> str:
    """The p50 latency in units of the pong floor's p50 (one decimal: the goal is 3x/5x)."""
    ours, theirs = percentile(sample.latencies_ns, 50), percentile(floor.latencies_ns, 50)
    return f"{ours / theirs:.1f}x" if ours and theirs else "-"


def family_table(
    rows: list[tuple[Sample, Sample, Sample]],
    floor: Sample,
    floors: dict[str, Sample],
    goals: dict[str, float],
) -> list[str]:
    """(family, storage ceiling, dice ceiling) → the main table, the floor first.

    ``x floor`` is the family's p50 over the p50 of the pong-floor operations run
    between its own (``floors``; the first row pools them all); ``goal`` is the
    issue's ceiling for that ratio.
    """
    head = (
        f"{'family':<12} {'ops':>5} {'refused':>7} {'ops/s':>8} {'p50 ms':>7} {'p95 ms':>7}"
        f" {'p99 ms':>7} {'x floor':>7} {'goal':>5} {'stmts':>6} {'db calls':>8}"
        f" {'vs storage':>10} {'vs dice':>8}  dice ceiling"
    )
    lines = [head, "-" * len(head)]
    lat = floor.latencies_ns
    lines.append(
        f"{'pong floor':<12} {floor.ops:>5} {floor.refused:>7} {floor.rate:>8.1f}"
        f" {_ms(percentile(lat, 50)):>7} {_ms(percentile(lat, 95)):>7}"
        f" {_ms(percentile(lat, 99)):>7} {'1.0x':>7} {'':>5} {_stmts(floor):>6}"
        f" {_per_op(floor):>8} {'':>10} {'':>8}"
    )
    for sample, storage, dice in rows:
        lat = sample.latencies_ns
        goal = goals.get(sample.name)
        ratio = _floor_times(sample, floors.get(sample.name, floor))
        lines.append(
            f"{sample.name:<12} {sample.ops:>5} {sample.refused:>7} {sample.rate:>8.1f}"
            f" {_ms(percentile(lat, 50)):>7} {_ms(percentile(lat, 95)):>7}"
            f" {_ms(percentile(lat, 99)):>7} {ratio:>7}"
            f" {f'{goal:.0f}x' if goal else '':>5} {_stmts(sample):>6} {_per_op(sample):>8}"
            f" {_times(sample, storage):>10} {_times(sample, dice):>8}"
            f"  {dice.name.removeprefix('d20: ')}"
        )
    return lines


def baseline_table(samples: list[Sample]) -> list[str]:
    head = (
        f"{'baseline':<34} {'ops':>6} {'ops/s':>10} {'p50 us':>8} {'p95 us':>8} {'p99 us':>8}"
        f" {'db calls':>8}"
    )
    lines = [head, "-" * len(head)]
    for sample in samples:
        lat = sample.latencies_ns
        lines.append(
            f"{sample.name:<34} {sample.ops:>6} {sample.rate:>10,.0f}"
            f" {_us(percentile(lat, 50)):>8} {_us(percentile(lat, 95)):>8}"
            f" {_us(percentile(lat, 99)):>8} {_per_op(sample) if sample.db_calls else '-':>8}"
        )
    return lines


def overhead_table(pairs: list[tuple[str, Sample, Sample]]) -> list[str]:
    """(label, validation off, validation on) → what the harness's schema checks cost."""
    head = (
        f"{'command':<14} {'ops':>5} {'p50 off':>8} {'p50 on':>8} {'mean off':>9} {'mean on':>8}"
        f" {'validation adds':>16}"
    )
    lines = [head, "-" * len(head)]
    for label, off, on in pairs:
        added = on.mean_ns - off.mean_ns
        share = added / on.mean_ns * 100 if on.mean_ns else 0.0
        lines.append(
            f"{label:<14} {off.ops:>5} {_ms(percentile(off.latencies_ns, 50)):>8}"
            f" {_ms(percentile(on.latencies_ns, 50)):>8} {_ms(off.mean_ns):>9}"
            f" {_ms(on.mean_ns):>8} {_ms(added):>9} ms ({share:3.0f}%)"
        )
    return lines


def followup_lines(samples: list[Sample]) -> list[str]:
    """One line per family whose commands left work for after the reply (tracker edits):
    on how many operations, and its p50/p99 (not part of the family's times above)."""
    lines = []
    for sample in samples:
        took = sample.followups_ns
        if took:
            lines.append(
                f"{sample.name}: after the reply, follow-ups on {len(took)} of {sample.ops}"
                f" ops, p50 {percentile(took, 50) / 1e6:.2f} ms, p99"
                f" {percentile(took, 99) / 1e6:.2f} ms (drained off the clock; their"
                " statements are counted)"
            )
    return lines
