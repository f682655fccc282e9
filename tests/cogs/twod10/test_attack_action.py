"""Ruling attack-action through /attack: on its side's turn a seated attacker's attack takes
the attack action (an extra attack once it is used; an offhand attack the bonus action,
ruling offhand-bonus), and with nothing left /attack is refused before any die; on the
other side's turn, and before the fight starts, it marks nothing."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.initiative.model import Action, TurnState
from tests.cogs.twod10.combat_helpers import gm, player, players_turn, refused, script, table, text
from tests.cogs.twod10.conftest import Restart
from tests.cogs.twod10.rounds_support import stored, tracker_line
from tests.support.slash import SlashHarness, SlashResult

USED = "Aria has already used their attack this turn."


async def hit(bot: TableBot, slash: SlashHarness, **options: object) -> SlashResult:
    script(bot, 5, 5, 3)
    return await slash.run("attack", target="Gob", **options, **player(slash))


async def aria_state(bot: TableBot, slash: SlashHarness) -> TurnState:
    record = await stored(bot, slash.channel.id)
    [aria] = [c.id for c in record.encounter.combatants if c.name == "Aria"]
    return record.encounter.state(aria)


async def test_a_second_attack_in_the_turn_is_refused_before_any_die(
    bot: TableBot, slash: SlashHarness
) -> None:
    await players_turn(bot, slash)
    assert not (await hit(bot, slash)).ephemeral
    assert (await aria_state(bot, slash)).actions == frozenset({Action.ATTACK})
    assert await tracker_line(bot, slash, "Aria") == (
        "**Aria** (finesse +2) · HP 15/15 · ⚔️ attack · 🎒 moves 25 ft"
    )
    before = await stored(bot, slash.channel.id)
    scripted = script(bot, 5, 5, 3)
    refused(await slash.run("attack", target="Gob", weapon="Longbow", **player(slash)), USED)
    assert scripted.requests == []
    assert (await stored(bot, slash.channel.id)).version == before.version
    await dpytest.empty_queue()


async def test_an_attack_given_up_leaves_none(bot: TableBot, slash: SlashHarness) -> None:
    await players_turn(bot, slash)
    await slash.run("init act", action="dash", **player(slash))
    scripted = script(bot, 5, 5, 3)
    refused(
        await slash.run("attack", target="Gob", **player(slash)),
        "Aria gave up their attack this turn to dash: no attack left until their side's next turn.",
    )
    assert scripted.requests == []
    await dpytest.empty_queue()


async def test_an_extra_attack_pays_for_one_more(bot: TableBot, slash: SlashHarness) -> None:
    await players_turn(bot, slash)
    # 18 + 5 − 2 + 9 = 30: 25 or more, one more attack this turn.
    script(bot, 9, 9, 1)
    said = text(await slash.run("attack", target="Gob", bonus=9, **player(slash)))
    assert "Tracker: one more attack this turn (25 or more)." in said
    state = await aria_state(bot, slash)
    assert state.actions == frozenset({Action.ATTACK}) and state.extra_attacks == 1
    assert not (await hit(bot, slash)).ephemeral  # the extra attack
    state = await aria_state(bot, slash)
    assert state.actions == frozenset({Action.ATTACK}) and state.extra_attacks == 0
    scripted = script(bot, 5, 5, 3)
    refused(await slash.run("attack", target="Gob", **player(slash)), USED)
    assert scripted.requests == []
    await dpytest.empty_queue()


async def test_an_offhand_attack_takes_the_bonus_action(bot: TableBot, slash: SlashHarness) -> None:
    await players_turn(bot, slash)
    assert not (await hit(bot, slash, weapon="Light sword", offhand=True)).ephemeral
    assert await aria_state(bot, slash) == TurnState(
        actions=frozenset({Action.BONUS}), offhand_attack=True
    )
    assert not (await hit(bot, slash, weapon="One-handed sword", finesse=True)).ephemeral
    scripted = script(bot, 5, 5, 3)
    refused(
        await slash.run("attack", target="Gob", weapon="Light sword", offhand=True,
                        **player(slash)),
        "Aria has already used their bonus action this turn: an offhand attack takes it.",
    )  # fmt: skip
    assert scripted.requests == []
    await dpytest.empty_queue()


async def test_off_the_turn_and_before_the_fight_attacks_mark_nothing(
    bot: TableBot, slash: SlashHarness
) -> None:
    await table(bot, slash)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Gob", **gm(slash))
    for _ in range(2):  # not started: no action economy yet
        assert not (await hit(bot, slash)).ephemeral
    assert (await aria_state(bot, slash)).actions == frozenset()
    await slash.run("hp", target="Gob", change="set 15", **gm(slash))  # healed for more
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 5)  # the NPCs go first
    await slash.run("init next", **gm(slash))
    for _ in range(2):  # on the NPCs' turn an attack is a reaction (/init react keeps it)
        assert not (await hit(bot, slash)).ephemeral
    assert (await aria_state(bot, slash)).actions == frozenset()
    await dpytest.empty_queue()


async def test_the_attack_used_stays_used_across_a_restart(restart: Restart) -> None:
    first, slash = restart.bot, restart.slash
    await players_turn(first, slash)
    await hit(first, slash)

    second, again = await restart.restart()
    scripted = script(second, 5, 5, 3)
    refused(await again.run("attack", target="Gob", **player(again)), USED)
    assert scripted.requests == []
