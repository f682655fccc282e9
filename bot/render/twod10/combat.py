"""The 2d10 /attack reply: every die and step, from the roll to the target's hit points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.render.text import plural, safe
from bot.rules.twod10.attack import AttackResult
from bot.rules.twod10.damage import DamageResult
from bot.rules.twod10.defending import DefendingRoll
from bot.rules.twod10.ranged import SoftCoverSight
from bot.rules.twod10.rending import Rending
from bot.rules.twod10.tasks import TaskResult
from bot.storage.twod10.characters import TwoD10Sheet

HIT = discord.Colour.dark_red()
MISS = discord.Colour.light_grey()


@dataclass(frozen=True, kw_only=True)
class ShieldUse:
    shield: str
    left: int

    @property
    def line(self) -> str:
        if self.left == 0:
            return f"Block with the {self.shield.lower()}: it breaks (no blocks left)."
        return f"Block with the {self.shield.lower()}: {plural(self.left, 'block')} left."


@dataclass(frozen=True, kw_only=True)
class AttackReport:
    """What /attack did: the rules result and what it wrote."""

    attacker: str
    result: AttackResult
    target_before: TwoD10Sheet  # the target the damage went to (a stray shot's new one)
    target_after: TwoD10Sheet
    aimed_at: str  # the target named in the command
    shield: ShieldUse | None = None
    prone_marked: bool = False
    tracker_note: str | None = None  # the running tracker's parry or extra attack
    ammo_note: str | None = None  # a rolled 1's ammo point (cogs.twod10.combat_ammo)
    # The roll log's record of the shot's ammo: {"spent", "left"} (None: no ammo used).
    ammo_log: dict[str, int | None] | None = None
    concentration_lost: str | None = None  # the effect the damage broke (2d10 magic)
    slain_rending: Rending | None = None  # rend: on a foe this attack slew (rending-reach)
    # The roll log's record of the opponent swung as the weapon: {"name", "sheet_id",
    # "damage", and with a sheet "hp": [before, after], "dead"} (None: none hurt).
    swung_log: dict[str, Any] | None = None

    @property
    def slew(self) -> bool:
        """The attack killed its target (dead after it, not before)."""
        return (
            "dead" in self.target_after.conditions and "dead" not in self.target_before.conditions
        )


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def roll_line(roll: TaskResult, *, natural: bool = True) -> str:
    """``natural`` False: a roll whose natural means nothing (a defender's, flipped)."""
    faces = [
        f"~~{face}~~" if i == roll.roll.dropped else str(face)
        for i, face in enumerate(roll.roll.faces)
    ]
    edge = "" if roll.roll.dropped is None else f" ({roll.roll.edge.value})"
    mods = " ".join(f"{_signed(m.value)} {m.label}" for m in roll.modifiers if m.value)
    said = f" natural {roll.natural}" if natural else ""
    return f"2d10{edge} [{', '.join(faces)}]{said} {mods} = **{roll.total}**"


def defended_line(name: str, defended: DefendingRoll) -> str:
    """The defender's roll and its flip (ruling defending-roll)."""
    rolled = roll_line(defended.defender, natural=False)
    return f"{safe(name)} defends: {rolled} → flipped (20 − it): **{defended.total}**."


def look_line(look: SoftCoverSight) -> str:
    """The look through soft cover, its roll and what it did to the cover."""
    where = f"Look through soft cover {look.cover}"
    if look.disadvantages:
        where += ", " + ", ".join(look.disadvantages)
    if look.disadvantage:
        why = "a natural 2" if look.roll.natural_two else "below 10"
        did = f"{why}: soft cover {look.cover} stays, and the attack has disadvantage"
    else:
        points = f"{look.removed} point{'s' if look.removed != 1 else ''}"
        left = f"soft cover {look.remaining} left" if look.remaining else "no soft cover left"
        did = f"sees through {points}: {left}"
    return f"{where}: {roll_line(look.roll)} → {did}."


def rending_line(rending: Rending) -> str:
    """The rending roll and what it gained (ruling rending-reach)."""
    rolled = roll_line(rending.roll)
    if not rending.succeeded:
        return f"Rending: {rolled} → no grip."
    if rending.living:
        return f"Rending: {rolled} → torn: one more damage die."
    return f"Rending the slain: {rolled} → an improvised weapon, with an interact action."


def band_line(roll: TaskResult | DefendingRoll) -> str:
    if roll.natural_two:
        return "**Natural 2**: always a miss, no damage."
    text = f"{roll.band.value.capitalize()} ({'hit' if roll.succeeded else 'miss'})"
    if roll.natural_twenty and roll.succeeded:
        text += "; **natural 20**: two extra damage dice"
    elif roll.natural_twenty:  # ruling extra-dice: a natural 20 is no automatic hit
        text += "; a natural 20, but no hit: no extra dice"
    return text + "."


def damage_lines(damage: DamageResult) -> list[str]:
    spec = damage.spec
    shifted = damage.shifted
    if shifted is None:
        return []
    steps = shifted.steps
    moved = "no change" if steps == 0 else f"{steps:+d} categor{'y' if abs(steps) == 1 else 'ies'}"
    if shifted.category is None:
        return [f"Damage die {spec.dice.label}, {moved}: below a d4 on a miss, no damage."]
    start = spec.dice.category.label
    lines = [
        f"Damage die {start} {moved} → {shifted.category.label}"
        + (" (capped at d12)" if shifted.capped else "")
    ]
    faces = []
    for face in damage.faces:
        text = str(face.face) if face.sides > 1 else "1 (flat)"
        if face.other is not None:
            text += f" (axe vs unarmored: {face.face} and {face.other}, higher kept)"
        if face.extra:
            text += " extra"
        faces.append(text)
    parts = [f"[{', '.join(faces)}]"]
    if spec.dice.bonus:
        parts.append(f"{_signed(spec.dice.bonus)} weapon")
    if spec.attribute_bonus:
        parts.append(f"{_signed(spec.attribute_bonus)} {spec.attribute_label}")
    if spec.extra_flat:
        parts.append(f"{_signed(spec.extra_flat)} {spec.extra_flat_label}")
    extras = []
    if damage.natural_twenty_dice:
        extras.append(f"{damage.natural_twenty_dice} for the natural 20")
    if damage.weapon_extra_dice:
        extras.append(f"1 for the weapon's high roll (from {spec.extra_die_from})")
    if damage.rending_dice:
        extras.append(f"{damage.rending_dice} for the rending")
    lines.append(
        "Rolled "
        + " ".join(parts)
        + f" = {damage.rolled}"
        + (f" (extra dice: {', '.join(extras)})" if extras else "")
    )
    if damage.defenses.block:
        lines.append(f"Shield block halves it: {damage.after_block}")
    if damage.defenses.reduction:
        ap = spec.armor_piercing
        pierce = f" − {ap} armor piercing" if ap else ""
        lines.append(f"Damage reduction {damage.defenses.reduction}{pierce} = {damage.reduction}")
    floor = damage.after_block - damage.reduction < damage.total
    lines.append(f"**{damage.total} damage**" + (" (at least 1)" if floor else ""))
    return lines


def hp_status(sheet: TwoD10Sheet) -> str:
    text = f"{sheet.hp}/{sheet.max_hp} HP"
    if "dead" in sheet.conditions:
        return text + ", dead"
    if sheet.hp <= 0:
        return text + ", dying"
    return text


def attack_embed(report: AttackReport) -> discord.Embed:
    result = report.result
    weapon = result.wielded.name + (" (offhand)" if result.wielded.offhand else "")
    title = f"{safe(report.attacker)} attacks {safe(report.aimed_at)} — {weapon}"
    if result.maneuver is not None:
        title += f", {result.maneuver.value}"
    lines: list[str] = []
    plan = result.plan
    if result.look is not None:  # rolled first, before any other die
        lines.append(look_line(result.look))
    if result.cover is not None:
        c = result.cover
        if c.face is None:
            lines.append("Total hard cover: the attack can't reach the target.")
        else:
            stopped = "stopped by the cover" if c.blocked else "past the cover"
            lines.append(f"Hard cover {c.quarters}/4: d4 **{c.face}** → {stopped}.")
    # A defender's roll takes the attack's advantages as disadvantages (defending-roll).
    swapped = " (the defender's disadvantage)" if plan.defended else ""
    if plan.advantages:
        lines.append("Advantage: " + ", ".join(plan.advantages) + swapped + ".")
    swapped = " (the defender's advantage)" if plan.defended else ""
    if plan.disadvantages:
        lines.append("Disadvantage: " + ", ".join(plan.disadvantages) + swapped + ".")
    roll = result.roll
    if roll is not None:
        lines.append(roll_line(roll))
        lines.append(band_line(roll))
    if result.defended is not None:
        lines.append(defended_line(report.target_before.name, result.defended))
        lines.append(band_line(result.defended))
    if result.effect is not None:
        effect = f"{result.effect.maneuver.value.capitalize()}: {result.effect.summary}"
        if report.prone_marked:
            effect += " (marked prone)"
        lines.append(effect + ".")
    if result.stray is not None:
        stray = result.stray
        if stray.new_target is None:
            lines.append(f"Stray shot d8 **{stray.face}**: it hits nobody else.")
        else:
            lines.append(
                f"Stray shot d8 **{stray.face}**: it flies into"
                f" {safe(report.target_before.name)} instead (defense"
                f" {result.target.defense})."
            )
    if result.rending is not None:  # after the natural-20 hit, before the damage dice
        lines.append(rending_line(result.rending))
    if result.damage is not None:
        lines.extend(damage_lines(result.damage))
    if report.shield is not None:
        lines.append(report.shield.line)
    if report.tracker_note:
        lines.append(report.tracker_note)
    if report.ammo_note:
        lines.append(report.ammo_note)
    before, after = report.target_before, report.target_after
    if after.revision != before.revision:
        lines.append(f"{safe(after.name)}: {before.hp}/{before.max_hp} HP → **{hp_status(after)}**")
        if after.hp <= 0 < before.hp and "dead" not in after.conditions:
            lines.append(f"{safe(after.name)} is dying: a dying roll each turn.")
    if report.slain_rending is not None:
        lines.append(rending_line(report.slain_rending))
    if report.concentration_lost:
        effect = safe(report.concentration_lost)
        lines.append(f"🔮 Concentration on {effect} is lost to the damage.")
    hit = result.damage_total > 0 or (result.effect is not None and result.effect.succeeded)
    embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4096])
    embed.colour = HIT if hit else MISS
    return embed
