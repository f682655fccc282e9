"""The copy tool: a campaign database into an empty one (and back), verified row for
row, refusing a destination it must not write in one line."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord.ext.test as dpytest
import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import bot.storage.copy as copy_module
from bot.client import TableBot
from bot.rules.dice_source import RandomDice
from bot.storage.copy import CopyRefused, copy_database, load_order, row_hash
from tests.cogs.test_init_commands import begin_with_party, gm
from tests.support.slash import SlashHarness

ROOT = Path(__file__).resolve().parents[2]


async def play_a_little(bot: TableBot, slash: SlashHarness) -> Path:
    """A campaign as a table leaves it: characters, an encounter with its pinned
    tracker, a session, rolls in the log (one deleted: its id is never reused), GM
    memory, bookkeeping. Returns the database file, closed."""
    await begin_with_party(bot, slash)
    bot.dice = RandomDice(random.Random(15))  # (what is rolled does not matter here)
    await slash.run("init next", **gm(slash))
    await slash.run("session start", **gm(slash))
    await slash.run("check", skill="strength", user=slash.members[0])
    await slash.run("roll", expression="2d6 + 3", user=slash.members[1])
    await slash.run("roll", expression="1d20", user=slash.members[1])
    async with bot.db.transaction() as conn:
        await conn.execute("DELETE FROM roll_log WHERE id = (SELECT MAX(id) FROM roll_log)")
        await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('note', 'ünïcode ✓')")
    await dpytest.empty_queue()
    path = Path(bot.db.path)
    await bot.db.close()
    return path


def table_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (and the AUTOINCREMENT counters), sorted."""
    with sqlite3.connect(path) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {t: sorted(conn.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}


def run_tool(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.storage.copy", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_a_campaign_goes_there_and_back_row_for_row(
    bot: TableBot, slash: SlashHarness, tmp_path: Path
) -> None:
    source = await play_a_little(bot, slash)
    original = table_rows(source)
    played = [t for t, rows in original.items() if rows and t != "sqlite_sequence"]
    assert {"campaigns", "characters", "encounters", "roll_log", "sessions"} <= set(played)
    there, back = tmp_path / "there.sqlite3", tmp_path / "back.sqlite3"

    report = await copy_database(str(source), f"sqlite:{there}")
    assert table_rows(there) == original
    assert report.rows == sum(len(rows) for t, rows in original.items() if t != "sqlite_sequence")
    assert report.counters == dict(original["sqlite_sequence"])
    # the deleted roll's id stays used: the counter is above the highest id left
    highest = max(row[0] for row in original["roll_log"])
    assert report.counters["roll_log"] == highest + 1

    result = run_tool(f"sqlite:{there}", f"sqlite:{back}")
    assert result.returncode == 0, result.stderr
    assert table_rows(back) == original
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == (
        f"copied {report.rows} rows in {len(report.tables)} tables at schema version"
        f" {report.version}; every table's count and digest verified"
    )
    [roll_line] = [line for line in lines if line.startswith("roll_log ")]
    figures = {f.table: f for f in report.tables}["roll_log"]
    assert roll_line.split() == ["roll_log", str(figures.rows), "rows", figures.digest[:16]]


async def test_a_destination_with_rows_is_refused_and_left_alone(
    bot: TableBot, slash: SlashHarness, tmp_path: Path
) -> None:
    source = await play_a_little(bot, slash)
    dest = tmp_path / "used.sqlite3"
    await copy_database(str(source), str(dest))
    before = table_rows(dest)
    result = run_tool(str(source), str(dest))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: sqlite:{dest} is not empty (table active_characters has rows);"
        " copy into a new, empty database."
    ]
    assert table_rows(dest) == before


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("CREATE TABLE extra (x INTEGER)", "the schemas differ (table extra exists only in"),
        ("ALTER TABLE campaigns ADD COLUMN colour TEXT", "the schemas differ (table campaigns"),
    ],
)
async def test_a_destination_with_another_schema_is_refused(
    bot: TableBot, slash: SlashHarness, tmp_path: Path, change: str, says: str
) -> None:
    source = await play_a_little(bot, slash)
    dest = tmp_path / "other.sqlite3"
    with sqlite3.connect(source) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    with sqlite3.connect(dest) as conn:
        conn.executescript((ROOT / "migrations" / "0001-initial.sql").read_text())
    # the same version, but not the same tables: made by another build of the bot
    from bot.storage.migrations import discover

    with sqlite3.connect(dest) as conn:
        for migration in discover()[1:]:
            conn.executescript(migration.sql)
        conn.execute(change)
        conn.execute(f"PRAGMA user_version = {version}")
    result = run_tool(str(source), str(dest))
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {says}") and "this version of the bot" in line


