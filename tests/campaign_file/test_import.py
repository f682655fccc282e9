"""Importing a campaign file: a played campaign exported, imported into another server
and exported again is the same file apart from where its fights moved; a restore over
the same server is the same file exactly; a server with data needs ``replace``; the
confirm button's held file is taken once; and any failure writes nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.campaign_file.export import export_campaign
from bot.campaign_file.format import dump
from bot.campaign_file.importing import (
    CampaignFileRefused,
    CampaignHasData,
    Destination,
    FightsCollide,
    ImportGone,
    hold_import,
    import_campaign,
    import_held,
    read_campaign_file,
)
from bot.storage.sql import fetch_all, run
from tests.campaign_file.builders import GM_CHANNEL, ROLE, play
from tests.web.views.support import GUILD

pytestmark = pytest.mark.both_backends
STAMP = "2025-01-02T03:04:05.678Z"
NEW_GUILD, NEW_CHANNEL = 9_000, 9_001
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


async def played(db: Any) -> bytes:
    """The builders' campaign with Bob renamed (his name holds @everyone, which a file
    may not carry: see test_a_mention_in_a_name_is_refused), exported."""
    await play(db)
    async with db.transaction() as conn:
        ((cid, sheet),) = await fetch_all(
            conn, "SELECT id, sheet FROM characters WHERE name LIKE '%Bob%'"
        )
        renamed = json.dumps(dict(json.loads(sheet), name="Bob"))
        await run(
            conn, "UPDATE characters SET name = 'Bob', name_key = 'bob', sheet = ? WHERE id = ?",
            (renamed, cid),
        )  # fmt: skip
    return dump(await export_campaign(db, GUILD, exported_at=STAMP))


async def exported(db: Any, guild_id: int) -> dict[str, Any]:
    return json.loads(dump(await export_campaign(db, guild_id, exported_at=STAMP)))


async def everything(db: Any) -> dict[str, list[Any]]:
    """Every row of every table, to compare the database before and after."""
    async with db.read() as conn:
        tables = await fetch_all(
            conn,
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            if getattr(conn, "backend", "sqlite") == "sqlite"
            else "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema()",
        )
        return {
            t[0]: [tuple(r) for r in await fetch_all(conn, f"SELECT * FROM {t[0]} ORDER BY 1")]
            for t in tables
        }


async def test_a_campaign_moves_to_another_server_unchanged(db: Any) -> None:
    raw = await played(db)
    before = json.loads(raw)
    report = await import_campaign(
        db, NEW_GUILD, read_campaign_file(raw),
        destination=Destination(channel_id=NEW_CHANNEL, channels=frozenset({NEW_CHANNEL}),
                                roles=frozenset({ROLE})),
    )  # fmt: skip
    assert report.sentence() == (
        "Imported the campaign (the 2d10 system): 6 characters, 2 sessions, 3 logged rolls,"
        f" 2 running fights (in <#{NEW_CHANNEL}>)."
    )
    assert (report.ruleset, report.old_ruleset) == ("2d10", None)
    after = await exported(db, NEW_GUILD)
    # The fights moved to the import's channel; the GM channel is the old server's, so
    # it is dropped; the GM role exists here, so it is kept. Everything else is equal.
    assert [e["channel_id"] for e in after["hocs"]["encounters"]] == [NEW_CHANNEL]
    assert [e["channel_id"] for e in after["twod10"]["encounters"]] == [NEW_CHANNEL]
    assert after["campaign"]["gm_role_id"] == ROLE
    assert after["campaign"]["gm_channel_id"] is None
    for part in ("hocs", "twod10"):
        for enc in before[part]["encounters"]:
            enc["channel_id"] = NEW_CHANNEL
    before["campaign"]["gm_channel_id"] = None
    assert after == before
    assert before["campaign"]["gm_role_id"] == ROLE and GM_CHANNEL


async def test_a_restore_over_the_same_server_is_exact(db: Any) -> None:
    raw = await played(db)
    with pytest.raises(CampaignHasData):
        await import_campaign(db, GUILD, read_campaign_file(raw))
    await import_campaign(db, GUILD, read_campaign_file(raw), replace=True)
    assert dump(await export_campaign(db, GUILD, exported_at=STAMP)) == raw


async def test_the_sessions_still_cover_their_rolls(db: Any) -> None:
    raw = await played(db)
    await import_campaign(
        db, NEW_GUILD, read_campaign_file(raw), destination=Destination(channel_id=NEW_CHANNEL)
    )
    async with db.read() as conn:
        rows = await fetch_all(
            conn, "SELECT id FROM roll_log WHERE guild_id = ? ORDER BY id", (NEW_GUILD,)
        )
        log = [r[0] for r in rows]
        sessions = await fetch_all(
            conn,
            "SELECT number, first_log_id, last_log_id FROM sessions WHERE guild_id = ?"
            " ORDER BY number",
            (NEW_GUILD,),
        )
        marks = await fetch_all(conn, "SELECT message_id FROM roll_log WHERE guild_id = ?",
                                (NEW_GUILD,))  # fmt: skip
    # Session 1 holds the log's 2nd and 3rd rows; session 2 runs and has none yet.
    assert [tuple(s) for s in sessions] == [(1, log[1], log[2]), (2, log[2] + 1, None)]
    assert {m[0] for m in marks} == {None}


async def test_two_fights_of_one_ruleset_cannot_share_the_channel(db: Any) -> None:
    raw = json.loads(await played(db))
    second = dict(raw["hocs"]["encounters"][0], channel_id=12345)
    raw["hocs"]["encounters"].append(second)
    file = read_campaign_file(json.dumps(raw).encode())
    before = await everything(db)
    with pytest.raises(FightsCollide, match="2 running HOCS fights"):
        await import_campaign(db, NEW_GUILD, file, destination=Destination(channel_id=NEW_CHANNEL))
    assert await everything(db) == before


async def test_a_write_that_fails_midway_writes_nothing(db: Any) -> None:
    raw = await played(db)
    before = await everything(db)
    # Kept as they are, the file's fight channels are the old server's, which still has
    # its fights there: the second ruleset's insert fails after the first wrote.
    with pytest.raises(Exception, match="UNIQUE"):
        await import_campaign(db, NEW_GUILD, read_campaign_file(raw))
    assert await everything(db) == before


async def test_the_held_file_is_taken_once(db: Any) -> None:
    raw = await played(db)
    pending = await hold_import(db, GUILD, 42, raw, now=NOW)
    again = await hold_import(db, GUILD, 42, raw, now=NOW)
    await import_held(db, GUILD, pending, now=NOW + timedelta(minutes=14))
    assert dump(await export_campaign(db, GUILD, exported_at=STAMP)) == raw
    with pytest.raises(ImportGone):
        await import_held(db, GUILD, pending, now=NOW)
    before = await everything(db)
    with pytest.raises(ImportGone):  # 15 minutes on, the other held file is gone too
        await import_held(db, GUILD, again, now=NOW + timedelta(minutes=15))
    with pytest.raises(ImportGone):  # and another server can't take this one's
        await import_held(db, NEW_GUILD, again, now=NOW)
    assert {k: v for k, v in (await everything(db)).items() if k != "pending_imports"} == {
        k: v for k, v in before.items() if k != "pending_imports"
    }


async def test_a_mention_in_a_name_is_refused(db: Any) -> None:
    await play(db)  # Bob's name holds @everyone, as the commands allow
    raw = dump(await export_campaign(db, GUILD, exported_at=STAMP))
    with pytest.raises(CampaignFileRefused) as refused:
        read_campaign_file(raw)
    assert str(refused.value) == (
        "The file was not imported: hocs.characters[1].sheet.name: must not hold a mention"
        " (of everyone, here, a member, a role or a channel): rename it."
    )
