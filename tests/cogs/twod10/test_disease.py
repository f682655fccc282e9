"""/disease in a 2d10 guild: the infection roll (long and momentary contact), the
overcoming roll when due by the campaign day, treatment's advantage, the GM-only
list, and each outcome applied exactly once."""

from __future__ import annotations

import asyncio
import json

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.infections import TwoD10InfectionRepository
from tests.cogs.twod10.helpers import create, gm, make_twod10, player, refused, stored, text
from tests.support.slash import SlashHarness

FEVER = {"disease": "Marsh fever", "difficulty": "-5", "course": "acute", "severity": "moderate"}


@pytest.fixture(autouse=True)
async def twod10(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    # Brann and Cora (player 1): toughness 1, defense (toughness) 0, mind 0, no medicine.
    assert not (await create(slash, "Brann")).ephemeral
    assert not (await create(slash, "Cora")).ephemeral
    assert not (await create(slash, "Dara", player(slash, 2))).ephemeral


def script(bot: TableBot, *faces: int) -> None:
    bot.dice = ScriptedDice(faces)


async def infections(bot: TableBot, name: str) -> list[str]:
    sheet = await stored(bot, name)
    async with bot.db.read() as conn:
        rows = await TwoD10InfectionRepository(conn).list(sheet.guild_id, character_id=sheet.id)
    return [r.infection.disease.name for r in rows]


async def logged(bot: TableBot) -> list[dict[str, object]]:
    async with bot.db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT result FROM roll_log WHERE kind = '2d10-disease' ORDER BY id"
        )
    return [json.loads(r[0]) for r in rows]


async def test_long_contact_infects_then_treatment_and_overcoming_cure(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 5, 6)  # 11 + 1 toughness + 0 - 5 = 7: below 10, infected
    shown = text(await slash.run("disease expose", character="Brann", **FEVER, **gm(slash)))
    assert "**7** = 11 +1 toughness -5 Marsh fever difficulty" in shown
    assert "Brann is infected: the first roll to overcome it is due on day 2." in shown
    assert await infections(bot, "Brann") == ["Marsh fever"]
    # Not due yet on day 1, whoever asks.
    refused(await slash.run("disease overcome", character="Brann", **player(slash)),
            "is due on day 2 (today is day 1)")  # fmt: skip
    assert "Day 2 begins." in text(await slash.run("rations day", **gm(slash)))
    script(bot, 10, 5)  # Cora treats: 15 + 0 mind + 0 medicine - 5 = 10: success
    shown = text(await slash.run("disease treat", patient="Brann", medic="Cora",
                                 **player(slash)))  # fmt: skip
    assert "**10** = 15 -5 Marsh fever difficulty" in shown
    assert "advantage on Brann's next roll to overcome it" in shown
    refused(await slash.run("disease treat", patient="Brann", medic="Cora", **player(slash)),
            "already has advantage")  # fmt: skip
    script(bot, 9, 2, 8)  # advantage: 3d10 drop the 2: 17 + 1 - 5 = 13, one success of one
    shown = text(await slash.run("disease overcome", character="Brann", **player(slash)))
    assert "3d10 (advantage) [9, ~~2~~, 8] = 17" in shown and "**13**" in shown
    assert "Brann overcomes the disease: cured." in shown
    assert await infections(bot, "Brann") == []
    log = await logged(bot)
    assert [entry.get("infected", entry.get("overcome")) for entry in log] == [True, None, True]
    brann = (await stored(bot, "Brann")).id
    assert all(entry["character_id"] == brann for entry in log)
    await dpytest.empty_queue()


async def test_momentary_contact_is_five_easier_and_minor_needs_one_of_two(
    bot: TableBot, slash: SlashHarness
) -> None:
    # A -10 disease rolls at -5 for momentary contact (ruling momentary-contact).
    script(bot, 4, 4, 6, 5)  # 8 + 1 - 5 = 4 fail; 11 + 1 - 5 = 7 fail: infected
    shown = text(await slash.run(
        "disease expose", character="Brann", disease="Grey rot", difficulty="-10",
        course="intermediate", severity="minor", contact="momentary", **gm(slash),
    ))  # fmt: skip
    assert "**4** = 8 +1 toughness -5" in shown and "**7** = 11 +1 toughness -5" in shown
    assert "0 successes of 1 needed." in shown
    assert "due on day 8" in shown  # intermediate: a week of 7 days
    # A minor disease avoided on the first success: the set stops (one roll only).
    script(bot, 10, 9)  # 19 + 1 - 10 = 10: success
    shown = text(await slash.run(
        "disease expose", character="Cora", disease="Grey rot", difficulty="-10",
        course="intermediate", severity="minor", **gm(slash),
    ))  # fmt: skip
    assert "roll 2" not in shown and "Cora avoids the infection." in shown
    assert await infections(bot, "Cora") == []


