"""Hero point sessions, fortune sources, dice positions and the rest share (pure rules)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.errors import RulesError
from bot.rules.hocs.meta_currencies import (
    PreviousSession,
    button_fortune_source,
    hero_points_at_session_end,
    normalise_fortune_source,
    parse_dice_positions,
    plan_session_start,
)
from bot.rules.hocs.rest_choices import wanted_split


def previous(adventure: int = 1, *, one_shot: bool = False, running: bool = False):
    return PreviousSession(adventure=adventure, one_shot=one_shot, running=running)


def test_every_session_gives_one_hero_point_in_normal_mode() -> None:
    first = plan_session_start(None, one_shot=False, new_adventure=False)
    assert (first.adventure, first.hero_points) == (1, 1)
    later = plan_session_start(previous(), one_shot=False, new_adventure=False)
    assert (later.adventure, later.hero_points, later.new_adventure) == (1, 1, False)
    assert hero_points_at_session_end(one_shot=False) == 0


def test_one_shot_gives_the_point_when_an_adventure_begins() -> None:
    assert plan_session_start(None, one_shot=True, new_adventure=False).hero_points == 1
    same = plan_session_start(previous(one_shot=True), one_shot=True, new_adventure=False)
    assert (same.adventure, same.hero_points) == (1, None)
    new = plan_session_start(previous(one_shot=True), one_shot=True, new_adventure=True)
    assert (new.adventure, new.hero_points) == (2, 1)
    switched = plan_session_start(previous(), one_shot=True, new_adventure=False)
    assert (switched.adventure, switched.hero_points) == (2, 1)
    assert hero_points_at_session_end(one_shot=True) is None


def test_a_running_session_must_end_first() -> None:
    with pytest.raises(RulesError, match="still running"):
        plan_session_start(previous(running=True), one_shot=False, new_adventure=False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cooking", "cooking"),
        ("  Fortune (Cooking) ", "cooking"),
        ("(MINSTREL)", "minstrel"),
        ("lucky   charm", "lucky charm"),
    ],
)
def test_fortune_sources_are_normalised(text: str, expected: str) -> None:
    assert normalise_fortune_source(text) == expected


@pytest.mark.parametrize("text", ["", "()", "fortune ()", "x" * 33])
def test_bad_fortune_sources(text: str) -> None:
    with pytest.raises(RulesError):
        normalise_fortune_source(text)


def test_button_source_is_the_first_alphabetically() -> None:
    assert button_fortune_source(("minstrel", "character")) == "character"
    assert button_fortune_source(()) is None


def test_dice_positions() -> None:
    assert parse_dice_positions("1,3 4", 4) == (0, 2, 3)
    assert parse_dice_positions("2;1", 2) == (1, 0)
    for bad in ("", "0", "5", "1,1", "a", "-1"):
        with pytest.raises(RulesError):
            parse_dice_positions(bad, 4)


def test_wanted_split_fills_the_asked_amounts_then_the_default_order() -> None:
    split = wanted_split(
        6, hp_missing=5, determination_missing=2, recovery_missing=2,
        hp=2, determination=1, recovery=2,
    )  # fmt: skip
    assert (split.hp, split.determination, split.recovery) == (3, 1, 2)
    short = wanted_split(
        2, hp_missing=5, determination_missing=2, recovery_missing=2, determination=2, recovery=2
    )
    assert (short.hp, short.determination, short.recovery) == (0, 2, 0)
    capped = wanted_split(6, hp_missing=0, determination_missing=1, recovery_missing=1, hp=6)
    assert (capped.hp, capped.determination, capped.recovery) == (0, 1, 1)


@given(
    points=st.integers(0, 12),
    missing=st.tuples(st.integers(0, 20), st.integers(0, 10), st.integers(0, 5)),
    wants=st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20)),
)
def test_wanted_split_never_exceeds_points_or_maxima(
    points: int, missing: tuple[int, int, int], wants: tuple[int, int, int]
) -> None:
    split = wanted_split(
        points, hp_missing=missing[0], determination_missing=missing[1],
        recovery_missing=missing[2], hp=wants[0], determination=wants[1], recovery=wants[2],
    )  # fmt: skip
    assert split.total <= points
    assert split.hp <= missing[0] and split.determination <= missing[1]
    assert split.recovery <= missing[2]
    # Nothing is wasted while something is still missing.
    assert split.total == min(points, sum(missing))
