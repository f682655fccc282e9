"""The two ceilings every command family is compared with.

* Storage: one row inserted and committed per operation through aiosqlite, on the
  same file and with the same PRAGMAs and transaction statements as
  ``bot/storage/database.py`` (WAL, synchronous=NORMAL, ``BEGIN IMMEDIATE`` …
  ``COMMIT``). Every command family writes in at least one such transaction, so no
  family can go faster than this.
* Dice: the d20 library rolling an expression with about as many dice as the
  command rolls (no parsing cache, no rendering): the cost of the dice alone.

And the machine's own spread (``bench.machine``): the same pure-Python work, timed
again and again.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import aiosqlite
import d20

from bench.machine import fixed_work
from bench.workload import Sample
from bot.storage.database import BUSY_TIMEOUT_MS

PAYLOAD = json.dumps({"expression": "1d20+5", "rolls": [[17]], "total": 22, "label": None})


async def storage_ceiling(path: Path, n: int, *, warmup: int) -> Sample:
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_storage_ceiling (id INTEGER PRIMARY KEY"
            " AUTOINCREMENT, guild_id INTEGER NOT NULL, payload TEXT NOT NULL,"
            " created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
        )
        sample = Sample("storage: INSERT+COMMIT")
        clock = time.perf_counter_ns
        started = 0
        for i in range(warmup + n):
            if i == warmup:
                started = clock()
            before = clock()
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute(
                "INSERT INTO bench_storage_ceiling (guild_id, payload) VALUES (?, ?)",
                (i, PAYLOAD),
            )
            await conn.execute("COMMIT")
            if i >= warmup:
                sample.latencies_ns.append(clock() - before)
        sample.elapsed_ns = clock() - started
        sample.db_calls = 3 * n  # BEGIN IMMEDIATE, INSERT, COMMIT
        return sample
    finally:
        await conn.close()


def dice_ceiling(expression: str, n: int, *, warmup: int, parse: bool = False) -> Sample:
    """``d20.roll(expression)`` n times. d20 caches the parse of a plain expression;
    ``parse=True`` allows a trailing comment as /roll does, which parses every time."""
    sample = Sample(f"d20: {expression}" + (" (parsed each time)" if parse else ""))
    clock = time.perf_counter_ns
    for _ in range(warmup):
        d20.roll(expression, allow_comments=parse)
    started = clock()
    for _ in range(n):
        before = clock()
        d20.roll(expression, allow_comments=parse)
        sample.latencies_ns.append(clock() - before)
    sample.elapsed_ns = clock() - started
    return sample


def machine_spread(n: int, *, warmup: int) -> Sample:
    """``fixed_work`` n times in a block of its own: between the families' operations it
    left their caches colder and raised every ratio by about 0.1."""
    sample = Sample("machine: fixed Python work")
    clock = time.perf_counter_ns
    for _ in range(warmup):
        fixed_work()
    started = clock()
    for _ in range(n):
        before = clock()
        fixed_work()
        sample.latencies_ns.append(clock() - before)
    sample.elapsed_ns = clock() - started
    return sample
