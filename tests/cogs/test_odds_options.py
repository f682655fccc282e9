"""Each roll command and its /odds twin offer the same options, from one declaration."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.command_sync import command_payload
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import test_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rulesets import Ruleset
from cogs.declared_options import Opt, odds_twin, takes
from cogs.odds_preview import ODDS_MAX_REROLLS
from cogs.skill_rolls.options import MAX_REROLLS
from tests.cogs.test_check import make_character
from tests.support.slash import SlashHarness

ROLL_ONLY = {"secret", "label", "odds"}
SHAPE = (
    "name", "type", "required", "min_value", "max_value", "min_length", "max_length",
    "choices", "autocomplete",
)  # fmt: skip


def _options(bot: TableBot, path: str, ruleset: Ruleset = Ruleset.HOCS) -> list[dict[str, Any]]:
    payload = bot.command_sets.catalogues[ruleset].payload(bot.tree)
    payload += command_payload(bot.tree, None)
    words = path.split()
    [command] = [c for c in payload if c["name"] == words[0]]
    options = command.get("options", [])
    for word in words[1:]:
        [command] = [o for o in options if o["name"] == word]
        options = command.get("options", [])
    return [{k: o.get(k) for k in SHAPE} for o in options]


@pytest.mark.parametrize("roll", ["pool", "check", "clash"])
async def test_the_odds_twin_has_the_rolls_options(bot: TableBot, roll: str) -> None:
    rolled = _options(bot, roll)
    twin = _options(bot, f"odds {roll}")
    expected = []
    for option in rolled:
        if option["name"] in ROLL_ONLY:
            continue
        if option["name"].endswith("rerolls"):
            # The exact reroll search is the slow part: the twin's one bound differs.
            assert option["max_value"] == MAX_REROLLS
            option = option | {"max_value": ODDS_MAX_REROLLS}
        expected.append(option)
    assert twin == expected
    assert {o["name"] for o in rolled} - {o["name"] for o in twin} <= ROLL_ONLY


async def test_the_2d10_odds_task_and_party_have_the_tasks_options(bot: TableBot) -> None:
    rolled = _options(bot, "task", Ruleset.TWOD10)
    assert _options(bot, "odds task", Ruleset.TWOD10) == [
        o for o in rolled if o["name"] not in ROLL_ONLY
    ]
    party = _options(bot, "odds party", Ruleset.TWOD10)
    assert [o["name"] for o in party] == [
        "attribute", "skill", "difficulty", "advantage", "disadvantage", "bonus"
    ]  # fmt: skip
    assert party == [o for o in rolled if o["name"] in {p["name"] for p in party}]


async def test_prefix_odds_takes_the_options_by_position(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # !odds check <skill> <difficulty> <boons>: the declared order, as on the slash side.
    # The module the bot loaded as an extension (not an attribute of the package).
    odds_module = sys.modules["cogs.odds"]
    asked: list[tuple[PoolSpec, int]] = []

    def spy(spec: PoolSpec, level: Difficulty) -> Any:
        asked.append((spec, int(level)))
        return test_odds(spec, level)

    monkeypatch.setattr(odds_module, "test_odds", spy)
    monkeypatch.chdir(tmp_path)  # dpytest writes the chart it is sent to a file here
    await make_character(bot, slash.members[0])  # strength 3
    await dpytest.message("!odds check strength 2 1")
    assert asked == [(PoolSpec(base=3, boons=1), 2)]
    assert dpytest.get_message().attachments[0].filename == "odds.png"
    await dpytest.empty_queue()


def test_an_option_declared_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="declared twice"):
        takes(Opt("boons", int, 0), Opt("boons", int, 0))


def test_the_twin_drops_roll_only_options_and_takes_its_own_bound() -> None:
    declared = (
        Opt("rerolls", int, 0, "Rerolls", odds_kind=bool, odds_help="Odds rerolls"),
        Opt("secret", bool, False, roll_only=True),
    )
    assert odds_twin(declared) == (Opt("rerolls", bool, 0, "Odds rerolls", bool, "Odds rerolls"),)


async def test_options_by_name_and_by_position_give_the_same_values() -> None:
    seen: list[dict[str, object]] = []

    @takes(Opt("skill", str), Opt("boons", int, 0), Opt("who", str, None))
    async def command(self: object, ctx: object, o: object) -> None:
        seen.append(dict(vars(o)))

    await command(None, None, skill="athletics", boons=2)  # the slash path: by name
    await command(None, None, "athletics", 2)  # the prefix path: by position
    await command(None, None, skill="lore")
    assert seen == [
        {"skill": "athletics", "boons": 2, "who": None},
        {"skill": "athletics", "boons": 2, "who": None},
        {"skill": "lore", "boons": 0, "who": None},
    ]
    with pytest.raises(TypeError):
        await command(None, None, boons=1)  # a required option missing
    with pytest.raises(TypeError):
        await command(None, None, skill="lore", luck=3)  # an option never declared
