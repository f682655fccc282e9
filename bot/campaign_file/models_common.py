"""Building blocks of the campaign file's models: strict bases, bounded values, and
JSON documents checked by the rules' own codecs.

Every model forbids unknown keys and coerces nothing (``"3"`` is not 3, ``true`` is not
1), so a file either means exactly one campaign or is refused with the path of its bad
field. Bounds follow the database's CHECKs and the rules; where a stored document has a
codec (a sheet, a light, a disease…) the codec itself checks it, so the file can never
hold a value the bot would refuse to load.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    ValidationInfo,
)

from bot.interactions.user_text import normalise_text
from bot.rules.errors import RulesError

SNOWFLAKE_MAX = 2**63 - 1  # Discord ids fit a signed 64-bit column on both backends
BIG = 1_000_000  # the ceiling of counters with no rule of their own (rounds, turns…)
HP_LIMIT = 10_000  # hit points: far beyond any sheet, short of a "huge number"


class FileModel(BaseModel):
    """A part of the file: unknown keys refused, nothing changed after validation."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def bounded(low: int, high: int) -> Any:
    """A whole number (never a bool or a numeric string) from ``low`` to ``high``."""
    return Annotated[int, Strict(), Field(ge=low, le=high)]


def text(low: int, high: int, *, pattern: str | None = None) -> Any:
    """A string of ``low`` to ``high`` characters."""
    return Annotated[
        str, Strict(), StringConstraints(min_length=low, max_length=high, pattern=pattern)
    ]


Snowflake = bounded(0, SNOWFLAKE_MAX)
Count = bounded(0, BIG)
Flag = Annotated[bool, Strict()]
# A mention in a file's name: @everyone, @here, <@user>, <@!user>, <@&role>, <#channel>.
_MENTION = re.compile(r"@(everyone|here)\b|<(@[!&]?|#)[0-9]+>", re.IGNORECASE)


def _incoming_name(value: str, info: ValidationInfo) -> str:
    """Ruling file-names: a name in a file being imported follows the commands' own
    rules (one line, a letter or digit, already in the bot's one spelling, so no
    zero-width or look-alike characters) and, since the file was made elsewhere, holds
    no mention. Exporting checks none of this: a campaign always exports."""
    if not (info.context or {}).get("incoming"):
        return value
    if _MENTION.search(value):
        raise ValueError(
            "must not hold a mention (of everyone, here, a member, a role or a channel): rename it"
        )  # (no @ here: the refusal itself is sent)
    if any(c in value for c in "\r\n") or not any(c.isalnum() for c in value):
        raise ValueError("must be one line with a letter or digit in it")
    if normalise_text(value) != value:
        raise ValueError("holds invisible, doubled-space or look-alike characters: retype it")
    return value


Name = Annotated[text(1, 64), AfterValidator(_incoming_name)]
Kind = Literal["pc", "ally", "antagonist"]
# A character's key inside the file ("h1", "t7"): what participants, seats, points and
# log rows name instead of a database id. The importer gives each a new id.
Ref = text(1, 16, pattern=r"^[a-z][a-z0-9]*$")
# The database's timestamps ('%Y-%m-%dT%H:%M:%fZ', e.g. 2024-05-01T20:15:00.123Z).
Timestamp = text(20, 40, pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$")


def codec_checked(load: Callable[[Any], Any], what: str) -> Callable[[Any], Any]:
    """An after-validator running a codec's loader on the value: RulesError (and the
    KeyError/TypeError/ValueError of damaged data) become a validation error at the
    value's path, worded for the person who edited the file."""

    def check(value: Any) -> Any:
        try:
            load(value)
        except (RulesError, KeyError, TypeError, ValueError, AttributeError) as exc:
            reason = str(exc) if isinstance(exc, RulesError) else exc.__class__.__name__
            raise ValueError(f"not a valid {what} ({reason})") from None
        return value

    return check


def document(load: Callable[[Any], Any], what: str) -> Any:
    """A JSON object the codec ``load`` must accept (its shape is the codec's)."""
    return Annotated[dict[str, Any], AfterValidator(codec_checked(load, what))]


def unique(values: list[Any], what: str) -> list[Any]:
    """``values`` if no two are equal; ValueError naming the repeated one."""
    seen: set[Any] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{what} {value!r} appears twice")
        seen.add(value)
    return values


class CampaignSettings(FileModel):
    """The campaign's options (``bot.storage.campaigns.CampaignSettings``)."""

    show_npc_hp: Flag = False
    one_shot: Flag = False


class Campaign(FileModel):
    """The campaign row. Role and channel ids are the old server's: the importer decides
    whether they mean anything on the new one."""

    gm_role_id: Snowflake | None = None
    gm_channel_id: Snowflake | None = None
    settings: CampaignSettings = CampaignSettings()


class Session(FileModel):
    """A game session. Its rolls are ``log[log_start:log_end]`` (half-open positions in
    this file's log), None when the file has no log or the session predates the bounds;
    ``log_end`` is None while it runs."""

    number: bounded(1, BIG)
    adventure: bounded(1, BIG)
    one_shot: Flag = False
    hero_points_given: Flag = False
    started_by: Snowflake
    started_at: Timestamp
    ended_at: Timestamp | None = None
    ended_by: Snowflake | None = None
    log_start: Count | None = None
    log_end: Count | None = None


class Fight(FileModel):
    """A fight that ended (the recap's fight count and rounds)."""

    ruleset: Literal["hocs", "2d10"]
    started_at: Timestamp
    ended_at: Timestamp
    rounds: Count


class LogEntry(FileModel):
    """A roll-log row. ``character`` and ``opponent`` are refs of HOCS characters (the
    log's columns reference only HOCS's table; None: no character, or one deleted since)."""

    channel_id: Snowflake | None = None
    user_id: Snowflake
    kind: text(1, 64)
    expression: text(0, 4000)
    result: dict[str, Any]
    total: bounded(-(2**62), 2**62) | None = None
    secret: Flag = False
    created_at: Timestamp
    character: Ref | None = None
    opponent: Ref | None = None


def check_refs(where: str, refs: Mapping[str, object], named: list[str | None]) -> None:
    """ValueError if a ref in ``named`` names no character of ``refs``."""
    for ref in named:
        if ref is not None and ref not in refs:
            raise ValueError(f"{where} names the character {ref!r}, which is not in the file")
