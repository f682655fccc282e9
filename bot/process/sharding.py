"""Shards: which guilds this process answers.

Discord routes a guild's events to shard ``(guild_id >> 22) % shard_count``. A process
started with ``SHARD_IDS`` connects those shards only, so its gateway brings it only
their guilds; the platform's own per-guild work (the slash menu sync at start-up, on
join, after a ruleset switch) asks :meth:`ShardPlan.owns` too, so nothing a process
does at its own initiative touches another process's guilds. Everything a command or
button needs is in the shared database, so after a restart or a re-shard whichever
process receives an interaction can answer it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Settings


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to (Discord's documented formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """This process's shards: ``count`` None means discord.py picks the count and this
    one process runs them all; ``ids`` None means every shard of ``count``."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> ShardPlan:
        return cls(settings.shard_count, settings.shard_ids)

    @property
    def runs_every_shard(self) -> bool:
        return self.count is None or self.ids is None

    def owns(self, guild_id: int) -> bool:
        """Whether this process answers ``guild_id`` (its shard is one of ours)."""
        if self.runs_every_shard:
            return True
        assert self.count is not None and self.ids is not None
        return shard_of(guild_id, self.count) in self.ids

    @property
    def syncs_globals(self) -> bool:
        """The process holding shard 0 syncs the global commands, so processes started
        together with one code version don't all try (the sync lease in
        ``bot.interactions.command_sync`` makes it once even if they did)."""
        return self.runs_every_shard or 0 in (self.ids or ())

    def describe(self) -> str:
        if self.count is None:
            return "automatic sharding: one process, shard count from Discord"
        if self.ids is None:
            return f"all {self.count} shards in this process"
        listed = ", ".join(str(shard) for shard in self.ids)
        return f"shards {listed} of {self.count}"
