"""A ritual's casting time: written durations, each tier's range, the maximum's advantage."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.errors import RulesError
from bot.rules.twod10.magic import Extension, Tier
from bot.rules.twod10.magic_time import (
    DAY,
    HOUR,
    LONGEST,
    duration_text,
    parse_duration,
    ritual_extension,
)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("10 minutes", 10),
        ("1 minute", 1),
        ("an hour", 60),
        ("1h 30m", 90),
        ("2 hours and 15 min", 135),
        ("a day", 1440),
        ("1 Day", 1440),
        ("2 weeks", 2 * 7 * 1440),
    ],
)
def test_parse_duration(text: str, minutes: int) -> None:
    assert parse_duration(text) == minutes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("soon", "like “10 minutes”"),
        ("10", "like “10 minutes”"),
        ("10 parsecs", "minutes, hours, days or weeks"),
        ("0 minutes", "from 1 minute to 365 days"),
        ("400 days", "from 1 minute to 365 days"),
        ("1 hour then some", "like “10 minutes”"),
    ],
)
def test_bad_durations_are_refused(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_duration(text)


@given(st.integers(min_value=1, max_value=LONGEST))
def test_duration_text_round_trips(minutes: int) -> None:
    assert parse_duration(duration_text(minutes)) == minutes


@pytest.mark.parametrize(
    ("tier", "minutes", "extra_round", "extension"),
    [
        (Tier.ONE, 1, False, Extension.NONE),
        (Tier.ONE, 59, True, Extension.EXTRA_ROUND),
        (Tier.ONE, HOUR, False, Extension.MAXIMUM_TIME),  # "spending an hour"
        (Tier.ONE, None, False, Extension.NONE),
        (Tier.TWO, HOUR, False, Extension.NONE),
        (Tier.TWO, DAY, False, Extension.MAXIMUM_TIME),  # "an entire day"
        (Tier.TWO, DAY, True, Extension.MAXIMUM_TIME),  # one advantage either way
        (Tier.THREE, 30 * DAY, False, Extension.NONE),  # no maximum to reach
        (Tier.THREE, 1, True, Extension.EXTRA_ROUND),
    ],
)
def test_ritual_extension(
    tier: Tier, minutes: int | None, extra_round: bool, extension: Extension
) -> None:
    assert ritual_extension(tier, minutes, extra_round=extra_round) is extension


@pytest.mark.parametrize(
    ("tier", "minutes", "message"),
    [
        (Tier.ONE, HOUR + 1, "tier 1 ritual takes 1 min to 1 h"),
        (Tier.TWO, 59, "tier 2 ritual takes 1 h to 1 d"),
        (Tier.TWO, DAY + 1, "tier 2 ritual takes 1 h to 1 d"),
    ],
)
def test_time_outside_the_tier_is_refused(tier: Tier, minutes: int, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        ritual_extension(tier, minutes, extra_round=False)
