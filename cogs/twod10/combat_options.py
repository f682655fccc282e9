"""Options of /attack, /hp and /condition for the 2d10 system: parsing, autocomplete, rulings.

The rarely used situation flags share one ``situation`` text option read from a fixed
vocabulary (autocomplete offers it), so /attack stays well under Discord's 25 options.
/attack's options are declared once (``ATTACK_OPTIONS``); /odds attack is made from
the same declarations (``cogs.twod10.odds_attacker``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.interactions.hp_change import TWOD10_WORDING
from bot.interactions.hp_change import parse_hp_change as shared_parse_hp_change
from bot.render.text import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.equipment import Size
from bot.rules.twod10.maneuvers import Hands
from bot.rules.twod10.ranged import Light
from bot.rules.twod10.rulings import ruling
from bot.storage.twod10.characters import TwoD10CharacterRepository
from cogs.declared_options import Opt
from cogs.twod10.options import character_names

MAX_NAME = 64
Name = commands.Range[str, 1, MAX_NAME]
Text = commands.Range[str, 1, 200]
Edge = commands.Range[int, 0, 5]
Bonus = commands.Range[int, -10, 10]
MAX_MELEE_OTHERS = 8  # the stray d8 can pick at most eight others

ManeuverChoice = Literal["trip", "force back", "bluff", "disarm", "pin", "throw", "use as weapon"]
DefenseChoice = Literal["finesse", "strength", "mind"]
ParryChoice = Literal["melee", "ranged"]

UNARMED = "Unarmed"
OPPONENT = "Opponent"  # the one a use-as-weapon maneuver holds (cogs.twod10.combat_opponent)
IMPROVISED = {f"Improvised {size.value}": size for size in Size}


def user_rules_error(exc: RulesError) -> UserError:
    """A rules refusal (which may quote typed text) made inert."""
    return UserError(discord.utils.escape_mentions(str(exc)))


@dataclass(frozen=True, kw_only=True)
class SituationFlags:
    """What the ``situation`` option said, before the target's conditions add to it."""

    flanking: bool = False
    target_prone: bool = False
    target_pinned: bool = False
    attacker_pinned: bool = False
    prepared: bool = False
    into_melee: bool = False
    beyond_range: bool = False
    engaged: bool = False
    light: Light = Light.NORMAL
    soft_cover: int = 0
    unseen: bool = False
    hard_cover: int = 0
    buckler_hand: bool = False
    hands: Hands = Hands.BOTH_FREE
    defended: bool = False  # the target declared a defense roll for the attacked attribute


# term → (field, value); "soft cover N" and "hard cover N" take a number.
_FLAGS: dict[str, tuple[str, object]] = {
    "flanking": ("flanking", True),
    "target prone": ("target_prone", True),
    "target pinned": ("target_pinned", True),
    "attacker pinned": ("attacker_pinned", True),
    "prepared": ("prepared", True),
    "into melee": ("into_melee", True),
    "beyond range": ("beyond_range", True),
    "engaged": ("engaged", True),
    "low light": ("light", Light.LOW),
    "darkness": ("light", Light.DARK),
    "unseen": ("unseen", True),
    "buckler hand": ("buckler_hand", True),
    "one hand free": ("hands", Hands.ONE_FREE),
    "no hand free": ("hands", Hands.NONE_FREE),
    "target defends": ("defended", True),
}
_NUMBERED = {"soft cover": "soft_cover", "hard cover": "hard_cover"}
SITUATION_TERMS = (*_FLAGS, "soft cover 1", "hard cover 1")
_NUMBERED_TERM = re.compile(r"^(soft cover|hard cover)\s+(\d)$")


def parse_situation(text: str | None) -> SituationFlags:
    """ "flanking, soft cover 2, low light" → flags; UserError naming an unknown term."""
    values: dict[str, object] = {}
    if not text:
        return SituationFlags()
    for raw in text.split(","):
        term = " ".join(raw.lower().split())
        if not term:
            continue
        if term in _FLAGS:
            field, value = _FLAGS[term]
            values[field] = value
            continue
        match = _NUMBERED_TERM.match(term)
        if match is None:
            raise UserError(
                f"“{safe(term[:30])}” is not a situation: use the terms the menu offers,"
                " separated by commas (e.g. flanking, soft cover 2)."
            )
        number = int(match.group(2))
        if not 1 <= number <= 4:
            raise UserError(f"{match.group(1).capitalize()} goes from 1 to 4 quarters.")
        values[_NUMBERED[match.group(1)]] = number
    return SituationFlags(**values)  # type: ignore[arg-type]


