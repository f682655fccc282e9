"""What a 2d10 task is rolled with, shared by /task and /odds task so the odds are
always those of the very roll /task would make with the same options, encumbrance
included (ruling encumbrance-rolls: the roller's penalty, the target's finesse defense)."""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.errors import UserError
from bot.render.character import safe
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.difficulty import difficulty_label, parse_difficulty
from bot.rules.twod10.encumbrance import Encumbrance, encumbrance_modifier
from bot.rules.twod10.skills import SkillKey
from bot.rules.twod10.tasks import Modifier
from bot.storage.twod10_characters import TwoD10CharacterRepository, TwoD10Sheet
from cogs.twod10 import options
from cogs.twod10.encumbrance_state import defense_penalty


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
