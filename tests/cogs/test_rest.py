"""/rest at every factor level, with scripted dice: positive (shared), zero, negative."""

from __future__ import annotations

import json

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.conditions import Condition
from bot.storage.hocs.characters import Character, CharacterKind
from tests.cogs.test_check import make_character
from tests.cogs.test_roll_buttons import fresh, set_points
from tests.support.slash import SlashHarness


def _state(character: Character) -> tuple[int, int, int, int]:
    s = character.state
    return s.hp, s.nonlethal, s.recovery, s.determination


async def test_positive_rest_shares_the_kept_die_as_asked(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])  # STR 3: 12 HP, 3 recovery, 3 det
    await set_points(bot, mira, hp=5, nonlethal=2, recovery=1, determination=1)
    bot.dice = ScriptedDice([2, 3, 6])  # value +3: 3d6, keep the 6
    result = await slash.run(
        "rest", place="good", resources="good", time="good", hp=2, recovery=2, determination=1
    )
    [embed] = result.embeds
    description = embed["description"]
    assert "= **+3**" in description
    assert "Rolled 3d6: 2 · 3 · **6** = **6** points." in description
    # Non-lethal first (5 → 7); asked 2 HP, 1 determination, 2 recovery; the sixth point
    # follows the default order (hit points).
    assert "Shared: +3 HP · +1 determination · +2 recovery" in description
    assert "2 HP lost to non-lethal damage came back." in description
    assert "HP 5 → 10/12 · recovery 1 → 3/3 · determination 1 → 2/3" in description
    assert _state(await fresh(bot, mira)) == (10, 0, 3, 2)
    assert bot.dice.remaining == 0
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_positive_rest_default_share_and_extra_sixes(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=4, determination=2, conditions=json.dumps({"fatigued": 2}))
    bot.dice = ScriptedDice([6, 6, 3, 1, 2])  # value +5: keep a 6, +1 for the other 6
    result = await slash.run("rest", place="beneficial", resources="good", time="beneficial")
    description = result.embeds[0]["description"]
    assert "= **7**" in description and "+1 (other dice at their maximum)" in description
    # Default: hit points first (8 missing → 7), nothing left for the rest.
    assert "Shared: +7 HP · +0 determination · +0 recovery" in description
    assert "No longer fatigued." in description
    after = await fresh(bot, mira)
    assert _state(after) == (11, 0, 3, 2)
    assert Condition.FATIGUED not in after.state.conditions
    await dpytest.empty_queue()


async def test_points_past_the_maxima_are_wasted(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=11)
    bot.dice = ScriptedDice([5, 1])
    result = await slash.run("rest", place="beneficial", resources="beneficial", time="challenging")
    assert (
        "Shared: +1 HP · +0 determination · +0 recovery (4 wasted past the maxima)"
        in (result.embeds[0]["description"])
    )
    assert _state(await fresh(bot, mira)) == (12, 0, 3, 3)
    await dpytest.empty_queue()


async def test_zero_rest_gives_1d4_hit_points(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=5, nonlethal=1, recovery=2, determination=1)
    bot.dice = ScriptedDice([3])
    result = await slash.run("rest", place="beneficial", resources="subpar", time="subpar")
    description = result.embeds[0]["description"]
    assert "= **0**" in description
    assert "A rest of value 0: 1d4: **3** = **3** hit points." in description
    assert bot.dice.requests == [4]
    assert _state(await fresh(bot, mira)) == (9, 0, 2, 1)  # 5 + 1 non-lethal + 3
    await dpytest.empty_queue()


async def test_negative_rest_success_gives_one_hit_point(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=5, nonlethal=2)
    bot.dice = ScriptedDice([4, 5, 6])  # physique (STR 3) vs 3: 3 successes
    result = await slash.run("rest", place="subpar", resources="subpar", time="subpar")
    description = result.embeds[0]["description"]
    assert "= **−3**" in description
    assert "Physique (STR 3) test vs 3: **4** · **5** · **6** → 3 successes, **success: 1 hit" in (
        description
    )
    assert _state(await fresh(bot, mira)) == (8, 0, 3, 3)
    await dpytest.empty_queue()


