"""Gateway payloads for the slash harness: users, members, roles, channels, options.

Pure functions from discord.py objects (as dpytest built them) to the JSON Discord
would send in an ``INTERACTION_CREATE``. See ``tests/support/slash.py`` for the harness.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from tests.support.slash_attachments import AttachmentFile, attachment_payload

_counter = itertools.count(1)


class DiscordWouldRefuse(AssertionError):
    """Discord's client would never send this interaction (the bot never sees it).

    Raised for what Discord checks itself before a command reaches the bot: a
    missing required option, a value outside min/max or not among the choices, a
    wrong option type, a command hidden by its default permissions or context, a
    disabled button. Pass ``client_checks=False`` to send the payload anyway.
    """


def snowflake() -> int:
    """A fresh, increasing snowflake for ids the harness invents."""
    return discord.utils.time_snowflake(discord.utils.utcnow()) + next(_counter)


def iso_now() -> str:
    return discord.utils.utcnow().isoformat()


def user_payload(user: discord.abc.User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": getattr(user, "discriminator", "0"),
        "global_name": getattr(user, "global_name", None),
        "avatar": None,
        "bot": bool(getattr(user, "bot", False)),
        "public_flags": 0,
    }


def role_payload(role: discord.Role) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": role.colour.value,
        "colors": {"primary_color": role.colour.value, "secondary_color": None},
        "hoist": role.hoist,
        "position": role.position,
        "permissions": str(role.permissions.value),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }


def guild_permissions(guild: discord.Guild, roles: Sequence[discord.Role], user_id: int) -> int:
    """Guild-level permissions of a member holding ``roles`` (Discord's computation)."""
    if guild.owner_id == user_id:
        return discord.Permissions.all().value
    value = guild.default_role.permissions.value
    for role in roles:
        value |= role.permissions.value
    if discord.Permissions(value).administrator:
        return discord.Permissions.all().value
    return value


def member_payload(
    member: discord.Member, roles: Sequence[discord.Role], *, permissions: int, with_user: bool
) -> dict[str, Any]:
    joined = member.joined_at.isoformat() if member.joined_at else iso_now()
    data: dict[str, Any] = {
        "roles": [str(role.id) for role in roles if not role.is_default()],
        "joined_at": joined,
        "premium_since": None,
        "nick": member.nick,
        "avatar": None,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "permissions": str(permissions),
    }
    if with_user:
        data.update(user=user_payload(member), deaf=False, mute=False)
    return data


def channel_payload(channel: Any, permissions: int) -> dict[str, Any]:
    """A channel as it appears in ``interaction.channel`` and ``resolved.channels``."""
    data: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type.value,
        "permissions": str(permissions),
    }
    if isinstance(channel, discord.DMChannel):
        data["recipients"] = [user_payload(channel.recipient)] if channel.recipient else []
        return data
    data.update(
        name=channel.name,
        guild_id=str(channel.guild.id),
        position=getattr(channel, "position", 0),
        parent_id=str(channel.category_id) if getattr(channel, "category_id", None) else None,
        nsfw=bool(getattr(channel, "nsfw", False)),
        topic=getattr(channel, "topic", None),
        rate_limit_per_user=0,
        flags=0,
    )
    return data


def find_app_command(
    tree: app_commands.CommandTree,
    qualified_name: str,
    guild_menu: dict[str, Any] | None = None,
) -> tuple[app_commands.Command[Any, ..., Any], list[str]]:
    """The leaf command for ``"campaign set"`` and the path of names leading to it.

    ``guild_menu``: the guild commands Discord shows in that guild (a ruleset's), which
    win over global ones of the same name, as in Discord's menu.
    """
    path = qualified_name.lstrip("/").split()
    if not path:
        raise ValueError("empty command name")
    found: Any = (guild_menu or {}).get(path[0]) or tree.get_command(path[0])
    for name in path[1:]:
        if not isinstance(found, app_commands.Group):
            break
        found = found.get_command(name)
    if not isinstance(found, app_commands.Command):
        known = sorted(c.qualified_name for c in tree.walk_commands())
        known += sorted(guild_menu or {})
        raise LookupError(f"no slash command /{qualified_name}; the tree has {known}")
    return found, path


