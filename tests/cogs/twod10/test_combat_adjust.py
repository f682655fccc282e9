"""2d10 /hp, /condition, permissions, refusals, the roll log and /help rulings."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Condition
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, table, text
from tests.support.slash import SlashHarness


async def test_gm_hp_changes_mark_dying_and_dead(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    lost = await slash.run("hp", target="Gob", change="-15", **gm(slash))
    assert "Lost 15: 15/15 HP → **0/15 HP, dying**" in text(lost) and not lost.ephemeral
    assert "Gob is dying: a dying roll each turn." in text(lost)
    dead = await slash.run("hp", target="Gob", change="-20", **gm(slash))
    assert "→ **-1/15 HP, dead**" in text(dead)  # never below the death threshold
    assert (await sheet(bot, "Gob")).conditions == (TwoD10Condition.DEAD,)
    back = await slash.run("hp", target="Gob", change="set 3", **gm(slash))
    assert "HP set to 3: -1/15 HP → **3/15 HP**" in text(back)
    assert (await sheet(bot, "Gob")).conditions == ()
    healed = await slash.run("hp", target="Gob", change="+50", **gm(slash))
    assert "**15/15 HP**" in text(healed)
    await dpytest.empty_queue()


async def test_healing_to_one_wakes_the_unconscious(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    await slash.run("hp", target="Gob", change="set 0", **gm(slash))
    await slash.run("condition add", target="Gob", condition="unconscious", **gm(slash))
    await slash.run("hp", target="Gob", change="+1", **gm(slash))
    gob = await sheet(bot, "Gob")
    assert gob.hp == 1 and gob.conditions == ()
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("change", "words"),
    [("5", "+5 to heal"), ("heal lots", "+5 to heal"), ("set 40", "maximum is 15"),
     ("set -9", "death threshold is -1"), ("-5000", "at most 999")],
)  # fmt: skip
async def test_bad_hp_changes_are_refused(
    bot: TableBot, slash: SlashHarness, change: str, words: str
) -> None:
    await table(bot, slash)
    refused(await slash.run("hp", target="Gob", change=change, **gm(slash)), words)
    assert (await sheet(bot, "Gob")).hp == 15
    await dpytest.empty_queue()


async def test_conditions_add_list_remove(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    added = await slash.run("condition add", target="Knight", condition="prone", **gm(slash))
    assert "prone: attacks against it have advantage" in text(added)
    refused(
        await slash.run("condition add", target="Knight", condition="prone", **gm(slash)),
        "already prone",
    )
    listed = await slash.run("condition list", target="Knight", **gm(slash))
    assert "prone" in text(listed) and "25/25 HP" in text(listed)
    # An NPC's state is hidden from players unless the GM shows NPC hit points.
    refused(
        await slash.run("condition list", target="Knight", **player(slash)),
        "The GM keeps Knight's state hidden.",
    )
    refused(
        await slash.run("condition remove", target="Knight", condition="prone",
                        **player(slash)),
        "Only the GM",
    )  # fmt: skip
    removed = await slash.run("condition remove", target="Knight", condition="prone", **gm(slash))
    assert "No conditions." in text(removed)
    mine = await slash.run("condition list", **player(slash))
    assert "Aria: conditions" in mine.embeds[0]["title"]
    await dpytest.empty_queue()


async def test_permissions(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    scripted = script(bot, 5, 5, 5)
    refused(
        await slash.run("attack", target="Gob", character="Aria", **player(slash, 2)),
        "Aria isn't yours",
    )
    refused(await slash.run("attack", target="Gob", **player(slash, 2)), "no active character")
    refused(await slash.run("hp", target="Gob", change="-3", **player(slash)), "Only the GM")
    refused(
        await slash.run("condition add", target="Gob", condition="prone", **player(slash)),
        "Only the GM",
    )
    assert scripted.requests == []
    # The GM attacks with any character, e.g. the player's.
    result = await slash.run("attack", target="Gob", character="Aria", **gm(slash))
    assert not result.ephemeral
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"target": "Aria"}, "can't attack itself"),
        ({"target": "Nobody"}, "no character called Nobody"),
        ({"target": "Gob", "weapon": "Plate"}, "Aria carries One-handed sword"),
        ({"target": "Gob", "weapon": "Longbow", "thrown": True}, "can't be thrown"),
        ({"target": "Gob", "offhand": True}, "Only a light melee weapon"),
        ({"target": "Gob", "weapon": "Unarmed", "two_handed": True}, "Unarmed can't be"),
        ({"target": "Gob", "weapon": "Two-handed axe", "finesse": True}, "not finesse"),
        ({"target": "Gob", "situation": "flanking, moonlight"}, "“moonlight” is not a situation"),
        ({"target": "Gob", "situation": "soft cover 7"}, "Soft cover goes from 1 to 4"),
        ({"target": "Gob", "melee_with": "Knight"}, "add into melee"),
        ({"target": "Gob", "situation": "into melee", "melee_with": "A,B,C,D,E,F,G,H,I"},
         "at most 8"),
        ({"target": "Gob", "weapon": "Longbow", "maneuver": "force back",
          "defense": "mind"}, "can't force back"),
    ],
)  # fmt: skip
async def test_bad_attacks_are_refused_before_any_die(
    bot: TableBot, slash: SlashHarness, options: dict[str, object], words: str
) -> None:
    await table(bot, slash)
    scripted = script(bot, 5, 5, 5)
    refused(await slash.run("attack", **options, **player(slash)), words)
    assert scripted.requests == []
    assert (await sheet(bot, "Gob")).hp == 15
    await dpytest.empty_queue()


async def test_unarmed_and_improvised(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    # Brawl 2: unarmed 1d2. 8 + 3 + 2 − 2 = 11: d2 shows 2, + 3 strength.
    script(bot, 4, 4, 2)
    body = text(await slash.run("attack", target="Gob", weapon="Unarmed", **player(slash)))
    assert "+ 2 brawl" in body and "Rolled [2] + 3 strength = 5" in body
    # Improvised one-handed: 1d4 one category up at brawl 2 → d6; 11: unmoved, shows 6.
    script(bot, 4, 4, 6)
    body = text(
        await slash.run("attack", target="Gob", weapon="Improvised one-handed", **player(slash))
    )
    assert "Damage die d6 no change → d6" in body and "Rolled [6] + 3 strength = 9" in body
    assert (await sheet(bot, "Gob")).hp == 1
    await dpytest.empty_queue()


async def test_attacks_are_logged(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    script(bot, 4, 4, 5)
    await slash.run("attack", target="Gob", **player(slash))
    async with bot.db.read() as conn:
        [logged] = await RollLogRepository(conn).recent(bot.guilds[0].id)
    gob = await sheet(bot, "Gob")
    assert logged.kind == "2d10-attack" and logged.total == 10
    assert logged.character_id is None
    assert logged.result["faces"] == [4, 4] and logged.result["total"] == 11
    assert logged.result["target_id"] == gob.id and logged.result["hp"] == [15, 5]
    assert logged.expression == "2d10 attack Aria → Gob (One-handed sword): 11, 10 damage"
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("attack", "A block is spent only when the attack deals damage"),
        ("attack", "flanking, target prone"),
        ("hp", "never below the death threshold"),
        ("condition add", "A successful trip or throw marks the target prone"),
        ("shield repair", "/shield repair"),
    ],
)
async def test_help_shows_the_rulings(
    bot: TableBot, slash: SlashHarness, command: str, words: str
) -> None:
    await table(bot, slash)
    result = await slash.run("help", command=command, **player(slash))
    assert all(r.ephemeral for r in result.responses if r.message)
    everything = "".join(
        e.get("description", "") + "".join(f["name"] + f["value"] for f in e.get("fields", []))
        for e in result.all_embeds
    )
    assert words in everything.replace("\n", " ")
    await dpytest.empty_queue()
