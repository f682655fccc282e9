"""Who attacks in /odds attack: a sheet, or raw numbers with no sheet (``score``, ``rank``).

Raw numbers take /task's bounds (``Score``, ``Rank``) and its refusals; the weapon is
one of the weapon table's, ``Unarmed`` (the default) or an ``Improvised`` size, its
brawl the rank, as a sheet carrying it would wield it. ``ODDS_ATTACK_OPTIONS`` is
/attack's declaration as /odds attack takes it, with the options only /odds has.
Into soft cover the look (``bot.rules.twod10.soft_cover``) takes each side's numbers
from its sheet, or the raw ``perception_score`` and ``target_stealth`` (``look_for``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.rules.twod10.attack_inputs import MISSILE, AttackerStats, Situation, attacker_stats
from bot.rules.twod10.equipment import WEAPONS
from bot.rules.twod10.equipment import weapon as table_weapon
from bot.rules.twod10.soft_cover import (
    MAX_HIDING,
    MAX_SIGHT,
    MIN_HIDING,
    LookStats,
    hiding_of,
    needs_look,
    sight_of,
)
from bot.rules.twod10.wielding import Wielded, improvised_weapon, unarmed, wield
from bot.storage.twod10.characters import TwoD10Sheet
from cogs.declared_options import Opt, odds_twin
from cogs.twod10.combat_options import (
    ATTACK_AIM,
    ATTACK_EDGE,
    ATTACKER,
    IMPROVISED,
    MAX_MELEE_OTHERS,
    UNARMED,
    weapon_names,
)
from cogs.twod10.combat_weapons import wielded_for
from cogs.twod10.task_inputs import Rank, Score, check_task_options

RAW_RULING = (
    "/odds attack with raw numbers (score) uses no sheet: score is the attribute the attack"
    " adds to hit (strength, or finesse for a finesse, ranged or thrown attack), rank its"
    " skill (melee, ranged or brawl); a finesse attack's damage adds strength_score (default"
    " score). weapon: is one of the weapon table's, Unarmed (the default) or an"
    " Improvised size, its brawl the rank. Raw numbers carry no encumbrance: put its"
    " penalty in bonus. Into soft cover the look needs perception_score (the attacker's"
    " mind + perception) with raw numbers, and target_stealth (the target's finesse +"
    " stealth, less its EP) with target_defense."
)


@dataclass(frozen=True)
class Attacker:
    """The attack's hands: what is wielded, the numbers it adds, and whose they are."""

    wielded: Wielded
    stats: AttackerStats
    who: str
    sheet: TwoD10Sheet | None


def check_raw(
    *,
    score: int | None,
    rank: int | None,
    strength_score: int | None,
    character: str | None,
    perception_score: int | None = None,
) -> None:
    """/task's refusals for raw numbers, and strength_score's and perception_score's own."""
    check_task_options(difficulty=None, target=None, score=score, rank=rank, character=character)
    for name, value in (("strength_score", strength_score), ("perception_score", perception_score)):
        if value is not None and score is None:
            raise UserError(f"{name} goes with score (raw numbers); give score too, or drop it.")


_NEEDS_LOOK = "Soft cover rolls a look first: with raw numbers give {}."


def look_for(
    hands: Attacker,
    victim: TwoD10Sheet | None,
    loads: dict[int, int],
    situation: Situation,
    *,
    perception_score: int | None,
    target_stealth: int | None,
) -> LookStats | None:
    """The look through soft cover, as /attack rolls it: the attacker's mind + perception
    and the target's finesse + stealth less its EP from the sheets, else the raw numbers.
    None when no look is rolled; UserError naming a raw number it needs."""
    sight = sight_of(hands.sheet.character) if hands.sheet is not None else perception_score
    hiding = hiding_of(victim.character) if victim is not None else target_stealth
    burden = loads.get(victim.id, 0) if victim is not None else 0
    if not needs_look(situation):
        return None
    if sight is None:
        raise UserError(_NEEDS_LOOK.format("perception_score (the attacker's mind + perception)"))
    if hiding is None:
        raise UserError(_NEEDS_LOOK.format("target_stealth (the target's finesse + stealth)"))
    return LookStats(sight=sight, hiding=hiding, burden=burden)


