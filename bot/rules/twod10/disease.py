"""Disease: infection, contact, the periodic roll to overcome it, and treatment.

Infection: 2d10 + toughness + defense (toughness) + the disease's difficulty; a
total below 10 contracts it. Severity sets how many rolls are given and how many
must succeed ("Minor: one success of 2 rolls given to overcome or avoid
infection; Moderate: one success of one roll; Severe: two successes of 3
rolls"); the course sets how often the overcoming rolls come (acute daily,
intermediate weekly, chronic monthly). Treatment is mind + medicine with the
disease's difficulty; success gives advantage on the patient's next roll to
overcome it.

Rulings:

* ``momentary-contact``: "modified by the infection DC-5" eases the difficulty by
  5 (a -10 disease rolls at -5 for momentary contact); long contact rolls at the
  full difficulty.
* ``overcoming-roll``: the overcoming roll is the same roll as infection (every
  task adds its attribute: toughness + defense (toughness) + difficulty), with
  the severity's rolls and successes once per period of the course.
* ``treatment-advantage``: treatment's advantage goes on the first roll of the
  patient's next overcoming set, and a set of rolls stops as soon as its
  outcome is certain.
* ``disease-calendar``: the course counts campaign days (a week is 7, a month 30):
  the first overcoming roll falls due one period after infection, the next one
  period after each roll; a failed set leaves the disease as it was (the text gives
  no worsening), a passed set cures it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.rules.dice_source import Dice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.character import Character
from bot.rules.twod10.difficulty import parse_difficulty
from bot.rules.twod10.medicine import Healer
from bot.rules.twod10.skills import defense
from bot.rules.twod10.tasks import TaskResult, roll_task

MOMENTARY_EASING = 5
MAX_NAME = 60


class Course(Enum):
    ACUTE = "acute"
    INTERMEDIATE = "intermediate"
    CHRONIC = "chronic"

    @property
    def period(self) -> str:
        return {"acute": "day", "intermediate": "week", "chronic": "month"}[self.value]

    @property
    def days(self) -> int:
        """Campaign days between overcoming rolls (ruling disease-calendar)."""
        return {"acute": 1, "intermediate": 7, "chronic": 30}[self.value]


class Severity(Enum):
    MINOR = "minor"
    MODERATE = "moderate"
    SEVERE = "severe"

    @property
    def rolls(self) -> int:
        return {"minor": 2, "moderate": 1, "severe": 3}[self.value]

    @property
    def successes(self) -> int:
        return {"minor": 1, "moderate": 1, "severe": 2}[self.value]


class Contact(Enum):
    MOMENTARY = "momentary"
    LONG = "long"


@dataclass(frozen=True, kw_only=True)
class Disease:
    name: str
    difficulty: int  # a ladder number, added to the roll (ruling ladder-signs)
    course: Course
    severity: Severity

    def __post_init__(self) -> None:
        clean = " ".join(str(self.name).split())
        if not clean or len(clean) > MAX_NAME:
            raise RulesError(f"Name the disease in 1 to {MAX_NAME} characters.")
        object.__setattr__(self, "name", clean)
        object.__setattr__(self, "difficulty", parse_difficulty(self.difficulty))


def contact_modifier(disease: Disease, contact: Contact) -> int:
    """Ruling momentary-contact: momentary contact is 5 easier than long contact."""
    if contact is Contact.MOMENTARY:
        return disease.difficulty + MOMENTARY_EASING
    return disease.difficulty


@dataclass(frozen=True, kw_only=True)
class RollSet:
    """The severity's rolls, in order, and whether enough of them succeeded."""

    rolls: tuple[TaskResult, ...]
    needed: int

    @property
    def successes(self) -> int:
        return sum(1 for r in self.rolls if r.succeeded)

    @property
    def passed(self) -> bool:
        return self.successes >= self.needed


def _roll_set(
    character: Character, disease: Disease, modifier: int, *, first_advantage: bool, dice: Dice
) -> RollSet:
    toughness = character.attribute(Attribute.TOUGHNESS)
    skill = character.skill(defense(Attribute.TOUGHNESS))
    severity = disease.severity
    rolls: list[TaskResult] = []
    for index in range(severity.rolls):
        successes = sum(1 for r in rolls if r.succeeded)
        left = severity.rolls - index
        # Ruling treatment-advantage: stop once the outcome can't change.
        if successes >= severity.successes or successes + left < severity.successes:
            break
        rolls.append(
            roll_task(
                attribute=toughness,
                skill=skill,
                difficulty=modifier,
                advantage=1 if first_advantage and index == 0 else 0,
                attribute_label="toughness",
                skill_label="defense (toughness)",
                difficulty_label=f"{disease.name} difficulty",
                dice=dice,
            )
        )
    return RollSet(rolls=tuple(rolls), needed=severity.successes)


@dataclass(frozen=True, kw_only=True)
class InfectionResult:
    rolls: RollSet
    contact: Contact

    @property
    def infected(self) -> bool:
        return not self.rolls.passed


def roll_infection(
    character: Character, disease: Disease, *, contact: Contact = Contact.LONG, dice: Dice
) -> InfectionResult:
    """Contact with a vector: the severity's rolls; too few successes and it is contracted."""
    modifier = contact_modifier(disease, contact)
    rolls = _roll_set(character, disease, modifier, first_advantage=False, dice=dice)
    return InfectionResult(rolls=rolls, contact=contact)


@dataclass(frozen=True, kw_only=True)
class Infection:
    """A disease a character carries, and whether treatment left them an advantage."""

    disease: Disease
    treated: bool = False


@dataclass(frozen=True, kw_only=True)
class OvercomeResult:
    rolls: RollSet
    infection: Infection | None  # None: the disease is overcome

    @property
    def overcome(self) -> bool:
        return self.infection is None


def roll_overcome(character: Character, infection: Infection, *, dice: Dice) -> OvercomeResult:
    """The roll each day, week or month of the course (ruling overcoming-roll)."""
    disease = infection.disease
    rolls = _roll_set(
        character, disease, disease.difficulty, first_advantage=infection.treated, dice=dice
    )
    left = None if rolls.passed else Infection(disease=disease, treated=False)
    return OvercomeResult(rolls=rolls, infection=left)


@dataclass(frozen=True, kw_only=True)
class TreatmentResult:
    roll: TaskResult
    infection: Infection


def treat(healer: Healer, infection: Infection, *, dice: Dice) -> TreatmentResult:
    """Mind + medicine with the disease's difficulty; success: advantage on the next roll."""
    roll = roll_task(
        attribute=healer.mind,
        skill=healer.medicine,
        difficulty=infection.disease.difficulty,
        attribute_label="mind",
        skill_label="medicine",
        difficulty_label=f"{infection.disease.name} difficulty",
        dice=dice,
    )
    treated = infection.treated or roll.succeeded
    return TreatmentResult(roll=roll, infection=Infection(disease=infection.disease,
                                                          treated=treated))  # fmt: skip
