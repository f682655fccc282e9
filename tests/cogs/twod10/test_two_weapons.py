"""Two-weapon fighting: "Both weapons must be used with finesse." In a tracked fight the
tracker remembers the round's grip (ruling two-weapon-finesse)."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import player, players_turn, refused, script, table
from tests.support.slash import SlashHarness


async def attack(slash: SlashHarness, weapon: str, **options: object):  # type: ignore[no-untyped-def]
    return await slash.run("attack", target="Gob", weapon=weapon, **options, **player(slash))


async def test_no_offhand_attack_after_a_strength_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash)
    script(bot, 5, 5, 3)
    assert not (await attack(slash, "One-handed sword")).ephemeral  # strength
    scripted = script(bot, 5, 5, 3)
    refused(
        await attack(slash, "Light sword", offhand=True),
        "Aria attacked with strength this round: two-weapon fighting needs both weapons used"
        " with finesse.",
    )
    assert scripted.requests == []
    await dpytest.empty_queue()


async def test_after_an_offhand_attack_the_main_weapon_uses_finesse(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash)
    script(bot, 5, 5, 3)
    assert not (await attack(slash, "Light sword", offhand=True)).ephemeral
    scripted = script(bot, 5, 5, 3)
    refused(
        await attack(slash, "One-handed sword"),
        "Aria fights with an offhand weapon this round: the main weapon attacks with finesse"
        " too (finesse:True).",
    )
    assert scripted.requests == []
    script(bot, 5, 5, 3)
    with_finesse = await attack(slash, "One-handed sword", finesse=True)
    assert "natural 10 + 2 finesse + 2 melee" in with_finesse.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_a_new_round_starts_with_no_grip_and_untracked_attacks_are_free(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)  # no tracker: nothing to remember the grip by
    for weapon, options in (("One-handed sword", {}), ("Light sword", {"offhand": True})):
        script(bot, 5, 5, 3)
        assert not (await attack(slash, weapon, **options)).ephemeral
    await dpytest.empty_queue()
