"""After a re-shard a guild's interactions reach another process: it answers them.

Process A runs every shard (SHARD_COUNT=1); then the table re-shards to two processes
and the guild lands on process B (SHARD_COUNT=2, SHARD_IDS=its shard). Both bots are
open on ONE database file at once, each with its own connection, as shard processes
are; B never saw A's views, caches or memory. Buttons, the pinned tracker and secret
delivery must work from what the database holds.
"""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.config import Settings
from bot.process.sharding import ShardPlan, shard_of
from bot.rules.dice_source import ScriptedDice
from bot.storage.campaigns import CampaignRepository
from tests.cogs.test_check import dice_field, make_character
from tests.cogs.test_init_commands import assert_tracker_matches, begin_with_party, gm, stored
from tests.cogs.test_roll_buttons import custom_id, fresh, restarted, set_points
from tests.cogs.test_secret_delivery import dm_recipients, remembered
from tests.support.slash import SlashHarness


async def process_b(bot: TableBot, slash: SlashHarness, settings: Settings) -> TableBot:
    """Process B: shard (guild >> 22) % 2 of 2, on A's database file, A still running."""
    guild_id = slash.guild.id
    mine = shard_of(guild_id, 2)
    resharded = Settings(
        _env_file=None,
        database_path=settings.database_path,
        message_content_intent=True,
        shard_count=2,
        shard_ids=str(mine),
    )
    second = await restarted(bot, resharded, ScriptedDice([]))
    assert second.db is not bot.db  # a connection of its own
    assert second.owns_guild(guild_id)
    assert not ShardPlan(count=2, ids=(1 - mine,)).owns(guild_id)  # the other process
    return second


async def test_a_button_made_by_one_process_is_answered_by_another(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 2, 4])
    result = await slash.run("check", skill="strength", difficulty="2")
    button = custom_id(result, "Hero reroll")
    second = await process_b(bot, slash, settings)
    try:
        second.dice = ScriptedDice([5, 6])
        harness = SlashHarness(second)
        clicked = await harness.click(custom_id=button, user=slash.members[0])
        [embed] = clicked.embeds
        assert dice_field(embed) == "~~1~~ **5** · ~~2~~ **6** · **4**"
        assert "**3** successes vs Challenging (2): **Success**" in embed["description"]
        # Spent once, in the shared file: process A reads it through its own connection.
        assert (await fresh(bot, mira)).state.hero_points == 0
        again = await harness.click(custom_id=button, user=slash.members[0])
        assert again.ephemeral and "already used" in (again.content or "")
        assert (await fresh(second, mira)).state.hero_points == 0
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_the_pinned_tracker_is_edited_by_the_process_that_owns_the_guild_now(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    await begin_with_party(bot, slash)
    before = await stored(bot, slash.channel.id)
    second = await process_b(bot, slash, settings)
    try:
        second.dice = ScriptedDice([6] * 20)
        harness = SlashHarness(second)
        result = await harness.run("init next", **gm(harness))
        assert not result.ephemeral, result.content
        after = await stored(second, slash.channel.id)
        assert after.version > before.version
        assert after.tracker_message_id == before.tracker_message_id  # A's message, edited
        await assert_tracker_matches(second, slash.channel)
        assert (await stored(bot, slash.channel.id)).version == after.version
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_a_gm_remembered_by_one_process_gets_the_secret_roll_from_another(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    owner, gm_member, player = slash.members
    slash.guild.owner_id = owner.id
    role = slash.make_role("Game Master")
    async with bot.db.transaction() as conn:
        await CampaignRepository(conn).update(slash.guild.id, gm_role_id=role.id)
    await slash.run("campaign show", user=gm_member, roles=[role])  # seen by process A
    assert await remembered(bot, slash.guild.id) == [gm_member.id]
    await dpytest.add_role(gm_member, role)
    second = await process_b(bot, slash, settings)
    try:
        second.dice = ScriptedDice([14])
        harness = SlashHarness(second)
        result = await harness.run("roll", expression="1d20 sneak", secret=True, user=player)
        assert "sent to the GM by direct message" in result.content
        # (both harnesses share dpytest's HTTP, whose sends the first one records)
        sends = [m for m in slash.channel_sends if m.channel_id != slash.channel.id]
        assert dm_recipients(second, sends) == [gm_member.id]
    finally:
        await second.db.close()
    await dpytest.empty_queue()
