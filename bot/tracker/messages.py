"""The initiative tracker message of a channel, for every ruleset: post, edit, pin, close.

A ruleset's tracker service says WHAT the tracker shows (it loads its encounter and
renders the embed); this module keeps ONE message per channel in step with it:

* ``refresh`` reads the newest state itself under a per-channel lock, so however edits
  interleave the last one shows the last saved state; a version already shown is skipped;
* ``refresh_soon`` does it after the reply (``bot.delivery.followups``): a command answers
  without waiting for Discord, and a burst of changes in a channel makes one edit;
* a deleted tracker is reposted and its new id stored through the caller's callback;
* Discord's 5xx answers are retried (``bot.delivery.discord_retry``) and a failed edit is left
  unmarked, so the next change edits again (after ``refresh_soon``, a later retry too);
* the tracker is pinned on every change until it is (``bot.tracker.pinning``: a missing
  permission is told to the channel once per encounter);
* ``close`` shows the final embed and unpins it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.delivery.discord_retry import retry_server_errors
from bot.delivery.followups import FollowUps
from bot.tracker.pinning import TrackerPins

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrackerView:
    """What a channel's tracker should show now: the encounter and its saved version, the
    stored message id (None before the first post) and the rendered embed."""

    encounter_id: int
    version: int
    message_id: int | None
    embed: discord.Embed


Load = Callable[[], Awaitable[TrackerView | None]]
StoreMessageId = Callable[[int, int], Awaitable[None]]  # (encounter id, message id)


class TrackerMessages:
    """One tracker message per channel, shared by the rulesets' tracker services."""

    def __init__(
        self, store_message_id: StoreMessageId, followups: FollowUps | None = None
    ) -> None:
        self._store_message_id = store_message_id
        self.followups = followups or FollowUps()
        self._forced: set[int] = set()  # channel ids whose next refresh_soon run must edit
        self._locks: dict[int, asyncio.Lock] = {}
        self._messages: dict[int, discord.Message] = {}  # channel id → tracker message
        self._shown: dict[int, tuple[int, int]] = {}  # channel id → (encounter, version) shown
        self._pins = TrackerPins()

    def _lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    def refresh_soon(
        self, channel: discord.abc.Messageable, load: Load, *, force: bool = False
    ) -> None:
        """``refresh`` after the reply, as follow-up work keyed by the channel: coalesced
        with the channel's other refreshes still waiting (each loads the newest state
        when it runs, so the last one shows the last change) and retried if it fails."""
        channel_id = getattr(channel, "id", 0)
        if force:
            self._forced.add(channel_id)

        async def work() -> bool:
            forced = channel_id in self._forced
            self._forced.discard(channel_id)
            return await self.refresh(channel, load, force=forced)

        self.followups.schedule(("tracker", channel_id), work)

    async def refresh(
        self, channel: discord.abc.Messageable, load: Load, *, force: bool = False
    ) -> bool:
        """Show what ``load`` returns (read under the channel's lock), reposting a deleted
        tracker; nothing when there is no encounter. False when Discord refused the edit
        or the post (then the tracker is not marked shown: the next refresh tries again)."""
        channel_id = getattr(channel, "id", 0)
        async with self._lock(channel_id):
            view = await load()
            if view is None:
                return True
            if not force and self._shown.get(channel_id) == (view.encounter_id, view.version):
                return True
            try:
                message = await self._edit(channel, view)
            except discord.HTTPException as error:
                # Not marked shown: the next change (or refresh) edits it again.
                log.warning("could not edit the tracker in channel %s: %s", channel_id, error)
                return False
            if message is None:
                message = await self._post(channel, view)
            if message is None:
                return False
            self._messages[channel_id] = message
            self._shown[channel_id] = (view.encounter_id, view.version)
            # Also on every later change, so a pin that failed once is made up for.
            await self._pins.ensure_pinned(channel, message, view.encounter_id)
            return True

    async def _edit(
        self, channel: discord.abc.Messageable, view: TrackerView
    ) -> discord.Message | None:
        """The edited tracker; None when it was deleted (to post a new one).

        Raises HTTPException when Discord still fails after retrying its 5xx answers.
        """
        if view.message_id is None:
            return None
        channel_id = getattr(channel, "id", 0)
        tracker_id = view.message_id
        message = self._messages.get(channel_id)
        try:
            if message is None or message.id != tracker_id:
                # Once per process (after a restart): later edits reuse the message.
                message = await retry_server_errors(
                    lambda: channel.fetch_message(tracker_id), "fetching the tracker"
                )
            found = message
            return await retry_server_errors(
                lambda: found.edit(
                    embed=view.embed, allowed_mentions=discord.AllowedMentions.none()
                ),
                "editing the tracker",
            )
        except discord.NotFound:
            return None

    async def _post(
        self, channel: discord.abc.Messageable, view: TrackerView
    ) -> discord.Message | None:
        try:
            message = await channel.send(
                embed=view.embed, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException as error:
            log.warning(
                "could not post the tracker in channel %s: %s", getattr(channel, "id", 0), error
            )
            return None
        await self._store_message_id(view.encounter_id, message.id)
        return message

    async def close(
        self, channel: discord.abc.Messageable, message_id: int | None, embed: discord.Embed
    ) -> None:
        """After the encounter ends: the tracker shows ``embed`` and is unpinned."""
        channel_id = getattr(channel, "id", 0)
        async with self._lock(channel_id):
            self._shown.pop(channel_id, None)
            message = self._messages.pop(channel_id, None)
            if message_id is None:
                return
            try:
                if message is None or message.id != message_id:
                    message = await channel.fetch_message(message_id)
                await message.edit(embed=embed, allowed_mentions=discord.AllowedMentions.none())
                await message.unpin(reason="Encounter over")
            except discord.HTTPException as error:
                log.info("could not close the tracker in channel %s: %s", channel_id, error)
