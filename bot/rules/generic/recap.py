"""A night's (or any span's) figures: what each ruleset reads from its logged rolls
(``RollFacts``), summed per player character and for the party.

Each ruleset turns its roll-log rows into facts (``bot.rules.<ruleset>.recap_facts``);
this module only adds them up, so both rulesets' recaps count alike. Luck is the mean
mid-percentile of a character's scored rolls (``bot.rules.generic.luck``).

Rulings (documented in /help and docs/recap.md):

* the party is the player characters; a roll for an NPC or for nobody counts as a roll
  of the night (``other_rolls``) but belongs to no character;
* a secret roll is counted in its character's figures but, in the public recap, never
  described: no luck of it, never the luckiest or unluckiest roll (the GM's
  ``private:True`` recap has everything);
* a roll's luck belongs to whoever threw the dice scored (an attack's to-hit to the
  attacker, a defense roll or a threshold test to the target), so one row may score for
  two characters; NPCs' luck is kept out of the figures, and a certain result (variance
  0) is never the luckiest or unluckiest roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol


class LoggedRow(Protocol):
    """What a ruleset's ``facts_of`` reads of a roll-log row (``bot.storage.roll_log``'s
    ``LoggedRoll`` is one)."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def result(self) -> Mapping[str, Any]: ...
    @property
    def secret(self) -> bool: ...
    @property
    def user_id(self) -> int: ...
    @property
    def character_id(self) -> int | None: ...
    @property
    def message_id(self) -> int | None: ...
    @property
    def channel_id(self) -> int | None: ...


@dataclass(frozen=True, kw_only=True)
class Luck:
    """One scored die roll of a logged row, and whose luck it is."""

    owner: str | None  # a player character's name; None: an NPC's, a side's, nobody's
    percentile: Fraction
    variance: Fraction  # under fair dice; 0: the result was certain (never ranked)
    part: str = ""  # "to-hit", "damage", "threshold", … (for the highlight's words)


@dataclass(frozen=True, kw_only=True)
class RollFacts:
    """What one logged roll says, for the character it is for and the one it hit."""

    roll_id: int
    kind: str
    roller: str | None  # the player character it is for (None: an NPC's or nobody's)
    target: str | None = None  # the player character it hurt, if any
    secret: bool = False
    succeeded: bool | None = None  # None: a roll with no success or failure (damage)
    critical_failure: bool = False
    sixes: int = 0  # HOCS: 6s rolled
    natural_twenty: bool = False  # 2d10
    natural_two: bool = False  # 2d10
    damage_dealt: int = 0  # by the roller
    damage_taken: int = 0  # by the target
    wounds: int = 0  # taken by the target
    downed: bool = False  # the target went down (unconscious or out)
    dying: bool = False  # the target is dying after it
    # Every scored roll of the row with its owner; empty: no distribution known.
    luck: tuple[Luck, ...] = ()
    unscored: bool = False  # it rolled dice whose distribution the bot doesn't know
    # Points the roller spent on it, by kind ("hero", "fortune", "determination").
    points_spent: tuple[tuple[str, int], ...] = ()
    # Points other player characters spent on it: (name, kind, n), e.g. a target's
    # determination on its defense or its threshold test.
    others_spent: tuple[tuple[str, str, int], ...] = ()
    message_id: int | None = None
    channel_id: int | None = None
    label: str = ""  # a few words naming the roll ("Mira's athletics check")


@dataclass(frozen=True, kw_only=True)
class Figures:
    """Totals for one character or the party."""

    rolls: int = 0
    successes: int = 0
    failures: int = 0
    critical_failures: int = 0
    sixes: int = 0
    natural_twenties: int = 0
    natural_twos: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    wounds: int = 0
    downs: int = 0
    dying: int = 0
    scored: tuple[tuple[Fraction, Fraction], ...] = ()  # (percentile, variance) per roll
    unscored: int = 0
    points_spent: tuple[tuple[str, int], ...] = ()  # (kind, n) per spend; see ``spent``
    points_gained: tuple[tuple[str, int], ...] = ()  # (kind, n); see ``gained``

    @property
    def spent(self) -> dict[str, int]:
        """Points spent by kind."""
        return _by_kind(self.points_spent)

    @property
    def gained(self) -> dict[str, int]:
        """Points gained by kind."""
        return _by_kind(self.points_gained)

    def plus(self, other: Figures) -> Figures:
        return Figures(**{
            f: getattr(self, f) + getattr(other, f) for f in Figures.__dataclass_fields__
        })  # fmt: skip


