"""The opponent swung as a weapon is hurt like any target (ruling opponent-weapon-damage):
half the damage dealt, rounded down, on its sheet, in the roll log row, ending its
concentration and failing its declared spell (ruling spell-interrupted)."""

from __future__ import annotations

import json
from typing import Any

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.twod10.magic import Form, Tier
from bot.rules.twod10.rulings import ruling
from bot.storage.twod10.magic import Held, TwoD10MagicRepository
from tests.cogs.twod10.combat_helpers import gm, player, script, sheet, text, twod10
from tests.cogs.twod10.rounds_support import stored
from tests.cogs.twod10.test_opponent_weapon import hold_gob
from tests.cogs.twod10.turn_support import next_players_turn
from tests.support.slash import SlashHarness

INTERRUPTED = (
    "Tracker: Gob's declared spell is interrupted by the damage: on their turn /init act"
    " declare spell casts it again, going off at the end of their next turn."
)


async def latest_log(bot: TableBot) -> dict[str, Any]:
    async with bot.db.read() as conn:
        cur = await conn.execute("SELECT result FROM roll_log ORDER BY id DESC LIMIT 1")
        row = await cur.fetchone()
    assert row is not None
    return json.loads(row[0])


async def swing_at_knight(bot: TableBot, slash: SlashHarness, face: int) -> str:
    # Gob at the Knight (defense 1): 8 + 8 + 3 + 2 − 1 = 20, the opponent's d10 up to the
    # d12; ``face`` + 3 strength − the Knight's reduction 7 is dealt.
    script(bot, 8, 8, face)
    result = await slash.run("attack", target="Knight", weapon="Opponent", **player(slash))
    assert not result.ephemeral, result.content
    return text(result)


async def test_an_odd_damage_is_halved_down_and_logged(bot: TableBot, slash: SlashHarness) -> None:
    await hold_gob(bot, slash)  # Aria's fists took Gob from 15 to 10
    await next_players_turn(bot, slash)
    said = await swing_at_knight(bot, slash, 11)  # 11 + 3 − 7 = 7 dealt: Gob takes 3
    assert "Knight: 25/25 HP → **18/25 HP**" in said, said
    assert "Gob, swung as a weapon, takes half: 3 damage (10/15 HP → 7/15 HP)." in said
    assert (await sheet(bot, "Gob")).hp == 7
    logged = await latest_log(bot)
    gob = await sheet(bot, "Gob")
    assert logged["swung"] == {
        "name": "Gob", "sheet_id": gob.id, "damage": 3, "hp": [10, 7], "dead": False,
    }  # fmt: skip
    assert logged["damage"] == 7 and logged["hp"] == [25, 18]
    await dpytest.empty_queue()


async def test_one_damage_dealt_leaves_the_swung_unhurt(bot: TableBot, slash: SlashHarness) -> None:
    await hold_gob(bot, slash)
    await next_players_turn(bot, slash)
    said = await swing_at_knight(bot, slash, 1)  # 1 + 3 − 7: the floor of 1, half is 0
    assert "Knight: 25/25 HP → **24/25 HP**" in said, said
    assert "swung as a weapon" not in said
    assert (await sheet(bot, "Gob")).hp == 10
    assert (await latest_log(bot))["swung"] is None
    await dpytest.empty_queue()


async def test_the_swung_loses_its_concentration(bot: TableBot, slash: SlashHarness) -> None:
    await hold_gob(bot, slash)
    gob = await sheet(bot, "Gob")
    async with bot.db.transaction() as conn:
        held = Held(character_id=gob.id, effect="ward", form=Form.SPELL, tier=Tier.ONE)
        await TwoD10MagicRepository(conn).hold(gob.guild_id, held)
    await next_players_turn(bot, slash)
    said = await swing_at_knight(bot, slash, 12)  # 8 dealt: Gob takes 4
    assert "Gob, swung as a weapon, takes half: 4 damage (10/15 HP → 6/15 HP)." in said, said
    assert "🔮 Gob's concentration on ward is lost to the damage." in said
    async with bot.db.read() as conn:
        assert await TwoD10MagicRepository(conn).get(gob.guild_id, gob.id) is None
    await dpytest.empty_queue()


async def test_the_swung_caster_s_declared_spell_is_interrupted(
    bot: TableBot, slash: SlashHarness
) -> None:
    await hold_gob(bot, slash)
    script(bot)
    for _ in range(4):  # to round 2's declarations
        await slash.run("init next", **gm(slash))
    declared = await slash.run("init act", action="declare spell", name="Gob", **gm(slash))
    assert not declared.ephemeral, declared.content
    script(bot, 1)  # the GM's d6: the players go first, before Gob's spell goes off
    await slash.run("init next", **gm(slash))
    said = await swing_at_knight(bot, slash, 12)
    assert "Gob, swung as a weapon, takes half: 4 damage" in said, said
    assert INTERRUPTED in said
    enc = (await stored(bot, slash.channel.id)).encounter
    [gob] = [c for c in enc.combatants if c.name == "Gob"]
    state = enc.state(gob.id)
    assert state.spell_interrupted and not state.attacked_casting  # swung, not attacked
    await dpytest.empty_queue()


async def test_help_shows_the_ruling(bot: TableBot, slash: SlashHarness) -> None:
    await twod10(slash)
    result = await slash.run("help", command="attack", **player(slash))
    shown = "\n".join(f["value"] for e in result.all_embeds for f in e.get("fields", []))
    wording = ruling("opponent-weapon-damage").text
    assert "rounded down" in wording and "fails its declared spell" in wording
    assert shown.count(wording) == 1
    await dpytest.empty_queue()
