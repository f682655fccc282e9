"""Remembered GMs: upsert, most recent first, forget, per guild."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.database import Database
from bot.storage.gm_members import GmMemberRepository

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

GUILD, OTHER = 10, 20


async def test_remember_recent_and_forget(db: Database) -> None:
    async with db.transaction() as conn:
        repo = GmMemberRepository(conn)
        await repo.remember(GUILD, 1)
    await asyncio.sleep(0.002)  # seen_at has millisecond precision
    async with db.transaction() as conn:
        repo = GmMemberRepository(conn)
        await repo.remember(GUILD, 2)
        await repo.remember(OTHER, 3)
    async with db.read() as conn:
        assert await GmMemberRepository(conn).recent(GUILD, 10) == [2, 1]
        assert await GmMemberRepository(conn).recent(GUILD, 1) == [2]
        assert await GmMemberRepository(conn).recent(OTHER, 10) == [3]
    await asyncio.sleep(0.002)
    async with db.transaction() as conn:
        repo = GmMemberRepository(conn)
        await repo.remember(GUILD, 1)  # seen again: first, and still one row
        await repo.forget(GUILD, 2)
        await repo.forget(GUILD, 99)  # unknown: nothing happens
    async with db.read() as conn:
        assert await GmMemberRepository(conn).recent(GUILD, 10) == [1]
        assert await GmMemberRepository(conn).recent(OTHER, 10) == [3]
