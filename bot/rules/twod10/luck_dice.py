"""Luck of the 2d10 system's single dice: the side initiative d6, the interrupt d8s, the
scavenge d10, the backpack draw and a light's dice.

Each but a light's burn time only passes or fails, so each is ranked by what it decided
(ruling ``luck-ranked`` in ``luck``), under the configuration the row logged; a burn time
is ranked by the turns it gives, more being better. The outcomes come from the real
rules functions fed every face through scripted dice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.generic.luck import Ladder
from bot.rules.twod10.ammo import SCAVENGE_DIE
from bot.rules.twod10.encumbrance import Draw
from bot.rules.twod10.initiative.model import Encounter, Side
from bot.rules.twod10.initiative.reactions import INTERRUPT_DIE, InterruptRoll
from bot.rules.twod10.initiative.rounds import NPC_RANGE_LOW, roll_initiative
from bot.rules.twod10.light import Light, LightKind, drop, roll_burn_time
from bot.rules.twod10.luck_base import Scored, placed, ref, whole

INITIATIVE_DIE = 6
MAX_DRAW_SIDES = 1000  # far above any backpack: a guard against a corrupted row
MAX_FINESSE_GAP = 40


def _passed(outcomes: Iterable[bool]) -> Ladder:
    """Pass (1) or fail (0) over equally likely faces; one outcome only: certain, variance
    0 (ruling ``luck-certain`` in ``luck``)."""
    counts = Counter(int(o) for o in outcomes)
    return Ladder.from_weights(counts.items(), sum(counts.values()))


def initiative(row: Mapping[str, Any]) -> Scored | None:
    """The GM's d6, the players' luck (ruling ``luck-sides`` in ``luck``): their first turn."""
    faces, kept = row.get("faces"), whole(row.get("kept"))
    npc_range = row.get("npc_range")
    if not isinstance(faces, list) or len(faces) not in (1, 2) or kept is None:
        return None
    clean = tuple(whole(f) for f in faces)
    if any(f is None or not 1 <= f <= INITIATIVE_DIE for f in clean):
        return None
    if not isinstance(npc_range, list) or len(npc_range) != 2:
        return None
    low = whole(npc_range[0])
    advantage = _initiative_advantage(row, clean, kept)
    if low is None or advantage is None:
        return None
    won = _players_first(low, advantage, clean)  # type: ignore[arg-type]
    if won is None:
        return None
    found = _initiative_ladder(low, advantage, len(clean)).score(int(won))
    return placed(found, int(won), "initiative", "players", None)


def _initiative_advantage(
    row: Mapping[str, Any], faces: tuple[int | None, ...], kept: int
) -> Side | str | None:
    """The side with advantage ("" for none); older rows: the kept face tells, unless equal."""
    if "advantage" in row:
        named = row["advantage"]
        if named is None:
            return "" if len(faces) == 1 else None
        try:
            return Side(named) if len(faces) == 2 else None
        except ValueError:
            return None
    if len(faces) == 1:
        return ""
    low, high = min(faces), max(faces)  # type: ignore[type-var]
    if low == high:
        return None  # either side's advantage keeps it: the odds differ (luck-old-rows)
    return Side.NPCS if kept == high else Side.PLAYERS if kept == low else None


@lru_cache(maxsize=128)
def _players_first(npc_low: int, advantage: Side | str, faces: tuple[int, ...]) -> bool | None:
    """Whether the real ``roll_initiative`` gives the players the first turn on ``faces``,
    in an encounter whose momentum gives ``npc_low`` and whose disengaging the edge."""
    lost = {NPC_RANGE_LOW + 1: {Side.NPCS}, NPC_RANGE_LOW - 1: {Side.PLAYERS},
            NPC_RANGE_LOW: set()}.get(npc_low)  # fmt: skip
    if lost is None:
        return None
    edge = frozenset({advantage}) if isinstance(advantage, Side) else frozenset()
    enc = Encounter(lost_momentum=frozenset(lost), advantaged=edge)
    try:
        return roll_initiative(enc, ScriptedDice(faces))[1].winner is Side.PLAYERS
    except (RulesError, ValueError):
        return None


@lru_cache(maxsize=16)
def _initiative_ladder(npc_low: int, advantage: Side | str, count: int) -> Ladder:
    every = itertools.product(range(1, INITIATIVE_DIE + 1), repeat=count)
    return _passed(bool(_players_first(npc_low, advantage, f)) for f in every)


def interrupt(row: Mapping[str, Any]) -> Scored | None:
    """The interrupt, the reactor's luck (ruling luck-sides): acting before the opponent.
    A finesse gap of 8 for the reactor (or 7 against) decides it before the dice:
    certain (luck-certain)."""
    faces = row.get("reactor_faces")
    face, reactor_total = whole(row.get("opponent_face")), whole(row.get("reactor_total"))
    opponent_total = whole(row.get("opponent_total"))
    if not isinstance(faces, list) or len(faces) not in (1, 2):
        return None
    if face is None or reactor_total is None or opponent_total is None:
        return None
    clean = tuple(whole(f) for f in faces)
    if any(f is None or not 1 <= f <= INTERRUPT_DIE for f in (*clean, face)):
        return None
    # Only the finesse gap matters: each total less its die.
    gap = (reactor_total - max(clean)) - (opponent_total - face)  # type: ignore[type-var]
    if abs(gap) > MAX_FINESSE_GAP:
        return None
    first = _reacts_first(gap, clean, face)  # type: ignore[arg-type]
    found = _interrupt_ladder(gap, len(clean)).score(int(first))
    return placed(found, int(first), "interrupt", "reactor", ref(row, "reactor_id"))


@lru_cache(maxsize=1024)
def _reacts_first(gap: int, reactor: tuple[int, ...], opponent: int) -> bool:
    return InterruptRoll(
        reactor_id=0, opponent_id=0, reactor_faces=reactor, reactor_finesse=gap,
        opponent_face=opponent, opponent_finesse=0,
    ).reacts_first  # fmt: skip


@lru_cache(maxsize=256)
def _interrupt_ladder(gap: int, dice: int) -> Ladder:
    every = itertools.product(range(1, INTERRUPT_DIE + 1), repeat=dice + 1)
    return _passed(_reacts_first(gap, f[:-1], f[-1]) for f in every)


def scavenge(row: Mapping[str, Any]) -> Scored | None:
    """The scavenge d10: found at or under the chance (ruling scavenge-gain)."""
    face, chance = whole(row.get("face")), whole(row.get("chance"))
    if face is None or chance is None or not 1 <= face <= SCAVENGE_DIE:
        return None
    found = face <= chance
    ranks = _under(chance)
    return placed(ranks.score(int(found)), int(found), "scavenge", "character",
                  ref(row, "character_id"))  # fmt: skip


@lru_cache(maxsize=32)
def _under(chance: int) -> Ladder:
    return _passed(f <= chance for f in range(1, SCAVENGE_DIE + 1))


def draw(row: Mapping[str, Any]) -> Scored | None:
    """The backpack draw: drawn on the die's top face, each earlier try adding 1."""
    face, sides, bonus = whole(row.get("face")), whole(row.get("sides")), whole(row.get("bonus"))
    if face is None or sides is None or bonus is None:
        return None  # rows logged before the die's sides were (luck-old-rows)
    if not 1 <= face <= sides <= MAX_DRAW_SIDES or bonus < 0:
        return None
    drawn = Draw(face=face, sides=sides, bonus=bonus).drawn
    found = _draw_ladder(sides, bonus).score(int(drawn))
    return placed(found, int(drawn), "draw", "character", ref(row, "character_id"))


