"""Import a campaign file into one server's campaign: in ONE transaction, with new ids.

The file is validated whole before this runs (``reading.read_campaign_file``); here
the rows are written in dependency order (HOCS characters before the log rows naming
them, the log before the sessions and concentrations pointing into it). Any failure
rolls everything back: the server is as it was.

What belongs to the old server is placed on the new one (ruling import-destination):
a running fight whose channel this server doesn't have moves to the channel the import
runs in (one fight per ruleset can move there; a second is refused); the GM role and
GM channel are kept only if this server has them. From the command line the server's
channels are unknown: every id is kept unless ``--channel`` names where fights go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.campaign_file.format import CampaignFile
from bot.campaign_file.reading import MAX_FILE_BYTES, CampaignFileRefused, read_campaign_file
from bot.errors import UserError
from bot.rulesets import RULESETS, Ruleset
from bot.storage import campaign_writes as common
from bot.storage import pending_imports
from bot.storage.hocs import campaign_writes as hocs_writes
from bot.storage.twod10 import campaign_writes as twod10_writes


@dataclass(frozen=True)
class Destination:
    """Where the file's server-bound ids go in this server (None: unknown, kept)."""

    channel_id: int | None = None  # the channel running fights move to
    channels: frozenset[int] | None = None  # this server's channel ids
    roles: frozenset[int] | None = None  # this server's role ids


class CampaignHasData(UserError):
    def __init__(self) -> None:
        super().__init__(
            "This server's campaign already has characters, sessions, rolls or fights:"
            " confirm with the button to replace them."
        )


class FightsCollide(UserError):
    pass


@dataclass(frozen=True)
class ImportReport:
    ruleset: str
    old_ruleset: str | None
    characters: int
    sessions: int
    log_rows: int
    encounters: int
    moved_to: int | None  # the channel the fights moved to, if any moved

    def sentence(self) -> str:
        title = RULESETS[Ruleset(self.ruleset)].title
        fights = counted(self.encounters, "running fight")
        if self.encounters and self.moved_to is not None:
            fights += f" (in <#{self.moved_to}>)"
        return (
            f"Imported the campaign ({title}): {counted(self.characters, 'character')},"
            f" {counted(self.sessions, 'session')}, {counted(self.log_rows, 'logged roll')},"
            f" {fights}."
        )


def counted(n: int, noun: str) -> str:
    """``3 sessions``, ``1 session``: the import's and the file's descriptions."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


async def campaign_has_data(db: Any, guild_id: int) -> bool:
    async with db.read() as conn:
        return await common.has_data(conn, guild_id)


async def import_campaign(
    db: Any,
    guild_id: int,
    file: CampaignFile,
    *,
    destination: Destination = Destination(),
    replace: bool = False,
) -> ImportReport:
    """Write ``file`` as the server's campaign. Without ``replace`` a campaign with
    data is refused (CampaignHasData), checked inside the writing transaction."""
    async with db.transaction() as conn:
        return await write_file(conn, guild_id, file, destination=destination, replace=replace)


async def write_file(
    conn: Any, guild_id: int, file: CampaignFile, *, destination: Destination, replace: bool
) -> ImportReport:
    """``import_campaign`` inside the caller's transaction."""
    if not replace and await common.has_data(conn, guild_id):
        raise CampaignHasData()
    data = file.model_dump(mode="json")
    channel_of, moved = _placement(file, destination)
    old_ruleset = await common.current_ruleset(conn, guild_id)
    await common.empty_campaign(conn, guild_id)
    campaign = data["campaign"]
    await common.write_campaign(
        conn,
        guild_id,
        ruleset=data["ruleset"],
        gm_role_id=_kept(campaign["gm_role_id"], destination.roles),
        gm_channel_id=_kept(campaign["gm_channel_id"], destination.channels),
        settings=campaign["settings"],
    )
    hocs_ids = await hocs_writes.write_characters(conn, guild_id, data["hocs"]["characters"])
    log = data["log"] or []

    def sheet(ref: str | None) -> int | None:
        return None if ref is None else hocs_ids[ref]

    log_ids = await common.write_log(
        conn,
        guild_id,
        [
            dict(r, character_id=sheet(r["character"]), opponent_id=sheet(r["opponent"]))
            for r in log
        ],
    )
    after_last = await common.next_log_id(conn)
    await common.write_sessions(
        conn, guild_id, [_session(s, log_ids, after_last) for s in data["sessions"]]
    )
    await hocs_writes.write_rest(conn, guild_id, data["hocs"], hocs_ids, channel_of)

    def log_id(position: int | None) -> int | None:
        return None if position is None else log_ids[position]

    await twod10_writes.write_part(conn, guild_id, data["twod10"], log_id, channel_of)
    await common.write_fights(conn, guild_id, data["fights"])
    return ImportReport(
        ruleset=data["ruleset"],
        old_ruleset=old_ruleset,
        characters=len(hocs_ids) + len(file.twod10.characters),
        sessions=len(file.sessions),
        log_rows=len(log),
        encounters=len(file.hocs.encounters) + len(file.twod10.encounters),
        moved_to=destination.channel_id if moved else None,
    )


