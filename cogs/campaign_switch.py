"""Switching a campaign's ruleset safely: refused while an encounter runs, confirmed by
the GM with a button when the campaign already has data, and nothing is deleted (each
ruleset keeps its own tables, so switching back finds everything as it was).

The button is a ``DynamicItem`` (``ruleset:switch:<guild>:<from>:<to>``): it works after a
restart, and the conditional UPDATE makes a second press (or a press after another
switch) change nothing.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.delivery.replies import edit_pressed_message
from bot.errors import GuildOnly, UserError
from bot.interactions.error_handler import answer_press
from bot.render.campaign import campaign_embed
from bot.rulesets import RULESETS, Ruleset
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.tables.permissions import require_gm

log = logging.getLogger(__name__)

SWITCH_TEMPLATE = (
    r"ruleset:switch:(?P<guild>[0-9]{1,20}):(?P<old>[a-z0-9]{1,16}):(?P<new>[a-z0-9]{1,16})"
)


def refuse_during_encounter(channel_id: int | None) -> None:
    if channel_id is not None:
        raise UserError(
            f"An encounter is running in <#{channel_id}>: end it with `/init end` before"
            " switching ruleset."
        )


def confirmation_text(old: Ruleset, new: Ruleset) -> str:
    return (
        f"This campaign has characters, rolls or sessions in {RULESETS[old].title}. Switch"
        f" to {RULESETS[new].title}? Nothing is deleted: switching back finds them all."
    )


class RulesetSwitchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SWITCH_TEMPLATE):
    """The GM's confirmation of a ruleset switch (pressed once; later presses refused)."""

    def __init__(self, guild_id: int, old: Ruleset, new: Ruleset) -> None:
        self.guild_id, self.old, self.new = guild_id, old, new
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.danger,
                label=f"Switch to {RULESETS[new].title}"[:80],
                custom_id=f"ruleset:switch:{guild_id}:{old.value}:{new.value}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RulesetSwitchButton:
        known = {ruleset.value for ruleset in Ruleset}
        if match["old"] not in known or match["new"] not in known:
            raise ValueError(f"unknown ruleset in {item.custom_id}")
        return cls(int(match["guild"]), Ruleset(match["old"]), Ruleset(match["new"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(interaction, f"button {self.item.custom_id}", self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        if interaction.guild is None or interaction.guild.id != self.guild_id:
            raise GuildOnly()
        bot: Any = interaction.client
        async with bot.db.transaction() as conn:
            repo = CampaignRepository(conn)
            campaign = await repo.get_or_create(self.guild_id)
            require_gm(interaction.user, campaign, "switch the ruleset")
            refuse_during_encounter(await repo.running_encounter_channel(self.guild_id))
            if not await repo.switch_ruleset(self.guild_id, self.old, self.new):
                raise UserError(
                    "This switch was already made, or the ruleset changed since: nothing to do."
                )
            campaign = await repo.get_or_create(self.guild_id)
        await announce_switch(bot, campaign, interaction.guild.name)
        await edit_pressed_message(
            interaction,
            content=f"Switched to {RULESETS[self.new].title}.",
            embed=campaign_embed(campaign, interaction.guild.name),
            view=None,
        )


async def announce_switch(bot: Any, campaign: Campaign, guild_name: str) -> None:
    """After the switch is committed: this process's tree and the guild's menu follow."""
    log.info("guild %s (%s) now plays %s", campaign.guild_id, guild_name, campaign.ruleset.value)
    await bot.ruleset_switched(campaign.guild_id)
