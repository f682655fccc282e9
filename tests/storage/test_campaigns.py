"""Campaign and roll-log repositories against a real SQLite file."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.campaigns import CampaignRepository, CampaignSettings, Ruleset
from bot.storage.database import Database
from bot.storage.roll_log import RollLogRepository

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)


async def test_first_use_creates_default_campaign(db: Database) -> None:
    async with db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(42)
    assert campaign.guild_id == 42
    assert campaign.ruleset is Ruleset.HOCS
    assert campaign.gm_role_id is None
    assert campaign.gm_channel_id is None
    assert campaign.settings == CampaignSettings()


async def test_concurrent_first_use_creates_one_row(db: Database) -> None:
    async def first_use() -> None:
        async with db.transaction() as conn:
            await CampaignRepository(conn).get_or_create(7)

    await asyncio.gather(*(first_use() for _ in range(50)))
    async with db.read() as conn, conn.execute("SELECT count(*) FROM campaigns") as cur:
        assert (await cur.fetchone())[0] == 1


async def test_update_changes_only_named_columns(db: Database) -> None:
    async with db.transaction() as conn:
        repo = CampaignRepository(conn)
        await repo.update(1, gm_role_id=555)
        campaign = await repo.update(1, gm_channel_id=777)
    assert (campaign.gm_role_id, campaign.gm_channel_id) == (555, 777)
    async with db.transaction() as conn:
        campaign = await CampaignRepository(conn).update(1, gm_role_id=None)
    assert (campaign.gm_role_id, campaign.gm_channel_id) == (None, 777)


async def test_update_rejects_unknown_columns(db: Database) -> None:
    with pytest.raises(KeyError):
        async with db.transaction() as conn:
            await CampaignRepository(conn).update(1, created_at="x")


async def test_roll_log_keeps_full_result(db: Database) -> None:
    result = {"total": 17, "dice": [{"sides": 20, "faces": [12]}], "label": "@everyone"}
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(3)
        roll_id = await RollLogRepository(conn).record(
            guild_id=3,
            channel_id=9,
            user_id=11,
            kind="roll",
            expression="1d20+5",
            result=result,
            total=17,
            secret=True,
        )
    async with db.read() as conn:
        (logged,) = await RollLogRepository(conn).recent(3)
    assert logged.id == roll_id
    assert logged.result == result
    assert (logged.user_id, logged.channel_id, logged.total, logged.secret) == (11, 9, 17, True)
    assert logged.created_at.endswith("Z")


async def test_roll_log_in_direct_messages_needs_no_campaign(db: Database) -> None:
    async with db.transaction() as conn:
        await RollLogRepository(conn).record(
            guild_id=None,
            channel_id=1,
            user_id=2,
            kind="roll",
            expression="1d6",
            result={"total": 4},
            total=4,
            secret=False,
        )
    async with db.read() as conn:
        assert len(await RollLogRepository(conn).recent(None)) == 1
