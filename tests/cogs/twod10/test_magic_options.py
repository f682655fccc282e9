"""/cast and /ritual take their shared options from one declaration (CASTING)."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rulesets import Ruleset
from tests.cogs.test_odds_options import _options

SHARED = [
    "tier", "mysteries", "dangerously", "attacked", "extend", "concentrate", "damaged",
    "advantage", "disadvantage", "character", "secret",
]  # fmt: skip


async def test_cast_and_ritual_offer_the_same_casting_options(bot: TableBot) -> None:
    cast = _options(bot, "cast", Ruleset.TWOD10)
    ritual = _options(bot, "ritual", Ruleset.TWOD10)
    assert [o["name"] for o in cast] == [
        "tier", "category", "mysteries", "dangerously", "attacked", "extend", "concentrate",
        "damaged", "advantage", "disadvantage", "character", "label", "secret",
    ]  # fmt: skip
    # A ritual's own order: extend (a ritual's time is its way to advantage) comes first.
    assert [o["name"] for o in ritual] == [
        "tier", "ritual", "time", "component", "mysteries", "extend", "dangerously",
        "attacked", "concentrate", "damaged", "advantage", "disadvantage", "character",
        "secret",
    ]  # fmt: skip
    by_name = {o["name"]: o for o in ritual}
    assert [o for o in cast if o["name"] in SHARED] == [
        by_name[o["name"]] for o in cast if o["name"] in SHARED
    ]
    await dpytest.empty_queue()
