"""The ruleset seam: each guild sees and runs only its ruleset's commands, switching is safe.

Two guilds side by side, one playing HOCS and one the 2d10 system. Real 2d10 cogs don't
exist yet, so a test-only 2d10 cog with a colliding ``character`` group stands in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import discord.ext.test as dpytest
import discord.ext.test.backend as dpytest_backend
import pytest
from discord.ext import commands

from bot.client import TableBot
from bot.config import Settings
from bot.delivery.replies import send
from bot.interactions.error_handler import STALE_COMMAND
from bot.interactions.ruleset_cog import RulesetCog
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from tests.support.dpytest_fixes import patch_dpytest, report_only_unexpected_errors
from tests.support.restart import start_bot
from tests.support.slash import SlashHarness


class ProbeTwoD10(RulesetCog, name="Probe 2d10"):
    """A 2d10 cog with the same top-level name as HOCS's /character."""

    ruleset = Ruleset.TWOD10

    @commands.hybrid_group(name="character", fallback="show")
    async def character(self, ctx: commands.Context[Any]) -> None:
        """Show a 2d10 sheet."""
        await send(ctx, "2d10 sheet")


@pytest.fixture
async def bot(settings: Settings) -> AsyncIterator[TableBot]:
    patch_dpytest()
    client = await start_bot(settings, settings.database_path)
    # The probe stands in for the 2d10 system's commands: the real ones are unloaded.
    for cog in [c for c in client.cogs.values() if getattr(c, "ruleset", None) is Ruleset.TWOD10]:
        await client.remove_cog(cog.qualified_name)
    await client.add_cog(ProbeTwoD10())
    dpytest.configure(client, guilds=2, text_channels=1, members=3)
    for guild in client.guilds:  # member 0 of each guild is its GM (Manage Server)
        role = dpytest_backend.make_role(
            "GM", guild, permissions=discord.Permissions(manage_guild=True).value
        )
        await dpytest.add_role(humans(client, guild)[0], role)
    report_only_unexpected_errors(client)
    yield client
    await dpytest.empty_queue()
    await client.db.close()


def humans(bot: TableBot, guild: discord.Guild) -> list[discord.Member]:
    return [m for m in guild.members if not m.bot and m.id != bot.user.id]  # type: ignore[union-attr]


def gm_of(bot: TableBot, guild: discord.Guild) -> dict[str, Any]:
    return {"user": humans(bot, guild)[0], "channel": guild.text_channels[0]}


def player_of(bot: TableBot, guild: discord.Guild, number: int = 1) -> dict[str, Any]:
    return {"user": humans(bot, guild)[number], "channel": guild.text_channels[0]}


async def make_twod10(bot: TableBot, slash: SlashHarness) -> discord.Guild:
    """The second guild, switched to 2d10 (it has no data yet: no confirmation needed)."""
    guild = bot.guilds[1]
    result = await slash.run("campaign set", ruleset="2d10", **gm_of(bot, guild))
    assert result.content == "Campaign updated." and not result.components
    return guild


async def stored_ruleset(bot: TableBot, guild: discord.Guild) -> Ruleset:
    async with bot.db.read() as conn:
        campaign = await CampaignRepository(conn).get(guild.id)
    assert campaign is not None
    return campaign.ruleset


def guild_names(bot: TableBot, guild: discord.Guild) -> set[str]:
    return {c.name for c in bot.tree.get_commands(guild=discord.Object(guild.id))}


