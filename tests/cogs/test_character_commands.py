"""/character create, show, list, select, delete through the slash harness."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.storage.hocs.characters import CharacterKind
from tests.cogs.test_character_helpers import active_of, assert_refused, create, fields, stored
from tests.support.slash import DiscordWouldRefuse, SlashHarness


async def test_create_shows_exact_derived_values(bot: TableBot, slash: SlashHarness) -> None:
    result = await create(slash)
    assert not result.ephemeral
    assert result.content == "Created **Mira**. It is now your active character."
    result.assert_no_pings()
    embed = result.embeds[0]
    assert embed["title"] == "Mira"
    assert "Player character · Tier 1 (0 exp) · Medium" in embed["description"]
    assert f"<@{slash.members[0].id}>" in embed["description"]
    sheet = fields(result)
    assert sheet["Attributes"] == "STR 3 (1d8) · AGI 2 (1d6) · MIND 2 (1d6) · PRES 1 (1d4)"
    assert sheet["Hit points"] == "12/12"
    assert sheet["Threshold"] == "\u22126"
    assert sheet["Recovery"] == "3/3"
    assert sheet["Determination"] == "3/3"
    assert sheet["Hero points"] == "0"
    assert sheet["Fortune points"] == "none"
    assert sheet["Carrying capacity"] == "11 slots"
    assert sheet["Toughness"] == "0 (armor)"
    assert sheet["Mettle"] == "2 (mind)"
    assert sheet["Conditions"] == "none"
    assert "/character skill" in sheet["Skills"]
    mira = await stored(bot, "mira")
    assert mira is not None and mira.kind is CharacterKind.PC
    assert mira.owner_id == slash.members[0].id
    assert (await active_of(bot, slash.members[0])).id == mira.id  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_create_options_instinct_size_armor_spirit(
    bot: TableBot, slash: SlashHarness
) -> None:
    result = await create(
        slash,
        "Wolf",
        strength=4,
        agility=3,
        mind=1,
        presence=5,
        size="large",
        armor=2,
        instinct=True,
        spirit_attribute="presence",
        tier=2,
    )
    sheet = fields(result)
    assert sheet["Attributes"] == "STR 4 (2d8) · AGI 3 (1d8) · INS 1 (1d4) · PRES 5 (1d10)"
    assert sheet["Hit points"] == "14/14"
    assert sheet["Threshold"] == "\u22127"
    assert sheet["Carrying capacity"] == "14 slots"
    assert sheet["Toughness"] == "2 (armor)"
    assert sheet["Mettle"] == "5 (presence)"
    assert "Tier 2" in result.embeds[0]["description"]
    assert "Large" in result.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_second_pc_does_not_steal_active(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Mira")
    second = await create(slash, "Bram")
    assert second.content == "Created **Bram**."
    assert (await active_of(bot, slash.members[0])).name == "Mira"  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_duplicate_names_refused_ignoring_case(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Mira")
    again = await create(slash, "  MIRA ", user=slash.members[1])
    assert_refused(again, "already a character called", "another name")
    async with bot.db.read() as conn:
        (count,) = await (await conn.execute("SELECT count(*) FROM characters")).fetchone()
    assert count == 1
    await dpytest.empty_queue()


async def test_non_gm_cannot_create_npcs(bot: TableBot, slash: SlashHarness) -> None:
    refused = await create(slash, "Grath", kind="antagonist")
    assert_refused(refused, "Only the GM", "allies and antagonists")
    assert await stored(bot, "Grath") is None
    ally = await create(slash, "Grath", kind="antagonist", manage_guild=True)
    assert ally.content == "Created **Grath**."  # an NPC never becomes active by itself
    grath = await stored(bot, "Grath")
    assert grath is not None and grath.kind is CharacterKind.ANTAGONIST
    assert "Antagonist" in ally.embeds[0]["description"]
    assert await active_of(bot, slash.members[0]) is None
    await dpytest.empty_queue()


async def test_show_defaults_to_active_and_anyone_may_view(
    bot: TableBot, slash: SlashHarness
) -> None:
    none_yet = await slash.run("character show", user=slash.members[0])
    assert_refused(none_yet, "no active character", "/character create")
    await create(slash, "Mira")
    mine = await slash.run("character show", user=slash.members[0])
    assert mine.embeds[0]["title"] == "Mira" and not mine.ephemeral
    assert "active character" in mine.embeds[0]["description"]
    theirs = await slash.run("character show", user=slash.members[1], name="mira")
    assert theirs.embeds[0]["title"] == "Mira" and not theirs.ephemeral
    unknown = await slash.run("character show", user=slash.members[1], name="Nobody")
    assert_refused(unknown, "no character called Nobody", "/character list")
    await dpytest.empty_queue()


async def test_list_marks_active_and_never_pings(bot: TableBot, slash: SlashHarness) -> None:
    empty = await slash.run("character list")
    assert "No characters yet" in empty.embeds[0]["description"]
    await create(slash, "Mira")
    await create(slash, "Bram")
    await create(slash, "Oskar", user=slash.members[1])
    result = await slash.run("character list", user=slash.members[2])
    result.assert_no_pings()
    lines = result.embeds[0]["description"].splitlines()
    owner0, owner1 = slash.members[0].id, slash.members[1].id
    assert lines == [
        f"**Bram** — Player character, tier 1 · <@{owner0}>",
        f"★ **Mira** — Player character, tier 1 · <@{owner0}>",
        f"★ **Oskar** — Player character, tier 1 · <@{owner1}>",
    ]
    only = await slash.run("character list", player=slash.members[1])
    assert only.embeds[0]["description"].count("**") == 2
    assert "Oskar" in only.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_select_own_only(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Mira")
    await create(slash, "Bram")
    await create(slash, "Oskar", user=slash.members[1])
    picked = await slash.run("character select", user=slash.members[0], name="bram")
    assert picked.ephemeral and "**Bram** is now your active character" in picked.content
    assert (await active_of(bot, slash.members[0])).name == "Bram"  # type: ignore[union-attr]
    shown = await slash.run("character show", user=slash.members[0])
    assert shown.embeds[0]["title"] == "Bram"
    stolen = await slash.run("character select", user=slash.members[0], name="Oskar")
    assert_refused(stolen, "isn't yours", "your own characters")
    assert (await active_of(bot, slash.members[0])).name == "Bram"  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_delete_needs_confirm_and_owner(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Mira")
    unconfirmed = await slash.run("character delete", name="Mira", confirm=False)
    assert_refused(unconfirmed, "can't be undone", "confirm:True")
    other = await slash.run(
        "character delete", user=slash.members[1], name="Mira", confirm=True, manage_guild=False
    )
    assert_refused(other, "isn't yours", "only its owner or the GM")
    assert await stored(bot, "Mira") is not None
    done = await slash.run("character delete", user=slash.members[0], name="Mira", confirm=True)
    assert done.content.startswith("Deleted **Mira**.")
    assert "no active character now" in done.content
    assert await stored(bot, "Mira") is None
    assert await active_of(bot, slash.members[0]) is None
    await dpytest.empty_queue()


async def test_gm_may_delete_anyones(bot: TableBot, slash: SlashHarness) -> None:
    await create(slash, "Mira")
    done = await slash.run(
        "character delete", user=slash.members[1], name="Mira", confirm=True, manage_guild=True
    )
    assert done.content.startswith("Deleted **Mira**.") and not done.ephemeral
    assert await stored(bot, "Mira") is None
    await dpytest.empty_queue()


async def test_autocomplete_offers_guild_names_own_first(
    bot: TableBot, slash: SlashHarness
) -> None:
    await create(slash, "Mira")
    await create(slash, "Mirabel", user=slash.members[1])
    await create(slash, "Oskar", user=slash.members[1])
    choices = await slash.autocomplete("character show", "name", "mir", user=slash.members[1])
    assert [c["value"] for c in choices] == ["Mirabel", "Mira"]
    own = await slash.autocomplete("character select", "name", "", user=slash.members[1])
    assert [c["value"] for c in own] == ["Mirabel", "Oskar"]
    edit = await slash.autocomplete("character edit", "name", "osk", user=slash.members[0])
    assert [c["value"] for c in edit] == ["Oskar"]
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("@everyone", "@\u200beveryone"),
        ("**bold** _it_", "\\*\\*bold\\*\\* \\_it\\_"),
        ("<@123456789012345678>", "<@\u200b123456789012345678>"),
    ],
)
async def test_hostile_names_never_ping_or_format(
    bot: TableBot, slash: SlashHarness, name: str, title: str
) -> None:
    created = await create(slash, name)
    created.assert_no_pings()
    assert created.embeds[0]["title"] == title
    assert created.content == f"Created **{title}**. It is now your active character."
    listed = await slash.run("character list")
    assert title in listed.embeds[0]["description"]
    refused = await slash.run(
        "character edit", user=slash.members[1], name=name, strength=1, manage_guild=False
    )
    assert_refused(refused, "isn't yours")
    assert title in refused.content
    await dpytest.empty_queue()


async def test_bad_names_refused(bot: TableBot, slash: SlashHarness) -> None:
    with pytest.raises(DiscordWouldRefuse):
        await create(slash, "x" * 65)
    # Sent anyway, the bot's own bound still refuses it.
    too_long = await slash.run(
        "character create", name="x" * 65, client_checks=False, strength=1, agility=1,
        mind=1, presence=1,
    )  # fmt: skip
    assert_refused(too_long, "64")
    symbols = await create(slash, "***")
    assert_refused(symbols, "letter or digit")
    async with bot.db.read() as conn:
        (count,) = await (await conn.execute("SELECT count(*) FROM characters")).fetchone()
    assert count == 0
    await dpytest.empty_queue()