def raw_wielded(
    weapon: str | None, brawl: int, *, thrown: bool, two_handed: bool, offhand: bool
) -> Wielded:
    """A table weapon, Unarmed or an Improvised size, wielded with ``brawl``.
    Raises RulesError for a use the weapon doesn't allow or a name not in the table."""
    key = " ".join((weapon or UNARMED).lower().replace("-", " ").split())
    plain = key == UNARMED.lower() or key in (n.lower() for n in IMPROVISED)
    if plain and (thrown or two_handed or offhand):
        raise UserError(f"{weapon or UNARMED} can't be thrown, gripped two-handed or held offhand.")
    if key == UNARMED.lower():
        return unarmed(brawl)
    for label, size in IMPROVISED.items():
        if key == label.lower():
            return improvised_weapon(size, brawl)
    found = table_weapon(weapon or "")
    return wield(found, thrown=thrown, two_handed_grip=two_handed, offhand=offhand)


def attacker_for(
    sheet: TwoD10Sheet | None,
    fallback_who: str,
    weapon: str | None,
    *,
    score: int | None,
    rank: int | None,
    strength_score: int | None,
    finesse: bool,
    thrown: bool,
    two_handed: bool,
    offhand: bool,
) -> Attacker:
    """The sheet's weapon and numbers, or (no sheet) the raw ones."""
    if sheet is not None:
        wielded = wielded_for(
            sheet.character, weapon, thrown=thrown, two_handed=two_handed, offhand=offhand
        )
        return Attacker(wielded, attacker_stats(sheet.character), sheet.name, sheet)
    assert score is not None
    skill = rank or 0
    wielded = raw_wielded(weapon, skill, thrown=thrown, two_handed=two_handed, offhand=offhand)
    # The attacks that add finesse to hit (as plan_attack decides); the others add strength.
    with_finesse = finesse or offhand or wielded.kind in MISSILE
    if strength_score is not None and not with_finesse:
        raise UserError(
            "This attack adds strength to hit, so score is its strength: drop strength_score."
        )
    strength = score if strength_score is None else strength_score
    stats = AttackerStats(finesse=score, strength=strength, melee=skill, ranged=skill, brawl=skill)
    return Attacker(wielded, stats, fallback_who, None)


async def odds_weapon_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """With raw numbers the weapon table, Unarmed and the Improvised sizes; else the sheet's."""
    if getattr(interaction.namespace, "score", None) is None:
        return await weapon_names(interaction, current)
    text = current.strip().lower()
    names = [UNARMED, *IMPROVISED, *(w.name for w in WEAPONS)]
    return name_choices(n for n in names if text in n.lower())


def _aim() -> tuple[Opt, ...]:
    # With raw numbers there is no sheet to offer weapons from: the table's are offered.
    return tuple(
        replace(o, complete=odds_weapon_names) if o.name == "weapon" else o
        for o in odds_twin(ATTACK_AIM)
    )


# /attack's options without its roll-only ones, with /odds attack's own between them:
# a count of the others in a melee instead of their names, the raw target (no sheet)
# before the attacker and the raw attacker after.
ODDS_ATTACK_OPTIONS = (
    *_aim(),
    Opt("melee_others", commands.Range[int, 0, MAX_MELEE_OTHERS], 0,
        "Into melee: how many others are in that melee (for the stray d8)"),
    *odds_twin(ATTACK_EDGE),
    Opt("target_defense", commands.Range[int, -10, 30], None,
        "Raw numbers: the defense the attack is against (-10 to 30)"),
    Opt("reduction", commands.Range[int, 0, 40], None,
        "Raw numbers: the target's damage reduction (0 to 40)"),
    Opt("armored", bool | None, None,
        "Raw numbers: the target wears armor (axes roll twice only against the unarmored)"),
    Opt("target_stealth", commands.Range[int, MIN_HIDING, MAX_HIDING], None,
        f"Raw numbers, soft cover: the target's finesse + stealth, less its EP"
        f" ({MIN_HIDING} to {MAX_HIDING})"),
    *odds_twin((ATTACKER,)),
    Opt("score", Score, None, "Raw numbers, no sheet: the attribute the attack adds (-1 to 6)"),
    Opt("rank", Rank, None, "Raw numbers: the attack's skill, melee, ranged or brawl (0 to 6)"),
    Opt("strength_score", Score, None,
        "Raw numbers: strength for a finesse attack's damage (default: score)"),
    Opt("perception_score", commands.Range[int, -1, MAX_SIGHT], None,
        f"Raw numbers, soft cover: the attacker's mind + perception (-1 to {MAX_SIGHT})"),
)  # fmt: skip
