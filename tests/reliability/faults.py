"""The SIGKILL loop shared by test_faults.py and scripts/kill_test.py."""

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

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Baseline:
    determination: int
    hp: int
    turn: int
    encounter_version: int
    rolls: int


def baseline(path: Path, character: int, channel: int) -> Baseline:
    with sqlite3.connect(path) as conn:
        det, hp = conn.execute(
            "SELECT determination, hp FROM characters WHERE id = ?", (character,)
        ).fetchone()
        turn, version = conn.execute(
            "SELECT turn, version FROM encounters WHERE channel_id = ?", (channel,)
        ).fetchone()
        rolls = conn.execute("SELECT COUNT(*) FROM roll_log WHERE kind = 'reliability'").fetchone()[
            0
        ]
    conn.close()
    return Baseline(det, hp, turn, version, rolls)


def check(path: Path, character: int, channel: int, base: Baseline) -> int:
    """Integrity ok and effects == ledger; returns how many ops the ledger holds."""
    conn = sqlite3.connect(path)
    try:
        [(integrity,)] = conn.execute("PRAGMA integrity_check").fetchall()
        assert integrity == "ok", integrity
        ops = (
            {
                kind: (n, total)
                for kind, n, total in conn.execute(
                    "SELECT kind, COUNT(*), COALESCE(SUM(delta), 0) FROM reliability_ops"
                    " GROUP BY kind"
                )
            }
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'reliability_ops'").fetchone()
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
    path: Path, *, character: int, guild: int, channel: int, kills: int, seed: int = 0
) -> tuple[int, int]:
    """Start the writer, SIGKILL it at a random moment, check, repeat ``kills`` times.

    Returns (kills survived, ops committed and checked).
    """
    rng = random.Random(seed)
    base = baseline(path, character, channel)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    ops = 0
    for _ in range(kills):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.worker", "loop",
             str(path), str(character), str(guild), str(channel)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if line.strip() != "ready":
            proc.kill()
            raise AssertionError(f"the writer did not start: {line!r} {proc.stderr.read()}")  # type: ignore[union-attr]
        time.sleep(rng.uniform(0.0, 0.12))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read()  # type: ignore[union-attr]
        ops = check(path, character, channel, base)
    return kills, ops
