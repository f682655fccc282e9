"""WAL checkpoints while the bot is never idle: beside the commands, not in a COMMIT."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.client import TableBot
from bot.storage import database
from bot.storage.campaigns import CampaignRepository
from bot.storage.database import Database
from tests.support.slash import SlashHarness

NEVER_IDLE = 3600.0  # an idle_for no test reaches: only the busy rule can checkpoint


def wal_pages(path: Path | str) -> int:
    """The pages in the WAL now (a checkpoint from a connection of its own reports them
    before it copies anything; what it copies changes no later assertion)."""
    other = sqlite3.connect(str(path))
    try:
        return int(other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])
    finally:
        other.close()


async def write(db: Database, times: int) -> None:
    for value in range(times):
        async with db.transaction() as conn:
            await CampaignRepository(conn).update(value % 7, gm_role_id=value)


@pytest.fixture
def busy_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database, "BUSY_CHECKPOINT_WRITES", 10)
    monkeypatch.setattr(database, "BUSY_CHECKPOINT_SECONDS", 0.0)


async def test_a_busy_bot_checkpoints_and_its_wal_starts_again(
    db: Database, busy_rule: None
) -> None:
    await write(db, 30)
    assert await db.maintain_now(idle_for=NEVER_IDLE) is True
    await write(db, 1)  # the WAL was all copied: this write starts it from the beginning
    assert wal_pages(db.path) <= 4  # (30 transactions' pages had they been appended)


async def test_without_the_busy_rule_the_wal_only_grows(db: Database) -> None:
    # The contrast for the test above: the same writes, no checkpoint while busy.
    await write(db, 30)
    assert await db.maintain_now(idle_for=NEVER_IDLE) is False
    await write(db, 1)
    assert wal_pages(db.path) > 30


async def test_the_checkpoint_runs_while_a_command_holds_the_connection(
    db: Database, busy_rule: None
) -> None:
    await write(db, 10)
    async with db.transaction() as conn:
        await CampaignRepository(conn).update(1, gm_role_id=99)
        assert await db.maintain_now(idle_for=NEVER_IDLE) is True  # not skipped: busy
        assert (await CampaignRepository(conn).get(1)).gm_role_id == 99  # type: ignore[union-attr]
    async with db.read() as conn:
        assert (await CampaignRepository(conn).get(1)).gm_role_id == 99  # type: ignore[union-attr]
    assert db.checkpoints == 1


async def test_while_busy_not_before_enough_writes_nor_more_often_than_the_period(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "BUSY_CHECKPOINT_WRITES", 10)
    monkeypatch.setattr(database, "BUSY_CHECKPOINT_SECONDS", 0.0)
    await write(db, 9)
    assert await db.maintain_now(idle_for=NEVER_IDLE) is False  # 9 writes: not yet
    await write(db, 1)
    assert await db.maintain_now(idle_for=NEVER_IDLE) is True
    monkeypatch.setattr(database, "BUSY_CHECKPOINT_SECONDS", NEVER_IDLE)
    await write(db, 20)
    assert await db.maintain_now(idle_for=NEVER_IDLE) is False  # too soon after the last
    assert db.checkpoints == 1
    assert await db.maintain_now(idle_for=0) is True  # idle: as before, at once


async def test_a_bot_is_told_when_the_busy_checkpoint_is_due_and_runs_it_itself(
    db: Database, busy_rule: None
) -> None:
    told: list[int] = []
    db.on_checkpoint_due = lambda: told.append(db.checkpoints)
    await write(db, 9)
    assert told == []  # 9 writes: not yet
    await write(db, 1)
    assert told == [0]  # the 10th write: due, and nothing checkpointed it yet
    await write(db, 2)
    assert told == [0, 0, 0]  # told after each write until it runs (the follow-up coalesces)
    await db.checkpoint_if_due()
    assert db.checkpoints == 1
    await write(db, 1)  # the WAL was all copied: this write starts it from the beginning
    assert wal_pages(db.path) <= 4
    await db.checkpoint_if_due()  # 1 write since: not due, nothing runs
    assert db.checkpoints == 1
    assert told == [0, 0, 0]


@pytest.mark.looptime  # (the task's ticks pass in the loop's time: no waiting)
async def test_the_maintenance_task_leaves_a_told_bot_its_checkpoint_until_twice_the_writes(
    db: Database, busy_rule: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "MAINTENANCE_PERIOD_SECONDS", 0.01)
    monkeypatch.setattr(database, "IDLE_SECONDS", NEVER_IDLE)  # only the busy rule
    db.on_checkpoint_due = lambda: None  # a bot whose follow-ups never ran it
    db.start_maintenance()
    await write(db, 10)
    await asyncio.sleep(0.3)  # about 30 ticks of the task
    assert db.checkpoints == 0  # due for the bot, not yet for the task
    await write(db, 10)
    for _ in range(500):  # the task's next tick
        if db.checkpoints:
            break
        await asyncio.sleep(0.01)
    assert db.checkpoints == 1


async def test_the_bot_checkpoints_after_a_reply_never_during_a_command(
    bot: TableBot, slash: SlashHarness, busy_rule: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    began: list[bool] = []  # for each checkpoint: was a command being handled then?
    checkpoint = bot.db._checkpointer.run

    def run() -> bool:
        began.append(bot.followups.handling)
        return checkpoint()

    monkeypatch.setattr(bot.db._checkpointer, "run", run)
    for _ in range(12):  # a roll is one write transaction (with its reply's message id)
        result = await slash.run("roll", expression="1d20")  # (drains the follow-ups)
        assert result.message is not None
    assert began and not any(began)
    assert bot.db.checkpoints == len(began)
