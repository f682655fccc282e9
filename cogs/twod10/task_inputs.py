"""What a 2d10 task is rolled with, shared by /task and /odds task so the odds are
always those of the very roll /task would make with the same options, encumbrance
included (ruling encumbrance-rolls: the roller's penalty, the target's finesse defense)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.render.text import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.difficulty import difficulty_label, match_difficulty_names, parse_difficulty
from bot.rules.twod10.encumbrance import Encumbrance, encumbrance_modifier
from bot.rules.twod10.odds import TaskOdds, task_odds
from bot.rules.twod10.sight import Sight, sight_disadvantage
from bot.rules.twod10.skills import SkillKey
from bot.rules.twod10.tasks import MAX_EDGE, Modifier
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Sheet
from cogs.declared_options import Chosen, Opt
from cogs.twod10 import options
from cogs.twod10.encumbrance_state import defense_penalty

AttributeName = Literal["finesse", "strength", "toughness", "mind", "social"]
Light = Literal["low light", "darkness"]
Count = commands.Range[int, 0, MAX_EDGE]
Text = commands.Range[str, 1, 100]
Bonus = commands.Range[int, -20, 20]
# Raw numbers instead of a sheet: an attribute and a skill rank as a sheet holds them.
Score = commands.Range[int, -1, 6]
Rank = commands.Range[int, 0, 6]


async def difficulty_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Ladder rungs by name; the value sent back is the name."""
    return [
        app_commands.Choice(name=n, value=n.split(" (")[0])
        for n in match_difficulty_names(current[:100])
    ]


# /task's options, declared once: /task, /odds task (all but the roll-only ones) and
# /odds party (the ones every sheet shares) are made from them (cogs.declared_options).
TASK_OPTIONS = (
    Opt("attribute", AttributeName | None, None,
        "Attribute to add (a defense skill implies its own)"),
    Opt("skill", Text, None, "Skill from the sheet, e.g. stealth or defense (finesse)",
        complete=options.skill_choices),
    Opt("difficulty", Text, None, "Ladder name or number, +5 (very easy) to -25 (legendary)",
        complete=difficulty_choices),
    Opt("target", Text, None, "Roll against this character's defense instead",
        complete=options.character_names),
    Opt("target_defense", AttributeName, "finesse", "Which defense of the target (default"
        " finesse)"),
    Opt("advantage", Count, 0, "Advantage sources (each cancels one disadvantage)"),
    Opt("disadvantage", Count, 0, "Disadvantage sources"),
    Opt("bonus", Bonus, 0, "Any other modifier the GM gives"),
    Opt("light", Light | None, None, "If the task needs sight: low light (perception at"
        " disadvantage) or darkness (disadvantage)"),
    Opt("score", Score, None, "Raw attribute value instead of a sheet (-1 to 6)"),
    Opt("rank", Rank, None, "Raw skill rank with score (0 to 6)"),
    Opt("character", Text, None, "Whose sheet (default: your active character)",
        complete=options.character_names),
    Opt("label", commands.Range[str, 1, 80], None, "What the roll is for", roll_only=True),
    Opt("secret", bool, False, "Show the result only to you and the GM", roll_only=True),
    Opt("odds", bool, False, "Show the exact chance of success before the dice",
        roll_only=True),
)  # fmt: skip
PARTY_OPTIONS = ("attribute", "skill", "difficulty", "advantage", "disadvantage", "bonus", "light")


def check_task_options(
    *,
    difficulty: str | None,
    target: str | None,
    score: int | None,
    rank: int | None,
    character: str | None,
) -> int:
    """Refuse options that contradict each other; the difficulty's number (0 when none)."""
    if difficulty is not None and target is not None:
        raise UserError("Roll against a difficulty or a target, not both.")
    if rank is not None and score is None:
        raise UserError("rank goes with score (raw numbers); give score too, or drop rank.")
    if score is not None and character is not None:
        raise UserError("Use score for raw numbers or character for a sheet, not both.")
    try:
        return parse_difficulty(difficulty) if difficulty is not None else 0
    except RulesError as exc:
        raise options.rules(exc) from None


@dataclass(frozen=True)
class Against:
    """What the task is judged against: its text, the number it adds, the target's sheet."""

    text: str
    modifier: int
    target: TwoD10Sheet | None

    @property
    def label(self) -> str:
        return "target's defense" if self.target else "difficulty"


