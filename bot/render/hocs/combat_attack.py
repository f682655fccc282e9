"""The attack roll as lines: both sides' pools and modifiers, every clash round, the outcome.

``combat`` renders the damage part; points spent on the roll afterwards are lines of
their own (``spends``), kept with the attack's record so the embed can be redrawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.render.text import clip, safe
from bot.rules.hocs.attack import AttackMode, AttackResult, AttackRoll, WeaponUse, dice_text
from bot.rules.hocs.clash import ClashDecision
from bot.rules.hocs.pool import PoolResult, PoolSpec


@dataclass(frozen=True)
class Intro:
    """Title and the lines before the damage steps (the attack roll)."""

    title: str
    lines: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "lines": list(self.lines)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Intro:
        return cls(str(data.get("title", "Damage")), tuple(str(x) for x in data.get("lines", ())))


def _parts(parts: Iterable[tuple[str, int]], word: str) -> str:
    shown = [f"{n} {word}{'s' if n != 1 else ''} ({safe(source)})" for source, n in parts if n]
    return ", ".join(shown)


def _mods(
    boons: Iterable[tuple[str, int]],
    banes: Iterable[tuple[str, int]],
    focus: Iterable[tuple[str, int]],
    rerolls: Iterable[tuple[str, int]],
    spec: PoolSpec | None,
) -> str:
    """A side's modifiers before the roll, with where they come from."""
    parts = [
        _parts(boons, "boon"),
        _parts(banes, "bane"),
        _parts(focus, "focus"),
        _parts(rerolls, "reroll"),
    ]
    if spec is not None and spec.guaranteed:
        parts.append(f"{spec.guaranteed} guaranteed")
    if spec is not None and spec.determination:
        parts.append("determination")
    return ", ".join(x for x in parts if x)


def _faces(roll: PoolResult) -> str:
    if roll.zero_dice:
        return "no dice"
    shown = []
    for die in roll.dice:
        chain = die.final_faces  # one face unless the die exploded
        faces = str(chain[0]) if len(chain) == 1 else " ".join(map(str, chain))
        shown.append(f"**{faces}**" if die.successes else faces)
    return f"[{', '.join(shown)}]"


def _successes(roll: PoolResult) -> str:
    n = roll.successes
    return f"{n} success{'es' if n != 1 else ''}"


def attack_lines(attacker: str, target: str, roll: AttackRoll) -> list[str]:
    """The attack roll: pools, modifiers, every clash round, the outcome."""
    a, t = safe(attacker), safe(target)
    spec_a = roll.clash.a if roll.clash else (roll.test.roll.spec if roll.test else None)
    mods = _mods(roll.boons, roll.banes, roll.focus, roll.attack_rerolls, spec_a)
    attack = f"{safe(roll.attack_label)}" + (f" with {mods}" if mods else "")
    lines: list[str] = []
    if roll.mode is AttackMode.DEFENSELESS_MELEE:
        lines.append(
            f"**Attack**: {t} is defenseless: a melee attack needs no roll and hits"
            " with a combat advantage."
        )
    elif roll.mode is AttackMode.DEFENSELESS_RANGED:
        assert roll.test is not None
        test = roll.test
        lines.append(
            f"**Attack**: {t} is defenseless: ranged test {attack} vs {int(test.difficulty)}:"
            f" {_faces(test.roll)} {_successes(test.roll)}"
            f" → {'hit' if test.succeeded else 'miss'}."
        )
    else:
        assert roll.clash is not None
        defense = safe(roll.defense_label or "Defense")
        defense_mods = _mods(
            roll.defense_boons,
            roll.defense_banes,
            roll.defense_focus,
            roll.defense_rerolls,
            roll.clash.b,
        )
        if defense_mods:
            defense += f" with {defense_mods}"
        lines.append(f"**Attack**: {a}: {attack} vs {t}: {defense}")
        rounds = roll.clash.rounds
        for number, rnd in enumerate(rounds, start=1):
            prefix = f"Round {number}: " if len(rounds) > 1 else ""
            lines.append(
                f"{prefix}{_faces(rnd.a)} {_successes(rnd.a)} vs"
                f" {_faces(rnd.b)} {_successes(rnd.b)}"
            )
        if len(rounds) > 1 and roll.clash.decided_by is not ClashDecision.ROUND_LIMIT:
            lines.append("-# Neither side rolled a success, so the clash was repeated.")
        if roll.clash.decided_by is ClashDecision.ROUND_LIMIT:
            lines.append("→ Still deadlocked after 20 rounds: the attack doesn't land.")
        elif roll.hit:
            how = " (the attacker wins ties)" if roll.margin == 0 else ""
            lines.append(f"→ **Hit** by {roll.margin}{how}.")
        else:
            lines.append(f"→ **Miss**: {t} defends by {roll.margin}.")
            if roll.counter:
                lines.append(
                    f"{t} won by 2 or more and may take **counter**: {a} provokes an"
                    " attack of opportunity."
                )
    if roll.advantage is not None:
        lines.append(f"**Combat advantage**: {roll.advantage.text}.")
    return lines


