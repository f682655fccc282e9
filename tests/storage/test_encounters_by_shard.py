"""A shard process warms only its own guilds' running encounters (``recent_channels``
with the process's shards): the other processes' are theirs to read."""

from __future__ import annotations

import pytest

from bot.process.sharding import ShardPlan, shard_of
from bot.rules.hocs.initiative import Encounter
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from bot.storage.hocs.encounters import EncounterRepository
from cogs.hocs.initiative.held import HeldEncounters

pytestmark = pytest.mark.both_backends

GUILDS = [(10**6 + k) << 22 for k in range(6)]  # shards 0, 1, 0, 1 … of 2 (and 0, 1, 2 … of 3)


async def running(db: Database) -> dict[int, int]:
    channels = {}
    async with db.transaction() as conn:
        for index, guild_id in enumerate(GUILDS):
            await CampaignRepository(conn).get_or_create(guild_id)
            channel_id = 500 + index
            await EncounterRepository(conn).create(
                guild_id=guild_id, channel_id=channel_id, gm_id=9, state=Encounter()
            )
            channels[channel_id] = guild_id
    return channels


async def test_only_this_processs_shards_are_read(db: Database) -> None:
    channels = await running(db)
    async with db.read() as conn:
        repo = EncounterRepository(conn)
        everything = await repo.recent_channels(50)
        odd = await repo.recent_channels(50, shards=(2, (1,)))
        of_three = await repo.recent_channels(50, shards=(3, (0, 2)))
        newest_odd = await repo.recent_channels(2, shards=(2, (1,)))
    assert sorted(everything) == sorted(channels)
    assert sorted(odd) == sorted(c for c, g in channels.items() if shard_of(g, 2) == 1)
    assert len(odd) == 3
    assert sorted(of_three) == sorted(c for c, g in channels.items() if shard_of(g, 3) in (0, 2))
    assert newest_odd == odd[:2]


async def test_the_warm_up_holds_its_own_guilds_only(db: Database) -> None:
    channels = await running(db)
    mine = ShardPlan(count=2, ids=(0,))
    held = HeldEncounters()
    async with db.read() as conn:
        assert await held.warm(conn, 500, mine) == 3
    for channel_id, guild_id in channels.items():
        assert (held.get(channel_id) is not None) == mine.owns(guild_id)
    every = HeldEncounters()
    async with db.read() as conn:
        assert await every.warm(conn, 500, ShardPlan()) == len(GUILDS)
