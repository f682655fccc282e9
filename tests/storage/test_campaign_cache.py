"""The campaign row cached per connection: never stale after any write, anywhere.

On SQLite a cache hit sends no statement at all (the file's version is checked once
per transaction); PostgreSQL reads the row every time. The same expectations hold on
both, so each test that can runs on both backends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.storage.campaigns import CampaignRepository, CampaignSettings, Ruleset
from bot.storage.database import Database
from tests.storage.test_fastpath import Calls
from tests.support.pg_fixtures import open_raw, open_second

GUILD = 31


async def campaign_of(db: Any, guild_id: int = GUILD) -> Any:
    async with db.transaction() as conn:
        return await CampaignRepository(conn).get(guild_id)


@pytest.fixture
async def second(db: Any) -> AsyncIterator[Any]:
    """Another bot process's handle on the same database."""
    other = await open_second(db)
    yield other
    await other.close()


@pytest.mark.both_backends
async def test_another_process_writing_the_campaign_is_seen_next(db: Any, second: Any) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=1)
    assert (await campaign_of(db)).gm_role_id == 1
    async with second.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=2)
    assert (await campaign_of(db)).gm_role_id == 2
    raw = await open_raw(db)  # a script: no repository, no version column touched
    try:
        await raw.execute(
            "UPDATE campaigns SET settings = ? WHERE guild_id = ?", ('{"one_shot": true}', GUILD)
        )
    finally:
        await raw.close()
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).settings == CampaignSettings(
            one_shot=True
        )


@pytest.mark.both_backends
async def test_this_process_writing_the_campaign_is_seen_next(db: Any) -> None:
    assert (await campaign_of(db)) is None
    async with db.transaction() as conn:
        assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_channel_id is None
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_channel_id=5)
    assert (await campaign_of(db)).gm_channel_id == 5
    async with db.transaction() as conn:
        assert await CampaignRepository(conn).switch_ruleset(GUILD, Ruleset.HOCS, Ruleset.TWOD10)
    assert (await campaign_of(db)).ruleset is Ruleset.TWOD10
    async with db.transaction() as conn:
        await conn.execute("UPDATE campaigns SET gm_role_id = 9 WHERE guild_id = ?", (GUILD,))
    assert (await campaign_of(db)).gm_role_id == 9
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM campaigns WHERE guild_id = ?", (GUILD,))
    assert (await campaign_of(db)) is None


@pytest.mark.both_backends
async def test_a_rolled_back_write_leaves_the_committed_campaign(db: Any) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=1)
    assert (await campaign_of(db)).gm_role_id == 1
    for write in (
        lambda conn: CampaignRepository(conn).update(GUILD, gm_role_id=2),
        lambda conn: conn.execute(
            "UPDATE campaigns SET gm_role_id = 3 WHERE guild_id = ?", (GUILD,)
        ),
    ):
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await write(conn)
                # Read back inside the transaction (uncommitted), as a command would:
                assert (await CampaignRepository(conn).get_or_create(GUILD)).gm_role_id != 1
                raise RuntimeError("a user error after the write")
        assert (await campaign_of(db)).gm_role_id == 1


class Sent(Calls):
    """The SQL the bot's connection sends, and its data_version checks."""

    def __init__(self, db: Database) -> None:
        super().__init__(db.connection)
        self.connection: Any = db.connection
        self.checks = self.connection.version_checks

    @property
    def version_checks(self) -> int:
        return int(self.connection.version_checks) - self.checks


async def test_a_cached_campaign_costs_one_version_check_and_no_select(db: Database) -> None:
    first = await campaign_of(db) or None
    assert first is None  # no row: nothing cached for it
    async with db.transaction() as conn:
        created = await CampaignRepository(conn).get_or_create(GUILD)
    assert (await campaign_of(db)) == created  # read and kept (the insert was committed)
    sent = Sent(db)
    async with db.transaction() as conn:
        repo = CampaignRepository(conn)
        assert await repo.get_or_create(GUILD) is await repo.get(GUILD)
    assert sent.sql == ["BEGIN IMMEDIATE", "COMMIT"]
    assert sent.version_checks == 1  # once per transaction, however many reads


async def test_outside_a_transaction_the_row_is_read_and_not_kept(db: Database) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=4)
    sent = Sent(db)
    conn = db.connection  # no Database section: may run on the worker
    assert (await CampaignRepository(conn).get(GUILD)).gm_role_id == 4
    assert (await CampaignRepository(conn).get(GUILD)).gm_role_id == 4
    assert len(sent.sql) == 2 and sent.version_checks == 0


async def test_the_cache_comes_back_after_migrations(db: Database) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(GUILD, gm_role_id=4)
    assert (await campaign_of(db)).gm_role_id == 4
    await db.migrate()  # (already at the newest version)
    assert (await campaign_of(db)).gm_role_id == 4
    await db.connection.execute("UPDATE campaigns SET gm_role_id = 6")  # autocommit, raw
    assert (await campaign_of(db)).gm_role_id == 6
    sent = Sent(db)
    assert (await campaign_of(db)).gm_role_id == 6
    assert sent.sql == ["BEGIN IMMEDIATE", "COMMIT"]  # cached again