def situation_terms(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for the situation list: completes the last term typed."""
    head, _, last = current.rpartition(",")
    prefix = (head.strip() + ", ") if head.strip() else ""
    last = " ".join(last.lower().split())
    terms = [t for t in SITUATION_TERMS if t.startswith(last) or last in t]
    return [app_commands.Choice(name=(prefix + t)[:100], value=(prefix + t)[:100]) for t in terms][
        :25
    ]


async def situation_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return situation_terms(current)


def split_names(text: str | None) -> list[str]:
    """The other combatants in a melee, comma separated, in the GM's order."""
    if not text:
        return []
    names = [" ".join(part.split()) for part in text.split(",")]
    names = [n for n in names if n]
    if len(names) > MAX_MELEE_OTHERS:
        raise UserError(
            f"Name at most {MAX_MELEE_OTHERS} others in the melee: the stray die is a d8."
        )
    return names


async def weapon_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The attacker's weapons, then unarmed and the improvised sizes."""
    if interaction.guild_id is None:
        return []
    named = getattr(interaction.namespace, "character", None)
    async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
        repo = TwoD10CharacterRepository(conn)
        if isinstance(named, str) and named.strip():
            sheet = await repo.find(interaction.guild_id, named[:MAX_NAME])
        else:
            sheet = await repo.active(interaction.guild_id, interaction.user.id)
    names = [w.name for w in sheet.character.weapons] if sheet is not None else []
    names += [UNARMED, *IMPROVISED, OPPONENT]
    text = current.strip().lower()
    return name_choices(n for n in names if text in n.lower())


# /attack's options, declared once in three runs so that /odds attack can put its own
# (melee_others, the raw target and attacker numbers) between them: the aim, the GM's
# edge, the attacker. Their order is the slash command's.
ATTACK_AIM = (
    Opt("target", Name, help="Character attacked", complete=character_names,
        odds_default=None,  # /odds attack takes raw numbers instead
        odds_help="Character attacked (or give target_defense for raw numbers)"),
    Opt("weapon", Text, None,
        "A weapon on the sheet, Unarmed, Improvised <size> or Opponent (default: first weapon)",
        complete=weapon_names),
    Opt("maneuver", ManeuverChoice | None, None,
        "Special maneuver (disadvantage, one damage category lower)"),
    Opt("defense", DefenseChoice | None, None, "Defense the maneuver targets (default: its first)"),
    Opt("finesse", bool, False, "Attack with finesse (light/one-handed melee, brawl)"),
    Opt("thrown", bool, False, "Throw the weapon"),
    Opt("two_handed", bool, False, "Hold a one-handed weapon in two hands (d10)"),
    Opt("offhand", bool, False, "The light weapon in your offhand"),
    Opt("block", bool, False, "The target blocks with its shield (halves the damage)"),
    Opt("parry", ParryChoice | None, None, "The target parries with finesse + melee or ranged",
        odds_help="The target (a sheet) parries with finesse + melee or ranged"),
    Opt("situation", Text, None,
        "e.g. flanking, into melee, soft cover 2, low light (comma separated)",
        complete=situation_names),
)  # fmt: skip
MELEE_WITH = Opt("melee_with", Text, None,
                 "Into melee: the others in that melee, comma separated, in order",
                 roll_only=True)  # fmt: skip
ATTACK_EDGE = (
    Opt("advantage", Edge, 0, "Other advantages the GM grants"),
    Opt("disadvantage", Edge, 0, "Other disadvantages the GM imposes"),
    Opt("bonus", Bonus, 0, "Another modifier the GM applies"),
)
ATTACKER = Opt("character", Name, None, "Attacker (default: your active one)",
               complete=character_names)  # fmt: skip
ATTACK_OPTIONS = (
    *ATTACK_AIM,
    MELEE_WITH,
    *ATTACK_EDGE,
    ATTACKER,
    Opt("rend", bool, False, "Try rending (brawl + strength): on a natural-20 hit an extra"
        " damage die; on a kill an improvised weapon", roll_only=True),
    Opt("pin_prone", bool, False, "A successful pin forces the target prone (both of you are)",
        roll_only=True),
    Opt("odds", bool, False, "Show the exact chance to hit and the expected damage before the"
        " dice", roll_only=True),
)  # fmt: skip


def _r(*keys: str) -> list[str]:
    return [ruling(k).text for k in keys]


# Rulings this cog makes itself (also in README's Rulings).
ATTACKER_RULING = (
    "The attacker's owner or the GM attacks (character: picks the sheet); weapon: one on the"
    " sheet, Unarmed (the brawl table) or Improvised <size>; default the sheet's first weapon."
)
REACTION_RULING = (
    "block: and parry: are the target's reactions, given by whoever runs /attack at the"
    " target's word. A block is spent only when the attack deals damage, and a broken"
    " shield (its table's attacks used up) can't block until the GM runs /shield repair."
    " parry: subtracts the target's finesse + melee (or + ranged) from this attack."
)
STRAY_RULING = (
    "into melee: name the others in that melee in melee_with: (in the GM's order); a missed"
    " shot's d8 picks among them and the shot is judged again against the one it strays to."
)
DYING_RULING = (
    "At 0 HP or below a character is dying (it makes the dying roll each turn); at its death"
    " threshold it is marked dead (it follows the HP, so /condition doesn't set it). A dead"
    " character can't attack or be attacked; the GM's /hp above the threshold brings it back."
    " Healing to 1 HP or more clears unconscious (the text: it regains"
    " consciousness at 1 HP)."
)
PRONE_RULING = (
    "A successful trip or throw marks the target prone, as a pin with pin_prone: marks both;"
    " attacks on a prone target have advantage without saying so. In a tracked fight a pin,"
    " a disarm and a declared defense are applied by the tracker; outside one, name them in"
    " situation: (target pinned, attacker pinned, target defends)."
)

ATTACK_RULINGS = [
    ATTACKER_RULING,
    REACTION_RULING,
    STRAY_RULING,
    DYING_RULING,
    PRONE_RULING,
    "situation: comma-separated terms: " + ", ".join(SITUATION_TERMS).replace(" 1", " N") + ".",
    *_r(
        "damage-attribute", "thrown-skill", "natural-two", "blank-bands", "below-not-above",
        "minus-six", "past-twenty", "category-ladder", "extra-dice", "axe-unarmored",
        "block-order", "block-reaction", "cleave-weapons", "improvised-concealable",
        "two-weapon-finesse", "crossbow-loading",
        "reduction-floor", "maneuver-effects", "maneuver-ranged",
        "brawl-hands",
        "brawl-table-ends", "parry-ranged", "flanking", "engaged-shooter", "hard-cover",
        "soft-cover-look", "soft-cover-unseen", "soft-cover-location",
        "stray-shot", "darkness", "advantage-stack",
        "defending-roll", "defending-use", "critical-hit", "rending-reach",
        "attack-action", "offhand-bonus", "pin-tracked", "pin-ends", "disarm-drops",
        "force-back-positions", "trip-movement", "opponent-weapon-rounds", "opponent-weapon-size",
        "opponent-weapon-damage",
    ),
]  # fmt: skip

HP_RULINGS = [
    "GM only: +N heals (never above the maximum), -N takes hit points away, set N sets them;"
    " never below the death threshold.",
    DYING_RULING,
    *_r("death-threshold"),
]

CONDITION_RULINGS = [
    "add and remove are GM only; anyone can list a character's conditions. The bot tracks"
    " prone, unconscious and dead; dying is shown from the hit points.",
    PRONE_RULING,
    DYING_RULING,
]

SHIELD_RULINGS = [REACTION_RULING]


def parse_hp_change(text: str) -> tuple[str, int]:
    """``/hp``'s change in this ruleset's words (``bot.interactions.hp_change``)."""
    return shared_parse_hp_change(text, TWOD10_WORDING)
