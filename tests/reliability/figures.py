"""Counters the reliability tests fill in and the terminal summary prints.

Under pytest-xdist each worker counts its own tests; the workers hand their counters
to the controlling process as they finish (``workeroutput``), which adds them up, so
the summary shows the same totals as a run in one process.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

FIGURES: Counter[str] = Counter()

LABELS = {
    "inputs": "bad inputs tried (slash commands with arbitrary options)",
    "refusals": "  of which refused (ephemeral one sentence, nothing written)",
    "permission_cases": "permission cases (command x GM/owner/other)",
    "raced": "operations raced (simultaneous commands, clicks, cross-process writes)",
    "kills": "SIGKILLs survived (integrity ok, every op all-or-nothing)",
    "kill_ops": "  ops committed across those kills, all checked",
    "secret_checks": "places searched for the token",
}


def count(name: str, amount: int = 1) -> None:
    FIGURES[name] += amount


class WorkerFigures:
    """The xdist hooks: a worker sends its counters, the controller adds them up."""

    def pytest_sessionfinish(self, session: Any) -> None:
        output = getattr(session.config, "workeroutput", None)
        if output is not None:  # (a worker)
            output["reliability_figures"] = dict(FIGURES)

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        FIGURES.update(getattr(node, "workeroutput", {}).get("reliability_figures", {}))


def write_summary(terminalreporter: Any) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for key, label in LABELS.items():
        if key in FIGURES:
            terminalreporter.write_line(f"{label}: {FIGURES[key]}")
    for key, value in sorted(FIGURES.items()):
        if key not in LABELS:
            terminalreporter.write_line(f"{key}: {value}")
