"""/init through the slash harness: commands, buttons, permissions, pings, the tracker."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any

import discord
import discord.ext.test as dpytest
import discord.ext.test.backend as dpytest_backend
import pytest

from bot.client import TableBot
from bot.render.hocs.initiative import tracker_embed
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.character import CharacterSheet
from bot.rules.hocs.conditions import Condition
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_codec import CharacterDetails
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from bot.storage.hocs.encounters import EncounterRecord
from bot.tracker.pinning import MISSING_PIN_PERMISSION
from tests.support.slash import DiscordWouldRefuse, SlashHarness, SlashResult

# --- helpers (also used by test_init_acceptance.py) ----------------------------------------


async def make_character(
    bot: TableBot,
    owner: discord.abc.User,
    name: str,
    *,
    agility: int = 2,
    training: int = 0,
    kind: CharacterKind = CharacterKind.PC,
    active: bool = True,
) -> Character:
    guild_id = bot.guilds[0].id
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild_id)
        repo = CharacterRepository(conn)
        character = await repo.create(
            guild_id=guild_id,
            owner_id=owner.id,
            kind=kind,
            sheet=CharacterSheet(
                name=name,
                strength=3,
                agility=agility,
                mind=2,
                presence=1,
                training={"initiative": training} if training else {},
            ),
            details=CharacterDetails(),
        )
        if active:
            await repo.set_active(guild_id, owner.id, character.id)
    return character


async def character(bot: TableBot, character_id: int) -> Character:
    async with bot.db.read() as conn:
        found = await CharacterRepository(conn).get(character_id)
    assert found is not None
    return found


async def stored(bot: TableBot, channel_id: int) -> EncounterRecord:
    record = await bot.get_cog("Initiative").service.load(channel_id)  # type: ignore[union-attr]
    assert record is not None
    return record


async def assert_tracker_matches(bot: TableBot, channel: discord.TextChannel) -> discord.Message:
    """The tracker message in the channel shows exactly the stored state."""
    record = await stored(bot, channel.id)
    assert record.tracker_message_id is not None
    message = await channel.fetch_message(record.tracker_message_id)
    shown = message.embeds[0].to_dict()
    expected = tracker_embed(record.state).to_dict()
    for key in ("title", "description", "fields", "footer"):
        assert shown.get(key) == expected.get(key), key
    return message


def gm(slash: SlashHarness) -> dict[str, object]:
    return {"user": slash.members[2], "manage_guild": True}


def turn_message(result: SlashResult) -> dict:
    message = result.message
    assert message is not None and message.message is not None
    return message.message


async def begin_with_party(bot: TableBot, slash: SlashHarness) -> tuple[Character, Character]:
    """Aria (members[0]) and Bram (members[1]) joined; a goblin; round 1 not started."""
    aria = await make_character(bot, slash.members[0], "Aria", training=1)
    bram = await make_character(bot, slash.members[1], "Bram")
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", user=slash.members[0])
    await slash.run("init join", user=slash.members[1])
    await slash.run("init add", name="Goblin", hp=7, **gm(slash))
    return aria, bram


# --- begin, join, add --------------------------------------------------------------------


@pytest.mark.parametrize("may_pin", [True, False])
async def test_begin_posts_the_tracker_and_pins_it_when_allowed(
    bot: TableBot, slash: SlashHarness, may_pin: bool
) -> None:
    if may_pin:
        role = slash.make_role("Bot", permissions=discord.Permissions(manage_messages=True))
        await dpytest.add_role(slash.guild.me, role)
    pinned: list[int] = []
    original = bot.http.pin_message

    async def pin_message(channel_id: int, message_id: int, reason: str | None = None) -> None:
        pinned.append(message_id)
        await original(channel_id, message_id, reason=reason)

    bot.http.pin_message = pin_message  # type: ignore[method-assign]
    result = await slash.run("init begin", **gm(slash))
    assert not result.ephemeral and "Combat begins" in (result.content or "")
    [tracker, *told] = result.channel_messages
    # Without the permission the channel is told which one to give (bot.tracker.pinning).
    assert [m.payload["content"] for m in told] == ([] if may_pin else [MISSING_PIN_PERMISSION])
    assert tracker.embeds[0]["title"] == "Initiative — not started"
    assert tracker.pings_nobody
    record = await stored(bot, slash.channel.id)
    assert record.tracker_message_id == tracker.message_id
    assert pinned == ([tracker.message_id] if may_pin else [])
    again = await slash.run("init begin", **gm(slash))
    assert again.ephemeral and "already running" in (again.content or "")
    await dpytest.empty_queue()


async def test_only_the_gm_begins(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run("init begin", user=slash.members[0], manage_guild=False)
    assert result.ephemeral and (result.content or "").startswith("Only the GM can begin")
    assert await bot.get_cog("Initiative").service.load(slash.channel.id) is None  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_commands_without_an_encounter_say_how_to_start(slash: SlashHarness) -> None:
    for command in ("init next", "init list", "init end"):
        result = await slash.run(command, **gm(slash))
        assert result.ephemeral and "/init begin" in (result.content or ""), command
    await dpytest.empty_queue()


async def test_join_and_add(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0], "Aria")
    bram = await make_character(bot, slash.members[1], "Bram")
    await make_character(
        bot, slash.members[2], "Captain Vex", kind=CharacterKind.ALLY, active=False
    )
    await slash.run("init begin", **gm(slash))
    joined = await slash.run("init join", user=slash.members[0])
    assert "Aria joins the encounter." in joined.embeds[0]["description"]
    twice = await slash.run("init join", user=slash.members[0])
    assert twice.ephemeral and "already in this encounter" in (twice.content or "")
    theirs = await slash.run("init join", user=slash.members[0], character="Bram")
    assert theirs.ephemeral and "isn't yours" in (theirs.content or "")
    await slash.run("init join", user=slash.members[2], character="Bram", manage_guild=True)
    await slash.run("init add", name="Goblin", count=3, group=True, hp=7, **gm(slash))
    await slash.run("init add", name="Goblin", count=2, **gm(slash))
    await slash.run("init add", name="Vex", character="Captain Vex", **gm(slash))
    not_gm = await slash.run("init add", name="Wolf", user=slash.members[0], manage_guild=False)
    assert not_gm.ephemeral and "Only the GM" in (not_gm.content or "")
    state = (await stored(bot, slash.channel.id)).state
    assert [p.name for p in state.participants] == [
        "Aria", "Bram", "Goblin 1", "Goblin 2", "Goblin 3", "Goblin 4", "Goblin 5", "Vex",
    ]  # fmt: skip
    assert [p.group for p in state.participants][2:7] == ["Goblin"] * 3 + [None] * 2
    bram_p = state.participants[1]
    assert (bram_p.owner_id, bram_p.character_id, bram_p.hp) == (slash.members[1].id, bram.id, 12)
    assert state.participants[-1].side.value == "ally" and state.participants[-1].hp == 12
    with pytest.raises(DiscordWouldRefuse):
        await slash.run("init add", name="x" * 41, **gm(slash))
    with pytest.raises(DiscordWouldRefuse):
        await slash.run("init add", name="Rat", count=21, **gm(slash))
    rats = await slash.run("init add", name="Rat", count=20, **gm(slash))
    assert "Rat 20 joins the encounter." in rats.embeds[0]["description"]
    full = await slash.run("init add", name="Bat", count=20, **gm(slash))
    assert full.ephemeral and "at most 40" in (full.content or "")
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


# --- turns, pings, permissions ---------------------------------------------------------------


async def test_turn_announcements_ping_only_the_owning_player(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria 2, Bram 1, Goblin 1
    first = await slash.run("init next", **gm(slash))
    assert first.content.startswith(f"<@{slash.members[0].id}> **Round 1**, initiative 2")
    assert first.message.allowed_mentions == {
        "parse": [], "users": [str(slash.members[0].id)], "replied_user": False,
    } or first.message.allowed_mentions["users"] == [str(slash.members[0].id)]  # fmt: skip
    assert "everyone" not in (first.message.allowed_mentions.get("parse") or [])
    fields = {f["name"]: f["value"] for f in first.embeds[0]["fields"]}
    assert (
        "Round 1 initiative" in fields and "Ties: player characters" in fields["Round 1 initiative"]
    )
    assert [b["label"] for b in first.message.buttons] == [
        "Action 0/2", "Quick action 0/1", "Reaction 0/1", "End turn",
    ]  # fmt: skip
    await slash.run("init next", user=slash.members[0])  # Aria ends her own turn
    goblin = await slash.run("init next", user=slash.members[1])  # Bram ends his
    assert goblin.content.startswith("**Round 1**, initiative 1: it's **Goblin**'s turn.")
    assert goblin.message.pings_nobody
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_players_may_only_end_and_act_on_their_own_turn(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    early = await slash.run("init next", user=slash.members[0])
    assert early.ephemeral and "start the first round" in (early.content or "")
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])
    aria_turn = await slash.run("init next", **gm(slash))
    wrong = await slash.run("init next", user=slash.members[1])
    assert wrong.ephemeral and "It isn't your turn" in (wrong.content or "")
    act_other = await slash.run("init act", user=slash.members[1], kind="action", name="Aria")
    assert act_other.ephemeral and "Aria isn't yours" in (act_other.content or "")
    off_turn = await slash.run("init act", user=slash.members[1], kind="action")
    assert off_turn.ephemeral and "isn't Bram's turn" in (off_turn.content or "")
    reaction = await slash.run("init act", user=slash.members[1], kind="reaction")
    assert "Bram uses a reaction." in reaction.embeds[0]["description"]
    # Buttons: someone else's are refused; the owner's mark and update the message.
    refused = await slash.click(aria_turn, label="Action 0/2", user=slash.members[1])
    assert refused.ephemeral and "Aria isn't yours" in (refused.content or "")
    clicked = await slash.click(aria_turn, label="Action 0/2", user=slash.members[0])
    labels = [b["label"] for b in clicked.message.buttons]
    assert labels[0] == "Action 1/2"
    assert clicked.embeds[0]["fields"][-1]["value"].startswith("actions 1/2")
    end_by_other = await slash.click(clicked, label="End turn", user=slash.members[1])
    assert end_by_other.ephemeral and "It isn't your turn" in (end_by_other.content or "")
    ended = await slash.click(clicked, label="End turn", user=slash.members[0])
    assert ended.responses[0].type == 7 and ended.responses[0].data.get("components") == []
    assert ended.content.startswith(f"<@{slash.members[1].id}> **Round 1**")
    [end_id] = [c for c in aria_turn.custom_ids if c.startswith("init:end:")]
    stale = await slash.click(custom_id=end_id, user=slash.members[0])
    assert stale.ephemeral and "already over" in (stale.content or "")
    assert (await stored(bot, slash.channel.id)).state.turn == 2
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_gm_controls_prev_move_remove_set_skipdown(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria, Bram, Goblin
    await slash.run("init next", **gm(slash))
    for command, options in (
        ("init prev", {}),
        ("init move", {"name": "Goblin"}),
        ("init remove", {"name": "Goblin"}),
        ("init set", {"name": "Goblin", "successes": 3}),
        ("init skipdown", {"on": True}),
        ("init effect", {"name": "Goblin", "condition": "slow"}),
    ):
        refused = await slash.run(command, user=slash.members[0], manage_guild=False, **options)
        assert refused.ephemeral and "Only the GM" in (refused.content or ""), command
    first_turn = await slash.run("init prev", **gm(slash))
    assert first_turn.ephemeral and "first turn of the round" in (first_turn.content or "")
    moved = await slash.run("init move", name="goblin", **gm(slash))
    assert "it's **Goblin**'s turn" in moved.content
    back = await slash.run("init prev", **gm(slash))
    assert "it's **Bram**'s turn" in back.content and "Back to Bram" in str(back.embeds)
    result = await slash.run("init set", name="Goblin", successes=5, **gm(slash))
    assert "Goblin: initiative set to 5 from now on" in result.embeds[0]["description"]
    result = await slash.run("init set", name="Aria", successes=4, **gm(slash))
    assert "for the next round's roll" in result.embeds[0]["description"]
    removed = await slash.run("init remove", name="Bram", **gm(slash))
    assert "it's **Goblin**'s turn" in removed.content
    unknown = await slash.run("init remove", name="Nobody", **gm(slash))
    assert unknown.ephemeral and "check /init list" in (unknown.content or "")
    await slash.run("init skipdown", on=True, **gm(slash))
    state = (await stored(bot, slash.channel.id)).state
    assert state.skip_down and [p.name for p in state.participants] == ["Aria", "Goblin"]
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_effects_bleeding_and_expiry_reach_the_character(
    bot: TableBot, slash: SlashHarness
) -> None:
    aria, _ = await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])  # Aria, Bram, Goblin
    await slash.run("init next", **gm(slash))
    await slash.run("init effect", name="Aria", condition="bleeding", value=2, **gm(slash))
    added = await slash.run("init effect", name="Aria", condition="slow", rounds=1, **gm(slash))
    assert "slow until the start of their turn in round 2" in added.embeds[0]["description"]
    assert (await character(bot, aria.id)).state.conditions.value(Condition.BLEEDING) == 2
    for _ in range(2):
        await slash.run("init next", **gm(slash))
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])
    turn = await slash.run("init next", **gm(slash))  # round 2: Aria's turn starts
    text = str(turn.embeds)
    assert "Aria is no longer slow" in text and "Aria bleeds 2: now 10 HP" in text
    stored_aria = await character(bot, aria.id)
    assert stored_aria.state.hp == 10 and Condition.SLOW not in stored_aria.state.conditions
    cleared = await slash.run(
        "init effect", name="Aria", condition="bleeding", clear=True, **gm(slash)
    )
    assert "no longer bleeding" in cleared.embeds[0]["description"]
    assert not (await character(bot, aria.id)).state.conditions
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_list_is_private_and_shows_the_gm_npc_hp(bot: TableBot, slash: SlashHarness) -> None:
    await begin_with_party(bot, slash)
    player = await slash.run("init list", user=slash.members[0])
    assert player.ephemeral and "Goblin** (foe) — unhurt" in player.embeds[0]["description"]
    master = await slash.run("init list", **gm(slash))
    assert "Goblin** (foe) — HP 7/7" in master.embeds[0]["description"]
    assert "Aria** (PC) — HP 12/12" in player.embeds[0]["description"]
    await dpytest.empty_queue()


async def test_a_deleted_tracker_is_posted_again(bot: TableBot, slash: SlashHarness) -> None:
    await begin_with_party(bot, slash)
    first = await stored(bot, slash.channel.id)
    message = await slash.channel.fetch_message(first.tracker_message_id)  # type: ignore[arg-type]
    dpytest_backend.delete_message(message)
    # dpytest edits a deleted message without complaint; Discord answers 404.

    async def edit_message(channel_id: int, message_id: int, **fields: Any) -> object:
        known = dpytest_backend._cur_config.messages.get(channel_id, [])  # type: ignore[union-attr]
        if not any(m["id"] == message_id for m in known):
            raise discord.NotFound(
                SimpleNamespace(status=404, reason="Not Found"), "Unknown Message"
            )  # type: ignore[arg-type]
        edited = sys._getframe(1).f_locals["self"]  # dpytest finds the message the same way
        return dpytest_backend.edit_message(edited, **fields)

    bot.http.edit_message = edit_message  # type: ignore[method-assign]
    result = await slash.run("init add", name="Wolf", **gm(slash))
    [reposted] = result.channel_messages
    record = await stored(bot, slash.channel.id)
    assert record.tracker_message_id == reposted.message_id != first.tracker_message_id
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()


async def test_end_summarises_and_buttons_stop(bot: TableBot, slash: SlashHarness) -> None:
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])
    turn = await slash.run("init next", **gm(slash))
    record = await stored(bot, slash.channel.id)
    refused = await slash.run("init end", user=slash.members[0], manage_guild=False)
    assert refused.ephemeral and "Only the GM" in (refused.content or "")
    ended = await slash.run("init end", **gm(slash))
    [summary] = ended.embeds
    assert (
        summary["title"] == "Combat over" and summary["description"] == "Lasted 1 round (1 turn)."
    )
    assert [f["name"] for f in summary["fields"]] == ["Player characters", "Antagonists"]
    assert "Goblin — unhurt" in summary["fields"][1]["value"]
    tracker = await slash.channel.fetch_message(record.tracker_message_id)  # type: ignore[arg-type]
    assert tracker.embeds[0].title == "Combat over"
    late = await slash.click(turn, label="End turn", user=slash.members[0])
    assert late.ephemeral and "has ended" in (late.content or "")
    assert await bot.get_cog("Initiative").service.load(slash.channel.id) is None  # type: ignore[union-attr]
    await dpytest.empty_queue()


async def test_prefix_path_runs_the_same_commands(bot: TableBot, slash: SlashHarness) -> None:
    await begin_with_party(bot, slash)
    bot.dice = ScriptedDice([4, 4, 1, 4, 1, 4, 1])
    owner = slash.members[2]
    role = slash.make_role("GM", permissions=discord.Permissions(manage_guild=True))
    await dpytest.add_role(owner, role)
    await dpytest.empty_queue()
    before = len(slash.channel_sends)
    await dpytest.message("!init next", member=owner)
    reply = dpytest.get_message()
    assert reply.content.startswith(f"<@{slash.members[0].id}> **Round 1**")
    [sent] = slash.channel_sends[before:]
    assert sent.allowed_mentions["users"] == [str(slash.members[0].id)]
    assert not sent.allowed_mentions.get("replied_user")
    assert sent.custom_ids[-1].startswith("init:end:")
    await dpytest.message("!init move Goblin", member=owner)
    moved = dpytest.get_message()
    assert "it's **Goblin**'s turn" in moved.content
    assert slash.channel_sends[-1].pings_nobody
    await dpytest.empty_queue()


async def test_the_campaign_setting_shows_npc_hit_points(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("campaign set", show_npc_hp=True, **gm(slash))
    await slash.run("init begin", social=True, **gm(slash))
    result = await slash.run("init add", name="Goblin", hp=7, **gm(slash))
    await assert_tracker_matches(bot, slash.channel)
    [tracker] = [
        m for m in slash.channel_sends if m.embeds and "Initiative" in m.embeds[0]["title"]
    ]
    message = await slash.channel.fetch_message(tracker.message_id)  # type: ignore[arg-type]
    assert "Goblin** (foe) — HP 7/7" in message.embeds[0].description  # type: ignore[operator]
    assert "social (presence)" in message.embeds[0].footer.text  # type: ignore[operator]
    assert result.embeds[0]["description"] == "Goblin joins the encounter."
    await dpytest.empty_queue()


async def test_names_autocomplete_from_the_channels_encounter(
    bot: TableBot, slash: SlashHarness
) -> None:
    await begin_with_party(bot, slash)
    clash = await slash.run("init add", name="Goblin", count=2, group=True, **gm(slash))
    assert clash.ephemeral and "is a participant's name here" in (clash.content or "")
    await slash.run("init add", name="Goblins", count=2, group=True, **gm(slash))
    offered = await slash.autocomplete("init move", "name", "gob")
    assert [c["name"] for c in offered] == ["Goblin", "Goblins", "Goblins 1", "Goblins 2"]
    mine = await slash.autocomplete("init join", "character", "", user=slash.members[1])
    assert [c["name"] for c in mine] == ["Bram", "Aria"]
    await dpytest.empty_queue()


@pytest.mark.parametrize("shown", [False, True])
async def test_the_tracker_hides_npc_conditions_with_their_hit_points(
    bot: TableBot, slash: SlashHarness, shown: bool
) -> None:
    # Ruling (bot.render.hocs.initiative.visible_conditions): an NPC's conditions are hidden
    # with its HP, as /condition list hides them, so the public tracker can't leak them.
    await slash.run("init begin", show_npc_hp=shown, **gm(slash))
    await slash.run("init add", name="Goblin", hp=7, **gm(slash))
    await slash.run("init effect", name="Goblin", condition="slow", **gm(slash))
    await assert_tracker_matches(bot, slash.channel)
    [tracker] = [
        m for m in slash.channel_sends if m.embeds and "Initiative" in m.embeds[0]["title"]
    ]
    message = await slash.channel.fetch_message(tracker.message_id)  # type: ignore[arg-type]
    line = next(
        row for row in (message.embeds[0].description or "").splitlines() if "Goblin" in row
    )
    assert ("slow" in line) is shown
    assert ("HP 7/7" in line) is shown
    await dpytest.empty_queue()
