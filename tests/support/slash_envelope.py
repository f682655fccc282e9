"""The envelope of an ``INTERACTION_CREATE``: ids, token, member or user, channel.

Also Discord's visibility rules (allowed contexts, default member permissions),
which decide whether a member could invoke a command at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

from tests.support.slash_payloads import (
    DiscordWouldRefuse,
    OptionBuilder,
    allowed_contexts,
    channel_payload,
    guild_permissions,
    member_payload,
    nest_options,
    root_command,
    snowflake,
    user_payload,
)


def permissions_in(member: discord.Member, roles: Sequence[discord.Role], channel: Any) -> int:
    base = guild_permissions(member.guild, roles, member.id)
    if discord.Permissions(base).administrator:
        return base
    try:
        return channel.permissions_for(member).value | base
    except Exception:  # a channel dpytest can't compute overwrites for
        return base


def build_envelope(
    bot: commands.Bot,
    user: discord.abc.User,
    channel: Any,
    *,
    manager_role: Callable[[], discord.Role],
    dm: bool,
    manage_guild: bool | None,
    roles: Sequence[discord.Role],
    client_checks: bool,
    locale: str,
    command: Any,
) -> tuple[OptionBuilder, dict[str, Any]]:
    state = bot._connection
    assert bot.user is not None
    payload: dict[str, Any] = {
        "id": str(snowflake()),
        "application_id": str(state.application_id),
        "token": f"slash-harness-{snowflake()}",
        "version": 1,
        "locale": locale,
        "attachment_size_limit": 10 * 1024 * 1024,
        "entitlements": [],
    }
    if dm:
        dm_channel = discord.DMChannel(
            me=bot.user, state=state,
            data={"id": str(snowflake()), "type": 1, "recipients": [user_payload(user)]},  # type: ignore[typeddict-item]
        )  # fmt: skip
        payload.update(
            user=user_payload(user),
            channel=channel_payload(dm_channel, discord.Permissions.text().value),
            channel_id=str(dm_channel.id),
            context=1,
            authorizing_integration_owners={"0": str(bot.user.id)},
            app_permissions=str(discord.Permissions.text().value),
        )
        context = 1
        builder = OptionBuilder(
            None, lambda ch: 0, client_checks=client_checks, channel_id=dm_channel.id
        )
    else:
        guild = channel.guild
        member = user if isinstance(user, discord.Member) else guild.get_member(user.id)
        if member is None:
            raise LookupError(f"{user} is not a member of {guild}")
        member_roles = [r for r in member.roles if not r.is_default()] + list(roles)
        if manage_guild is True:
            member_roles.append(manager_role())
        elif manage_guild is False:
            member_roles = [
                r for r in member_roles
                if not (r.permissions.manage_guild or r.permissions.administrator)
            ]  # fmt: skip
            if discord.Permissions(guild_permissions(guild, member_roles, member.id)).manage_guild:
                raise ValueError(f"{member} has Manage Server through @everyone or ownership")
        perms = permissions_in(member, member_roles, channel)
        me = guild.me
        app_perms = channel.permissions_for(me).value if me is not None else 0
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member={
                **member_payload(member, member_roles, permissions=perms, with_user=True),
            },
            channel=channel_payload(channel, perms),
            channel_id=str(channel.id),
            context=0,
            authorizing_integration_owners={"0": str(guild.id)},
            app_permissions=str(app_perms),
        )
        context = 0
        builder = OptionBuilder(
            guild,
            lambda ch: permissions_in(member, member_roles, ch),
            client_checks=client_checks,
            channel_id=channel.id,
        )
    if command is not None and client_checks:
        check_visible(command, context, payload)
    return builder, payload


def check_visible(command: Any, context: int, payload: dict[str, Any]) -> None:
    root = root_command(command)
    if context not in allowed_contexts(root):
        raise DiscordWouldRefuse(f"/{root.name} is not offered in this context ({context})")
    needed = root.default_permissions
    if needed is not None and context == 0 and needed.value:
        have = discord.Permissions(int(payload["member"]["permissions"]))
        if not (have.administrator or needed.is_subset(have)):
            raise DiscordWouldRefuse(f"/{root.name} is hidden from members without {needed}")


async def guild_menu(bot: Any, channel: Any) -> dict[str, Any]:
    """The ruleset commands Discord shows in ``channel``'s guild, by name: those of the
    guild's campaign ruleset (as a sync would have put them there), read without
    registering anything in the bot's tree (the bot registers them itself when the
    interaction arrives)."""
    guild = getattr(channel, "guild", None)
    command_sets = getattr(bot, "command_sets", None)
    if guild is None or command_sets is None:
        return {}
    ruleset = await command_sets.ruleset_of(guild.id)
    return dict(command_sets.catalogues[ruleset].app)


def mark_guild_command(payload: dict[str, Any], name: str, menu: dict[str, Any]) -> None:
    """Discord puts the command's guild in ``data.guild_id`` when it is a guild command;
    discord.py looks it up among that guild's commands then."""
    if name in menu and payload.get("guild_id"):
        payload["data"]["guild_id"] = payload["guild_id"]


def command_data(
    path: list[str], leaf: list[dict[str, Any]], resolved: dict[str, Any], command_id: int
) -> dict[str, Any]:
    """An application command's ``data``: its id and name, the options nested under
    the subcommand path, and what they resolve to."""
    data: dict[str, Any] = {
        "id": str(command_id),
        "name": path[0],
        "type": 1,
        "options": nest_options(path, leaf),
    }
    if resolved:
        data["resolved"] = resolved
    return data