def _kept(old_id: int | None, known: frozenset[int] | None) -> int | None:
    return old_id if known is None or old_id in known else None


def _placement(file: CampaignFile, to: Destination) -> tuple[Callable[[int], int], bool]:
    """Each fight's channel in this server, and whether any moved. FightsCollide when
    two fights of one ruleset would share a channel."""

    def channel_of(old: int) -> int:
        if to.channel_id is None:
            return old
        if to.channels is None or old not in to.channels:
            return to.channel_id
        return old

    moved = False
    for title, encounters in (("HOCS", file.hocs.encounters), ("2d10", file.twod10.encounters)):
        placed = [channel_of(e.channel_id) for e in encounters]
        moved = moved or any(p != e.channel_id for p, e in zip(placed, encounters, strict=True))
        if len(set(placed)) < len(placed):
            raise FightsCollide(
                f"The file has {len(placed)} running {title} fights and only one can move to"
                " this channel: end the others with /init end in the old server and export"
                " again, or import each into its own channel."
            )
    return channel_of, moved


def _session(s: dict[str, Any], log_ids: list[int], after_last: int) -> dict[str, Any]:
    """The session with its log positions turned into the new ids (``first_log_id``
    .. ``last_log_id`` inclusive, as ``bot.storage.sessions`` keeps them)."""
    start, end = s["log_start"], s["log_end"]
    first = None if start is None else (log_ids[start] if start < len(log_ids) else after_last)
    if end is None:
        last = None
    elif end > 0:
        last = log_ids[end - 1]
    else:
        last = (first if first is not None else after_last) - 1
    return dict(s, first_log_id=first, last_log_id=last)


class ImportGone(UserError):
    def __init__(self) -> None:
        super().__init__(
            "This import was already made, or its 15 minutes ran out: upload the file again"
            " with /campaign import."
        )


async def hold_import(
    db: Any, guild_id: int, user_id: int, raw: bytes, *, now: datetime | None = None
) -> int:
    """Keep a validated file for the confirm button; its pending id."""
    async with db.transaction() as conn:
        return await pending_imports.hold(conn, guild_id, user_id, raw.decode(), now or _now())


async def import_held(
    db: Any,
    guild_id: int,
    pending_id: int,
    *,
    destination: Destination = Destination(),
    now: datetime | None = None,
) -> ImportReport:
    """Take the held file and import it over the campaign, in one transaction: a
    second press (or one after 15 minutes) gets ImportGone and writes nothing."""
    async with db.transaction() as conn:
        body = await pending_imports.take(conn, guild_id, pending_id, now or _now())
        if body is None:
            raise ImportGone()
        file = read_campaign_file(body.encode())
        return await write_file(conn, guild_id, file, destination=destination, replace=True)


def _now() -> datetime:
    return datetime.now(UTC)


__all__ = [  # the campaign file's import, as the command and the CLI use it
    "MAX_FILE_BYTES",
    "CampaignFileRefused",
    "CampaignHasData",
    "Destination",
    "FightsCollide",
    "ImportGone",
    "ImportReport",
    "campaign_has_data",
    "counted",
    "hold_import",
    "import_campaign",
    "import_held",
    "read_campaign_file",
]
