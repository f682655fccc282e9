"""A ritual's casting time: written durations, each tier's range, and the advantage
that casting for the tier's maximum time gives.

"tier one rituals take anywhere from a minute to an hour to cast"; tier two "require
an hour to a day of time"; tier three's time is not given. "A ritual may be cast at
its maximum time period (except for tier three rituals) or the casting time may be
extended by a full round. Doing so gives advantage on the roll." Ruling
``ritual-time``: tier one's maximum is an hour, tier two's a whole day; tier three's
time is the GM's (the bot accepts a minute to a year), and it gains advantage only
from one more full round.
"""

from __future__ import annotations

import re

from bot.rules.errors import RulesError
from bot.rules.twod10.magic import Extension, Tier

MINUTE, HOUR, DAY = 1, 60, 24 * 60
LONGEST = 365 * DAY  # a bound on what one option may say, for tier three

# (shortest, longest) in minutes; None for tier three: the GM's.
TIER_TIMES: dict[Tier, tuple[int, int] | None] = {
    Tier.ONE: (MINUTE, HOUR),
    Tier.TWO: (HOUR, DAY),
    Tier.THREE: None,
}

_UNITS = {
    "m": MINUTE, "min": MINUTE, "mins": MINUTE, "minute": MINUTE, "minutes": MINUTE,
    "h": HOUR, "hr": HOUR, "hrs": HOUR, "hour": HOUR, "hours": HOUR,
    "d": DAY, "day": DAY, "days": DAY,
    "w": 7 * DAY, "week": 7 * DAY, "weeks": 7 * DAY,
}  # fmt: skip
_PART = re.compile(r"(\d{1,6})\s*([a-z]+)")


def parse_duration(text: str) -> int:
    """``"10 minutes"``, ``"1h 30m"``, ``"a day"`` → minutes (1 to a year)."""
    clean = " ".join(str(text).lower().replace(",", " ").replace(" and ", " ").split())
    clean = re.sub(r"\b(an?|one)\s+(?=[a-z])", "1 ", clean)
    parts = _PART.findall(clean)
    if not parts or _PART.sub("", clean).strip():
        raise RulesError("Write the casting time like “10 minutes”, “1 hour” or “1 day”.")
    total = 0
    for amount, unit in parts:
        if unit not in _UNITS:
            raise RulesError("Write the casting time in minutes, hours, days or weeks.")
        total += int(amount) * _UNITS[unit]
    if not MINUTE <= total <= LONGEST:
        raise RulesError("A casting time runs from 1 minute to 365 days.")
    return total


def duration_text(minutes: int) -> str:
    """Minutes as the largest whole units: ``90`` → ``1 h 30 min``."""
    parts = []
    for size, name in ((DAY, "d"), (HOUR, "h"), (MINUTE, "min")):
        if minutes >= size:
            parts.append(f"{minutes // size} {name}")
            minutes %= size
    return " ".join(parts) or "0 min"


def ritual_extension(tier: Tier, minutes: int | None, *, extra_round: bool) -> Extension:
    """What the ritual's time earns: its maximum time, one more round, or nothing.

    ``minutes`` None means the player gave no time (the GM's narrative); a time is
    checked against the tier's range first.
    """
    span = TIER_TIMES[tier]
    if minutes is not None and span is not None:
        low, high = span
        if not low <= minutes <= high:
            raise RulesError(
                f"A tier {tier.value} ritual takes {duration_text(low)} to"
                f" {duration_text(high)}; give a time in that range."
            )
        if minutes == high:
            return Extension.MAXIMUM_TIME
    return Extension.EXTRA_ROUND if extra_round else Extension.NONE