async def resolve_against(
    conn: aiosqlite.Connection,
    guild_id: int,
    level: int,
    target: str | None,
    target_defense: str,
) -> Against:
    """The ladder rung, or the named target's defense in ``target_defense`` (an
    encumbered target's finesse defense lowered by its EP)."""
    if target is None:
        return Against(text=f"difficulty {difficulty_label(level)}", modifier=level, target=None)
    sheet = await TwoD10CharacterRepository(conn).find(guild_id, target[:64])
    if sheet is None:
        raise UserError(
            f"There is no character called {safe(target[:64])} here: check /character list."
        )
    defended = Attribute(target_defense)
    burden = await defense_penalty(conn, sheet, defended)
    value = sheet.character.defense_value(defended) - burden
    text = f"{sheet.name}'s {defended.value} defense {value}"
    text += f" (encumbered -{burden})" if burden else ""
    return Against(text=text, modifier=-value, target=sheet)


@dataclass(frozen=True)
class TaskNumbers:
    """The attribute and skill a task adds, their labels, whose roll and what it is."""

    attribute: int
    skill: int
    attribute_label: str
    skill_label: str
    who: str
    what: str
    burden: Modifier | None = None  # the sheet's encumbrance penalty, when it applies

    def extra(self, bonus: int) -> tuple[Modifier, ...]:
        """The modifiers beyond attribute, skill and difficulty: the GM's bonus and the
        encumbrance penalty, the same for the roll and its odds."""
        return bonus_modifiers(bonus) + ((self.burden,) if self.burden is not None else ())


def task_numbers(
    sheet: TwoD10Sheet | None,
    attribute: str | None,
    key: SkillKey | None,
    *,
    score: int | None,
    rank: int | None,
    fallback_who: str,
    load: Encumbrance | None = None,
) -> TaskNumbers:
    """From the sheet (the attribute named, or the one a defense skill implies) or raw;
    ``load`` is the sheet's encumbrance (raw numbers carry none)."""
    chosen = Attribute(attribute) if attribute is not None else None
    if chosen is None and key is not None and key.attribute is not None:
        chosen = key.attribute  # a defense skill names its attribute
    if chosen is None and score is None:
        raise UserError("Name the attribute to roll with, e.g. attribute:finesse.")
    attr_label = chosen.value if chosen else "score"
    skill_label = key.label.lower() if key else "no skill"
    if sheet is not None:
        assert chosen is not None
        attr_value, skill_value, who = sheet.character.attribute(chosen), 0, sheet.name
        if key is not None:
            skill_value = sheet.character.skill(key)
    else:
        attr_value, skill_value, who = int(score or 0), int(rank or 0), fallback_who
        if key is None and rank:
            skill_label = "rank"
    what = attr_label.capitalize() + (f" + {key.label}" if key else "")
    burden = None
    if sheet is not None and load is not None and chosen is not None:
        burden = encumbrance_modifier(load, chosen, key)
    return TaskNumbers(
        attribute=attr_value, skill=skill_value, attribute_label=attr_label,
        skill_label=skill_label, who=who, what=what, burden=burden,
    )  # fmt: skip


def bonus_modifiers(bonus: int) -> tuple[Modifier, ...]:
    return (Modifier(label="bonus", value=bonus),) if bonus else ()


def task_options(o: Chosen) -> tuple[int, SkillKey | None]:
    """/task's options checked (the refusals /task and its odds share): the difficulty's
    number (0 when none) and the skill named. Options a command doesn't take (/odds
    party has no target, score, rank or character) count as not given."""
    level = check_task_options(
        difficulty=o.difficulty, target=getattr(o, "target", None),
        score=getattr(o, "score", None), rank=getattr(o, "rank", None),
        character=getattr(o, "character", None),
    )  # fmt: skip
    key = options.parse_skill_option(o.skill) if o.skill is not None else None
    light = getattr(o, "light", None)
    # The light's disadvantage joins the others before anything rolls or counts odds
    # (ruling sight-tasks), so /task and /odds task can't differ.
    o.disadvantage += sight_disadvantage(Sight(light) if light else None, key)
    return level, key


def chances(numbers: TaskNumbers, difficulty: int, o: Chosen) -> TaskOdds:
    """The exact odds of the task /task would roll with these numbers and options."""
    try:
        return task_odds(
            attribute=numbers.attribute, skill=numbers.skill, difficulty=difficulty,
            extra=numbers.extra(o.bonus), advantage=o.advantage, disadvantage=o.disadvantage,
        )  # fmt: skip
    except RulesError as exc:
        raise options.rules(exc) from None
