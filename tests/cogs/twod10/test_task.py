"""/task in a 2d10 guild: bands with scripted dice, advantage and disadvantage, natural 2,
a target's defense, raw numbers, secret rolls and the roll log."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.roll_log import RollLogRepository
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    # Brann: strength 2, finesse 1, melee 2, defense (finesse) 2, athletics 2.
    assert not (await create(slash, "Brann")).ephemeral


def script(bot: TableBot, *faces: int) -> ScriptedDice:
    bot.dice = ScriptedDice(faces)
    return bot.dice


@pytest.mark.parametrize(
    ("faces", "difficulty", "total", "band"),
    [
        ((1, 1), None, 6, "Failure"),  # natural 2 +4
        ((1, 2), "difficult", 2, "Failure with extreme complication"),
        ((2, 1), None, 7, "Failure"),
        ((3, 3), None, 10, "Success with complication"),
        ((6, 5), None, 15, "Success with no complication"),
        ((8, 8), None, 20, "Success with an additional bonus"),
        ((10, 10), "very easy", 29, "Ridiculously good success: an additional action"),
        ((10, 10), "-25", -1, "Failure with extreme complication"),
    ],
)
async def test_each_band_named_with_every_die(
    bot: TableBot, slash: SlashHarness, faces: tuple[int, int], difficulty: str | None,
    total: int, band: str,
) -> None:  # fmt: skip
    script(bot, *faces)
    options = {"difficulty": difficulty} if difficulty else {}
    result = await slash.run(
        "task", attribute="strength", skill="melee", **options, **player(slash)
    )
    shown = text(result)
    assert not result.ephemeral, result.content
    assert f"🎲 2d10 [{faces[0]}, {faces[1]}] = {sum(faces)}" in shown
    assert f"**{total}** = {sum(faces)} +2 strength +2 melee" in shown
    assert f"**{band}**" in shown
    await dpytest.empty_queue()


async def test_ladder_names_and_numbers(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 5, 5, 5, 5)
    heroic = text(await slash.run("task", attribute="mind", difficulty="heroic", **player(slash)))
    assert "Against difficulty Heroic (-15)" in heroic and "**-5** = 10 -15 difficulty" in heroic
    very = text(await slash.run("task", attribute="mind", difficulty="-20", **player(slash)))
    assert "Against difficulty Very heroic (-20)" in very
    refused(
        await slash.run("task", attribute="mind", difficulty="-30", **player(slash)),
        "Difficulty goes from +5 (very easy) to -25 (legendary)",
    )
    refused(
        await slash.run("task", attribute="mind", difficulty="impossible", **player(slash)),
        "is not a difficulty",
    )


async def test_advantage_drops_the_lowest_and_disadvantage_the_highest(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 3, 9, 8)
    adv = text(await slash.run("task", attribute="finesse", advantage=2, **player(slash)))
    assert "3d10, lowest dropped (advantage 2, disadvantage 0: advantage) [~~3~~, 9, 8] = 17" in adv
    assert "**18** = 17 +1 finesse" in adv
    script(bot, 3, 9, 8)
    dis = text(await slash.run("task", attribute="finesse", disadvantage=1, **player(slash)))
    assert "3d10, highest dropped" in dis and "[3, ~~9~~, 8] = 11" in dis


async def test_advantage_and_disadvantage_cancel(bot: TableBot, slash: SlashHarness) -> None:
    dice = script(bot, 4, 6)
    result = text(
        await slash.run("task", attribute="finesse", advantage=2, disadvantage=2, **player(slash))
    )
    assert "2d10 (advantage 2, disadvantage 2: they cancel) [4, 6] = 10" in result
    assert dice.requests == [10, 10]


async def test_natural_two_fails_whatever_the_modifiers(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 1, 1)
    result = text(await slash.run("task", score=6, rank=6, difficulty="very easy", **player(slash)))
    assert "**19** = 2 +6 score +6 rank +5 difficulty" in result
    assert "**Failure**" in result and "Natural 2: the task fails" in result


async def test_against_a_targets_defense(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Ada", player(slash, 2), armor="Chain shirt")
    # Ada: finesse 1 + defense (finesse) 2 - (chain shirt penalty 2 - strength 2 = 0) = 3;
    # toughness 1 + no defense (toughness) = 1.
    script(bot, 6, 4, 6, 4)
    result = text(await slash.run("task", attribute="strength", skill="melee", target="ada",
                                  **player(slash)))  # fmt: skip
    assert "Against Ada's finesse defense 3" in result
    assert "**11** = 10 +2 strength +2 melee -3 target's defense" in result
    tough = text(await slash.run("task", attribute="strength", target="Ada",
                                 target_defense="toughness", **player(slash)))  # fmt: skip
    assert "Against Ada's toughness defense 1" in tough and "**11** = 10 +2 strength" in tough
    refused(
        await slash.run("task", attribute="mind", target="Ada", difficulty="normal",
                        **player(slash)),
        "not both",
    )  # fmt: skip


async def test_defense_skill_implies_its_attribute(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 5, 5)
    result = text(await slash.run("task", skill="defense (finesse)", **player(slash)))
    assert "Brann: Finesse + Defense (finesse)" in result and "+1 finesse +2 defense" in result
    refused(await slash.run("task", skill="melee", **player(slash)), "Name the attribute")


async def test_rolls_are_logged_with_the_2d10_character(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 7, 5)
    await slash.run("task", attribute="strength", skill="athletics", label="climb the wall",
                    **player(slash))  # fmt: skip
    brann = await stored(bot, "Brann")
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert (logged.kind, logged.total, logged.character_id) == ("2d10-task", 16, None)
    assert logged.result["character_id"] == brann.id
    assert logged.result["faces"] == [7, 5] and logged.result["band"] == "success"
    assert logged.result["label"] == "climb the wall" and logged.message_id is not None


async def test_secret_rolls_go_to_the_roller_and_the_gm(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 7, 5)
    result = await slash.run("task", attribute="strength", secret=True, **player(slash))
    assert result.ephemeral and "Secret:" in (result.content or "")
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert logged.secret
    await dpytest.empty_queue()


async def test_only_the_owner_or_gm_rolls_for_a_sheet(bot: TableBot, slash: SlashHarness) -> None:
    refused(
        await slash.run("task", attribute="mind", character="Brann", **player(slash, 2)),
        "isn't yours",
    )
    script(bot, 5, 5)
    ok = await slash.run("task", attribute="mind", character="Brann", **gm(slash))
    assert not ok.ephemeral and "Brann: Mind" in text(ok)


async def test_raw_numbers_without_a_sheet(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 2, 3)
    result = text(await slash.run("task", score=3, rank=2, **player(slash, 2)))
    assert "**10** = 5 +3 score +2 rank" in result and "Success with complication" in result
    refused(await slash.run("task", rank=2, **player(slash, 2)), "rank goes with score")
    refused(await slash.run("task", attribute="mind", **player(slash, 2)), "no active character")


async def test_prefix_task_in_a_2d10_guild(bot: TableBot, slash: SlashHarness) -> None:
    script(bot, 6, 5)
    await dpytest.message("!task strength melee", member=slash.members[1])
    embed = dpytest.get_message().embeds[0]
    assert embed.title == "Brann: Strength + Melee"
    assert "**15** = 11 +2 strength +2 melee" in embed.description
    await dpytest.empty_queue()
