"""Each roll command and its /odds twin offer the same options, from one declaration."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.interactions.command_sync import command_payload
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.odds import test_odds
from bot.rules.hocs.pool import PoolSpec
from bot.rulesets import Ruleset
from cogs.declared_options import REQUIRED, Opt, odds_twin, pick, takes
from cogs.hocs.odds_preview import ODDS_MAX_REROLLS
from cogs.hocs.skill_rolls.options import MAX_REROLLS
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
        "attribute", "skill", "difficulty", "advantage", "disadvantage", "bonus", "light"
    ]  # fmt: skip
    assert party == [o for o in rolled if o["name"] in {p["name"] for p in party}]


async def test_the_hocs_odds_party_takes_the_checks_options(bot: TableBot) -> None:
    check = {o["name"]: o for o in _options(bot, "check")}
    # A party's test needs a difficulty to give a chance of success: its one difference.
    assert check["difficulty"]["required"] is False
    assert _options(bot, "odds party") == [
        check["skill"], check["difficulty"] | {"required": True}, check["boons"], check["banes"]
    ]  # fmt: skip


# /odds attack's own options: a count instead of melee_with's names, and raw numbers.
ATTACK_ODDS_ONLY = [
    "melee_others", "target_defense", "reduction", "armored", "target_stealth", "score", "rank",
    "strength_score", "perception_score",
]  # fmt: skip


async def test_the_2d10_odds_attack_has_the_attacks_options(bot: TableBot) -> None:
    rolled = _options(bot, "attack", Ruleset.TWOD10)
    twin = _options(bot, "odds attack", Ruleset.TWOD10)
    # rend: and pin_prone: act on the dice rolled (rend's odds are in odds:True's preview).
    acts = {"melee_with", "rend", "pin_prone"}
    expected = [o for o in rolled if o["name"] not in ROLL_ONLY | acts]
    # Raw numbers (target_defense) stand in for the target's sheet: only the twin may
    # leave the target out.
    assert expected[0]["name"] == "target" and expected[0]["required"] is True
    expected[0] = expected[0] | {"required": False}
    assert [o for o in twin if o["name"] not in ATTACK_ODDS_ONLY] == expected
    assert [o["name"] for o in twin if o["name"] in ATTACK_ODDS_ONLY] == ATTACK_ODDS_ONLY
    assert {o["name"] for o in rolled} - {o["name"] for o in twin} == acts | {"odds"}


def test_the_twin_may_leave_out_a_required_option() -> None:
    declared = (Opt("target", str, odds_default=None),)
    assert declared[0].default is REQUIRED
    assert odds_twin(declared)[0].default is None


async def test_prefix_odds_takes_the_options_by_position(
    bot: TableBot, slash: SlashHarness, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # !odds check <skill> <difficulty> <boons>: the declared order, as on the slash side.
    # The module the bot loaded as an extension (not an attribute of the package).
    odds_module = sys.modules["cogs.hocs.odds"]
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


def test_pick_gives_the_options_in_the_order_named() -> None:
    declared = (Opt("a", int, 0), Opt("b", int, 0), Opt("c", int, 0))
    assert [o.name for o in pick(declared, "c", "a")] == ["c", "a"]
    with pytest.raises(TypeError, match="not all"):
        pick(declared, "a", "d")


@pytest.mark.parametrize("roll", ["pool", "check", "clash"])
async def test_the_odds_reroll_cap_is_stated_where_it_applies(bot: TableBot, roll: str) -> None:
    """/help and the slash menu show the cap: on the roll's odds option and on /odds's
    rerolls (a roll asked for odds past it is refused in one sentence, tests/cogs)."""
    payload = bot.command_sets.catalogues[Ruleset.HOCS].payload(bot.tree)
    [rolled] = [c for c in payload if c["name"] == roll]
    [odds] = [o for o in rolled["options"] if o["name"] == "odds"]
    assert f"odds take up to {ODDS_MAX_REROLLS} talent rerolls" in odds["description"]
    [group] = [c for c in payload if c["name"] == "odds"]
    [twin] = [o for o in group["options"] if o["name"] == roll]
    [rerolls] = [o for o in twin["options"] if o["name"] == "rerolls"]
    assert f"0–{ODDS_MAX_REROLLS} for odds" in rerolls["description"]


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
