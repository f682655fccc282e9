"""Disease: infection by contact, severity's rolls, the overcoming roll, treatment."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.disease import (
    Contact,
    Course,
    Disease,
    Infection,
    Severity,
    contact_modifier,
    roll_infection,
    roll_overcome,
    treat,
)
from bot.rules.twod10.medicine import Healer
from bot.rules.twod10.tasks import Edge

from .survival_support import person

ADA = person(toughness=2, tough_defense=1)  # +3 to every disease roll


def ache(severity: Severity = Severity.MODERATE, difficulty: int | str = -5) -> Disease:
    return Disease(name="Red  ache", difficulty=difficulty, course=Course.ACUTE,  # type: ignore[arg-type]
                   severity=severity)  # fmt: skip


def test_disease_fields() -> None:
    disease = ache(difficulty="difficult for an expert")
    assert disease.name == "Red ache" and disease.difficulty == -10
    assert [c.period for c in Course] == ["day", "week", "month"]
    assert [(s.successes, s.rolls) for s in Severity] == [(1, 2), (1, 1), (2, 3)]
    with pytest.raises(RulesError):
        ache(difficulty=-30)


def test_momentary_contact_is_five_easier() -> None:
    disease = ache(difficulty=-10)
    assert contact_modifier(disease, Contact.LONG) == -10
    assert contact_modifier(disease, Contact.MOMENTARY) == -5


@pytest.mark.parametrize(
    ("contact", "faces", "infected"),
    [
        (Contact.LONG, (6, 6), False),  # 12 + 3 - 5 = 10
        (Contact.LONG, (6, 5), True),  # 9
        (Contact.MOMENTARY, (3, 4), False),  # 7 + 3 + 0 = 10
        (Contact.MOMENTARY, (3, 3), True),  # 9
    ],
)
def test_infection_roll(contact: Contact, faces: tuple[int, int], infected: bool) -> None:
    result = roll_infection(ADA, ache(), contact=contact, dice=ScriptedDice(faces))
    assert result.infected is infected
    assert len(result.rolls.rolls) == 1


def test_minor_gives_two_rolls_for_one_success() -> None:
    minor = ache(Severity.MINOR)
    fail_then_pass = ScriptedDice([1, 2, 6, 6])
    assert not roll_infection(ADA, minor, dice=fail_then_pass).infected
    both_fail = roll_infection(ADA, minor, dice=ScriptedDice([1, 2, 3, 3]))
    assert both_fail.infected and both_fail.rolls.successes == 0
    first = ScriptedDice([6, 6])  # a first success settles it: no second roll
    assert len(roll_infection(ADA, minor, dice=first).rolls.rolls) == 1


def test_severe_needs_two_of_three() -> None:
    severe = ache(Severity.SEVERE)
    two = roll_infection(ADA, severe, dice=ScriptedDice([6, 6, 7, 7]))
    assert not two.infected and len(two.rolls.rolls) == 2
    lost = roll_infection(ADA, severe, dice=ScriptedDice([1, 2, 3, 3]))
    assert lost.infected and len(lost.rolls.rolls) == 2  # one left can't make two
    mixed = roll_infection(ADA, severe, dice=ScriptedDice([6, 6, 1, 2, 9, 9]))
    assert not mixed.infected and mixed.rolls.successes == 2 and len(mixed.rolls.rolls) == 3


def test_overcoming_uses_the_same_roll() -> None:
    infection = Infection(disease=ache())
    kept = roll_overcome(ADA, infection, dice=ScriptedDice([6, 5]))
    assert not kept.overcome and kept.infection == infection
    assert kept.rolls.rolls[0].total == 9
    gone = roll_overcome(ADA, infection, dice=ScriptedDice([6, 6]))
    assert gone.overcome and gone.infection is None


def test_treatment_gives_advantage_on_the_next_roll_only() -> None:
    doctor = Healer(mind=2, medicine=3)
    failed = treat(doctor, Infection(disease=ache()), dice=ScriptedDice([4, 4]))
    assert failed.roll.total == 8 and not failed.infection.treated
    treated = treat(doctor, Infection(disease=ache()), dice=ScriptedDice([5, 5]))
    assert treated.roll.total == 10 and treated.infection.treated
    minor = Infection(disease=ache(Severity.MINOR), treated=True)
    result = roll_overcome(ADA, minor, dice=ScriptedDice([1, 5, 5, 6, 6]))
    first, second = result.rolls.rolls
    assert first.roll.edge is Edge.ADVANTAGE and first.total == 8
    assert second.roll.edge is Edge.NONE and second.total == 10
    assert result.overcome


def test_treatment_advantage_spent_by_a_failed_set() -> None:
    infection = Infection(disease=ache(), treated=True)
    result = roll_overcome(ADA, infection, dice=ScriptedDice([1, 2, 3]))
    assert not result.overcome and result.infection is not None
    assert not result.infection.treated


def test_course_periods_in_campaign_days() -> None:
    # Ruling disease-calendar: daily, weekly (7 days), monthly (30 days).
    assert [c.days for c in Course] == [1, 7, 30]
    assert [c.period for c in Course] == ["day", "week", "month"]
