"""The benchmark's PostgreSQL side still runs (it prints figures; nothing asserted on them)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bench.workload import FAMILIES
from tests.support.pg_server import Server

REPO_ROOT = Path(__file__).resolve().parents[1]


def bench(*args: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO_ROOT, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    return completed.stdout


def test_the_benchmark_runs_on_postgresql_and_prints_every_family(pg_server: Server) -> None:
    # (pg_server: skip where no server can start, fail under CI; the bench starts its own)
    out = bench("bench.run", "--smoke", "--backend", "postgresql")
    assert "PostgreSQL" in out and "storage: INSERT+COMMIT" in out
    for family in FAMILIES:
        assert re.search(rf"^\s+{re.escape(family.name)}\s+5\s", out, re.MULTILINE), out


def test_throughput_runs_with_two_processes_on_each_backend(pg_server: Server) -> None:
    out = bench("bench.throughput", "--seconds", "0.5", "--processes", "2")
    for backend in ("sqlite", "postgresql"):
        assert re.search(rf"^\s+{backend}\s+2\s+[\d,]+\s+[\d,]+", out, re.MULTILINE), out
