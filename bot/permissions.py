"""Who counts as the GM of a campaign."""

from __future__ import annotations

import discord

from bot.errors import NotGM
from bot.storage.campaigns import Campaign


def is_gm(member: discord.abc.User, campaign: Campaign) -> bool:
    """A member is GM with Manage Server or the campaign's GM role."""
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_guild:
        return True
    return campaign.gm_role_id is not None and any(
        role.id == campaign.gm_role_id for role in member.roles
    )


def require_gm(member: discord.abc.User, campaign: Campaign, action: str) -> None:
    """Raise NotGM (a user error naming ``action``) unless ``member`` is the GM."""
    if not is_gm(member, campaign):
        raise NotGM(action)
