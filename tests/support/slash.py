"""The project's slash-command harness, built on dpytest's fake Discord state.

dpytest 0.7 has no interaction support (its issue #125 / PR #136 sketch one). This
harness sends real ``INTERACTION_CREATE`` payloads through the bot's own code::

    async def test_set_gm_role(bot, slash):
        role = slash.make_role("GM")
        result = await slash.run("campaign set", user=slash.members[0], gm_role=role,
                                 manage_guild=True)
        assert result.content == "Campaign updated." and not result.ephemeral
        assert result.embeds[0]["title"].startswith("Campaign of")

API (the ``slash`` fixture in tests/conftest.py is a :class:`SlashHarness`)
    ``await slash.run("campaign set", user=member, manage_guild=False, gm_role=role)``
        → :class:`SlashResult`: ``.responses`` (each a :class:`RecordedResponse` with
        ``.kind``, ``.type``, ``.payload`` = the JSON body), ``.content``, ``.embeds``
        (dicts), ``.components``, ``.custom_ids``, ``.ephemeral``, ``.deferred`` — of
        the last response carrying a message — plus ``.channel_messages``,
        ``.interaction`` (the payload sent) and ``.assert_no_pings()``.
    ``await slash.autocomplete("help", "command", "ro")`` → ``[{"name", "value"}, ...]``
    ``await slash.click(result, label="Join", user=member)`` (or ``custom_id=``; the
        target may also be a channel message; no target = a persistent view's message).
    ``slash.make_role(name, permissions=...)``, ``slash.guild``, ``slash.channel``,
    ``slash.members``, ``slash.responses``, ``slash.channel_sends``.
    An attachment option takes ``AttachmentFile(filename, data)``; ``attachment.read()``
    in the bot gets ``data`` (``slash.cdn.downloads`` lists what it fetched), and
    ``result.uploads`` holds the files the bot's answer carried, by filename.

Files: ``slash_payloads`` (users, roles, channels, options), ``slash_envelope`` (the
interaction around them), ``slash_recorder`` (the webhook adapter), ``slash_channel``
(channel sends), ``slash_result`` (results and waiting), ``slash_attachments`` (uploads
and the CDN), ``discord_schema``.

How it stands in for Discord (what is real, what is faked, waiting, limits):
tests/support/README.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord
import discord.ext.test.backend as dpytest_backend
import discord.ext.test.runner as dpytest_runner
from discord.ext import commands
from discord.webhook.async_ import async_context

from bot.interactions.component_guard import guard
from tests.support.slash_attachments import AttachmentFile, FakeCdn
from tests.support.slash_channel import ChannelSendRecorder, SentMessage
from tests.support.slash_envelope import (
    build_envelope,
    command_data,
    guild_menu,
    mark_guild_command,
)
from tests.support.slash_members import HiddenMembers
from tests.support.slash_payloads import (
    DiscordWouldRefuse,
    OptionBuilder,
    find_app_command,
    find_component,
    nest_options,
    snowflake,
)
from tests.support.slash_recorder import RecordedResponse, RecordingWebhookAdapter, TokenInfo
from tests.support.slash_result import HarnessError, SlashResult, settle

__all__ = ["AttachmentFile", "DiscordWouldRefuse", "HarnessError", "RecordedResponse"]
__all__ += ["SentMessage"]
__all__ += ["SlashHarness", "SlashResult"]

MANAGER_ROLE_NAME = "Manage Server (slash harness)"


class SlashHarness:
    """Drives slash commands, autocomplete and buttons through a dpytest-configured bot."""

    def __init__(self, bot: commands.Bot, *, timeout: float = 10.0) -> None:
        self.bot = bot
        self.timeout = timeout
        self._link()
        state = bot._connection
        assert bot.user is not None and state.application_id is not None
        self.adapter = RecordingWebhookAdapter(
            bot_user=bot.user, application_id=state.application_id
        )
        self.channel_recorder = ChannelSendRecorder()
        self.channel_recorder.install(bot.http)
        self.channel_recorder.install_edits(bot.http, self.adapter.messages)
        self.members_hidden = HiddenMembers(bot, lambda: self.guild)
        # True: the next interaction's answer comes after Discord's 3 seconds (404, 10062).
        self.expire_next = False
        self.members_hidden.install_member_rest()
        self.cdn = FakeCdn()
        self.cdn.install(bot.http)
        self._command_ids: dict[str, int] = {}
        self._manager_role: discord.Role | None = None
        # True: each run also waits for the work the bot left for after its reply
        # (``bot.delivery.followups``: tracker edits), so a result holds what it changed. The
        # benchmark turns it off to time the reply, and drains the work itself.
        self.drain_followups = True

    # --- the fake world ---

    @property
    def guild(self) -> discord.Guild:
        return self.bot.guilds[0]

    @property
    def channel(self) -> discord.TextChannel:
        return self.guild.text_channels[0]

    @property
    def members(self) -> list[discord.Member]:
        """The guild's human members, in dpytest's order."""
        everyone = list(self.members_hidden.hidden.values()) + [
            m for m in self.guild.members if m.id not in self.members_hidden.hidden
        ]
        return [m for m in everyone if not m.bot and m.id != self.bot.user.id]  # type: ignore[union-attr]

    @property
    def responses(self) -> list[RecordedResponse]:
        """Every response recorded so far, across interactions."""
        return list(self.adapter.records)

    @property
    def channel_sends(self) -> list[SentMessage]:
        return list(self.channel_recorder.sends)

    def make_role(
        self, name: str, *, permissions: discord.Permissions | None = None
    ) -> discord.Role:
        """A new role in the guild (built directly: dpytest's factory breaks on 2.6+)."""
        perms = permissions if permissions is not None else discord.Permissions.none()
        return dpytest_backend.make_role(name, self.guild, permissions=perms.value)

    def _link(self) -> None:
        """Undo what dpytest.configure() left half-wired (idempotent)."""
        state = self.bot._connection
        tree = self.bot.tree
        old_state = tree._state
        state._command_tree = tree
        if old_state is not state:
            if state.allowed_mentions is None:
                state.allowed_mentions = old_state.allowed_mentions
            guard(state)  # the production store (answers unknown buttons), as TableBot has
            for view in old_state._view_store.persistent_views:
                state._view_store.add_view(view, view._cache_key)
            state._view_store._dynamic_items.update(old_state._view_store._dynamic_items)
            tree._state = state
        if state.application_id is None:
            assert state.user is not None
            state.application_id = state.user.id

    # --- public API ---

    async def run(
        self,
        command: str,
        /,
        *,
        user: discord.abc.User | None = None,
        channel: Any = None,
        dm: bool = False,
        manage_guild: bool | None = None,
        roles: Sequence[discord.Role] = (),
        client_checks: bool = True,
        locale: str = "en-US",
        options: dict[str, Any] | None = None,
        **named: Any,
    ) -> SlashResult:
        """Invoke ``/command`` (e.g. ``"campaign set"``) with options by option name.

        Options go as keywords (``gm_role=role``) or, when an option's name clashes
        with a keyword of ``run`` itself (``user``, ``channel``…), in ``options={...}``.
        """
        options = {**(options or {}), **named}
        menu = await self.guild_menu(None if dm else (channel or self.channel))
        app_command, path = find_app_command(self.bot.tree, command, menu)
        builder, payload = self._base(
            user, channel, dm=dm, manage_guild=manage_guild, roles=roles,
            client_checks=client_checks, locale=locale, command=app_command,
        )  # fmt: skip
        leaf = builder.build(app_command, options)
        for described, data in builder.uploads:
            self.cdn.upload(described, data)
        payload["type"] = 2
        payload["data"] = command_data(path, leaf, builder.resolved, self._command_id(path[0]))
        mark_guild_command(payload, path[0], menu)
        return await self._dispatch(payload)

    async def run_stale(
        self,
        path: str,
        /,
        options: list[dict[str, Any]] | None = None,
        *,
        user: discord.abc.User | None = None,
    ) -> SlashResult:
        """What a client with an out-of-date menu sends: ``/path`` with these raw leaf
        ``options``, whether or not the bot has that command, subcommand or signature."""
        names = path.split()
        _, payload = self._base(
            user, None, dm=False, manage_guild=None, roles=(), client_checks=False,
            locale="en-US", command=None,
        )  # fmt: skip
        payload["type"] = 2
        payload["data"] = {
            "id": str(snowflake()),
            "name": names[0],
            "type": 1,
            "options": nest_options(names, options or []),
        }
        return await self._dispatch(payload)

    async def autocomplete(
        self,
        command: str,
        option: str,
        current: str,
        /,
        *,
        user: discord.abc.User | None = None,
        dm: bool = False,
        **options: Any,
    ) -> list[dict[str, Any]]:
        """The choices (``{"name", "value"}`` dicts) offered while typing ``current``.

        Other ``options`` already filled in go along, as Discord sends them.
        """
        menu = await self.guild_menu(None if dm else self.channel)
        app_command, path = find_app_command(self.bot.tree, command, menu)
        builder, payload = self._base(
            user, None, dm=dm, manage_guild=None, roles=(), client_checks=True,
            locale="en-US", command=app_command,
        )  # fmt: skip
        leaf = builder.build(app_command, {**options, option: current}, focused=option)
        payload["type"] = 4
        payload["data"] = command_data(path, leaf, builder.resolved, self._command_id(path[0]))
        mark_guild_command(payload, path[0], menu)
        result = await self._dispatch(payload)
        answers = [r for r in result.responses if r.kind == "callback" and r.type == 8]
        if not answers:
            raise HarnessError(f"/{command} answered no autocomplete for `{option}`")
        return answers[-1].choices

    async def click(
        self,
        target: SlashResult | RecordedResponse | SentMessage | discord.Message | int | None = None,
        *,
        custom_id: str | None = None,
        label: str | None = None,
        user: discord.abc.User | None = None,
        manage_guild: bool | None = None,
        roles: Sequence[discord.Role] = (),
        values: Sequence[str] | None = None,
        client_checks: bool = True,
        pressed_on: dict[str, Any] | None = None,
    ) -> SlashResult:
        """Click a button (or pick ``values`` in a select) on a message the bot sent.

        ``target`` is a result/response/sent message/message id; with no target a
        stand-in message holding only that ``custom_id`` is used (a persistent view's
        message from before a restart). ``pressed_on``: the message Discord sends with
        the press when it differs (a press that raced the message's edit).
        """
        message = self._find_message(target, custom_id)
        component = find_component(message, custom_id=custom_id, label=label)
        message_id = int(message["id"])
        owner = self.adapter.owners.get(message_id)
        _, payload = self._base(
            user, self.bot.get_channel(int(message["channel_id"])), dm=False,
            manage_guild=manage_guild, roles=roles, client_checks=client_checks,
            locale="en-US", command=None,
        )  # fmt: skip
        clicker = int(payload.get("member", payload).get("user", {}).get("id", 0))
        if client_checks:
            if component.get("disabled"):
                raise DiscordWouldRefuse(
                    f"the component {component.get('custom_id')!r} is disabled"
                )
            if int(message.get("flags") or 0) & 64 and owner is not None and owner != clicker:
                raise DiscordWouldRefuse(
                    "only the user it was sent to can see an ephemeral message"
                )
        data: dict[str, Any] = {
            "custom_id": component["custom_id"],
            "component_type": component["type"],
        }
        if component["type"] != 2:
            data["values"] = list(values or [])
        payload.update(type=3, data=data, message=message if pressed_on is None else pressed_on)
        return await self._dispatch(payload, source_message_id=message_id)

    async def guild_menu(self, channel: Any) -> dict[str, Any]:
        """The ruleset commands Discord shows in ``channel``'s guild (slash_envelope)."""
        return await guild_menu(self.bot, channel)

    # --- building payloads ---

    def _command_id(self, name: str) -> int:
        return self._command_ids.setdefault(name, snowflake())

    def _manager(self) -> discord.Role:
        if self._manager_role is None or self.guild.get_role(self._manager_role.id) is None:
            existing = discord.utils.get(self.guild.roles, name=MANAGER_ROLE_NAME)
            self._manager_role = existing or self.make_role(
                MANAGER_ROLE_NAME, permissions=discord.Permissions(manage_guild=True)
            )
        return self._manager_role

    def _base(
        self, user: discord.abc.User | None, channel: Any, **kwargs: Any
    ) -> tuple[OptionBuilder, dict[str, Any]]:
        if user is not None and not isinstance(user, discord.Member):
            user = self.members_hidden.hidden.get(user.id, user)  # another interaction is running
        return build_envelope(
            self.bot, user or self.members[0], channel or self.channel,
            manager_role=self._manager, **kwargs,
        )  # fmt: skip

    # --- finding messages and components ---

    def _find_message(self, target: Any, custom_id: str | None) -> dict[str, Any]:
        if isinstance(target, SlashResult):
            target = target._need_message()
        if isinstance(target, RecordedResponse):
            target = target.message_id
        if isinstance(target, discord.Message):
            target = target.id
        if isinstance(target, SentMessage):
            target = target.message_id
        if isinstance(target, int):
            if target in self.adapter.messages:
                return self.adapter.messages[target]
            for sent in self.channel_recorder.sends:
                if sent.message_id == target:
                    message = sent.as_message_payload(self.adapter.author)
                    self.adapter.messages[target] = message
                    return message
            raise LookupError(f"no recorded message {target}")
        if target is None and custom_id is not None:
            # A persistent view's message from before a restart: only the button is known.
            return self.adapter.stand_in_message(self.channel.id, custom_id)
        raise TypeError(f"can't click on {target!r}")

    # --- dispatching and waiting ---

    async def _dispatch(
        self, payload: dict[str, Any], *, source_message_id: int | None = None
    ) -> SlashResult:
        self._link()
        user = payload.get("member", payload).get("user", {})
        self.adapter.register(
            payload["token"],
            TokenInfo(
                interaction_id=int(payload["id"]),
                interaction_type=int(payload["type"]),
                channel_id=int(payload["channel_id"]),
                user_id=int(user.get("id", 0)),
                source_message_id=source_message_id,
            ),
        )
        if self.expire_next:
            self.adapter.expired.add(payload["token"])
            self.expire_next = False
        first_record = len(self.adapter.records)
        first_send = len(self.channel_recorder.sends)
        first_problem = len(self.adapter.problems) + len(self.channel_recorder.problems)
        before = asyncio.all_tasks()
        context_token = async_context.set(self.adapter)
        self.members_hidden.hide()
        try:
            try:
                self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
            finally:
                async_context.reset(context_token)
            failures = await settle(before, limit_seconds=self.timeout)
            followups = getattr(self.bot, "followups", None)
            if self.drain_followups and followups is not None and followups.pending:
                await followups.drain()
                failures += await settle(before, limit_seconds=self.timeout)
        finally:
            self.members_hidden.restore()
        # dpytest queues every on_command_error (hybrid commands report there too) and
        # re-raises it from the next dpytest.message(); they were answered already.
        command_errors = []
        while not dpytest_runner.error_queue.empty():
            command_errors.append(dpytest_runner.error_queue.get_nowait()[1])
        problems = (self.adapter.problems + self.channel_recorder.problems)[first_problem:]
        if problems:
            raise HarnessError("\n".join(problems))
        if failures:
            raise HarnessError(
                f"a task of this interaction crashed: {failures[0]!r}"
            ) from failures[0]
        return SlashResult(
            interaction=payload,
            responses=self.adapter.records[first_record:],
            channel_messages=self.channel_recorder.sends[first_send:],
            command_errors=command_errors,
        )
