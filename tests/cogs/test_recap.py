"""The session recap and /stats through the commands, HOCS (issue 27): a scripted
evening, then /session end; every count compared with what was rolled."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.generic.luck import luck_summary
from bot.rules.hocs.luck import percentile
from bot.storage.hocs.characters import CharacterKind
from bot.storage.roll_log import RollLogRepository
from tests.cogs.test_check import make_character
from tests.support.slash import SlashHarness


def gm(slash: SlashHarness) -> dict[str, object]:
    return {"user": slash.members[2], "manage_guild": True}


async def evening(bot: TableBot, slash: SlashHarness) -> None:
    """Mira (athletics 4d6) succeeds once and fails once; Bram (3d6) succeeds; the Ogre
    (an NPC) rolls once; one of Bram's rolls is secret."""
    mira, bram = slash.members[0], slash.members[1]
    await make_character(bot, mira, "Mira", training={"athletics": 1})
    await make_character(bot, bram, "Bram")
    await make_character(bot, slash.members[2], "Ogre", kind=CharacterKind.ANTAGONIST,
                         active=False)  # fmt: skip
    await slash.run("session start", **gm(slash))
    bot.dice = ScriptedDice([1, 4, 5, 3])  # 2 successes vs 2: success
    await slash.run("check", user=mira, skill="athletics", difficulty="2")
    bot.dice = ScriptedDice([6, 1, 2, 3])  # 1 success vs 3: failure, one 6
    await slash.run("check", user=mira, skill="athletics", difficulty="3")
    bot.dice = ScriptedDice([6, 6, 2])  # 2 successes vs 1: success, two 6s
    await slash.run("check", user=bram, skill="athletics", difficulty="1")
    bot.dice = ScriptedDice([5, 5, 5])
    await slash.run("check", user=bram, skill="athletics", difficulty="1", secret=True)
    bot.dice = ScriptedDice([4, 4, 4])
    await slash.run("check", character="Ogre", skill="athletics", difficulty="1", **gm(slash))


def field(embed: dict, name: str) -> str:  # type: ignore[type-arg]
    [value] = [f["value"] for f in embed["fields"] if f["name"] == name]
    return str(value)


async def test_the_evenings_recap_counts_what_was_rolled(
    bot: TableBot, slash: SlashHarness
) -> None:
    await evening(bot, slash)
    ended = await slash.run("session end", **gm(slash))
    assert not ended.ephemeral
    points, recap = ended.embeds
    assert points["title"] == "Session 1 ends"
    assert recap["title"] == "Session 1 recap"
    assert "5 rolls in all; 0 fights, 0 rounds fought." in recap["description"]
    assert "1 roll for NPCs or nobody in particular." in recap["description"]
    mira = field(recap, "Mira").splitlines()
    assert mira[:3] == ["2 rolls: 1 succeeded, 1 failed", "1 six, 0 critical failures",
                        "damage dealt 0, taken 0"]  # fmt: skip
    bram = field(recap, "Bram").splitlines()
    # The secret check counts (two rolls, two successes, its three 5s no sixes) but isn't
    # scored in public.
    assert bram[:2] == ["2 rolls: 2 succeeded, 0 failed", "2 sixes, 0 critical failures"]
    assert "1 not scored (distribution unknown or secret)" in bram
    party = field(recap, "The party").splitlines()
    assert party[0] == "4 rolls: 3 succeeded, 1 failed"
    # Luck, checked against the luck of the logged rows themselves.
    async with bot.db.read() as conn:
        rows = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=10)
    by_name: dict[str, list] = {"Mira": [], "Bram": []}  # type: ignore[type-arg]
    for row in rows:
        name = {"Mira": "Mira", "Bram": "Bram"}.get(row.result["heading"]["who"])
        if name and not row.secret:
            by_name[name].append(percentile(row.kind, row.result))
    mean = round(luck_summary(by_name["Mira"]).mean * 100)
    assert "gained 1 hero" in mira  # the session's hero point
    assert f"luck {mean} % over 2 rolls (too few rolls to tell)" in mira
    assert ended.message is not None and ended.message.files == ["luck.png"]
    assert recap["image"]["url"] == "attachment://luck.png"
    await dpytest.empty_queue()


async def test_recap_again_private_and_refusals(bot: TableBot, slash: SlashHarness) -> None:
    await evening(bot, slash)
    await slash.run("session end", **gm(slash))
    again = await slash.run("session recap", user=slash.members[0])
    assert not again.ephemeral and again.embeds[0]["title"] == "Session 1 recap"
    private = await slash.run("session recap", private=True, **gm(slash))
    assert private.ephemeral
    bram = field(private.embeds[0], "Bram").splitlines()
    assert "not scored" not in " ".join(bram)  # the secret roll is scored for the GM
    refused = await slash.run("session recap", private=True, user=slash.members[0])
    assert refused.ephemeral and "GM" in (refused.content or "")
    missing = await slash.run("session recap", session=7, user=slash.members[0])
    assert missing.ephemeral
    assert missing.content == "There is no session 7: /session status shows the latest."
    await dpytest.empty_queue()


async def test_a_session_without_rolls_gets_one_line(bot: TableBot, slash: SlashHarness) -> None:
    await slash.run("session start", **gm(slash))
    ended = await slash.run("session end", **gm(slash))
    assert ended.embeds[1]["description"] == "No rolls were logged in this span."
    nothing = await slash.run("session recap", user=slash.members[0])
    assert nothing.embeds[0]["description"] == "No rolls were logged in this span."
    await dpytest.empty_queue()


async def test_stats_for_one_character_by_kind(bot: TableBot, slash: SlashHarness) -> None:
    await evening(bot, slash)
    shown = await slash.run("stats", character="Mira", user=slash.members[1])
    assert shown.ephemeral
    [embed] = shown.embeds
    assert embed["title"] == "Stats: Mira, the whole campaign"
    assert field(embed, "Mira").splitlines()[0] == "2 rolls: 1 succeeded, 1 failed"
    assert field(embed, "By kind").startswith("check: 2 rolls, luck ")
    npc = await slash.run("stats", character="Ogre", user=slash.members[1])
    assert npc.ephemeral and "player character" in (npc.content or "")
    since = await slash.run("stats", since=3, user=slash.members[1])
    assert since.ephemeral and since.content.startswith("There is no session 3")
    await dpytest.empty_queue()


async def test_points_gained_and_spent_are_counted(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0], "Mira", training={"athletics": 1})
    await slash.run("session start", **gm(slash))
    bot.dice = ScriptedDice([1, 4, 5, 3, 2])  # four dice and the determination die
    rolled = await slash.run("check", user=slash.members[0], skill="athletics",
                             difficulty="2", determination=True)  # fmt: skip
    assert not rolled.ephemeral, rolled.content
    ended = await slash.run("session end", **gm(slash))
    mira = field(ended.embeds[1], "Mira").splitlines()
    assert "spent 1 determination" in mira
    assert "gained 1 hero" in mira  # the session's hero point (migration 0020's ledger)
    await dpytest.empty_queue()