def _by_kind(pairs: tuple[tuple[str, int], ...]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for kind, n in pairs:
        totals[kind] = totals.get(kind, 0) + n
    return totals


_COUNTS = (
    "rolls", "successes", "failures", "critical_failures", "sixes", "natural_twenties",
    "natural_twos", "damage_dealt", "damage_taken", "wounds", "downs", "dying", "unscored",
)  # fmt: skip


class _Tally:
    """One character's figures while they are summed (mutable: a night's 5,000 rows are
    added in place, not as a new frozen ``Figures`` per row)."""

    __slots__ = ("counts", "gained", "scored", "spent")

    def __init__(self) -> None:
        self.counts = dict.fromkeys(_COUNTS, 0)
        self.scored: list[tuple[Fraction, Fraction]] = []
        self.spent: list[tuple[str, int]] = []
        self.gained: list[tuple[str, int]] = []

    def rolled(self, f: RollFacts, *, public: bool) -> None:
        c = self.counts
        c["rolls"] += 1
        if f.succeeded is True:
            c["successes"] += 1
        elif f.succeeded is False:
            c["failures"] += 1
        c["critical_failures"] += f.critical_failure
        c["sixes"] += f.sixes
        c["natural_twenties"] += f.natural_twenty
        c["natural_twos"] += f.natural_two
        c["damage_dealt"] += f.damage_dealt
        c["unscored"] += f.unscored or (public and f.secret)
        self.spent.extend(f.points_spent)

    def taken(self, f: RollFacts) -> None:
        c = self.counts
        c["damage_taken"] += f.damage_taken
        c["wounds"] += f.wounds
        c["downs"] += f.downed
        c["dying"] += f.dying

    def figures(self) -> Figures:
        return Figures(
            **self.counts, scored=tuple(self.scored), points_spent=tuple(self.spent),
            points_gained=tuple(self.gained),
        )  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class Highlight:
    """The luckiest or unluckiest scored roll, and the row it is in."""

    facts: RollFacts
    luck: Luck


@dataclass(frozen=True, kw_only=True)
class Recap:
    characters: tuple[tuple[str, Figures], ...]  # in the order they first appear
    party: Figures
    other_rolls: int  # NPCs' and nobody's
    luckiest: Highlight | None
    unluckiest: Highlight | None
    fights: int = 0
    rounds: int = 0
    private: bool = False

    @property
    def rolls(self) -> int:
        return self.party.rolls + self.other_rolls


def recap(
    facts: Iterable[RollFacts], *, public: bool = True, fights: int = 0, rounds: int = 0,
    players: frozenset[str] = frozenset(), gains: Iterable[tuple[str, str, int]] = (),
) -> Recap:  # fmt: skip
    """Sum ``facts`` per player character and for the party. ``players``: names to list
    even with nothing logged (every player character of the table); ``gains``: points
    the characters gained in the span, (name, kind, n)."""
    per: dict[str, _Tally] = {name: _Tally() for name in sorted(players)}

    def tally(name: str) -> _Tally:
        found = per.get(name)
        if found is None:
            found = per[name] = _Tally()
        return found

    for name, kind, n in gains:
        tally(name).gained.append((kind, n))
    other = 0
    best: tuple[float, RollFacts, Luck] | None = None
    worst: tuple[float, RollFacts, Luck] | None = None
    for f in facts:
        if f.roller is not None:
            tally(f.roller).rolled(f, public=public)
        else:
            other += 1
        if f.target is not None:
            tally(f.target).taken(f)
        for name, kind, n in f.others_spent:
            tally(name).spent.append((kind, n))
        if public and f.secret:
            continue
        for x in f.luck:
            if x.owner is None:  # an NPC's, a side's
                continue
            tally(x.owner).scored.append((x.percentile, x.variance))
            if not x.variance:  # a certain result is never the luckiest or unluckiest
                continue
            value = float(x.percentile)
            if best is None or value > best[0]:
                best = (value, f, x)
            if worst is None or value < worst[0]:
                worst = (value, f, x)
    characters = tuple((name, t.figures()) for name, t in per.items())
    party = Figures()
    for _, figures in characters:
        party = party.plus(figures)
    luckiest = Highlight(facts=best[1], luck=best[2]) if best else None
    unluckiest = None
    if worst is not None and (best is None or worst[2] is not best[2]):
        unluckiest = Highlight(facts=worst[1], luck=worst[2])
    return Recap(
        characters=characters, party=party, other_rolls=other, luckiest=luckiest,
        unluckiest=unluckiest, fights=fights, rounds=rounds, private=not public,
    )  # fmt: skip