def root_command(command: app_commands.Command[Any, ..., Any]) -> Any:
    return command.root_parent or command


def nest_options(path: Sequence[str], leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap leaf options in subcommand (type 1) and subcommand-group (type 2) options."""
    options = leaf
    for depth, name in reversed(list(enumerate(path))):
        if depth == 0:
            break
        kind = 1 if depth == len(path) - 1 else 2
        options = [{"type": kind, "name": name, "options": options}]
    return options


class OptionBuilder:
    """Turns keyword arguments into typed options plus ``resolved`` data."""

    def __init__(
        self,
        guild: discord.Guild | None,
        channel_permissions: Any,
        *,
        client_checks: bool,
        channel_id: int = 0,
    ) -> None:
        self.guild = guild
        self.channel_permissions = channel_permissions
        self.client_checks = client_checks
        self.channel_id = channel_id
        self.resolved: dict[str, dict[str, Any]] = {}
        self.uploads: list[tuple[dict[str, Any], bytes]] = []  # for the harness's CDN

    def build(
        self,
        command: app_commands.Command[Any, ..., Any],
        values: Mapping[str, Any],
        *,
        focused: str | None = None,
    ) -> list[dict[str, Any]]:
        params = {param.name: param for param in command.parameters}
        unknown = set(values) - set(params)
        if unknown:
            name = command.qualified_name
            raise TypeError(f"/{name} has no option {sorted(unknown)}; it has {sorted(params)}")
        options = []
        for name, param in params.items():
            if name not in values or values[name] is None:
                if param.required and self.client_checks and focused is None:
                    raise DiscordWouldRefuse(f"/{command.qualified_name}: `{name}` is required")
                continue
            if name == focused:
                options.append(
                    {"type": param.type.value, "name": name, "value": values[name], "focused": True}
                )
                continue
            options.append(self.option(command, param, values[name]))
        return options

    def _refuse(self, command: Any, param: app_commands.Parameter, why: str) -> None:
        if self.client_checks:
            raise DiscordWouldRefuse(f"/{command.qualified_name} `{param.name}`: {why}")

    def option(self, command: Any, param: app_commands.Parameter, value: Any) -> dict[str, Any]:
        kind = param.type
        if isinstance(value, app_commands.Choice):
            value = value.value
        if isinstance(value, enum.Enum) and not isinstance(value, int | str):
            value = value.value
        wire: Any
        if kind is AppCommandOptionType.string:
            if not isinstance(value, str):
                self._refuse(command, param, f"{value!r} is not a string")
            wire = str(value)
            # discord.py keeps a string's min_length/max_length in min_value/max_value.
            if param.min_value is not None and len(wire) < param.min_value:
                self._refuse(command, param, f"shorter than {param.min_value} characters")
            if param.max_value is not None and len(wire) > param.max_value:
                self._refuse(command, param, f"longer than {param.max_value} characters")
        elif kind in (AppCommandOptionType.integer, AppCommandOptionType.number):
            integer = kind is AppCommandOptionType.integer
            ok = isinstance(value, int) if integer else isinstance(value, int | float)
            if isinstance(value, bool) or not ok:
                self._refuse(
                    command, param, f"{value!r} is not {'an integer' if integer else 'a number'}"
                )
            wire = value
            if param.min_value is not None and value < param.min_value:
                self._refuse(command, param, f"{value} is below the minimum {param.min_value}")
            if param.max_value is not None and value > param.max_value:
                self._refuse(command, param, f"{value} is above the maximum {param.max_value}")
        elif kind is AppCommandOptionType.boolean:
            if not isinstance(value, bool):
                self._refuse(command, param, f"{value!r} is not a boolean")
            wire = value
        elif kind in (
            AppCommandOptionType.user,
            AppCommandOptionType.role,
            AppCommandOptionType.mentionable,
            AppCommandOptionType.channel,
        ):
            wire = self._resolve(command, param, value)
        elif kind is AppCommandOptionType.attachment:
            wire = self._attach(command, param, value)
        else:
            raise NotImplementedError(f"the slash harness can't send {kind.name} options yet")
        if param.choices and not any(choice.value == wire for choice in param.choices):
            offered = [choice.value for choice in param.choices]
            self._refuse(command, param, f"{wire!r} is not one of the choices {offered}")
        return {"type": kind.value, "name": param.name, "value": wire}

    def _attach(self, command: Any, param: app_commands.Parameter, value: Any) -> str:
        if not isinstance(value, AttachmentFile):
            self._refuse(command, param, f"{value!r} is not a file (give an AttachmentFile)")
            return str(value)
        described = attachment_payload(value, snowflake(), self.channel_id)
        self.resolved.setdefault("attachments", {})[described["id"]] = described
        self.uploads.append((described, value.data))
        return described["id"]

    def _resolve(self, command: Any, param: app_commands.Parameter, value: Any) -> str:
        kind = param.type
        if isinstance(value, int) and self.guild is not None:
            value = (
                self.guild.get_member(value)
                or self.guild.get_role(value)
                or self.guild.get_channel(value)
                or discord.Object(id=value)
            )
        if isinstance(value, discord.Role):
            if kind not in (AppCommandOptionType.role, AppCommandOptionType.mentionable):
                self._refuse(command, param, f"{value!r} is a role, the option takes {kind.name}")
            self.resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        elif isinstance(value, discord.abc.User):
            if kind not in (AppCommandOptionType.user, AppCommandOptionType.mentionable):
                self._refuse(command, param, f"{value!r} is a user, the option takes {kind.name}")
            self.resolved.setdefault("users", {})[str(value.id)] = user_payload(value)
            if isinstance(value, discord.Member):
                roles = [r for r in value.roles if not r.is_default()]
                perms = guild_permissions(value.guild, roles, value.id)
                self.resolved.setdefault("members", {})[str(value.id)] = member_payload(
                    value, roles, permissions=perms, with_user=False
                )
        elif isinstance(value, discord.abc.GuildChannel | discord.Thread):
            if kind is not AppCommandOptionType.channel:
                self._refuse(
                    command, param, f"{value!r} is a channel, the option takes {kind.name}"
                )
            if param.channel_types and value.type not in param.channel_types:
                allowed = [t.name for t in param.channel_types]
                self._refuse(command, param, f"a {value.type.name} channel is not one of {allowed}")
            perms = self.channel_permissions(value)
            self.resolved.setdefault("channels", {})[str(value.id)] = channel_payload(value, perms)
        else:
            self._refuse(command, param, f"{value!r} is not something Discord can resolve")
        return str(value.id)


def allowed_contexts(command: Any) -> set[int]:
    """Interaction contexts (0 guild, 1 bot DM, 2 private channel) the command allows."""
    contexts = getattr(command, "allowed_contexts", None)
    if contexts is None:
        return {0} if getattr(command, "guild_only", False) else {0, 1, 2}
    allowed = set()
    if contexts.guild:
        allowed.add(0)
    if contexts.dm_channel:
        allowed.add(1)
    if contexts.private_channel:
        allowed.add(2)
    return allowed or {0, 1, 2}


def pings_nobody(allowed_mentions: Mapping[str, Any] | None) -> bool:
    """Whether a message's allowed_mentions stop every ping (users, roles, @everyone, reply)."""
    if allowed_mentions is None:
        return False  # Discord's default parses every mention in the content
    if allowed_mentions.get("parse"):
        return False
    if allowed_mentions.get("users") or allowed_mentions.get("roles"):
        return False
    return not allowed_mentions.get("replied_user", False)


def find_component(
    message: dict[str, Any], *, custom_id: str | None, label: str | None
) -> dict[str, Any]:
    def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for component in components:
            yield component
            yield from walk(component.get("components") or [])

    candidates = [c for c in walk(message.get("components") or []) if c.get("custom_id")]
    for component in candidates:
        if custom_id is not None and component["custom_id"] != custom_id:
            continue
        if label is not None and component.get("label") != label:
            continue
        return component
    offered = [(c.get("label"), c["custom_id"]) for c in candidates]
    raise LookupError(f"no component custom_id={custom_id!r} label={label!r}; has {offered}")