async def test_negative_rest_failure_fatigues_until_a_positive_rest(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=5)
    bot.dice = ScriptedDice([1, 2, 4])  # 1 success vs 2
    result = await slash.run("rest", place="challenging", resources="good", time="subpar")
    description = result.embeds[0]["description"]
    assert "test vs 2" in description and "**failure: fatigued** (until a rest of" in description
    after = await fresh(bot, mira)
    assert after.state.hp == 5 and after.state.conditions.value(Condition.FATIGUED) == 1
    # Fatigued is a bane on the next test: 3 − 1 bane → still −1d6: 2 dice.
    bot.dice = ScriptedDice([6, 6])
    await slash.run("rest", place="extreme", resources="good", time="good")
    assert (await fresh(bot, mira)).state.hp == 6
    bot.dice = ScriptedDice([1])
    await slash.run("rest", place="good", resources="good", time="subpar")
    assert Condition.FATIGUED not in (await fresh(bot, mira)).state.conditions
    await dpytest.empty_queue()


async def test_spending_recovery_points_during_the_rest(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=2, recovery=2)
    bot.dice = ScriptedDice([5, 3, 1])  # 1d8 for the recovery point, then the rest's 2d6
    result = await slash.run("rest", place="good", resources="good", time="subpar",
                             spend_recovery=1)  # fmt: skip
    description = result.embeds[0]["description"]
    assert "Spent 1 recovery point: 1d8: **5** = **5** → +5 HP" in description
    # Rest of +1 rolls 1d6 (3): HP 7 → 10.
    assert _state(await fresh(bot, mira)) == (10, 0, 1, 3)
    too_many = await slash.run("rest", place="good", resources="good", time="good",
                               spend_recovery=2)  # fmt: skip
    assert too_many.ephemeral and "only 1 recovery points" in too_many.content
    await dpytest.empty_queue()


async def test_party_rest_by_the_gm(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], "Mira")
    bram = await make_character(bot, slash.members[1], "Bram")
    ogre = await make_character(bot, slash.members[2], "Ogre", kind=CharacterKind.ANTAGONIST,
                                active=False)  # fmt: skip
    for character in (mira, bram, ogre):
        await set_points(bot, character, hp=3)
    player = await slash.run("rest", place="good", resources="good", time="subpar", party=True,
                             user=slash.members[0], manage_guild=False)  # fmt: skip
    assert player.ephemeral and player.content.startswith("Only the GM can rest the whole party")
    bot.dice = ScriptedDice([2, 5])  # Bram first (by name), then Mira
    result = await slash.run("rest", place="good", resources="good", time="subpar", party=True,
                             user=slash.members[2], manage_guild=True)  # fmt: skip
    [embed] = result.embeds
    assert embed["title"] == "The party rests"
    assert [f["name"] for f in embed["fields"]] == ["Bram", "Mira"]
    assert (await fresh(bot, bram)).state.hp == 5
    assert (await fresh(bot, mira)).state.hp == 8
    assert (await fresh(bot, ogre)).state.hp == 3
    mixed = await slash.run("rest", place="good", resources="good", time="good", party=True,
                            hp=1, user=slash.members[2], manage_guild=True)  # fmt: skip
    assert mixed.ephemeral and mixed.content.startswith("A party rest uses the default share")
    await dpytest.empty_queue()


async def test_someone_elses_character_is_refused(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hp=3)
    bot.dice = ScriptedDice([6])
    result = await slash.run(
        "rest", place="good", resources="good", time="subpar", character="Mira",
        user=slash.members[1], manage_guild=False,
    )  # fmt: skip
    assert result.ephemeral and "isn't yours" in result.content
    assert (await fresh(bot, mira)).state.hp == 3 and bot.dice.remaining == 1
    await dpytest.empty_queue()
