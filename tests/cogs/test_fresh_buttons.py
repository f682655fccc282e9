"""A fresh roll's buttons come from the rolls its command holds, not parsed back from
the roll log (the fast path): they must be exactly the buttons the log gives, as a
restart or a later press draws them."""

from __future__ import annotations

import random
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import RandomDice
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.roll_log import RollLogRepository
from cogs.hocs.damage_buttons import damage_view
from cogs.hocs.points.views import view_for_roll
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_combat_helpers import buttons, gm, player
from tests.cogs.test_roll_buttons import grant, set_points
from tests.support.slash import SlashHarness, SlashResult


def shown(result: SlashResult) -> list[tuple[Any, ...]]:
    return [(b.get("custom_id"), b.get("label"), b.get("disabled", False)) for b in buttons(result)]


async def from_the_log(bot: TableBot) -> list[tuple[Any, ...]]:
    async with bot.db.read() as conn:
        [latest] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
        view = await view_for_roll(conn, latest.id)
    if view is None:
        return []
    return [
        (c.get("custom_id"), c.get("label"), c.get("disabled", False))
        for row in view.to_components()
        for c in row["components"]
    ]


async def choice_from_the_store(bot: TableBot) -> list[tuple[Any, ...]]:
    """The buttons of the newest damage choice as a later read draws them."""
    async with bot.db.read() as conn, conn.execute("SELECT MAX(id) FROM damage_choices") as cur:
        row = await cur.fetchone()
        view = await damage_view(conn, row[0] if row else None)
    if view is None:
        return []
    return [
        (c.get("custom_id"), c.get("label"), c.get("disabled", False))
        for row in view.to_components()
        for c in row["components"]
    ]


async def heal(bot: TableBot, *characters: Character) -> None:
    """Back to full health, so attacks go on (the test is about buttons, not harm)."""
    async with bot.db.transaction() as conn:
        for character in characters:
            await conn.execute(
                "UPDATE characters SET hp = ?, temp_hp = 0, nonlethal = 0, conditions = '[]',"
                " wounds = '[]' WHERE id = ?",
                (character.state.hp, character.id),
            )


async def test_fresh_buttons_are_the_ones_the_roll_log_gives(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)  # Bram (a PC with a greatsword) and Gob (an antagonist)
    async with bot.db.read() as conn:
        repo = CharacterRepository(conn)
        bram, gob = (
            await repo.find(bot.guilds[0].id, "Bram"),
            await repo.find(bot.guilds[0].id, "Gob"),
        )
    assert bram is not None and gob is not None
    await grant(bot, bram, "luck")
    bot.dice = RandomDice(random.Random(11))
    rng = random.Random(5)
    seen: set[tuple[str, int]] = set()
    for _ in range(25):
        # Points vary so every kind of button comes and goes; Gob is healed each time.
        await set_points(bot, bram, hero_points=rng.randint(0, 1), determination=rng.randint(0, 1))
        await set_points(bot, gob, determination=rng.randint(0, 1))
        skill = rng.choice(("Athletics", "Strength", "Agility", "Mind"))
        boons, banes = rng.randint(0, 2), rng.randint(0, 2)
        for command, options in (
            ("check", {"skill": skill, "boons": boons, "banes": banes}),
            ("pool", {"dice": rng.randint(1, 5), "banes": banes}),
            ("clash", {"skill": skill, "opponent": "Gob", "banes": banes}),
            ("clash", {"skill": skill, "opponent": str(rng.randint(1, 4)), "boons": boons}),
            ("attack", {"target": "Gob", "character": "Bram"}),
        ):
            await heal(bot, bram, gob)
            result = await slash.run(command, **options, **player(slash))
            assert not result.ephemeral, result.content
            assert shown(result) == await from_the_log(bot), (command, options)
            seen.add((command, len(shown(result))))
        await heal(bot, bram, gob)
        result = await slash.run(
            "attack", target="Bram", character="Gob", weapon="1d8", **gm(slash)
        )
        assert not result.ephemeral, result.content
        assert shown(result) == await from_the_log(bot)
        for options in (
            {"dice": "2d6 1d4", "target": "Gob", **gm(slash)},
            {"dice": "Greatsword", "target": "Gob", **player(slash)},
        ):
            await heal(bot, bram, gob)
            result = await slash.run("damage", **options)
            assert not result.ephemeral, result.content
            # Gob's threshold row (when a test was rolled), then the damage choice's.
            assert shown(result) == await from_the_log(bot), options
            if not any(str(b[0]).startswith("roll:") for b in shown(result)):
                assert shown(result) == await choice_from_the_store(bot), options
            seen.add(("damage", len(shown(result))))
    # The comparison covered replies with and without buttons.
    assert {n for _, n in seen} >= {0, 1} and max(n for _, n in seen) >= 3
    await dpytest.empty_queue()
