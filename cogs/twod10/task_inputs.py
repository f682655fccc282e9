"""What a 2d10 task is rolled with, shared by /task and /odds task so the odds are
always those of the very roll /task would make with the same options."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.render.character import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.difficulty import difficulty_label, parse_difficulty
from bot.rules.twod10.skills import SkillKey
from bot.rules.twod10.tasks import Modifier
from bot.storage.twod10_characters import TwoD10CharacterRepository, TwoD10Sheet
from cogs.twod10 import options


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
    """The ladder rung, or the named target's defense in ``target_defense``."""
    if target is None:
        return Against(text=f"difficulty {difficulty_label(level)}", modifier=level, target=None)
    sheet = await TwoD10CharacterRepository(conn).find(guild_id, target[:64])
    if sheet is None:
        raise UserError(
            f"There is no character called {safe(target[:64])} here: check /character list."
        )
    defended = Attribute(target_defense)
    value = sheet.character.defense_value(defended)
    return Against(
        text=f"{sheet.name}'s {defended.value} defense {value}", modifier=-value, target=sheet
    )


@dataclass(frozen=True)
class TaskNumbers:
    """The attribute and skill a task adds, their labels, whose roll and what it is."""

    attribute: int
    skill: int
    attribute_label: str
    skill_label: str
    who: str
    what: str


def task_numbers(
    sheet: TwoD10Sheet | None,
    attribute: str | None,
    key: SkillKey | None,
    *,
    score: int | None,
    rank: int | None,
    fallback_who: str,
) -> TaskNumbers:
    """From the sheet (the attribute named, or the one a defense skill implies) or raw."""
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
    return TaskNumbers(
        attribute=attr_value, skill=skill_value, attribute_label=attr_label,
        skill_label=skill_label, who=who, what=what,
    )  # fmt: skip


def bonus_modifiers(bonus: int) -> tuple[Modifier, ...]:
    return (Modifier(label="bonus", value=bonus),) if bonus else ()
