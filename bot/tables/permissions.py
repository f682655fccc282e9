"""Who counts as the GM of a campaign, and remembering the GMs the bot has seen."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from functools import partial

import aiosqlite
import discord

from bot.errors import NotGM
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.database import Database
from bot.storage.gm_members import GmMemberRepository

log = logging.getLogger(__name__)

# ``bot.delivery.followups.FollowUps.schedule``: run work (keyed, coalesced) after the reply.
Schedule = Callable[[Hashable, Callable[[], Awaitable[object]]], None]


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


class GmMemory:
    """Remembers (in ``gm_members``) who acts as GM, from the member each command carries.

    Production runs without the privileged members intent, so ``role.members`` is empty
    and a secret roll could not find its GM: instead every GM who uses a command is
    written down, and a member seen without GM rights is crossed off. A member's verdict
    is cached per process, keyed by their permissions and roles, and re-checked after
    ``RECHECK_SECONDS`` (the campaign's GM role may have changed meanwhile), so this
    costs the database once per member and hour, not once per command.
    """

    RECHECK_SECONDS = 3600.0

    def __init__(self, db: Database, *, later: Schedule | None = None) -> None:
        self._db = db
        self._later = later
        self._seen: dict[tuple[int, int], tuple[object, float]] = {}
        self._pending: dict[tuple[int, int], discord.Member] = {}

    def observe_soon(self, member: discord.abc.User) -> None:
        """Remember ``member`` as GM of their guild, or forget them if they no longer are,
        without costing the command anything: with ``later`` (the bot's
        ``followups.schedule``) the members seen are written after the reply, all in one
        transaction; else the write is deferred (``Database.defer``) and rides at the
        start of the next transaction. Losing it to a crash only costs a later direct
        message.
        """
        if not isinstance(member, discord.Member) or member.bot:
            return
        key = (member.guild.id, member.id)
        if self._fresh(key, member):
            return
        self._seen[key] = (_signature(member), time.monotonic())
        if self._later is None:
            self._db.defer(partial(_record, member))
            return
        self._pending[key] = member
        self._later("gm memory", self.write_pending)

    async def write_pending(self) -> None:
        """Write the members observed since the last time (one transaction)."""
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        try:
            async with self._db.transaction() as conn:
                for member in pending.values():
                    await _record(member, conn)
        except BaseException:
            # Back in the queue (behind anyone seen meanwhile); followups retries.
            self._pending = {**pending, **self._pending}
            raise

    def _fresh(self, key: tuple[int, int], member: discord.Member) -> bool:
        known = self._seen.get(key)
        return (
            known is not None
            and known[0] == _signature(member)
            and time.monotonic() - known[1] < self.RECHECK_SECONDS
        )

    async def recent(self, guild_id: int, limit: int) -> list[int]:
        """Up to ``limit`` remembered GM ids of the guild, most recently seen first."""
        await self.write_pending()  # (a GM seen just now counts)
        async with self._db.read() as conn:
            return await GmMemberRepository(conn).recent(guild_id, limit)

    async def forget(self, guild_id: int, user_ids: list[int]) -> None:
        """Cross these members off (found no longer GM, or gone); they are checked
        afresh on their next command."""
        async with self._db.transaction() as conn:
            for user_id in user_ids:
                await GmMemberRepository(conn).forget(guild_id, user_id)
        for user_id in user_ids:
            self._seen.pop((guild_id, user_id), None)


async def _record(member: discord.Member, conn: aiosqlite.Connection) -> None:
    """The deferred write of :meth:`GmMemory.observe_soon`, in the next transaction."""
    campaign = await CampaignRepository(conn).get(member.guild.id)
    gm = is_gm(member, campaign) if campaign is not None else member.guild_permissions.manage_guild
    repo = GmMemberRepository(conn)
    if gm:
        await repo.remember(member.guild.id, member.id)
        log.debug("remembered %s as a GM of guild %s", member.id, member.guild.id)
    else:
        await repo.forget(member.guild.id, member.id)


def _signature(member: discord.Member) -> tuple[int, tuple[int, ...]]:
    """What decides GM-ness on the member's side: permissions and roles."""
    return member.guild_permissions.value, tuple(sorted(r.id for r in member.roles))
