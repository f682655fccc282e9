"""Attacks, damage rolls and hits as embeds: every step on its own line.

The attack part (the clash) is rendered once into an ``Intro`` that is stored
with an open die choice, so the embed can be rebuilt after a restart when a
button switches the kept die; the damage part is rendered from the hit.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.hocs.character import conditions_text, signed
from bot.render.hocs.combat_attack import (
    Intro,
    _faces,
    _successes,
    attack_intro,
    attack_intro_of,
    attack_lines,
)
from bot.render.text import clip, safe
from bot.rules.hocs.attack import (
    HitInputs,
    HitResult,
    Vitals,
)
from bot.rules.hocs.conditions import ConditionKind
from bot.rules.hocs.damage_pool import DamageRoll, DieRole, PoolDie
from bot.rules.hocs.threshold import ThresholdState
from bot.rules.hocs.wounds import InjuryKind, Wound, WoundCheck, WoundCheckResult, WoundKind

__all__ = ["Intro", "attack_intro", "attack_intro_of", "attack_lines"]

HIT_COLOUR = discord.Colour.dark_red()
MISS_COLOUR = discord.Colour.light_grey()
ROLL_COLOUR = discord.Colour.orange()
DESCRIPTION_LIMIT = 4096
MAX_BUTTONS = 25


def damage_intro(who: str, source: str, target: str | None, notes: Sequence[str] = ()) -> Intro:
    title = f"{safe(who)} rolls damage ({safe(source)})"
    if target:
        title += f" against {safe(target)}"
    return Intro(clip(title, 256), tuple(f"-# {safe(n)}" for n in notes))


_ROLE_NAMES = {
    DieRole.SOURCE: "source",
    DieRole.LETHALITY: "lethality",
    DieRole.ATTRIBUTE: "attribute",
    DieRole.SIZE: "size",
    DieRole.IMPACT: "impact",
    DieRole.BONUS: "bonus",
}


def die_role(die: PoolDie) -> str:
    if die.role is DieRole.WEAKNESS:
        return f"weakness ({die.types[0].value})"
    return _ROLE_NAMES[die.role]


def pool_line(inputs: HitInputs) -> str:
    pool = inputs.pool
    if pool.immune:
        return "**Damage pool**: nothing left: the target is immune to every type it deals."
    dice = ", ".join(f"d{d.sides} {die_role(d)}" for d in pool.dice)
    types = ", ".join(t.value for t in pool.types)
    lethal = "lethal" if pool.lethal else "non-lethal"
    bonus = f", {signed(inputs.bonus)} bonus" if inputs.bonus else ""
    return f"**Damage pool**: {dice}{bonus} — {types}, {lethal}"


def die_label(inputs: HitInputs, index: int) -> str:
    assert inputs.rolled is not None
    die = inputs.rolled.dice[index]
    return f"d{die.sides} {die_role(inputs.pool.dice[index])}: {die.face}"


def roll_lines(inputs: HitInputs, damage: DamageRoll, suggested: bool) -> list[str]:
    if damage.result is None or inputs.rolled is None:
        return ["**Damage**: 0"]
    result = damage.result
    faces = []
    for index, die in enumerate(inputs.rolled.dice):
        text = f"d{die.sides} {die.face}"
        faces.append(f"**{text}**" if index == result.chosen_index else text)
    lines = [f"**Rolled**: {', '.join(faces)}"]
    chosen = result.chosen
    kept = f"d{chosen.sides} {die_role(inputs.pool.dice[result.chosen_index])} ({chosen.face}"
    if chosen.explosions:
        kept += " exploded: " + " + ".join(str(x) for x in (chosen.face, *chosen.explosions))
        kept += f" = {chosen.total}"
    kept += ")"
    why = " — the best expected total" if suggested else " — picked by the player"
    parts = [f"Kept the {kept}{why}"]
    if result.max_bonus:
        parts.append(f"+{result.max_bonus} for other dice at their maximum")
    if damage.bonus:
        parts.append(f"{signed(damage.bonus)} bonus")
    lines.append("; ".join(parts) + f" → **{damage.amount} damage**")
    return lines


def _recovery(wound: Wound) -> str:
    rolled = list(wound.recovery_roll)
    base = wound.recovery_days - sum(rolled)
    parts = " + ".join(str(x) for x in (*rolled, base))
    return f"recovery {parts} = {wound.recovery_days} days once treated"


def wound_name(wound: Wound) -> str:
    if isinstance(wound.kind, InjuryKind):
        return f"Injury: {wound.kind.value}"
    assert isinstance(wound.kind, WoundKind)
    return "Wound"


def wound_check_line(check: WoundCheck) -> str:
    text = f"**Wound check** (10+ damage): d10 **{check.check_face}** → {check.result.value}"
    if check.result is WoundCheckResult.WOUNDED and check.wound is not None:
        text += f"; wounds table d10 {check.wound_face}"
        if check.injury_face is not None:
            text += f" → injury, injuries table d12 {check.injury_face}"
        text += f": **{wound_name(check.wound)}**: {check.wound.description}"
        text += f" ({_recovery(check.wound)})."
        return text
    return text + "."


def vitals_text(vitals: Vitals, max_hp: int) -> str:
    text = f"{vitals.hp}/{max_hp} HP"
    if vitals.temp_hp:
        text += f" (+{vitals.temp_hp} temp)"
    if vitals.nonlethal:
        text += f", {vitals.nonlethal} non-lethal"
    return text


def hit_lines(hit: HitResult, *, threshold: int) -> list[str]:
    """Toughness/mettle, temporary HP, HP, threshold, wound check, result."""
    t = safe(hit.target)
    app = hit.application
    lines: list[str] = []
    if hit.hero_reduction:
        lines.append(hero_reduction_line(hit))
    if app.immune:
        lines.append(f"**Applied**: {t} is immune: no hit points lost.")
    elif app.amount == 0:
        lines.append(f"**Applied**: no damage to {t}.")
    else:
        defense = ", ".join(sorted({ty.defense.value for ty in app.types}))
        resisted = " including +2 resistance" if app.resisted else ""
        text = f"**Applied** to {t}: {app.amount} − {app.reduction} ({defense}{resisted})"
        if app.amount <= app.reduction:
            text += f" → at least 1: **{app.after_reductions}** received"
        else:
            text += f" = **{app.after_reductions}** received"
        if app.temporary_absorbed:
            text += f"; temporary HP absorb {app.temporary_absorbed}"
        kind = "" if app.lethal else " (non-lethal)"
        text += f"; HP {app.before.current} → **{app.after.current}**{kind}"
        lines.append(text + ".")
    check = hit.threshold
    if check.state is ThresholdState.DEAD:
        lines.append(f"**Threshold**: beyond {signed(threshold)}: **{t} dies**.")
    elif check.state is ThresholdState.KNOCKED_OUT:
        lines.append(
            f"**Threshold**: non-lethal damage took the last hit point: {t} is"
            " **unconscious and stable**."
        )
    elif hit.threshold_test is not None:
        test = hit.threshold_test
        # A determination point spent before the test is part of its pool (one spent
        # after it is told by its spend line).
        before = test.roll.spec.determination and not test.roll.determination_after
        skill = safe(test.skill) + (" with determination" if before else "")
        lines.append(
            f"**Threshold test** (0 HP or below, inside {signed(threshold)}):"
            f" {skill} vs {test.outcome.difficulty}: {_faces(test.roll)}"
            f" {_successes(test.roll)} → **{test.outcome.result.value}**."
        )
    if hit.wound_check is not None:
        lines.append(wound_check_line(hit.wound_check))
    if hit.bleeding_gained:
        lines.append(f"Internal bleeding: {t} gains bleeding ({hit.bleeding_gained}).")
    for cause in hit.death_causes:
        if "threshold" not in cause:
            lines.append(f"**{t} dies**: {safe(cause)}.")
    lines.append(
        f"**{t} now**: {vitals_text(hit.after, hit.max_hp_after)};"
        f" conditions: {conditions_text(hit.after.conditions)}."
    )
    return lines


def hero_reduction_line(hit: HitResult) -> str:
    """The hero points' 2d6 taken off the damage roll, before toughness/mettle."""
    rolls = hit.rolls.hero_reductions
    dice = "; ".join(" + ".join(str(f) for f in faces) for faces in rolls)
    points = "a hero point" if len(rolls) == 1 else f"{len(rolls)} hero points"
    return (
        f"**Reduced** by {points}: 2d6 ({dice}) = {hit.hero_reduction} off the damage:"
        f" {hit.damage.amount} → **{hit.dealt}**"
    )


