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


def _rolled(f: RollFacts, *, public: bool) -> Figures:
    described = not (public and f.secret)
    return Figures(
        rolls=1,
        successes=int(f.succeeded is True),
        failures=int(f.succeeded is False),
        critical_failures=int(f.critical_failure),
        sixes=f.sixes,
        natural_twenties=int(f.natural_twenty),
        natural_twos=int(f.natural_two),
        damage_dealt=f.damage_dealt,
        unscored=int(f.unscored or not described),
        points_spent=f.points_spent,
    )


def _lucky(f: RollFacts, name: str, *, public: bool) -> Figures:
    if public and f.secret:
        return Figures()
    return Figures(scored=tuple((x.percentile, x.variance) for x in f.luck if x.owner == name))


def _taken(f: RollFacts) -> Figures:
    return Figures(
        damage_taken=f.damage_taken, wounds=f.wounds, downs=int(f.downed), dying=int(f.dying)
    )


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
    per: dict[str, Figures] = {name: Figures() for name in sorted(players)}
    for name, kind, n in gains:
        per[name] = per.get(name, Figures()).plus(Figures(points_gained=((kind, n),)))
    other = 0
    best: Highlight | None = None
    worst: Highlight | None = None
    for f in facts:
        if f.roller is not None:
            per[f.roller] = per.get(f.roller, Figures()).plus(_rolled(f, public=public))
        else:
            other += 1
        if f.target is not None:
            per[f.target] = per.get(f.target, Figures()).plus(_taken(f))
        for name, kind, n in f.others_spent:
            per[name] = per.get(name, Figures()).plus(Figures(points_spent=((kind, n),)))
        for name in {x.owner for x in f.luck if x.owner is not None}:
            per[name] = per.get(name, Figures()).plus(_lucky(f, name, public=public))
        if public and f.secret:
            continue
        for x in f.luck:
            if x.owner is None or not x.variance:  # an NPC's, or a certain result
                continue
            if best is None or x.percentile > best.luck.percentile:
                best = Highlight(facts=f, luck=x)
            if worst is None or x.percentile < worst.luck.percentile:
                worst = Highlight(facts=f, luck=x)
    party = Figures()
    for figures in per.values():
        party = party.plus(figures)
    return Recap(
        characters=tuple(per.items()), party=party, other_rolls=other, luckiest=best,
        unluckiest=worst if worst is not best else None, fights=fights, rounds=rounds,
        private=not public,
    )  # fmt: skip