async def test_a_destination_newer_than_the_code_is_refused(
    bot: TableBot, slash: SlashHarness, tmp_path: Path
) -> None:
    source = await play_a_little(bot, slash)
    dest = tmp_path / "future.sqlite3"
    with sqlite3.connect(dest) as conn:
        conn.execute("PRAGMA user_version = 999")
    result = run_tool(str(source), str(dest))
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert "schema version 999" in line and "newer version of the bot" in line


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("missing.sqlite3", "x.sqlite3"), "error: the source database missing.sqlite3 does"),
        (("a.sqlite3", "a.sqlite3"), "error: the source and the destination are the same"),
        (("a.sqlite3", "mysql://h/db"), "error: unknown database URL scheme mysql"),
    ],
)
def test_wrong_urls_are_one_line(tmp_path: Path, args: tuple[str, str], line: str) -> None:
    result = run_tool(*args, cwd=tmp_path)
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(line)
    assert not (tmp_path / "x.sqlite3").exists()  # nothing created for a refused copy


async def test_a_row_lost_on_the_way_is_caught_and_nothing_is_kept(
    bot: TableBot, slash: SlashHarness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = await play_a_little(bot, slash)
    real = copy_module.run_many

    async def lossy(conn: Any, sql: str, rows: Any) -> None:
        rows = list(rows)
        if '"characters"' in sql:
            rows = rows[:-1]  # a driver that drops the last row of a batch
        await real(conn, sql, rows)

    monkeypatch.setattr(copy_module, "run_many", lossy)
    dest = tmp_path / "lossy.sqlite3"
    with pytest.raises(CopyRefused, match="verification failed for table characters"):
        await copy_database(str(source), str(dest))
    assert all(not rows for t, rows in table_rows(dest).items() if t != "sqlite_sequence")


@hypothesis_settings(deadline=None)  # a shared, loaded machine: no timing in tests
@given(
    rows=st.lists(
        st.tuples(st.integers(), st.text(max_size=5), st.none() | st.floats(allow_nan=False)),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
)
def test_the_digest_ignores_order_but_not_content(rows: list[Any], data: st.DataObject) -> None:
    def digest(rows: list[Any]) -> int:
        return sum(row_hash(row) for row in rows) % 2**256

    shuffled = data.draw(st.permutations(rows))
    assert digest(shuffled) == digest(rows)
    changed = [(rows[0][0] + 1, *rows[0][1:]), *rows[1:]]
    assert digest(changed) != digest(rows)
    assert digest(rows + rows[:1]) != digest(rows)  # a doubled row shows


def test_tables_load_after_the_tables_they_reference() -> None:
    parents = {
        "campaigns": set(),
        "characters": {"campaigns"},
        "encounters": {"campaigns"},
        "encounter_participants": {"encounters", "characters"},
        "tree": {"tree"},  # a self-reference does not block
    }
    order = load_order(parents)
    assert order.index("campaigns") < order.index("characters")
    assert order.index("characters") < order.index("encounter_participants")
    assert order.index("encounters") < order.index("encounter_participants")
    assert sorted(order) == sorted(parents)
