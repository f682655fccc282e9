"""The dying clock through the slash harness: the prompt to the owner, the GM's roll,
exactly one test under double presses, and a prompt that survives a restart."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.hocs.conditions import Condition, Conditions
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.characters import Character
from bot.storage.hocs.encounters import EncounterRepository
from tests.cogs.test_init_acceptance import restart
from tests.cogs.test_init_commands import (
    assert_tracker_matches,
    character,
    gm,
    make_character,
    stored,
)
from tests.support.slash import SlashHarness, SlashResult
from tests.support.slash_channel import SentMessage

DYING = Conditions.of(Condition.UNCONSCIOUS, Condition.DYING)


async def dying_aria(bot: TableBot, slash: SlashHarness) -> Character:
    """Aria (STR 3, members[0]) at −2 HP, unconscious and dying, in an encounter with a goblin,
    round 1 started; her dying test is moved to round 2 (the schedule itself is tested in
    tests/rules/hocs/test_dying_clock.py)."""
    aria = await make_character(bot, slash.members[0], "Aria")
    async with bot.db.transaction() as conn:
        vitals = CharacterVitalsRepository(conn)
        await vitals.adjust_hp(aria.id, -14)
        await vitals.set_conditions(aria.id, DYING)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", user=slash.members[0])
    await slash.run("init add", name="Goblin", **gm(slash))
    bot.dice = RandomDice(random.Random(2))
    await slash.run("init next", **gm(slash))
    record = await stored(bot, slash.channel.id)
    [me] = [p for p in record.state.participants if p.name == "Aria"]
    assert me.clock is not None and me.clock.due_round == 31  # 1 + STR 3 × 10 rounds
    async with bot.db.transaction() as conn:
        repo = EncounterRepository(conn)
        raw = await repo.get_by_channel(slash.channel.id)
        assert raw is not None
        moved = replace(me, clock=replace(me.clock, due_round=2))
        participants = tuple(moved if p.id == me.id else p for p in raw.state.participants)
        await repo.save(raw, replace(raw.state, participants=participants))
    return aria


async def next_until_prompt(bot: TableBot, slash: SlashHarness) -> tuple[SlashResult, SentMessage]:
    for _ in range(6):
        result = await slash.run("init next", **gm(slash))
        prompts = [m for m in result.channel_messages if "must make a" in (m.content or "")]
        if prompts:
            return result, prompts[0]
    raise AssertionError("no prompt was posted")


async def test_the_owner_is_prompted_when_the_test_falls_due_and_rolls_stable(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria = await dying_aria(bot, slash)
    turn, prompt = await next_until_prompt(bot, slash)
    assert (await stored(bot, slash.channel.id)).state.round == 2
    assert "Aria's dying test is due now" in str(turn.embeds)
    player = slash.members[0]
    assert prompt.content == f"<@{player.id}> **Aria** must make a dying test."
    assert prompt.allowed_mentions["users"] == [str(player.id)]
    assert [b["label"] for b in prompt.buttons] == ["Roll with physique", "Roll with willpower"]
    willpower_id = prompt.buttons[1]["custom_id"]
    # Someone else's player can't roll it.
    other = await slash.click(prompt, label="Roll with physique", user=slash.members[1])
    assert other.ephemeral and "Aria isn't yours" in (other.content or "")
    bot.dice = ScriptedDice([4, 5, 6])
    rolled = await slash.click(prompt, label="Roll with physique", user=player)
    assert rolled.responses[0].type == 7 and rolled.components == []
    assert (
        "🎲 Aria's dying test (Physique (STR 3): 4 5 6): 3 successes vs 3 — stable, still"
        " unconscious." in rolled.embeds[0]["description"]
    )
    stored_aria = await character(bot, aria.id)
    assert stored_aria.state.conditions == Conditions.of(Condition.UNCONSCIOUS, Condition.STABLE)
    # A second press (a client that still shows the buttons) rolls nothing.
    again = await slash.click(custom_id=willpower_id, user=player)
    assert again.ephemeral and "already been rolled" in (again.content or "")
    record = await stored(bot, slash.channel.id)
    [me] = [p for p in record.state.participants if p.name == "Aria"]
    assert me.clock is not None and me.clock.kind.value == "unconscious"
    assert me.clock.due_round == 302
    tracker = await assert_tracker_matches(bot, slash.channel)
    assert "unconscious test in round 302" in (tracker.embeds[0].description or "")
    await dpytest.empty_queue()


async def test_the_gm_rolls_it_for_the_player_and_a_failure_kills(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria = await dying_aria(bot, slash)
    _, prompt = await next_until_prompt(bot, slash)
    bot.dice = ScriptedDice([1, 2])  # willpower: MIND 2
    rolled = await slash.click(prompt, label="Roll with willpower", **gm(slash))
    assert "0 successes vs 3 — dies." in rolled.embeds[0]["description"]
    assert Condition.DEAD in (await character(bot, aria.id)).state.conditions
    record = await stored(bot, slash.channel.id)
    assert all(p.clock is None for p in record.state.participants)
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_simultaneous_presses_roll_exactly_one_test(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria = await dying_aria(bot, slash)
    _, prompt = await next_until_prompt(bot, slash)
    dice = ScriptedDice([4, 5, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    bot.dice = dice
    ids = [b["custom_id"] for b in prompt.buttons]
    first = len(slash.responses)
    await asyncio.gather(
        *(slash.click(custom_id=custom_id, user=slash.members[0]) for custom_id in (*ids, *ids))
    )
    # Results interleave under concurrency: read the recorder directly.
    answers = [r for r in slash.responses[first:] if r.kind == "callback"]
    edits = [r for r in answers if r.type == 7]
    refusals = [r for r in answers if r.type == 4 and r.ephemeral]
    assert len(edits) == 1 and len(refusals) == 3
    assert all("already been rolled" in (r.content or "") for r in refusals)
    assert len(dice.requests) == 3  # one test of 3 dice was rolled
    conditions = (await character(bot, aria.id)).state.conditions
    assert conditions == Conditions.of(Condition.UNCONSCIOUS, Condition.STABLE)
    await dpytest.empty_queue()


async def test_the_prompt_works_after_a_restart(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    aria = await dying_aria(bot, slash)
    _, prompt = await next_until_prompt(bot, slash)
    [custom_id] = [b["custom_id"] for b in prompt.buttons if b["label"] == "Roll with physique"]
    assert len(custom_id) <= 100
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        new_bot.dice = ScriptedDice([4, 4, 4])
        rolled = await new_slash.click(custom_id=custom_id, user=new_slash.members[0])
        assert "3 successes vs 3 — stable" in rolled.embeds[0]["description"]
        stored_aria = await character(new_bot, aria.id)
        assert Condition.STABLE in stored_aria.state.conditions
    finally:
        await new_db.close()
    await dpytest.empty_queue()
