"""Faults: SIGKILL while commands write, a restart afterwards, bad database paths.

A child process (tests/reliability/worker.py ``loop``) runs real write commands
through the repositories, each one transaction holding its effects and a ledger row;
it is SIGKILLed at random moments. After every kill ``PRAGMA integrity_check`` is ok
and the effects equal the ledger (no command half applied). Then a new TableBot on
the same file carries on: the roll's persistent button and the tracker still work.
``scripts/kill_test.py`` runs the same loop for hundreds of kills.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import RandomDice, ScriptedDice
from tests.cogs.test_check import make_character
from tests.cogs.test_init_acceptance import restart
from tests.cogs.test_roll_buttons import fresh, last_roll, set_points
from tests.reliability.faults import kill_loop
from tests.reliability.figures import count
from tests.support.slash import SlashHarness
from tests.test_startup import DUMMY_TOKEN, run_bot

CI_KILLS = 30


@pytest.mark.both_backends
async def test_sigkill_while_writing_then_restart_carries_on(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    gm = {"user": slash.members[0], "manage_guild": True}
    owner = slash.members[1]
    mira = await make_character(bot, owner, "Mira", training={"athletics": 1})
    await set_points(bot, mira, hero_points=2)
    await slash.run("init begin", **gm)
    await slash.run("init add", name="Rat", count=3, **gm)
    await slash.run("init join", user=owner)
    await slash.run("init next", **gm)
    bot.dice = ScriptedDice([1, 2, 1, 2])
    await slash.run("check", skill="athletics", user=owner)
    roll = await last_roll(bot, mira)

    kills, ops = await asyncio.to_thread(
        kill_loop, settings.database_target, character=mira.id,
        guild=slash.guild.id, channel=slash.channel.id, kills=CI_KILLS, seed=1,
    )  # fmt: skip
    count("kills", kills)
    count("kill_ops", ops)
    assert ops > 0  # the writer did get work done between kills

    service = bot.get_cog("Initiative").service  # type: ignore[union-attr]
    before = await service.load(slash.channel.id)
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        new_bot.dice = RandomDice(random.Random(3))
        new_owner = new_slash.members[1]
        # The roll's button from before the restart (and the kills) still works.
        clicked = await new_slash.click(custom_id=f"roll:hero:{roll.id}:0", user=new_owner)
        assert not clicked.ephemeral, clicked.content
        assert (await fresh(new_bot, mira)).state.hero_points == 1
        # The tracker carries on from the state the killed writer left.
        nxt = await new_slash.run("init next", user=new_slash.members[0], manage_guild=True)
        assert not nxt.ephemeral, nxt.content
        after = await new_bot.get_cog("Initiative").service.load(slash.channel.id)  # type: ignore[union-attr]
        assert after.state.turn == before.state.turn + 1
        listed = await new_slash.run("init list", user=new_owner)
        assert listed.embeds and listed.ephemeral
    finally:
        await new_db.close()
    if bot.db.backend == "sqlite":  # (PostgreSQL's server keeps its own pages whole)
        with sqlite3.connect(settings.database_path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    await dpytest.empty_queue()


def one_clear_line(result) -> str:  # type: ignore[no-untyped-def]
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output, output
    lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_database_path_under_a_file_is_one_clear_line(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file, not a folder")
    line = one_clear_line(
        run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_PATH=str(blocker / "bot.sqlite3"))
    )
    assert "Database error" in line and str(blocker) in line


def test_database_path_in_proc_is_one_clear_line(tmp_path: Path) -> None:
    # Tests run as root, where chmod blocks nothing; /proc refuses new files to anyone.
    line = one_clear_line(
        run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_PATH="/proc/tablebot/bot.sqlite3")
    )
    assert "Database error" in line


def test_database_path_that_is_a_folder_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "db-folder"
    folder.mkdir()
    line = one_clear_line(run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_PATH=str(folder)))
    assert "Database error" in line


def test_damaged_pages_are_one_clear_line_every_time(tmp_path: Path) -> None:
    """A real database with a page overwritten: refused at each start (no crash loop
    that half-starts, writes, and dies), and the file is left as it was."""
    path = tmp_path / "damaged.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,) for _ in range(200)])
    conn.close()
    data = bytearray(path.read_bytes())
    data[4096 * 2 : 4096 * 2 + 512] = b"\xff" * 512  # smash the third page
    path.write_bytes(bytes(data))
    for _ in range(2):
        line = one_clear_line(run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_PATH=str(path)))
        assert "Database error" in line
    # Only the header's WAL flag (bytes 18-19, set on open) may differ: no page written.
    assert path.read_bytes()[100:] == bytes(data)[100:]


@pytest.mark.parametrize("size", [0, 100, 4096])
def test_truncated_database_is_one_clear_line_or_a_fresh_start(tmp_path: Path, size: int) -> None:
    """A file cut short by a crash: an empty file is a fresh database (migrated);
    anything else is refused with one line."""
    source = tmp_path / "good.sqlite3"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE t (x TEXT)")
        conn.executemany("INSERT INTO t VALUES (?)", [("y" * 300,) for _ in range(100)])
    conn.close()
    path = tmp_path / "cut.sqlite3"
    path.write_bytes(source.read_bytes()[:size])
    result = run_bot(tmp_path, DISCORD_TOKEN=DUMMY_TOKEN, DATABASE_PATH=str(path))
    if size == 0:
        assert "logging in to Discord" in result.stdout + result.stderr
        assert "Traceback" not in result.stdout + result.stderr
    else:
        assert "Database error" in one_clear_line(result)
