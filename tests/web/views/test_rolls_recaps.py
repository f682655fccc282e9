"""The roll log (filters, paging, secret rolls), the recaps and the change check."""

from __future__ import annotations

import pytest

from bot.storage.database import Database
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.roll_log import RollLogRepository
from bot.storage.sessions import SessionRepository
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.web.views import registry
from bot.web.views.common import PageNotFound
from bot.web.views.rolls import MAX_PAGE, PAGE_SIZE, SECRET_TEXT, RollFilters
from tests.web.views.support import (
    GM,
    GUILD,
    PLAYER,
    HocsWorld,
    hocs_world,
    twod10_encounter,
    twod10_world,
    viewer,
)

pytestmark = pytest.mark.both_backends  # (tests/conftest.py: SQLite and PostgreSQL)

SECRET_TOTAL = 87


async def log(db: Database, world: HocsWorld | None = None, *, count: int = 1) -> None:
    """``count`` public checks by Mira (totals 1, 2, …), then one secret roll."""
    async with db.transaction() as conn:
        repo = RollLogRepository(conn)
        for n in range(1, count + 1):
            await repo.add(
                guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="check",
                expression=f"**{n}d6**", result={}, total=n, secret=False,
                character_id=world.mira if world else None,
            )  # fmt: skip
        await repo.add(
            guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="roll", expression="1d100",
            result={}, total=SECRET_TOTAL, secret=True,
            character_id=world.mira if world else None,
        )  # fmt: skip


async def test_secret_rolls_are_described_to_the_gm_only(db: Database) -> None:
    world = await hocs_world(db)
    await log(db, world)
    async with db.read() as conn:
        gm = await registry.roll_log(conn, viewer("gm", GM))
        player = await registry.roll_log(conn, viewer("player"))
        overlay = await registry.roll_log(conn, viewer("overlay", GM))
    secret, check = gm.rows
    assert (secret.kind, secret.expression, secret.total, secret.character) == (
        "roll", "1d100", SECRET_TOTAL, "Mira",
    )  # fmt: skip
    # The expression stays as logged (markdown and all: the template escapes).
    assert (check.kind, check.expression, check.total, check.character) == (
        "check", "**1d6**", 1, "Mira",
    )  # fmt: skip
    for page in (player, overlay):
        hidden = page.rows[0]
        assert (hidden.described, hidden.text, hidden.kind, hidden.expression) == (
            False, SECRET_TEXT, "", "",
        )  # fmt: skip
        assert hidden.total is None and hidden.character == ""
        assert page.rows[1] == check
    # A filter can't single secret rolls out for a player.
    async with db.read() as conn:
        rolls = await registry.roll_log(conn, viewer("player"), filters=RollFilters(kind="roll"))
        mine = await registry.roll_log(
            conn, viewer("player"), filters=RollFilters(character_id=world.mira)
        )
        gm_rolls = await registry.roll_log(conn, viewer("gm", GM), filters=RollFilters(kind="roll"))
    assert rolls.rows == () and [r.kind for r in mine.rows] == ["check"]
    assert [r.total for r in gm_rolls.rows] == [SECRET_TOTAL]


async def test_paging_is_clamped_and_says_when_there_is_more(db: Database) -> None:
    world = await hocs_world(db)
    await log(db, world, count=PAGE_SIZE + 10)  # 61 rows
    async with db.read() as conn:
        first = await registry.roll_log(conn, viewer("gm", GM), page=0)
        second = await registry.roll_log(conn, viewer("gm", GM), page=2)
        huge = await registry.roll_log(conn, viewer("gm", GM), page=10**9)
    assert (first.page, len(first.rows), first.has_more) == (1, PAGE_SIZE, True)
    assert first.rows[0].total == SECRET_TOTAL and first.rows[1].total == PAGE_SIZE + 10
    assert (second.page, len(second.rows), second.has_more) == (2, 11, False)
    assert second.rows[-1].total == 1
    assert (huge.page, huge.rows, huge.has_more) == (MAX_PAGE, (), False)


