"""Every die /light rolls is in the roll log (kind 2d10-light): a burn time as a secret
row, a dropped light's d4 or d12 as a public one, each with its exact faces and total;
the recap reads them as their bearer's rolls and scores their luck (rulings luck-ranked,
luck-sides, recap-owners), and a row of a kind it doesn't know counts without crashing."""

from __future__ import annotations

from fractions import Fraction

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.generic.recap import Luck, RollFacts, recap
from bot.rules.twod10.recap_facts import facts_of
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, stored
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def brann(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    slash.guild.owner_id = slash.members[0].id  # the GM gets secret rolls by DM
    assert not (await create(slash, "Brann")).ephemeral


async def rows(bot: TableBot) -> list[LoggedRoll]:
    async with bot.db.read() as conn:
        return await RollLogRepository(conn).between(bot.guilds[0].id)


def light_rows(logged: list[LoggedRoll]) -> list[tuple[object, ...]]:
    return [(r.kind, r.secret, r.total, r.expression, r.result) for r in logged]


def burn(brann_id: int, light: str, light_id: int, faces: list[int], sides: int) -> dict:  # type: ignore[type-arg]
    return {"ruleset": "2d10", "roll": "burn", "light": light, "light_id": light_id,
            "character_id": brann_id, "faces": faces, "sides": sides,
            "total": max(faces)}  # fmt: skip


def variance(*chances: Fraction) -> Fraction:
    return (1 - sum(p**3 for p in chances)) / 12


async def test_a_torch_burn_time_is_a_secret_row_and_its_drop_a_public_one(
    bot: TableBot, slash: SlashHarness
) -> None:
    brann = await stored(bot, "Brann")
    bot.dice = ScriptedDice([6, 2, 3])  # 2d6 keep the highest: 6 turns; the drop's d4: 3
    await slash.run("light add", kind="torch", **player(slash))
    dropped = await slash.run("light drop", **player(slash))
    assert "d4 shows 3, it stays lit" in (dropped.content or "")
    assert light_rows(await rows(bot)) == [
        ("2d10-light", True, 6, "torch #1 burn time for Brann: 2d6 highest 6",
         burn(brann.id, "torch", 1, [6, 2], 6)),
        ("2d10-light", False, 3, "torch #1 dropped by Brann: d4 3, stays lit",
         {"ruleset": "2d10", "roll": "drop", "light": "torch", "light_id": 1,
          "character_id": brann.id, "faces": [3], "sides": 4, "total": 3, "went_out": False}),
    ]  # fmt: skip
    await dpytest.empty_queue()


async def test_a_lanterns_drop_and_its_oil_relight_are_logged_and_recapped(
    bot: TableBot, slash: SlashHarness
) -> None:
    brann = await stored(bot, "Brann")
    bot.dice = ScriptedDice([3, 7, 5, 1, 8, 2, 4])
    await slash.run("light add", kind="lantern", **player(slash))  # 3d8 [3, 7, 5]: 7
    await slash.run("light drop", **player(slash))  # the d12 shows 1: out
    await slash.run("light relight", **player(slash))  # free: nothing rolled, nothing logged
    await slash.run("explore", turns=7, **gm(slash))
    await slash.run("light oil", units=1, character="Brann", **gm(slash))
    await slash.run("light relight", oil=True, **player(slash))  # 3d8 [8, 2, 4]: 8
    logged = await rows(bot)
    assert light_rows(logged) == [
        ("2d10-light", True, 7, "lantern #1 burn time for Brann: 3d8 highest 7",
         burn(brann.id, "lantern", 1, [3, 7, 5], 8)),
        ("2d10-light", False, 1, "lantern #1 dropped by Brann: d12 1, goes out",
         {"ruleset": "2d10", "roll": "drop", "light": "lantern", "light_id": 1,
          "character_id": brann.id, "faces": [1], "sides": 12, "total": 1, "went_out": True}),
        ("2d10-light", True, 8, "lantern #1 burn time for Brann: 3d8 highest 8",
         burn(brann.id, "lantern", 1, [8, 2, 4], 8)),
    ]  # fmt: skip
    players = {brann.id: "Brann"}
    facts = [facts_of(r, players) for r in logged]
    # The highest of 3d8 is at most k with chance (k/8)³: 7 sits above 216/512 of them.
    seven, eight = Fraction(127, 512), Fraction(169, 512)
    burn_chances = [Fraction(k**3 - (k - 1) ** 3, 512) for k in range(1, 9)]
    # A dropped lantern goes out on 1 in 12: out is the worst, half of its 1/12.
    out, lit = Fraction(1, 12), Fraction(11, 12)
    assert facts == [
        RollFacts(roll_id=logged[0].id, kind="2d10-light", roller="Brann", secret=True,
                  label="Brann's lantern burn time",
                  luck=(Luck(owner="Brann", percentile=Fraction(216, 512) + seven / 2,
                             variance=variance(*burn_chances), part="light"),),
                  channel_id=slash.channel.id),
        RollFacts(roll_id=logged[1].id, kind="2d10-light", roller="Brann", succeeded=False,
                  label="Brann's lantern drop",
                  luck=(Luck(owner="Brann", percentile=out / 2, variance=variance(out, lit),
                             part="light"),),
                  channel_id=slash.channel.id),
        RollFacts(roll_id=logged[2].id, kind="2d10-light", roller="Brann", secret=True,
                  label="Brann's lantern burn time",
                  luck=(Luck(owner="Brann", percentile=1 - eight / 2,
                             variance=variance(*burn_chances), part="light"),),
                  channel_id=slash.channel.id),
    ]  # fmt: skip
    # The public recap counts the secret burn times without scoring them; the GM's has all.
    public = recap(facts, players=frozenset({"Brann"}))
    assert public.characters[0][0] == "Brann" and public.characters[0][1].rolls == 3
    await dpytest.empty_queue()


async def test_the_session_recap_reads_light_rows_and_an_unknown_kind(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("session start", **gm(slash))
    bot.dice = ScriptedDice([6, 2, 1])
    await slash.run("light add", kind="torch", **player(slash))
    await slash.run("light drop", **player(slash))
    async with bot.db.transaction() as conn:  # a kind a newer bot may log
        await RollLogRepository(conn).record(
            guild_id=slash.guild.id, channel_id=slash.channel.id, user_id=slash.members[1].id,
            kind="2d10-sundial", expression="?", result={"faces": "not a list"}, total=None,
            secret=False,
        )  # fmt: skip
    ended = await slash.run("session end", **gm(slash))
    [shown] = ended.embeds
    assert shown["title"] == "Session 1 recap"
    assert "3 rolls in all" in shown["description"], shown["description"]
    private = await slash.run("session recap", private=True, **gm(slash))
    assert private.ephemeral and "3 rolls in all" in private.embeds[0]["description"]
    await dpytest.empty_queue()