@lru_cache(maxsize=256)
def _draw_ladder(sides: int, bonus: int) -> Ladder:
    return _passed(Draw(face=f, sides=sides, bonus=bonus).drawn for f in range(1, sides + 1))


def light(row: Mapping[str, Any]) -> Scored | None:
    """A light's roll, its bearer's luck (ruling ``luck-lights``): a burn time (``roll``
    "burn") ranked by the turns kept, a dropped light's die ("drop") by whether it
    stayed lit."""
    try:
        kind = LightKind(row.get("light"))
    except ValueError:
        return None
    faces, total = row.get("faces"), whole(row.get("total"))
    if not isinstance(faces, list) or total is None:
        return None
    clean = tuple(whole(f) for f in faces)
    owner = ref(row, "character_id")
    if row.get("roll") == "burn":
        count, sides = kind.burn_dice
        if len(clean) != count or any(f is None or not 1 <= f <= sides for f in clean):
            return None
        if _burn(kind, clean) != total:  # type: ignore[arg-type]
            return None
        return placed(_burn_ladder(kind).score(total), total, "light", "character", owner)
    if row.get("roll") == "drop":
        if len(clean) != 1 or clean[0] is None or not 1 <= clean[0] <= kind.drop_die:
            return None
        lit = not _goes_out(kind, clean[0])
        return placed(_drop_ladder(kind).score(int(lit)), int(lit), "light", "character", owner)
    return None


@lru_cache(maxsize=1024)
def _burn(kind: LightKind, faces: tuple[int, ...]) -> int:
    return roll_burn_time(kind, ScriptedDice(faces))[0]


@lru_cache(maxsize=2)
def _burn_ladder(kind: LightKind) -> Ladder:
    count, sides = kind.burn_dice
    turns = Counter(_burn(kind, f) for f in itertools.product(range(1, sides + 1), repeat=count))
    return Ladder.from_weights(turns.items(), sum(turns.values()))


@lru_cache(maxsize=32)
def _goes_out(kind: LightKind, face: int) -> bool:
    return drop(Light(kind=kind, remaining=1), dice=ScriptedDice([face])).went_out


@lru_cache(maxsize=2)
def _drop_ladder(kind: LightKind) -> Ladder:
    return _passed(not _goes_out(kind, f) for f in range(1, kind.drop_die + 1))