async def test_filters_by_session_and_character(db: Database) -> None:
    world = await hocs_world(db)
    await log(db, world, count=2)  # before the session
    async with db.transaction() as conn:
        await SessionRepository(conn).start(GUILD, started_by=GM)
    await log(db, None, count=3)  # in session 1, for nobody
    async with db.read() as conn:
        session = await registry.roll_log(conn, viewer("gm", GM), filters=RollFilters(session=1))
        mira = await registry.roll_log(
            conn, viewer("gm", GM), filters=RollFilters(character_id=world.mira)
        )
        try:
            await registry.roll_log(conn, viewer("gm", GM), filters=RollFilters(session=7))
            raise AssertionError("an unknown session was found")
        except PageNotFound:
            pass
    assert [r.total for r in session.rows] == [SECRET_TOTAL, 3, 2, 1]
    assert [r.total for r in mira.rows] == [SECRET_TOTAL, 2, 1]


async def test_a_2d10_row_names_its_sheet_in_its_result(db: Database) -> None:
    world = await twod10_world(db)
    async with db.transaction() as conn:
        repo = RollLogRepository(conn)
        for sheet_id, total in ((world.brann, 14), (world.ghoul, 9), (world.brann * 10, 3)):
            await repo.add(
                guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="2d10-task",
                expression="2d10+2", result={"character_id": sheet_id, "faces": [6, 6]},
                total=total, secret=False,
            )  # fmt: skip
    async with db.read() as conn:
        page = await registry.roll_log(
            conn, viewer("player"), filters=RollFilters(character_id=world.brann)
        )
    assert [(r.character, r.total) for r in page.rows] == [("Brann", 14)]


async def test_recaps_public_for_players_private_for_the_gm(db: Database) -> None:
    world = await hocs_world(db)
    async with db.transaction() as conn:
        await SessionRepository(conn).start(GUILD, started_by=GM)
    await log(db, world)
    async with db.transaction() as conn:
        await SessionRepository(conn).end(GUILD, ended_by=GM)
    async with db.read() as conn:
        sessions = await registry.recap_list(conn, viewer("player"))
        player = await registry.session_recap(conn, viewer("player"))
        gm = await registry.session_recap(conn, viewer("gm", GM), 1)
        try:
            await registry.session_recap(conn, viewer("gm", GM), 2)
            raise AssertionError("an unknown session was found")
        except PageNotFound:
            pass
    assert [(s.number, s.running) for s in sessions.sessions] == [(1, False)]
    assert (player.title, player.public, gm.public) == ("Session 1 recap", True, False)
    assert player.recap.rolls == gm.recap.rolls == 2
    assert dict(player.recap.characters)["Mira"].rolls == 2


async def test_the_version_moves_with_every_change_a_page_shows(db: Database) -> None:
    world = await hocs_world(db)
    async with db.read() as conn:
        before = await registry.version(conn, GUILD)
        assert await registry.version(conn, GUILD) == before  # nothing changed
    steps = []

    async def hp(conn) -> None:
        mira = await CharacterRepository(conn).get(world.mira)
        state = mira.state
        await CharacterRepository(conn).write_recovery(
            mira, hp=5, nonlethal=0, recovery=state.recovery,
            determination=state.determination, conditions=state.conditions,
        )  # fmt: skip

    async def fortune(conn) -> None:
        await CharacterRepository(conn).spend_fortune(world.mira, "luck")

    async def roll(conn) -> None:
        await RollLogRepository(conn).add(
            guild_id=GUILD, channel_id=5, user_id=PLAYER, kind="roll", expression="1d6",
            result={}, total=3, secret=False,
        )  # fmt: skip

    async def session(conn) -> None:
        await SessionRepository(conn).start(GUILD, started_by=GM)

    for change in (hp, fortune, roll, session):
        async with db.transaction() as conn:
            await change(conn)
        async with db.read() as conn:
            steps.append(await registry.version(conn, GUILD))
    assert len({before, *steps}) == 5


async def test_the_version_moves_with_a_2d10_sheet(db: Database) -> None:
    world = await twod10_world(db)
    async with db.read() as conn:
        before = await registry.version(conn, GUILD)
    async with db.transaction() as conn:
        await TwoD10CharacterRepository(conn).change_hp(GUILD, world.ghoul, -2)
    async with db.read() as conn:
        after = await registry.version(conn, GUILD)
    await twod10_encounter(db, world)  # an encounter begins
    async with db.read() as conn:
        assert len({before, after, await registry.version(conn, GUILD)}) == 3
