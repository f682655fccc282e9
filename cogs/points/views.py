"""Buttons under /pool and /check replies: Spend determination, Hero reroll, Fortune reroll.

Each is a ``DynamicItem`` whose custom_id names what to do, the roll and the roll's
revision (``roll:hero:42:0``), registered once at startup: the buttons keep working
after a restart with nothing kept in memory. A click changes the roll in one
transaction (``spending.spend_on_roll``) and edits the same message; a click made
for an older revision (a double click, a second device) is refused, spending nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot.error_handler import answer_press
from bot.errors import GuildOnly, UserError
from bot.render.skill_roll import escape
from bot.replies import NO_PINGS, send
from bot.secret_rolls import deliver_to_gm
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.roll_log import RollLogRepository, remember_message
from cogs.points.spending import Spend, SpendOutcome, spend_on_roll

log = logging.getLogger(__name__)

TEMPLATE = r"roll:(?P<spend>det|hero|fortune):(?P<roll_id>[0-9]{1,20}):(?P<revision>[0-9]{1,9})"

LABELS = {
    Spend.DETERMINATION: "Spend determination",
    Spend.HERO: "Hero reroll",
    Spend.FORTUNE: "Fortune reroll",
}
STYLES = {
    Spend.DETERMINATION: discord.ButtonStyle.primary,
    Spend.HERO: discord.ButtonStyle.success,
    Spend.FORTUNE: discord.ButtonStyle.secondary,
}


class RollGone(UserError):
    def __init__(self) -> None:
        super().__init__("That roll is no longer stored, so nothing was spent: roll again.")


class RollSpendButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Spends one point of the roll's character on the roll, for its owner or the GM."""

    def __init__(self, spend: Spend, roll_id: int, revision: int) -> None:
        self.spend = spend
        self.roll_id = roll_id
        self.revision = revision
        super().__init__(
            discord.ui.Button(
                style=STYLES[spend],
                label=LABELS[spend],
                custom_id=f"roll:{spend.value}:{roll_id}:{revision}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RollSpendButton:
        return cls(Spend(match["spend"]), int(match["roll_id"]), int(match["revision"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction,
            f"button {self.custom_id}",
            press(interaction, self.spend, self.roll_id, self.revision),
        )


def spend_view(roll_id: int, revision: int, spends: Sequence[Spend]) -> discord.ui.View | None:
    """The buttons for the spends that apply, or None when none does."""
    if not spends:
        return None
    view = discord.ui.View(timeout=None)
    for spend in spends:
        view.add_item(RollSpendButton(spend, roll_id, revision))
    return view


def outcome_view(outcome: SpendOutcome) -> discord.ui.View | None:
    return spend_view(outcome.stored.logged.id, outcome.stored.revision, outcome.spends)


async def press(
    interaction: discord.Interaction, spend: Spend, roll_id: int, revision: int
) -> None:
    """One click: spend and change the roll atomically, then edit the same message."""
    guild = interaction.guild
    if guild is None:
        raise GuildOnly()
    bot: Any = interaction.client
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        logged = await RollLogRepository(conn).get(roll_id)
        if logged is None or logged.guild_id != guild.id:
            raise RollGone()
        outcome = await spend_on_roll(
            conn, logged=logged, spend=spend, actor=interaction.user, campaign=campaign,
            dice=bot.dice, expected_revision=revision,
        )  # fmt: skip
    embed = outcome.stored.embed()
    await interaction.response.edit_message(embed=embed, view=outcome_view(outcome))
    if outcome.stored.logged.secret:
        await _tell_gm(guild, campaign, interaction.user, outcome, embed)


async def _tell_gm(
    guild: discord.Guild,
    campaign: Campaign,
    user: discord.abc.User,
    outcome: SpendOutcome,
    embed: discord.Embed,
) -> None:
    who = escape(getattr(user, "display_name", user.name))
    await deliver_to_gm(
        guild, campaign, f"Secret roll by {who} changed: {outcome.line}", embed=embed
    )


async def reply_with_roll(
    ctx: commands.Context[Any], campaign: Campaign, outcome: SpendOutcome
) -> None:
    """After a spend by command: post the changed roll with its buttons (secretly if it was).

    The roll log then points at the new message; buttons left on the old one are
    for an older revision and refuse politely.
    """
    embed = outcome.stored.embed()
    view = outcome_view(outcome)
    kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": NO_PINGS}
    if view is not None:
        kwargs["view"] = view
    if outcome.stored.logged.secret and ctx.guild is not None:
        message = await send(
            ctx, f"-# Secret roll changed: {outcome.line}", ephemeral=True, **kwargs
        )
        await _tell_gm(ctx.guild, campaign, ctx.author, outcome, embed)
    else:
        message = await send(ctx, **kwargs)
    if message is not None:
        bot: Any = ctx.bot
        remember_message(bot.db, outcome.stored.logged.id, message.id)
