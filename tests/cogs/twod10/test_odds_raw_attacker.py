"""/odds attack without an attacker sheet: score, rank (and strength_score) as /task takes
raw numbers; the same figures as a sheet with those numbers."""

from __future__ import annotations

from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import gm, make, player, script, store, twod10
from tests.cogs.twod10.helpers import refused
from tests.cogs.twod10.test_odds import HAND_ROWS
from tests.support.slash import SlashHarness, SlashResult


@pytest.fixture(autouse=True)
async def table(bot: TableBot, slash: SlashHarness) -> None:
    await twod10(slash)
    await store(bot, make("Wall", finesse=5, finesse_defense=5), slash.members[2].id)
    # The GM's twin of the raw numbers below: strength 2, melee 2, a concealable blunt.
    await store(
        bot, make("Twin", strength=2, finesse=2, melee=2, weapons=("Concealable blunt",)),
        slash.members[0].id,
    )  # fmt: skip


def fields(result: SlashResult) -> dict[str, Any]:
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    return {f["name"]: f["value"] for f in embed["fields"]}


async def test_raw_numbers_match_a_sheet_with_them(bot: TableBot, slash: SlashHarness) -> None:
    script(bot)  # nothing may be rolled
    raw = await slash.run(
        "odds attack", score=2, rank=2, weapon="Concealable blunt", target_defense=5,
        **player(slash),
    )  # fmt: skip
    sheet = await slash.run("odds attack", character="Twin", target_defense=5, **gm(slash))
    assert fields(raw) == fields(sheet)
    who = discord.utils.escape_markdown(slash.members[1].display_name)
    assert raw.embeds[0]["title"] == f"Odds: {who} attacks with Concealable blunt"
    # 2d10 + 2 (strength) + 2 (melee) − 5: the task's hand-counted rows.
    assert fields(raw)["To-hit table"].splitlines() == HAND_ROWS
    assert raw.message.files == ["odds.png"]
    raw.assert_no_pings()
    await dpytest.empty_queue()


async def test_unarmed_by_default_against_a_target(bot: TableBot, slash: SlashHarness) -> None:
    # No weapon named: Unarmed (brawl 0). Against Wall's defense 10, 2d10 + 0 + 0 − 10
    # hits only on a natural 20 (1%); every figure is the sheet with those numbers'.
    await store(bot, make("Bare", strength=0), slash.members[0].id)
    raw = await slash.run("odds attack", score=0, target="Wall", **player(slash))
    assert "attacks with Unarmed" in raw.embeds[0]["title"]
    sheet = await slash.run("odds attack", character="Bare", target="Wall", **gm(slash))
    assert fields(raw) == fields(sheet)
    assert "Hit: **1.00%**" in raw.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_strength_score_is_a_finesse_attacks_damage(
    bot: TableBot, slash: SlashHarness
) -> None:
    # A thrown light axe adds finesse (score 1) and ranged (rank 2) to hit, and strength
    # (3) to its damage.
    await store(
        bot, make("Thrower", finesse=1, strength=3, ranged=2, weapons=("Light axe",)),
        slash.members[0].id,
    )  # fmt: skip
    raw = await slash.run(
        "odds attack", score=1, rank=2, strength_score=3, weapon="light axe", thrown=True,
        target_defense=4, **player(slash),
    )  # fmt: skip
    sheet = await slash.run(
        "odds attack", character="Thrower", weapon="Light axe", thrown=True, target_defense=4,
        **gm(slash),
    )  # fmt: skip
    assert fields(raw) == fields(sheet)
    plain = await slash.run(
        "odds attack", score=1, rank=2, weapon="light axe", thrown=True, target_defense=4,
        **player(slash),
    )  # fmt: skip
    assert fields(plain)["To-hit table"] == fields(raw)["To-hit table"]
    assert fields(plain)["Damage"] != fields(raw)["Damage"]
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rank": 2}, "rank goes with score (raw numbers); give score too, or drop rank."),
        ({"score": 2, "character": "Twin"}, "Use score for raw numbers or character"),
        ({"strength_score": 2}, "strength_score goes with score"),
        ({"score": 2, "strength_score": 1}, "adds strength to hit, so score is its strength"),
        ({"score": 2, "weapon": "Banana"}, "is not a weapon in the table; choose one of"),
        ({"score": 2, "weapon": "Unarmed", "thrown": True}, "Unarmed can't be thrown"),
        ({"score": 2, "weapon": "Longbow", "thrown": True}, "can't be thrown"),
    ],
)
async def test_raw_attacker_refusals(
    bot: TableBot, slash: SlashHarness, options: dict[str, object], words: str
) -> None:
    result = await slash.run("odds attack", target_defense=5, **options, **player(slash))
    refused(result, words)
    await dpytest.empty_queue()


async def test_weapon_autocomplete_offers_the_table_with_raw_numbers(
    bot: TableBot, slash: SlashHarness
) -> None:
    choices = await slash.autocomplete(
        "odds attack", "weapon", "bow", user=slash.members[1], score=2
    )
    assert [c["name"] for c in choices] == [
        "Shortbow", "Longbow", "Hand crossbow", "Light crossbow", "Heavy crossbow"
    ]  # fmt: skip
    await dpytest.empty_queue()
