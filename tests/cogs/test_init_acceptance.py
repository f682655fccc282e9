"""The issue's acceptance run: two players, a group of goblins and an ally for three rounds,
with a restart in the middle of round 2, and 50 simultaneous /init next."""

from __future__ import annotations

import asyncio
import random
import re

import discord
import discord.ext.test as dpytest
import discord.ext.test.backend as dpytest_backend
import discord.ext.test.runner as dpytest_runner

from bot.client import TableBot
from bot.config import Settings
from bot.interactions.command_sync import SyncMode
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.rules.hocs.conditions import Condition
from bot.storage.backend import open_database
from bot.storage.database import Database
from tests.cogs.test_init_commands import (
    assert_tracker_matches,
    character,
    gm,
    make_character,
    stored,
)
from tests.conftest import intents_for_tests
from tests.support.dpytest_fixes import report_only_unexpected_errors
from tests.support.slash import RecordedResponse, SlashHarness

ROUND_1 = [4, 1, 1, 4, 1, 4, 1, 4, 1]  # Aria (3 dice), Bram, Goblins, Sergeant: 1 success each
ROUND_2 = [5, 1, 1, 1, 1, 6, 6, 4, 5]  # Aria 1, Bram 0, Goblins 2, Sergeant 2
ROUND_3 = ROUND_1


async def restart(bot: TableBot, settings: Settings) -> tuple[TableBot, SlashHarness, Database]:
    """A new process: a new TableBot on the same database file, attached to the same
    Discord (the guild, channel, members and messages keep their ids)."""
    guild = bot.guilds[0]
    channel = guild.text_channels[0]
    humans = [m for m in guild.members if not m.bot and m.id != bot.user.id]  # type: ignore[union-attr]
    messages = dict(dpytest_backend._cur_config.messages)  # type: ignore[union-attr]
    db = await open_database(settings.database_target)  # (the test's backend)
    await db.migrate()
    client = TableBot(
        settings, db, dice=ScriptedDice(ROUND_3), sync_mode=SyncMode.SKIP,
        intents=intents_for_tests(),
    )  # fmt: skip
    await client._async_setup_hook()
    await client.load_cogs()
    dpytest.configure(client, guilds=[], text_channels=[], voice_channels=[], members=[])
    new_guild = dpytest_backend.make_guild(guild.name, id_num=guild.id)
    new_channel = dpytest_backend.make_text_channel(channel.name, new_guild, id_num=channel.id)
    members = []
    for human in humans:
        user = dpytest_backend.make_user(human.name, human.discriminator, id_num=human.id)
        members.append(dpytest_backend.make_member(user, new_guild, nick=human.nick))
    dpytest_backend.make_member(dpytest_backend.get_state().user, new_guild)
    dpytest_runner._cur_config = dpytest_runner.RunnerConfig(
        client, [new_guild], [new_channel], members
    )
    dpytest_backend._cur_config.messages.update(messages)  # type: ignore[union-attr]
    report_only_unexpected_errors(client)
    return client, SlashHarness(client), db


def footer_turn(reply: RecordedResponse) -> int:
    return int(re.fullmatch(r"Turn (\d+)", reply.embeds[0]["footer"]["text"]).group(1))  # type: ignore[union-attr]


