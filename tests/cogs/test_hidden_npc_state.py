"""Hidden NPC state (issue 10, item 7): who reads an NPC's HP and conditions.

Ruling (cogs.hocs.visibility): the running encounter's show_npc_hp decides in its channel
when the NPC takes part; elsewhere the campaign's show_npc_hp. When hidden, other
players get a status word; the GM and the NPC's owner see everything.
"""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.cogs.test_character_helpers import create, fields
from tests.cogs.test_combat_helpers import gm, pc, player, text
from tests.support.slash import SlashHarness


def owner(slash: SlashHarness) -> dict[str, Any]:
    """Member 2: created the NPC while GM, now a player without Manage Server."""
    return {"user": slash.members[2], "manage_guild": False}


async def _hurt_gob(slash: SlashHarness) -> None:
    made = await create(slash, "Gob", kind="antagonist", user=slash.members[2], manage_guild=True)
    assert not made.ephemeral, made.content
    await slash.run("hp", target="Gob", change="-5", **gm(slash))  # 12 → 7 of 12: hurt
    await slash.run("condition add", target="Gob", condition="bleeding", value=3, **gm(slash))


async def _views(slash: SlashHarness, who: dict[str, Any]) -> tuple[dict[str, str], str]:
    sheet = await slash.run("character show", name="Gob", **who)
    listed = await slash.run("condition list", target="Gob", **who)
    assert not sheet.ephemeral and not listed.ephemeral
    return fields(sheet), text(listed)


def _assert_sees_all(sheet: dict[str, str], listed: str) -> None:
    assert sheet["Hit points"] == "7/12"
    assert sheet["Recovery"] == "3/3" and sheet["Determination"] == "3/3"
    assert sheet["Conditions"] == "bleeding 3"
    assert "7/12 HP" in listed and "**bleeding (3)**" in listed


def _assert_sees_status_only(sheet: dict[str, str], listed: str) -> None:
    assert sheet["Hit points"] == "hurt (hidden by the GM)"
    assert sheet["Recovery"] == sheet["Determination"] == "hidden by the GM"
    assert sheet["Conditions"] == "hidden by the GM"
    assert "hurt." in listed and "hidden" in listed
    assert "7/12" not in listed and "bleeding" not in listed
    assert "7/12" not in str(sheet) and "bleeding" not in str(sheet)


@pytest.mark.parametrize("viewer", ["gm", "owner", "player"])
async def test_hidden_by_default_from_other_players(
    bot: TableBot, slash: SlashHarness, viewer: str
) -> None:
    await _hurt_gob(slash)
    who = {"gm": gm(slash), "owner": owner(slash), "player": player(slash)}[viewer]
    sheet, listed = await _views(slash, who)
    if viewer == "player":
        _assert_sees_status_only(sheet, listed)
    else:
        _assert_sees_all(sheet, listed)
    await dpytest.empty_queue()


async def test_campaign_setting_shows_npc_state(bot: TableBot, slash: SlashHarness) -> None:
    await _hurt_gob(slash)
    await slash.run("campaign set", show_npc_hp=True, **gm(slash))
    _assert_sees_all(*await _views(slash, player(slash)))
    await dpytest.empty_queue()


async def test_running_encounter_flag_decides_in_its_channel(
    bot: TableBot, slash: SlashHarness
) -> None:
    await _hurt_gob(slash)
    # The campaign shows NPC HP, but this fight hides it: the fight's choice wins here.
    await slash.run("campaign set", show_npc_hp=True, **gm(slash))
    begun = await slash.run("init begin", show_npc_hp=False, **gm(slash))
    assert not begun.ephemeral, begun.content
    added = await slash.run("init add", name="Gob", character="Gob", **gm(slash))
    assert not added.ephemeral, added.content
    _assert_sees_status_only(*await _views(slash, player(slash)))
    _assert_sees_all(*await _views(slash, owner(slash)))
    await slash.run("init end", **gm(slash))
    # And the other way round: the campaign hides, the fight shows.
    await slash.run("campaign set", show_npc_hp=False, **gm(slash))
    await slash.run("init begin", show_npc_hp=True, **gm(slash))
    await slash.run("init add", name="Gob", character="Gob", **gm(slash))
    _assert_sees_all(*await _views(slash, player(slash)))
    await dpytest.empty_queue()


async def test_status_words_and_player_characters(bot: TableBot, slash: SlashHarness) -> None:
    await _hurt_gob(slash)
    await slash.run("hp", target="Gob", change="-2", **gm(slash))  # 5 of 12: bloodied
    sheet, listed = await _views(slash, player(slash))
    assert sheet["Hit points"] == "bloodied (hidden by the GM)" and "bloodied." in listed
    # A player character is never hidden, from anyone.
    await pc(slash, "Bram", number=1)
    await slash.run("hp", target="Bram", change="-1", **gm(slash))
    shown = await slash.run("character show", name="Bram", **owner(slash))
    assert fields(shown)["Hit points"] == "11/12"
    await dpytest.empty_queue()


async def test_wounds_list_follows_the_same_rule(bot: TableBot, slash: SlashHarness) -> None:
    await _hurt_gob(slash)
    hidden = await slash.run("character wounds list", name="Gob", **player(slash))
    assert "hidden" in text(hidden) and "No wounds" not in text(hidden)
    seen = await slash.run("character wounds list", name="Gob", **owner(slash))
    assert "No wounds or injuries." in text(seen)
    await dpytest.empty_queue()


async def test_npc_sheet_has_no_hero_points(bot: TableBot, slash: SlashHarness) -> None:
    await _hurt_gob(slash)
    sheet = await slash.run("character show", name="Gob", **gm(slash))
    assert "Hero points" not in fields(sheet)
    await pc(slash, "Bram", number=1)
    mine = await slash.run("character show", name="Bram", **player(slash))
    assert fields(mine)["Hero points"] == "0"
    await dpytest.empty_queue()
