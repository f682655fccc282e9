"""Commands see every change to the campaign row at once, though the bot caches it."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.storage.test_fastpath import Calls
from tests.support.elsewhere import write_elsewhere
from tests.support.slash import SlashHarness, SlashResult


def gm_role_field(result: SlashResult) -> str:
    fields = {f["name"]: f["value"] for f in result.embeds[0]["fields"]}
    return str(fields["GM role"])


def campaign_selects(calls: Calls) -> list[str]:
    return [sql for sql in calls.sql if sql.startswith("SELECT * FROM campaigns")]


async def test_another_process_changing_the_gm_role_counts_at_the_next_command(
    bot: TableBot, slash: SlashHarness
) -> None:
    role = slash.make_role("GM")
    player = slash.members[2]
    assert gm_role_field(await slash.run("campaign show")) == "none (Manage Server only)"
    calls = Calls(bot.db.connection)
    assert gm_role_field(await slash.run("campaign show")) == "none (Manage Server only)"
    # Served from the cache; the rest of this test proves it is not stale.
    assert campaign_selects(calls) == []
    refused = await slash.run("campaign set", user=player, roles=[role], ruleset="hocs")
    assert refused.ephemeral and refused.content is not None
    assert refused.content.startswith("Only the GM can change the campaign")

    write_elsewhere(
        bot, "UPDATE campaigns SET gm_role_id = ? WHERE guild_id = ?", (role.id, slash.guild.id)
    )
    assert gm_role_field(await slash.run("campaign show")) == role.mention
    accepted = await slash.run("campaign set", user=player, roles=[role], ruleset="hocs")
    assert accepted.content == "Campaign updated."

    write_elsewhere(
        bot, "UPDATE campaigns SET gm_role_id = NULL WHERE guild_id = ?", (slash.guild.id,)
    )
    again = await slash.run("campaign set", user=player, roles=[role], ruleset="hocs")
    assert again.ephemeral and again.content == refused.content
    await dpytest.empty_queue()


async def test_the_bots_own_change_counts_at_the_next_command(
    bot: TableBot, slash: SlashHarness
) -> None:
    role = slash.make_role("GM")
    assert gm_role_field(await slash.run("campaign show")) == "none (Manage Server only)"
    assert gm_role_field(await slash.run("campaign show")) == "none (Manage Server only)"
    await slash.run("campaign set", gm_role=role, manage_guild=True)
    assert gm_role_field(await slash.run("campaign show")) == role.mention
    await slash.run("campaign set", clear="gm_role", manage_guild=True)
    assert gm_role_field(await slash.run("campaign show")) == "none (Manage Server only)"
    await dpytest.empty_queue()
