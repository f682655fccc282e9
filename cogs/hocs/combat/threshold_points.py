"""Points a target spends on its threshold test after the roll: recorded with the hit
(``respend_threshold``), given back when an attack decided again undoes the test.

Ruling (``THRESHOLD_REDO_RULING``): a point spent after the old test's roll answered
dice that are gone once the attack is decided again, so it comes back to the target,
once, in the spend's own transaction (the old damage choice, which holds the record,
is deleted in it); the new test offers its own buttons. A determination point pledged
before the old test is not one of these: it goes into the new test.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import aiosqlite

from bot.render.hocs.combat_attack import PointsBack, threshold_points_back_line
from bot.rules.hocs.attack import (
    ThresholdPoint,
    ThresholdSpend,
    point_spent_between,
)
from bot.rules.hocs.meta_currencies import MAX_HERO_POINTS
from bot.rules.hocs.pool import PoolResult
from bot.storage.hocs.characters import Character, CharacterRepository

log = logging.getLogger(__name__)


def spend_on_test(
    before: PoolResult, after: PoolResult, fortune_source: str | None
) -> ThresholdSpend:
    """The point that turned the test's ``before`` roll into ``after``, with the source
    of a fortune point (the spend hands it over as it spends it)."""
    point = point_spent_between(before, after)
    if point is not ThresholdPoint.FORTUNE:
        return ThresholdSpend(point=point)
    if fortune_source is None:
        log.error("a fortune point was spent on a threshold test without its source")
    return ThresholdSpend(point=point, source=fortune_source)


async def give_back(
    conn: aiosqlite.Connection, character: Character, spends: Sequence[ThresholdSpend]
) -> str:
    """Give ``character`` every point in ``spends`` back (determination up to its
    maximum, hero points up to ``MAX_HERO_POINTS``, each fortune point to its source
    unless it holds one from there again); the line saying so."""
    repo = CharacterRepository(conn)
    determination = sum(s.point is ThresholdPoint.DETERMINATION for s in spends)
    hero = sum(s.point is ThresholdPoint.HERO for s in spends)
    determination_now = hero_now = 0
    if determination:
        determination_now = await repo.regain_determination(
            character.id, determination, character.effective.determination_max
        )
    if hero:
        hero_now = await repo.give_hero_points(character.id, hero, MAX_HERO_POINTS) or 0
    returned: list[str] = []
    held: list[str] = []
    unknown = 0
    for spend in spends:
        if spend.point is not ThresholdPoint.FORTUNE:
            continue
        if spend.source is None:
            unknown += 1
        elif await repo.grant_fortune(character.id, spend.source):
            returned.append(spend.source)
        else:
            held.append(spend.source)
    back = PointsBack(
        determination=determination,
        determination_now=determination_now,
        hero=hero,
        hero_now=hero_now,
        fortunes=tuple(returned),
        fortunes_held=tuple(held),
        fortunes_unknown=unknown,
    )
    log.info("gave back %d points of an undone threshold test to %s", back.count, character.id)
    return threshold_points_back_line(character.name, back)
