"""The campaign file: one server's campaign in both rulesets, as one JSON document.

    {"format": "tablebot-campaign", "version": 1, "ruleset": "hocs", "exported_at": …,
     "campaign": {…}, "hocs": {…}, "twod10": {…}, "sessions": […], "fights": […],
     "log": […] | null}

Characters are named inside the file by their ``ref`` (never a database id); the log's
rows by their position. Left out, because they belong to the old server or to the
running bot rather than to the campaign: message ids (the trackers' pins, the replies
buttons hang under), pending damage choices (their buttons die with the old messages),
the web pages' link secrets (a new server gets new links), the members seen acting as
GM (re-learned on the new server), and the rows' concurrency counters
(``version``/``revision``) and creation times of characters.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import Field, model_validator

from bot.campaign_file.models_common import (
    Campaign,
    Fight,
    FileModel,
    LogEntry,
    Session,
    Timestamp,
    check_refs,
    unique,
)
from bot.campaign_file.models_hocs import HocsPart
from bot.campaign_file.models_twod10 import TwoD10Part
from bot.rules.generic.names import normalise_name

FORMAT = "tablebot-campaign"
VERSION = 1
MAX_LOG_ROWS = 1_000_000


class CampaignFile(FileModel):
    """A whole campaign. Validating one checks every cross reference inside it."""

    format: Literal["tablebot-campaign"] = FORMAT
    version: Literal[1] = VERSION
    ruleset: Literal["hocs", "2d10"]
    exported_at: Timestamp
    campaign: Campaign = Campaign()
    hocs: HocsPart = HocsPart()
    twod10: TwoD10Part = TwoD10Part()
    sessions: list[Session] = Field(default=[], max_length=100_000)
    fights: list[Fight] = Field(default=[], max_length=100_000)
    log: list[LogEntry] | None = Field(default=None, max_length=MAX_LOG_ROWS)

    @model_validator(mode="after")
    def _references_hold(self) -> CampaignFile:
        hocs = {c.ref: c for c in self.hocs.characters}
        twod10 = {c.ref: c for c in self.twod10.characters}
        every_ref = [c.ref for c in self.hocs.characters] + [c.ref for c in self.twod10.characters]
        unique(every_ref, "the character ref")
        unique([normalise_name(c.sheet.name) for c in self.hocs.characters], "the HOCS name")
        unique([normalise_name(c.sheet.name) for c in self.twod10.characters], "the 2d10 name")
        for part, refs in ((self.hocs, hocs), (self.twod10, twod10)):
            unique([a.user_id for a in part.active], "the active user_id")
            check_refs("an active character", refs, [a.character for a in part.active])
        check_refs("a point gain", hocs, [g.character for g in self.hocs.point_gains])
        unique([e.channel_id for e in self.hocs.encounters], "the HOCS encounter channel_id")
        for enc in self.hocs.encounters:
            check_refs("a participant", hocs, [p.character for p in enc.participants])
            check_refs("an attack turn", hocs, [t.character for t in enc.attack_turns])
        unique([e.channel_id for e in self.twod10.encounters], "the 2d10 encounter channel_id")
        for enc in self.twod10.encounters:
            check_refs("a seat", twod10, [s.character for s in enc.seats])
        if self.log is not None:
            # (roll_log's character columns reference HOCS's characters table only)
            check_refs("a log row", hocs, [r.character for r in self.log])
            check_refs("a log row", hocs, [r.opponent for r in self.log])
        self._positions_hold()
        return self

    def _positions_hold(self) -> None:
        unique([s.number for s in self.sessions], "the session number")
        if sum(s.ended_at is None for s in self.sessions) > 1:
            raise ValueError("at most one session may be running (no ended_at)")
        size = len(self.log) if self.log is not None else None
        for s in self.sessions:
            bounds = [b for b in (s.log_start, s.log_end) if b is not None]
            if bounds and size is None:
                raise ValueError(f"session {s.number} has log bounds but the file has no log")
            if any(b > size for b in bounds):  # type: ignore[operator]
                raise ValueError(f"session {s.number}'s log bounds pass the end of the log")
            if len(bounds) == 2 and s.log_start > s.log_end:  # type: ignore[operator]
                raise ValueError(f"session {s.number}'s log_start is after its log_end")
        for c in self.twod10.characters:
            roll = c.concentration.roll if c.concentration else None
            if roll is not None and (size is None or roll >= size):
                raise ValueError(f"{c.ref}'s concentration names a roll not in the log")


def dump(file: CampaignFile) -> bytes:
    """The file as compact UTF-8 JSON, keys sorted: one campaign always reads the same."""
    data = file.model_dump(mode="json")
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text.encode()
