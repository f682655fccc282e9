"""The benchmark still runs end to end (2 guilds, 5 operations per family).

Only that it completes and prints every figure: timings belong to the benchmark's
output, never to an assertion (ENGINEERING.md, "Speed is measured, not asserted").
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bench.workload import FAMILIES

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_runs_in_smoke_mode_and_prints_every_family() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "bench.run", "--smoke"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    out = completed.stdout
    for family in FAMILIES:
        # name, ops, refused, ops/s, p50, p95, p99, x floor, goal, statements, db calls,
        # vs storage, vs dice
        numbers = (
            r"\s+5\s+\d+\s+[\d.]+(\s+[\d.]+){3}\s+[\d.]+x\s+\dx(\s+[\d.]+){2}"
            r"\s+[\d,]+x\s+[\d,]+x"
        )
        row = rf"^\s+{re.escape(family.name)}{numbers}"
        assert re.search(row, out, re.MULTILINE), f"no row for {family.name}:\n{out}"
    for heading in ("seeded 2 guilds", "storage: INSERT+COMMIT", "d20: 1d20+5", "Harness overhead",
                    "/benchnoop", "pong floor", "after all runs",
                    "machine: fixed Python work", "machine spread: fixed work p50"):  # fmt: skip
        assert heading in out, f"{heading!r} missing:\n{out}"


def test_the_recap_benchmark_runs_in_smoke_mode_and_prints_every_row() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "bench.recap", "--smoke"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    out = completed.stdout
    verdict = r"(met|not met)"
    for ruleset in ("HOCS", "2d10"):
        # deferred, answered, x floor, harness, CPU, loop, x floor CPU, the two goals
        for caches in ("first", "emptied", "warm"):
            row = (
                rf"^\s+{ruleset}\s+{caches}\s+1(\s+[\d.]+){{2}}\s+\d+x(\s+[\d.]+){{3}}\s+\d+x"
                rf"\s+{verdict}\s+{verdict}\s*$"
            )
            assert re.search(row, out, re.MULTILINE), f"no {ruleset} {caches} row:\n{out}"
        assert f"{ruleset} recap says: 200 rolls in all" in out, out
        assert re.search(rf"^\s+during the {ruleset} recap\s+\d+(\s+[\d.]+){{6}}$", out, re.M), out
    headings = ("session 1 of 200 rows", "pong floor (/benchnoop), one at a time",
                "Where the CPU goes", "worker: facts_of every row", "from tick p50")  # fmt: skip
    for heading in headings:
        assert heading in out, f"{heading!r} missing:\n{out}"
