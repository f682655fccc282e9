"""The servers' link secrets (bot.storage.web_secrets), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.storage.campaigns import CampaignRepository
from bot.storage.web_secrets import WebSecretRepository

pytestmark = pytest.mark.both_backends

GUILD = 100


async def campaign(db: Any, guild: int = GUILD) -> None:
    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(guild)


async def test_made_once_on_first_use(db: Any) -> None:
    await campaign(db)
    async with db.read() as conn:
        assert await WebSecretRepository(conn).get(GUILD) is None
    async with db.transaction() as conn:
        first = await WebSecretRepository(conn).get_or_create(GUILD)
    async with db.transaction() as conn:
        again = await WebSecretRepository(conn).get_or_create(GUILD)
    assert first == again
    assert (first.guild_id, first.version, len(first.secret)) == (GUILD, 1, 32)
    assert isinstance(first.secret, bytes)


async def test_rotate_replaces_the_secret_and_bumps_the_version(db: Any) -> None:
    await campaign(db)
    async with db.transaction() as conn:
        first = await WebSecretRepository(conn).get_or_create(GUILD)
        rotated = await WebSecretRepository(conn).rotate(GUILD)
    async with db.read() as conn:
        stored = await WebSecretRepository(conn).get(GUILD)
    assert stored == rotated
    assert rotated.version == 2 and rotated.secret != first.secret and len(rotated.secret) == 32


async def test_rotate_without_a_secret_makes_the_first(db: Any) -> None:
    await campaign(db)
    async with db.transaction() as conn:
        made = await WebSecretRepository(conn).rotate(GUILD)
    assert made.version == 1


async def test_two_first_uses_at_once_agree(db: Any) -> None:
    await campaign(db)

    async def first_use() -> Any:
        async with db.transaction() as conn:
            return await WebSecretRepository(conn).get_or_create(GUILD)

    one, two = await asyncio.gather(first_use(), first_use())
    assert one == two


async def test_each_server_has_its_own_and_leaves_with_its_campaign(db: Any) -> None:
    await campaign(db)
    await campaign(db, 200)
    async with db.transaction() as conn:
        ours = await WebSecretRepository(conn).get_or_create(GUILD)
        theirs = await WebSecretRepository(conn).get_or_create(200)
        assert ours.secret != theirs.secret
        await conn.execute("DELETE FROM campaigns WHERE guild_id = ?", (200,))
    async with db.read() as conn:
        assert await WebSecretRepository(conn).get(200) is None
        assert await WebSecretRepository(conn).get(GUILD) == ours
