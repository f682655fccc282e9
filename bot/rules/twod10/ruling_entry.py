"""One ruling on the 2d10 system's text: its key, the topic /help groups it under, the text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Ruling:
    key: str
    topic: str
    text: str