async def test_three_rounds_with_a_restart_in_round_two(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    aria_player, bram_player = slash.members[0], slash.members[1]
    role = slash.make_role("Bot", permissions=discord.Permissions(manage_messages=True))
    await dpytest.add_role(slash.guild.me, role)
    aria = await make_character(bot, aria_player, "Aria", training=1)  # 3 dice
    bram = await make_character(bot, bram_player, "Bram")  # 2 dice
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", user=aria_player)
    await slash.run("init join", user=bram_player)
    await slash.run(
        "init add", name="Goblin", count=3, group=True, group_initiative=True, hp=7, **gm(slash)
    )
    await slash.run("init add", name="Sergeant", side="ally", **gm(slash))

    # Round 1: every slot rolls 1 success; ties go PCs (join order), ally, antagonists.
    bot.dice = ScriptedDice(ROUND_1)
    turn = await slash.run("init next", **gm(slash))
    assert turn.content == f"<@{aria_player.id}> **Round 1**, initiative 1: it's **Aria**'s turn."
    assert turn.message.allowed_mentions["users"] == [str(aria_player.id)]  # type: ignore[union-attr]
    initiative = turn.embeds[0]["fields"][0]["value"].splitlines()
    assert [re.sub(r" \(.*", "", line) for line in initiative[:4]] == [
        "**1** — Aria", "**1** — Bram", "**1** — Sergeant", "**1** — Goblin",
    ]  # fmt: skip
    record = await stored(bot, slash.channel.id)
    names = [[record.state.participant(i).name for i in slot] for slot in record.state.order]
    assert names == [["Aria"], ["Bram"], ["Sergeant"], ["Goblin 1", "Goblin 2", "Goblin 3"]]
    await slash.run("init effect", name="Aria", condition="bleeding", value=2, **gm(slash))
    await slash.run("init effect", name="Goblin 2", condition="staggered", rounds=2, **gm(slash))
    acted = await slash.click(turn, label="Action 0/2", user=aria_player)
    turn = await slash.click(acted, label="End turn", user=aria_player)
    assert turn.content.startswith(f"<@{bram_player.id}> **Round 1**")
    turn = await slash.run("init next", user=bram_player)  # a player ends their own turn
    assert "it's **Sergeant**'s turn" in turn.content and turn.message.pings_nobody  # type: ignore[union-attr]
    turn = await slash.run("init next", **gm(slash))
    assert "it's **Goblin ×3**'s turn" in turn.content and turn.message.pings_nobody  # type: ignore[union-attr]
    assert "Goblin 2 is staggered" in str(turn.embeds)

    # Round 2 re-rolls everyone: Sergeant (ally) beats the goblins on a tie of 2.
    bot.dice = ScriptedDice(ROUND_2)
    turn = await slash.run("init next", **gm(slash))
    assert "**Round 2**, initiative 2: it's **Sergeant**'s turn." in turn.content
    record = await stored(bot, slash.channel.id)
    names = [record.state.participant(slot[0]).name for slot in record.state.order]
    assert names == ["Sergeant", "Goblin 1", "Aria", "Bram"]
    turn = await slash.run("init next", **gm(slash))
    assert "Goblin 2 is no longer staggered" not in str(turn.embeds)
    turn = await slash.run("init next", **gm(slash))  # Aria's turn: bleeding ticks
    assert "Aria bleeds 2: now 10 HP." in str(turn.embeds)
    assert (await character(bot, aria.id)).state.hp == 10
    await assert_tracker_matches(bot, slash.channel)
    before = await stored(bot, slash.channel.id)
    aria_id = before.state.current_slot[0]  # type: ignore[index]

    # --- restart in the middle of round 2 ---
    new_bot, new_slash, new_db = await restart(bot, settings)
    try:
        after = await stored(new_bot, new_slash.channel.id)
        assert (after.state, after.version) == (before.state, before.version)
        act_id = f"init:act:{after.id}:{aria_id}:action"
        acted = await new_slash.click(custom_id=act_id, user=new_slash.members[0])
        assert acted.responses[0].type == 7 and "actions 1/2" in str(acted.embeds)
        refused = await new_slash.run("init next", user=new_slash.members[1])
        assert refused.ephemeral and "It isn't your turn" in (refused.content or "")
        end_id = f"init:end:{after.id}:{aria_id}:{after.state.turn}"
        turn = await new_slash.click(custom_id=end_id, user=new_slash.members[0])
        assert turn.content.startswith(f"<@{bram_player.id}> **Round 2**, initiative 0")

        # Round 3: Bram ends round 2 himself; Aria bleeds again; the goblin's condition ends.
        turn = await new_slash.run("init next", user=new_slash.members[1])
        assert "**Round 3**, initiative 1: it's **Aria**'s turn." in turn.content
        assert "Aria bleeds 2: now 8 HP." in str(turn.embeds)
        assert (await character(new_bot, aria.id)).state.hp == 8
        assert (await character(new_bot, bram.id)).state.hp == 12
        await new_slash.run("init next", user=new_slash.members[0])
        await new_slash.run("init next", user=new_slash.members[1])
        turn = await new_slash.run("init next", **gm(new_slash))
        assert "it's **Goblin ×3**'s turn" in turn.content
        assert "⌛ Goblin 2 is no longer staggered." in str(turn.embeds)
        record = await stored(new_bot, new_slash.channel.id)
        assert Condition.STAGGERED not in record.state.participant(4).conditions
        assert (record.state.round, record.state.turn) == (3, 12)
        tracker = await assert_tracker_matches(new_bot, new_slash.channel)
        assert tracker.id == before.tracker_message_id  # the same pinned message, edited
        assert "▶️ `  1` **Goblin ×3** (foe)" in tracker.embeds[0].description  # type: ignore[operator]

        ended = await new_slash.run("init end", **gm(new_slash))
        assert ended.embeds[0]["description"] == "Lasted 3 rounds (12 turns)."
        assert "Aria — HP 8/12 · bleeding 2" in str(ended.embeds)
    finally:
        await new_db.close()
    await dpytest.empty_queue()


async def test_fifty_simultaneous_nexts_advance_exactly_fifty_turns(
    bot: TableBot, slash: SlashHarness
) -> None:
    await slash.run("init begin", **gm(slash))
    await slash.run("init add", name="Rat", count=7, **gm(slash))
    bot.dice = RandomDice(random.Random(5))
    await slash.run("init next", **gm(slash))
    start = await stored(bot, slash.channel.id)
    first = len(slash.responses)
    await asyncio.gather(*(slash.run("init next", **gm(slash)) for _ in range(50)))
    end = await stored(bot, slash.channel.id)
    assert end.state.turn == start.state.turn + 50 == 51
    assert (end.state.round, end.state.current) == (8, 1)  # 51 turns of 7: round 8, 2nd slot
    # Each interaction's own reply (results interleave, so read the recorder directly).
    replies = [r for r in slash.responses[first:] if r.kind == "callback" and r.type == 4]
    assert len(replies) == 50 and not any(r.ephemeral for r in replies)
    announced = sorted(footer_turn(reply) for reply in replies)
    assert announced == list(range(2, 52))  # every turn started once: none skipped or repeated
    assert end.version == start.version + 50
    await assert_tracker_matches(bot, slash.channel)
    await dpytest.empty_queue()