async def test_each_guild_tree_holds_only_its_rulesets_commands(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    twod10 = await make_twod10(bot, slash)
    await slash.run("help", **player_of(bot, hocs))
    globals_ = {c.name for c in bot.tree.get_commands()}
    assert globals_ == {"help", "campaign", "roll", "web"}  # platform only
    assert {"hero", "fortune", "check", "character", "init"} <= guild_names(bot, hocs)
    assert guild_names(bot, twod10) == {"character"}


async def test_first_interaction_registers_the_guild_lazily(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    assert guild_names(bot, hocs) == set()  # nothing synced or registered in this process
    result = await slash.run("character create", name="Mira", strength=3, agility=2,
                             mind=2, presence=1, **player_of(bot, hocs))  # fmt: skip
    assert "Mira" in (result.content or "")
    assert "hero" in guild_names(bot, hocs)


async def test_colliding_names_dispatch_per_guild(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    twod10 = await make_twod10(bot, slash)
    await slash.run("character create", name="Mira", strength=3, agility=2,
                    mind=2, presence=1, **player_of(bot, hocs))  # fmt: skip
    hocs_sheet = await slash.run("character show", **player_of(bot, hocs))
    assert hocs_sheet.embeds[0]["title"] == "Mira"
    probe = await slash.run("character show", **player_of(bot, twod10))
    assert probe.content == "2d10 sheet"


async def test_prefix_commands_route_by_the_guilds_ruleset(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    twod10 = await make_twod10(bot, slash)
    hocs_player = humans(bot, hocs)[1]
    await dpytest.message("!character create Mira 3 2 2 1", channel=hocs.text_channels[0],
                          member=hocs_player)  # fmt: skip
    assert "Mira" in dpytest.get_message().content
    await dpytest.message("!character", channel=twod10.text_channels[0],
                          member=humans(bot, twod10)[1])  # fmt: skip
    assert dpytest.get_message().content == "2d10 sheet"
    # A HOCS-only command in the 2d10 guild is unknown there: quiet, like any typo.
    await dpytest.message("!hero", channel=twod10.text_channels[0], member=humans(bot, twod10)[1])
    assert dpytest.verify().message().nothing()
    assert bot.get_command("character") is None  # not in the global prefix map


async def test_a_stale_hocs_command_in_a_2d10_guild_is_answered_as_stale(
    bot: TableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    slash = SlashHarness(bot)
    twod10 = await make_twod10(bot, slash)

    async def old_menu(channel: Any) -> dict[str, Any]:
        return dict(bot.command_sets.catalogues[Ruleset.HOCS].app)  # before the switch

    monkeypatch.setattr(slash, "guild_menu", old_menu)
    result = await slash.run("hero give", options={"character": "Mira"}, **gm_of(bot, twod10))
    assert result.ephemeral and result.content == STALE_COMMAND


async def test_help_lists_the_guilds_ruleset_only(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    twod10 = await make_twod10(bot, slash)

    def overview(result: Any) -> str:
        embed = result.embeds[0]
        return embed["description"] + "".join(f["value"] for f in embed.get("fields", []))

    hocs_help = overview(await slash.run("help", **player_of(bot, hocs)))
    twod10_help = overview(await slash.run("help", **player_of(bot, twod10)))
    assert "`/hero`" in hocs_help and "`/roll`" in hocs_help and "HOCS" in hocs_help
    assert "`/hero`" not in twod10_help and "`/roll`" in twod10_help
    assert "2d10 system" in twod10_help
    unknown = await slash.run("help", command="hero", **player_of(bot, twod10))
    assert unknown.ephemeral and "don't know that command" in (unknown.content or "")
    offered = await slash.autocomplete("help", "command", "her", user=humans(bot, hocs)[1])
    assert any(choice["value"].startswith("hero") for choice in offered)


async def test_switching_with_data_asks_the_gm_once_and_keeps_everything(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    await slash.run("character create", name="Mira", strength=3, agility=2,
                    mind=2, presence=1, **player_of(bot, hocs))  # fmt: skip
    asked = await slash.run("campaign set", ruleset="2d10", **gm_of(bot, hocs))
    assert "has characters, rolls or sessions in Heroes of Countless Stories" in asked.content
    assert asked.custom_ids == [f"ruleset:switch:{hocs.id}:hocs:2d10"]
    assert await stored_ruleset(bot, hocs) is Ruleset.HOCS  # not before the confirmation
    refused = await slash.click(asked, label="Switch to the 2d10 system", user=humans(bot, hocs)[1])
    assert refused.ephemeral and "GM" in (refused.content or "")
    assert await stored_ruleset(bot, hocs) is Ruleset.HOCS
    done = await slash.click(asked, label="Switch to the 2d10 system", user=humans(bot, hocs)[0])
    assert done.content == "Switched to the 2d10 system." and not done.components
    assert await stored_ruleset(bot, hocs) is Ruleset.TWOD10
    assert guild_names(bot, hocs) == {"character"}  # the tree followed at once
    # The persistent button pressed again (e.g. after a restart) changes nothing.
    again = await slash.click(
        custom_id=f"ruleset:switch:{hocs.id}:hocs:2d10", user=humans(bot, hocs)[0]
    )
    assert again.ephemeral and "already made" in (again.content or "")
    probe = await slash.run("character show", **player_of(bot, hocs))
    assert probe.content == "2d10 sheet"
    # Switching back (data exists: confirmed again) finds the HOCS sheet intact.
    back = await slash.run("campaign set", ruleset="hocs", **gm_of(bot, hocs))
    await slash.click(
        back, label="Switch to Heroes of Countless Stories", user=humans(bot, hocs)[0]
    )
    sheet = await slash.run("character show", **player_of(bot, hocs))
    assert sheet.embeds[0]["title"] == "Mira"
    assert "hero" in guild_names(bot, hocs)


async def test_switching_is_refused_while_an_encounter_runs(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    await slash.run("init begin", **gm_of(bot, hocs))
    refused = await slash.run("campaign set", ruleset="2d10", **gm_of(bot, hocs))
    assert refused.ephemeral
    assert refused.content == (
        f"An encounter is running in <#{hocs.text_channels[0].id}>: end it with `/init end`"
        " before switching ruleset."
    )
    assert await stored_ruleset(bot, hocs) is Ruleset.HOCS


async def test_a_confirmation_is_refused_once_an_encounter_started(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    await slash.run("roll", expression="1d6", **player_of(bot, hocs))  # logged: data
    asked = await slash.run("campaign set", ruleset="2d10", **gm_of(bot, hocs))
    await slash.run("init begin", **gm_of(bot, hocs))
    refused = await slash.click(asked, label="Switch to the 2d10 system", user=humans(bot, hocs)[0])
    assert refused.ephemeral and "An encounter is running" in (refused.content or "")
    assert await stored_ruleset(bot, hocs) is Ruleset.HOCS


async def test_choosing_the_current_ruleset_changes_nothing(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    hocs = bot.guilds[0]
    result = await slash.run("campaign set", ruleset="hocs", **gm_of(bot, hocs))
    assert result.content == "Campaign updated." and not result.components
    assert await stored_ruleset(bot, hocs) is Ruleset.HOCS


async def test_help_campaign_set_shows_the_switch_ruling(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    result = await slash.run("help", command="campaign set", **player_of(bot, bot.guilds[0]))
    rulings = "".join(f["value"] for f in result.embeds[0]["fields"] if f["name"] != "Options")
    assert "switching is refused while an encounter runs" in rulings
    options = "".join(f["value"] for f in result.embeds[0]["fields"] if f["name"] == "Options")
    assert "one of hocs, 2d10" in options


async def test_unloading_a_ruleset_cog_takes_its_commands_away(bot: TableBot) -> None:
    slash = SlashHarness(bot)
    twod10 = await make_twod10(bot, slash)
    assert (await slash.run("character show", **player_of(bot, twod10))).content == "2d10 sheet"
    probe_menu = dict(bot.command_sets.catalogues[Ruleset.TWOD10].app)
    await bot.remove_cog("Probe 2d10")
    assert bot.command_sets.catalogues[Ruleset.TWOD10].app == {}
    assert guild_names(bot, twod10) == set()
    await bot.add_cog(ProbeTwoD10())  # loading again works (nothing was left behind)
    assert bot.command_sets.catalogues[Ruleset.TWOD10].app.keys() == probe_menu.keys()
    assert (await slash.run("character show", **player_of(bot, twod10))).content == "2d10 sheet"


class SecondProbe(RulesetCog, name="Second probe"):
    ruleset = Ruleset.TWOD10

    @commands.hybrid_command(name="probe")
    async def probe(self, ctx: commands.Context[Any]) -> None:
        """A probe."""
        await send(ctx, "probe")

    @commands.hybrid_command(name="character")
    async def character(self, ctx: commands.Context[Any]) -> None:
        """A second /character in the same ruleset."""
        await send(ctx, "clash")


async def test_a_duplicate_name_within_one_ruleset_is_refused_whole(bot: TableBot) -> None:
    first = bot.command_sets.catalogues[Ruleset.TWOD10].app["character"]
    with pytest.raises(commands.CommandRegistrationError):
        await bot.add_cog(SecondProbe())
    catalogue = bot.command_sets.catalogues[Ruleset.TWOD10]
    assert catalogue.app == {"character": first} and "probe" not in catalogue.prefix
    assert bot.get_cog("Second probe") is None