def choice_note(target: str | None, minutes: int) -> str:
    whose = f" as long as nothing else has changed {safe(target)}" if target else ""
    return (
        f"-# The bot keeps the die with the best expected total. The roller, the attacker's"
        f" owner or the GM can keep another die with the buttons for {minutes} minutes{whose}."
    )


def combat_embed(
    intro: Intro,
    *,
    inputs: HitInputs | None,
    damage: DamageRoll | None,
    suggested: bool,
    hit: HitResult | None,
    threshold: int | None,
    footer: str | None = None,
) -> discord.Embed:
    lines = list(intro.lines)
    if inputs is not None and damage is not None:
        lines.append(pool_line(inputs))
        lines += roll_lines(inputs, damage, suggested)
    if hit is not None and threshold is not None:
        lines += hit_lines(hit, threshold=threshold)
    if footer:
        lines.append(footer)
    colour = HIT_COLOUR if hit is not None else (ROLL_COLOUR if damage else MISS_COLOUR)
    return discord.Embed(
        title=clip(intro.title, 256),
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
        colour=colour,
    )


def hp_embed(
    name: str, before: Vitals, after: Vitals, max_hp: int, threshold: int, what: str
) -> discord.Embed:
    n = safe(name)
    lines = [
        f"{what}: {vitals_text(before, max_hp)} → **{vitals_text(after, max_hp)}**",
        f"Conditions: {conditions_text(after.conditions)}",
    ]
    if after.hp < threshold:
        lines.append(
            f"-# {n} is beyond the threshold ({signed(threshold)}): add the dead condition"
            " with /condition add if they die."
        )
    elif after.hp <= 0:
        lines.append(
            f"-# {n} is at 0 HP or below: /damage resolves the threshold test;"
            " /hp only adjusts the number."
        )
    return discord.Embed(title=f"Hit points: {n}", description="\n".join(lines), colour=HIT_COLOUR)


def conditions_embed(name: str, vitals: Vitals, max_hp: int) -> discord.Embed:
    n = safe(name)
    lines = [f"{vitals_text(vitals, max_hp)}"]
    if not len(vitals.conditions):
        lines.append("No conditions.")
    for condition, number in vitals.conditions.entries:
        flag = condition.kind is ConditionKind.FLAG
        label = condition.value if flag else f"{condition.value} ({number})"
        lines.append(f"**{label}**: {condition.description}")
    return discord.Embed(
        title=f"Conditions: {n}",
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
        colour=HIT_COLOUR,
    )


def wounds_embed(name: str, wounds: Sequence[Wound], max_hp: int, threshold: int) -> discord.Embed:
    n = safe(name)
    lines = []
    for number, wound in enumerate(wounds, start=1):
        lines.append(f"{number}. **{wound_name(wound)}**: {wound.description} ({_recovery(wound)})")
    if not lines:
        lines.append("No wounds or injuries.")
    lines.append(f"-# With these: maximum HP {max_hp}, threshold {signed(threshold)}.")
    return discord.Embed(
        title=f"Wounds: {n}",
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
        colour=HIT_COLOUR,
    )