def attack_intro(result: AttackResult, *, extra_notes: Sequence[str] = ()) -> Intro:
    return attack_intro_of(
        result.attacker, result.target, result.weapon, result.roll, (*result.notes, *extra_notes)
    )


def attack_intro_of(
    attacker: str,
    target: str,
    weapon: WeaponUse,
    roll: AttackRoll,
    notes: Sequence[str],
    spends: Sequence[str] = (),
) -> Intro:
    """The attack steps; ``spends`` are the (already safe) lines of points spent on it."""
    source = safe(weapon.name) if weapon.name else dice_text(weapon.dice)
    title = f"{safe(attacker)} attacks {safe(target)} ({source})"
    lines = attack_lines(attacker, target, roll)
    lines += [f"-# {safe(note)}" for note in notes]
    lines += list(spends)
    return Intro(clip(title, 256), tuple(lines))


def pledge_back_line(target: str, now: int) -> str:
    """A determination point spent before a threshold test that no hit calls for now."""
    return (
        f"No threshold test is due now, so the determination point {safe(target)} spent"
        f" before it is given back ({now} determination)."
    )


@dataclass(frozen=True, kw_only=True)
class PointsBack:
    """What giving back the points spent on an undone threshold test did."""

    determination: int = 0  # points given back
    determination_now: int = 0
    hero: int = 0
    hero_now: int = 0
    fortunes: tuple[str, ...] = ()  # sources returned
    fortunes_held: tuple[str, ...] = ()  # sources it already holds again (one per source)
    fortunes_unknown: int = 0  # sources the stored spend doesn't name

    @property
    def count(self) -> int:
        held = len(self.fortunes_held) + self.fortunes_unknown
        return self.determination + self.hero + len(self.fortunes) + held


def _points(n: int, word: str) -> str:
    return f"{n} {word} point" if n == 1 else f"{n} {word} points"


def threshold_points_back_line(target: str, back: PointsBack) -> str:
    """The points spent after an undone threshold test's roll, given back."""
    t = safe(target)
    parts = []
    if back.determination:
        parts.append(
            f"{_points(back.determination, 'determination')} ({back.determination_now} now)"
        )
    if back.hero:
        parts.append(f"{_points(back.hero, 'hero')} ({back.hero_now} now)")
    parts += [f"the fortune point ({safe(source)})" for source in back.fortunes]
    parts += [
        f"not the fortune point ({safe(source)}): {t} holds one from that source again,"
        " and a character holds at most one per source"
        for source in back.fortunes_held
    ]
    if back.fortunes_unknown:
        parts.append("a fortune point whose source wasn't kept: the GM can /fortune grant it")
    what = "the point" if back.count == 1 else "the points"
    verb = "is" if back.count == 1 else "are"
    return (
        f"The old threshold test is undone, so {what} {t} spent after its roll {verb} given"
        f" back: {'; '.join(parts)}."
    )


def attack_change_line(
    old: AttackRoll, new: AttackRoll, target: str, hp_before: int | None
) -> str | None:
    """What a point spent on the attack roll changed (None: the outcome stands)."""
    t = safe(target)
    if old.hit and not new.hit:
        back = f" ({t} is back to {hp_before} HP)" if hp_before is not None else ""
        return f"**The attack now misses**: its damage is undone{back}."
    if new.hit and not old.hit:
        return "**The attack now hits**: its damage is rolled and applied below."
    if old.advantage != new.advantage:
        now = new.advantage.text if new.advantage else "none"
        return (
            f"**The combat advantage changes** (now: {now}): the damage is rolled again"
            f" and applied to {t} instead."
        )
    return None
