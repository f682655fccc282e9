"""How a player shares the points of a rest of positive value.

Ruling: the player may say how many points they want in hit points, recovery and
determination. The rolled points go first where asked, in the order hit points,
determination, recovery, each up to the amount asked and to what is missing; any
left over then follows the default order (hit points, determination, recovery) up
to each maximum. Points nothing can take are wasted.
"""

from __future__ import annotations

from bot.rules.errors import RulesError
from bot.rules.hocs.rest import RestSplit


def wanted_split(
    points: int,
    *,
    hp_missing: int,
    determination_missing: int,
    recovery_missing: int,
    hp: int = 0,
    determination: int = 0,
    recovery: int = 0,
) -> RestSplit:
    """Share ``points`` by the wanted amounts, then the default order (see the module)."""
    if min(points, hp, determination, recovery) < 0:
        raise RulesError("Points cannot be shared in negative amounts.")
    missing = {
        "hp": max(0, hp_missing),
        "determination": max(0, determination_missing),
        "recovery": max(0, recovery_missing),
    }
    wanted = {"hp": hp, "determination": determination, "recovery": recovery}
    given = dict.fromkeys(missing, 0)
    left = points
    for key in ("hp", "determination", "recovery"):
        take = min(wanted[key], missing[key], left)
        given[key] += take
        left -= take
    for key in ("hp", "determination", "recovery"):
        take = min(missing[key] - given[key], left)
        given[key] += take
        left -= take
    return RestSplit(
        hp=given["hp"], recovery=given["recovery"], determination=given["determination"]
    )
