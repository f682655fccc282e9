"""The SIGKILL loop shared by test_faults.py and scripts/kill_test.py.

``target`` is a SQLite file's path or a ``postgresql://`` URL: the checks read it
through the matching synchronous driver (sqlite3 or psycopg).
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Baseline:
    determination: int
    hp: int
    turn: int
    encounter_version: int
    rolls: int


class _Sync:
    """A synchronous connection to either backend, ``?`` placeholders on both."""

    def __init__(self, target: Path | str) -> None:
        self.postgres = str(target).startswith(("postgresql://", "postgres://"))
        if self.postgres:
            import psycopg

            self._conn = psycopg.connect(str(target), autocommit=True)
        else:
            self._conn = sqlite3.connect(target)

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> Any:
        if self.postgres:
            return self._conn.execute(sql.replace("?", "%s"), params)
        return self._conn.execute(sql, params)

    def integrity(self) -> str:
        # SQLite checks its own file; a PostgreSQL server keeps its pages consistent
        # itself (the effects-equal-ledger check below still runs on both).
        if self.postgres:
            return "ok"
        [(integrity,)] = self._conn.execute("PRAGMA integrity_check").fetchall()
        return str(integrity)

    def has_ledger(self) -> bool:
        if self.postgres:
            return self.execute("SELECT to_regclass('reliability_ops')").fetchone()[0] is not None
        found = self.execute("SELECT 1 FROM sqlite_master WHERE name = 'reliability_ops'")
        return found.fetchone() is not None

    def close(self) -> None:
        self._conn.close()


def baseline(path: Path | str, character: int, channel: int) -> Baseline:
    conn = _Sync(path)
    try:
        det, hp = conn.execute(
            "SELECT determination, hp FROM characters WHERE id = ?", (character,)
        ).fetchone()
        turn, version = conn.execute(
            "SELECT turn, version FROM encounters WHERE channel_id = ?", (channel,)
        ).fetchone()
        rolls = conn.execute("SELECT COUNT(*) FROM roll_log WHERE kind = 'reliability'").fetchone()[
            0
        ]
    finally:
        conn.close()
    return Baseline(det, hp, turn, version, rolls)


def check(path: Path | str, character: int, channel: int, base: Baseline) -> int:
    """Integrity ok and effects == ledger; returns how many ops the ledger holds."""
    conn = _Sync(path)
    try:
        integrity = conn.integrity()
        assert integrity == "ok", integrity
        ops = (
            {
                kind: (n, total)
                for kind, n, total in conn.execute(
                    "SELECT kind, COUNT(*), COALESCE(SUM(delta), 0) FROM reliability_ops"
                    " GROUP BY kind"
                )
            }
            if conn.has_ledger()
            else {}
        )
        det_ops, det_delta = ops.get("det", (0, 0))
        _, hp_delta = ops.get("hp", (0, 0))
        turn_ops, _ = ops.get("turn", (0, 0))
        det, hp = conn.execute(
            "SELECT determination, hp FROM characters WHERE id = ?", (character,)
        ).fetchone()
        turn, version = conn.execute(
            "SELECT turn, version FROM encounters WHERE channel_id = ?", (channel,)
        ).fetchone()
        rolls = conn.execute("SELECT COUNT(*) FROM roll_log WHERE kind = 'reliability'").fetchone()[
            0
        ]
        assert det == base.determination + det_delta, (det, base, ops)
        assert rolls == base.rolls + det_ops, (rolls, base, ops)
        assert hp == base.hp + hp_delta, (hp, base, ops)
        assert turn == base.turn + turn_ops, (turn, base, ops)
        assert version == base.encounter_version + turn_ops, (version, base, ops)
        return sum(n for n, _ in ops.values())
    finally:
        conn.close()


def kill_loop(
    path: Path | str, *, character: int, guild: int, channel: int, kills: int, seed: int = 0
) -> tuple[int, int]:
    """Start the writer, SIGKILL it at a random moment, check, repeat ``kills`` times.

    Each writer is forked from one process that imported everything once (the worker's
    ``forkserver``): a separate process with its own connection, killed mid-write as a
    new interpreter would be, without paying an interpreter start per kill.
    Returns (kills survived, ops committed and checked).
    """
    rng = random.Random(seed)
    base = baseline(path, character, channel)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.worker", "forkserver",
         str(path), str(character), str(guild), str(channel)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    ops = 0
    try:
        _expect(server, "ready")
        for _ in range(kills):
            server.stdin.write("fork\n")
            server.stdin.flush()
            pid = int(_expect(server, "ready ").split()[1])
            time.sleep(rng.uniform(0.0, 0.12))
            os.kill(pid, signal.SIGKILL)
            server.stdin.write(f"reap {pid}\n")
            server.stdin.flush()
            status = _expect(server, f"exit {pid} ").split()[2]
            assert int(status) == -signal.SIGKILL, f"the writer ended with {status}"
            ops = check(path, character, channel, base)
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    return kills, ops


def _expect(server: subprocess.Popen[str], start: str) -> str:
    assert server.stdout is not None
    line = server.stdout.readline()
    if not line.startswith(start):
        server.kill()
        raise AssertionError(f"the writer did not start: {line!r} {server.stderr.read()}")  # type: ignore[union-attr]
    return line