async def test_a_failed_overcoming_set_moves_the_next_roll_a_period_on(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 1, 2, 1, 3)  # severe: two of three; fail, fail -> stops after 2 (certain)
    shown = text(await slash.run("disease expose", character="Brann", disease="Pox",
                                 difficulty="0", course="acute", severity="severe",
                                 **gm(slash)))  # fmt: skip
    assert "roll 3" not in shown and "Brann is infected" in shown
    await slash.run("rations day", **gm(slash))
    # 19 + 1 succeeds; a natural 2 fails; one more can still make two: 5 + 1 = 6 fails.
    script(bot, 9, 9, 1, 1, 2, 3)
    shown = text(await slash.run("disease overcome", character="Brann", **player(slash)))
    assert "1 success of 2 needed." in shown
    assert "Brann is still sick; the next roll is due on day 3." in shown
    refused(await slash.run("disease overcome", character="Brann", **gm(slash)),
            "is due on day 3 (today is day 2)")  # fmt: skip


async def test_only_the_gm_exposes_or_cures_and_the_list_is_private(
    bot: TableBot, slash: SlashHarness
) -> None:
    refused(await slash.run("disease expose", character="Brann", **FEVER, **player(slash)),
            "Only the GM")  # fmt: skip
    script(bot, 1, 1)
    await slash.run("disease expose", character="Brann", **FEVER, **gm(slash))
    script(bot, 1, 1)
    await slash.run("disease expose", character="Dara", **FEVER, **gm(slash))
    everyone = await slash.run("disease list", **gm(slash))
    assert everyone.ephemeral and "Brann: Marsh fever" in everyone.content
    assert "Dara: Marsh fever" in everyone.content
    own = await slash.run("disease list", **player(slash))
    assert own.ephemeral and "Brann" in own.content and "Dara" not in own.content
    refused(await slash.run("disease expose", character="Brann", **FEVER, **gm(slash)),
            "Brann already carries Marsh fever.")  # fmt: skip
    refused(await slash.run("disease cure", character="Brann", **player(slash)), "Only the GM")
    assert (await slash.run("disease cure", character="Brann", **gm(slash))).ephemeral
    assert await infections(bot, "Brann") == []
    refused(await slash.run("disease overcome", character="Brann", **player(slash)),
            "Brann carries no disease.")  # fmt: skip


async def test_the_overcoming_roll_applies_once_under_concurrency(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 1, 1)
    await slash.run("disease expose", character="Brann", **FEVER, **gm(slash))
    await slash.run("rations day", **gm(slash))
    script(bot, 10, 10, 10, 10)
    first = len(slash.responses)
    # Concurrent runs share the harness's recorder: read the answers from it.
    await asyncio.gather(
        slash.run("disease overcome", character="Brann", **player(slash)),
        slash.run("disease overcome", character="Brann", **gm(slash)),
    )
    answers = [r for r in slash.responses[first:] if r.carries_message]
    assert sorted(r.ephemeral for r in answers) == [False, True]
    assert await infections(bot, "Brann") == []
    assert len(await logged(bot)) == 2  # the exposure and one overcoming roll


async def test_the_day_tells_the_gm_alone_which_disease_rolls_are_due(
    bot: TableBot, slash: SlashHarness
) -> None:
    slash.guild.owner_id = slash.members[0].id  # the GM gets private notes by DM
    script(bot, 1, 1)
    await slash.run("disease expose", character="Brann", **FEVER, **gm(slash))
    day = await slash.run("rations day", **gm(slash))
    public = "\n".join([text(day), *(m.payload.get("content") or "" for m in day.channel_messages
                                     if m.channel_id == slash.channel.id)])  # fmt: skip
    private = "\n".join(m.payload.get("content") or "" for m in day.channel_messages
                        if m.channel_id != slash.channel.id)  # fmt: skip
    assert "Day 2 begins." in public and "Marsh fever" not in public
    assert "Day 2: disease rolls due (/disease overcome)." in private
    assert "Brann: Marsh fever (moderate, acute, difficulty -5), overcoming roll due now" in private
    await dpytest.empty_queue()
