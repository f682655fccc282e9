"""A 2d10 evening (issue 27): /session start and end with no points, the recap from the
log (naturals, damage, downs, luck, fights and rounds), /session recap and /stats."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.generic.luck import luck_summary
from bot.rules.twod10.luck import row_luck
from bot.storage.roll_log import RollLogRepository
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, table
from tests.support.slash import SlashHarness


def field(embed: dict, name: str) -> list[str]:  # type: ignore[type-arg]
    [value] = [f["value"] for f in embed["fields"] if f["name"] == name]
    return str(value).splitlines()


async def evening(bot: TableBot, slash: SlashHarness) -> None:
    """Aria hits Gob twice (one natural 20) and fails a task with a natural 2; Gob (an
    NPC) hits Aria once for 2 first; a one-round fight with the Knight is begun and ended."""
    await table(bot, slash)
    started = await slash.run("session start", **gm(slash))
    assert started.content == "Session 1 begins. /session end posts its recap."
    # Gob's fists (brawl 0: 1) on Aria (defense 2): 8 + 8 − 2 = 14, up two to a d3: 2.
    script(bot, 8, 8, 2)
    await slash.run("attack", character="Gob", target="Aria", weapon="Unarmed", **gm(slash))
    # Sword: 6 + 5 + 3 + 2 − 2 = 14, a hit; the d8 shows 4: 4 + 2 + 3 = 9 damage.
    script(bot, 6, 5, 4)
    await slash.run("attack", target="Gob", weapon="One-handed sword", **player(slash))
    # A natural 20: 25, +5 categories to a d12, two extra dice: 1 + 1 + 1 + 5 = 8, and
    # Gob (15 HP) is dead.
    script(bot, 10, 10, 1, 1, 1)
    await slash.run("attack", target="Gob", weapon="One-handed sword", **player(slash))
    script(bot, 1, 1)  # a natural 2: the task fails
    await slash.run("task", attribute="mind", **player(slash))
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Knight", **gm(slash))
    script(bot)
    await slash.run("init next", **gm(slash))  # round 1: declarations
    script(bot, 1)
    await slash.run("init next", **gm(slash))  # the d6: the players' turn
    await slash.run("init end", **gm(slash))


async def test_the_2d10_evening_recap(bot: TableBot, slash: SlashHarness) -> None:
    await evening(bot, slash)
    ended = await slash.run("session end", **gm(slash))
    assert not ended.ephemeral
    [recap] = ended.embeds
    assert recap["title"] == "Session 1 recap"
    # Aria's three rolls, Gob's attack and the side initiative of round 1 (nobody's).
    assert "5 rolls in all; 1 fight, 1 round fought." in recap["description"]
    assert "2 rolls for NPCs or nobody in particular." in recap["description"]
    aria = field(recap, "Aria")
    assert aria[:4] == [
        "3 rolls: 2 succeeded, 1 failed",
        "1 natural 20, 1 natural 2",
        "damage dealt 17, taken 2",
        "0 downs, dying 0×",
    ]
    assert field(recap, "The party")[0] == "3 rolls: 2 succeeded, 1 failed"
    # Both are Aria's attacks, linked to their replies.
    head = recap["description"]
    assert "**Luckiest**: Aria: Aria's attack on Gob (to-hit), 100 %" in head
    assert "**Unluckiest**: Aria: Aria's attack on Gob (damage)" in head
    assert head.count(f"([jump](https://discord.com/channels/{bot.guilds[0].id}/") == 2
    async with bot.db.read() as conn:
        rows = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=20)
    arias = [
        s for r in rows for s in row_luck(r.kind, r.result).scored
        if s.owner in ("attacker", "character") and s.owner_ref == _aria_id(rows)
    ]  # fmt: skip
    mean = round(luck_summary(arias).mean * 100)
    assert aria[4] == f"luck {mean} % over {len(arias)} rolls (too few rolls to tell)"
    assert ended.message is not None and ended.message.files == ["luck.png"]
    await dpytest.empty_queue()


def _aria_id(rows) -> int:  # type: ignore[no-untyped-def]
    [attack] = [r for r in rows if r.kind == "2d10-attack" and r.result["hp"][0] == 15
                and r.result["damage"] == 9]  # fmt: skip
    return int(attack.result["attacker_id"])


async def test_sessions_refuse_what_cant_be(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    refused(await slash.run("session start", **player(slash)), "GM")
    refused(await slash.run("session end", **gm(slash)), "No session is running")
    refused(await slash.run("session recap", **player(slash)), "No session has been played")
    await slash.run("session start", **gm(slash))
    refused(await slash.run("session start", **gm(slash)), "still running")
    refused(await slash.run("session end", **player(slash)), "GM")
    status = await slash.run("session status", **player(slash))
    assert status.ephemeral and status.content.startswith("Session 1 is running")
    ended = await slash.run("session end", **gm(slash))
    assert ended.embeds[0]["description"] == "No rolls were logged in this span."
    await dpytest.empty_queue()


async def test_stats_for_the_table_and_by_kind(bot: TableBot, slash: SlashHarness) -> None:
    await evening(bot, slash)
    shown = await slash.run("stats", **player(slash))
    assert shown.ephemeral
    [embed] = shown.embeds
    assert embed["title"] == "Stats: the table, the whole campaign"
    kinds = field(embed, "By kind")
    assert kinds[0].startswith("attack: 2 rolls, luck ")
    assert kinds[1].startswith("task: 1 roll, luck ")
    refused(await slash.run("stats", character="Gob", **player(slash)), "player character")
    await dpytest.empty_queue()
