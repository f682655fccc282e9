"""Concurrency: hundreds of simultaneous spends, hits and turns; two processes on one file.

Stronger versions of the cog tests (100 clicks, 50 nexts, 20 hits): commands and
buttons mixed, one point shared by hundreds, and a second OS process racing the bot's
own repositories on the same SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.encounters import EncounterRepository
from tests.cogs.test_check import make_character
from tests.cogs.test_roll_buttons import fresh, grant, labels, last_roll, set_points
from tests.reliability.figures import count
from tests.support.slash import SlashHarness, SlashResult

ROOT = Path(__file__).resolve().parents[2]
# Every test here runs on SQLite and on PostgreSQL (tests/conftest.py).
pytestmark = pytest.mark.both_backends
SPENDERS = 300


def answers_since(slash: SlashHarness, first: int) -> tuple[list[Any], list[Any]]:
    """(successes, refusals) among the interaction answers recorded since ``first``.

    Concurrent runs share the recorder, so answers are read from it directly: a success
    is a public message (a new reply or the roll's message edited), a refusal ephemeral.
    """
    answers = [r for r in slash.responses[first:] if r.carries_message]
    return [r for r in answers if not r.ephemeral], [r for r in answers if r.ephemeral]


async def failed_roll(
    bot: TableBot, slash: SlashHarness, *, fortune: str | None = None, **points: int
) -> tuple[Any, SlashResult]:
    """Mira (member 1) holding ``points``, with a /check of four failed dice, and its reply."""
    mira = await make_character(bot, slash.members[1], "Mira", training={"athletics": 1})
    await set_points(bot, mira, **points)
    if fortune:
        await grant(bot, mira, fortune)
    bot.dice = ScriptedDice([1, 2, 1, 2])
    result = await slash.run("check", user=slash.members[1], skill="athletics")
    bot.dice = RandomDice(random.Random(99))
    return mira, result


async def test_300_hero_spends_on_one_point_spend_it_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira, roll = await failed_roll(bot, slash, hero_points=1)
    assert "Hero reroll" in labels(roll)
    owner, gm = slash.members[1], slash.members[0]
    first = len(slash.responses)
    attempts = []
    for n in range(SPENDERS):
        if n % 3 == 0:
            attempts.append(slash.click(roll, label="Hero reroll", user=owner))
        elif n % 3 == 1:
            attempts.append(slash.run("hero spend", option="reroll", user=owner))
        else:
            attempts.append(
                slash.run(
                    "hero spend", option="reroll", character="Mira", user=gm, manage_guild=True
                )
            )
    await asyncio.gather(*attempts)
    count("raced", SPENDERS)
    successes, refusals = answers_since(slash, first)
    assert len(successes) == 1 and len(refusals) == SPENDERS - 1
    assert (await fresh(bot, mira)).state.hero_points == 0
    assert (await last_roll(bot, mira)).result["revision"] == 1
    assert not any("error code" in (r.content or "") for r in refusals)
    await dpytest.empty_queue()


async def test_300_fortune_spends_on_one_source_spend_it_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira, roll = await failed_roll(bot, slash, fortune="luck")
    assert "Fortune reroll" in labels(roll)
    owner = slash.members[1]
    first = len(slash.responses)
    attempts = [
        slash.click(roll, label="Fortune reroll", user=owner)
        if n % 2
        else slash.run("fortune spend", source="luck", user=owner)
        for n in range(SPENDERS)
    ]
    await asyncio.gather(*attempts)
    count("raced", SPENDERS)
    successes, refusals = answers_since(slash, first)
    assert len(successes) == 1 and len(refusals) == SPENDERS - 1
    assert (await fresh(bot, mira)).fortune_sources == ()
    assert (await last_roll(bot, mira)).result["revision"] == 1
    await dpytest.empty_queue()


async def test_300_determination_spends_with_one_point_spend_it_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira, roll = await failed_roll(bot, slash, determination=1)
    assert "Spend determination" in labels(roll)
    owner = slash.members[1]
    first = len(slash.responses)
    attempts = [
        slash.click(roll, label="Spend determination", user=owner)
        if n % 2
        else slash.run("determination spend", user=owner)
        for n in range(SPENDERS)
    ]
    await asyncio.gather(*attempts)
    count("raced", SPENDERS)
    successes, refusals = answers_since(slash, first)
    assert len(successes) == 1 and len(refusals) == SPENDERS - 1
    assert (await fresh(bot, mira)).state.determination == 0
    assert (await last_roll(bot, mira)).result["revision"] == 1
    await dpytest.empty_queue()


async def test_50_simultaneous_hits_all_count(bot: TableBot, slash: SlashHarness) -> None:
    gm = {"user": slash.members[0], "manage_guild": True}
    giant = await make_character(bot, slash.members[0], "Giant", strength=5, active=False)
    await slash.run("hp", target="Giant", change="temp 40", **gm)
    start = (await fresh(bot, giant)).state
    bot.dice = ScriptedDice([1] * 25)  # each /damage 1d4 hits for 1
    hits = [
        slash.run("damage", dice="1d4", target="Giant", user=slash.members[1])
        if n % 2
        else slash.run("hp", target="Giant", change="-1", **gm)
        for n in range(50)
    ]
    results = await asyncio.gather(*hits)
    count("raced", 50)
    first_refusal = next((r.content for r in results if r.ephemeral), None)
    assert first_refusal is None, first_refusal
    end = (await fresh(bot, giant)).state
    assert start.temp_hp + start.hp - 50 == end.temp_hp + end.hp
    assert bot.dice.remaining == 0  # type: ignore[attr-defined]
    await dpytest.empty_queue()


async def test_100_simultaneous_init_next_advance_exactly_100_turns(
    bot: TableBot, slash: SlashHarness
) -> None:
    gm = {"user": slash.members[0], "manage_guild": True}
    await slash.run("init begin", **gm)
    await slash.run("init add", name="Rat", count=7, **gm)
    bot.dice = RandomDice(random.Random(5))
    await slash.run("init next", **gm)
    service = bot.get_cog("Initiative").service  # type: ignore[union-attr]
    start = await service.load(slash.channel.id)
    first = len(slash.responses)
    # Readers interleave with the writers: /init list must never see a torn state.
    runs = [slash.run("init next", **gm) for _ in range(100)]
    runs += [slash.run("init list", user=slash.members[1]) for _ in range(20)]
    await asyncio.gather(*runs)
    count("raced", 120)
    end = await service.load(slash.channel.id)
    assert end.state.turn == start.state.turn + 100
    assert end.version == start.version + 100
    public = [r for r in slash.responses[first:] if r.carries_message and not r.ephemeral]
    assert len(public) == 100
    await dpytest.empty_queue()


def start_racer(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return start_worker("race", args, env)


def start_worker(mode: str, args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.worker", mode, *args],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


async def start_together(procs: list[subprocess.Popen[str]]) -> None:
    """Once every worker has its database open, tell them all to go at once."""
    for proc in procs:
        assert proc.stdout is not None
        line = await asyncio.to_thread(proc.stdout.readline)
        assert line.strip() == "ready", line + (proc.stderr.read() if proc.stderr else "")
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()


async def test_two_processes_race_on_one_file_without_losing_a_write(
    bot: TableBot, slash: SlashHarness, settings: Settings, tmp_path: Path
) -> None:
    """This process (the bot's own connection) and two worker processes each spend
    hero points and log rolls + take HP on one character, all at once."""
    per_worker, workers, points = 200, 2, 300
    mira = await make_character(bot, slash.members[1], "Mira")
    await set_points(bot, mira, hero_points=points, hp=1000)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [settings.database_target, str(mira.id), str(slash.guild.id), str(per_worker)]
    procs = [start_racer(args, env) for _ in range(workers)]
    await start_together(procs)
    # Meanwhile the bot itself answers hero spends through its own connection.
    own_first = len(slash.responses)
    own = await asyncio.gather(
        *(slash.run("hero spend", option="action", user=slash.members[1]) for _ in range(100))
    )
    reports = []
    for proc in procs:
        out, err = await asyncio.to_thread(proc.communicate, timeout=120)
        assert proc.returncode == 0, err
        assert "locked" not in err, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    count("raced", per_worker * workers * 2 + len(own))
    assert all(not report["errors"] for report in reports), reports
    own_spent = len(
        [r for r in slash.responses[own_first:] if r.carries_message and not r.ephemeral]
    )
    assert not any("error code" in (r.content or "") for r in own if r.message is not None)
    spent = sum(report["spent"] for report in reports) + own_spent
    assert spent == points  # every point spent once: none twice, none lost
    assert sum(report["refused"] for report in reports) == per_worker * workers - (
        spent - own_spent
    )
    async with bot.db.read() as conn:
        after = await CharacterRepository(conn).get(mira.id)
        async with conn.execute(
            "SELECT COUNT(*) FROM roll_log WHERE kind = 'reliability'"
        ) as cursor:
            logged = (await cursor.fetchone())[0]
    assert after is not None and after.state.hero_points == 0
    assert logged == per_worker * workers
    assert after.state.hp == 1000 - per_worker * workers  # no lost HP update either
    await dpytest.empty_queue()


async def test_two_processes_advancing_one_encounter_lose_no_turn(
    bot: TableBot, slash: SlashHarness, settings: Settings, tmp_path: Path
) -> None:
    """Two worker processes each advance the channel's encounter 40 times at once: on
    SQLite the write lock, on PostgreSQL the encounter's row lock makes them take
    turns, so every advance lands on the state the other left (none refused, none lost,
    none applied twice)."""
    per_worker, workers = 40, 2
    gm = {"user": slash.members[0], "manage_guild": True}
    await slash.run("init begin", **gm)
    await slash.run("init add", name="Rat", count=3, **gm)
    await slash.run("init next", **gm)
    service = bot.get_cog("Initiative").service  # type: ignore[union-attr]
    before = await service.load(slash.channel.id)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [settings.database_target, str(slash.channel.id), str(per_worker)]
    procs = [start_worker("advance", args, env) for _ in range(workers)]
    await start_together(procs)
    reports = []
    for proc in procs:
        out, err = await asyncio.to_thread(proc.communicate, timeout=120)
        assert proc.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    count("raced", per_worker * workers)
    assert reports == [{"advanced": per_worker, "refused": 0, "errors": []}] * workers
    async with bot.db.read() as conn:
        after = await EncounterRepository(conn).get_by_channel(slash.channel.id)
    assert after is not None
    assert after.version == before.version + per_worker * workers
    assert after.state.turn == before.state.turn + per_worker * workers
    await dpytest.empty_queue()
