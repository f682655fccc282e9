"""Magic: the casting roll, tiers, advantage, attacks, casting dangerously, backlash."""

from __future__ import annotations

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.magic import (
    Backlash,
    Casting,
    CastResult,
    Concentration,
    Extension,
    Form,
    Tier,
    after_casting,
    cast,
    concentrate,
    effect_text,
    interrupted,
    on_damage,
)
from bot.rules.twod10.tasks import Edge

from .survival_support import person

MAGE = person(mind=3, mysteries=2)  # +5


def spell(tier: Tier = Tier.ONE, **options: object) -> Casting:
    return Casting(form=Form.SPELL, tier=tier, subfield="Pyromancy", category="fire",
                   **options)  # type: ignore[arg-type]  # fmt: skip


def test_tier_difficulties() -> None:
    assert [t.difficulty for t in Tier] == [-10, -15, -20]
    assert Tier.TWO.needs_component and not Tier.ONE.needs_component


@pytest.mark.parametrize(
    ("faces", "total", "backlash"),
    [
        ((8, 7), 10, Backlash.NONE),
        ((7, 6), 8, Backlash.EFFECT),
        ((7, 7), 9, Backlash.EFFECT),
        ((6, 6), 7, Backlash.CONSEQUENCES),
    ],
)
def test_casting_roll_and_backlash(faces: tuple[int, int], total: int, backlash: Backlash) -> None:
    result = cast(MAGE, spell(), dice=ScriptedDice(faces))
    assert [(m.label, m.value) for m in result.roll.modifiers] == [
        ("mind", 3), ("Mysteries (pyromancy)", 2), ("tier 1", -10),
    ]  # fmt: skip
    assert result.roll.total == total and result.backlash is backlash
    assert result.random_effect is (backlash is not Backlash.NONE)


def test_shortfall_below_eight() -> None:
    result = cast(MAGE, spell(Tier.THREE), dice=ScriptedDice([5, 5]))
    assert result.roll.total == -5 and result.shortfall == 13


def test_casting_dangerously_adds_five_and_an_effect() -> None:
    result = cast(MAGE, spell(dangerously=True), dice=ScriptedDice([6, 4]))
    assert result.roll.total == 10 and result.succeeded and result.random_effect


def test_attacked_while_casting_is_disadvantage() -> None:
    result = cast(MAGE, spell(attacked=True), dice=ScriptedDice([9, 9, 2]))
    assert result.roll.roll.edge is Edge.DISADVANTAGE and result.roll.natural == 11


def test_extension_gives_advantage_that_an_attack_cancels() -> None:
    extended = cast(MAGE, spell(extension=Extension.EXTRA_ROUND), dice=ScriptedDice([2, 9, 9]))
    assert extended.roll.roll.edge is Edge.ADVANTAGE and extended.roll.natural == 18
    both = spell(extension=Extension.EXTRA_ROUND, attacked=True)
    assert cast(MAGE, both, dice=ScriptedDice([2, 9])).roll.roll.edge is Edge.NONE


def test_ritual_advantages() -> None:
    hour = Casting(form=Form.RITUAL, tier=Tier.ONE, subfield="pyromancy",
                   extension=Extension.MAXIMUM_TIME)  # fmt: skip
    assert cast(MAGE, hour, dice=ScriptedDice([1, 5, 5])).roll.roll.edge is Edge.ADVANTAGE
    skull = Casting(form=Form.RITUAL, tier=Tier.ONE, subfield="pyromancy", component=True)
    assert cast(MAGE, skull, dice=ScriptedDice([1, 5, 5])).roll.natural == 10
    both = Casting(form=Form.RITUAL, tier=Tier.ONE, subfield="pyromancy", component=True,
                   extension=Extension.MAXIMUM_TIME)  # fmt: skip
    assert len(cast(MAGE, both, dice=ScriptedDice([1, 5, 5])).roll.roll.faces) == 3
    day = Casting(form=Form.RITUAL, tier=Tier.TWO, subfield="pyromancy", component=True,
                  extension=Extension.MAXIMUM_TIME)  # fmt: skip
    result = cast(MAGE, day, dice=ScriptedDice([10, 10, 1]))
    assert result.roll.total == 20 - 15 + 5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"form": Form.RITUAL, "tier": Tier.TWO}, "always needs a ritual component"),
        ({"form": Form.RITUAL, "tier": Tier.THREE, "extension": Extension.MAXIMUM_TIME},
         "extend it a round"),
        ({"form": Form.RITUAL, "tier": Tier.TWO, "component": True,
          "extension": Extension.COMPONENT}, "Only tier one"),
        ({"form": Form.SPELL, "tier": Tier.ONE, "category": "fire",
          "extension": Extension.MAXIMUM_TIME}, "one more full round"),
        ({"form": Form.SPELL, "tier": Tier.ONE}, "category"),
    ],
)  # fmt: skip
def test_refused_castings(options: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RulesError, match=message):
        Casting(subfield="pyromancy", **options)


def test_concentration_one_at_a_time_and_lost_to_damage() -> None:
    state, ended = concentrate(Concentration(), "levitate")
    assert state.holding and ended is None
    state, ended = concentrate(state, "  ward  the door ")
    assert state.effect == "ward the door" and ended == "levitate"
    state, ended = on_damage(state)
    assert not state.holding and ended == "ward the door"


def test_damage_interrupts_unrolled_without_backlash() -> None:
    result = interrupted(spell(dangerously=True))
    assert result.roll is None and not result.succeeded and result.interrupted
    assert result.backlash is Backlash.NONE and result.random_effects == 0
    assert result.shortfall == 0


@pytest.mark.parametrize(
    ("faces", "dangerously", "effects"),
    [
        ((8, 7), False, 0),  # 15 + 5 - 10 = 10: success, no effect
        ((5, 5), True, 1),  # 10 + 5 + 5 (dangerously) - 10 = 10: success, one effect
        ((7, 6), False, 1),  # 13 + 5 - 10 = 8: backlash only
        ((2, 1), True, 2),  # 3 + 5 + 5 - 10 = 3: dangerous and backlash, two effects
    ],
)
def test_random_effects_count(faces: tuple[int, int], dangerously: bool, effects: int) -> None:
    result = cast(MAGE, spell(dangerously=dangerously), dice=ScriptedDice(faces))
    assert result.random_effects == effects


def test_natural_two_backlash_is_read_on_its_total() -> None:
    # 1 + 1 + 5 + 5 (dangerously) - 10 = 2: a natural 2 fails; 2 is 6 below 8.
    result = cast(MAGE, spell(dangerously=True), dice=ScriptedDice([1, 1]))
    assert result.roll is not None and result.roll.natural_two and not result.succeeded
    assert result.backlash is Backlash.CONSEQUENCES and result.shortfall == 6


def _result(faces: tuple[int, int]) -> CastResult:
    return cast(MAGE, spell(), dice=ScriptedDice(faces))


def test_after_casting_success_holds_the_new_effect() -> None:
    state, ended = after_casting(Concentration(effect="ward"), _result((9, 9)), " flying  high ")
    assert state == Concentration(effect="flying high") and ended == "ward"


def test_after_casting_failure_lets_go_of_the_old() -> None:
    state, ended = after_casting(Concentration(effect="ward"), _result((2, 3)), "flying")
    assert not state.holding and ended == "ward"


def test_after_casting_without_concentration_keeps_it() -> None:
    state, ended = after_casting(Concentration(effect="ward"), _result((2, 3)), None)
    assert state == Concentration(effect="ward") and ended is None
    state, ended = after_casting(Concentration(), _result((9, 9)), None)
    assert not state.holding and ended is None


def test_after_an_interrupted_casting_concentration_is_lost() -> None:
    state, ended = after_casting(Concentration(effect="ward"), interrupted(spell()), "flying")
    assert not state.holding and ended == "ward"


def test_effect_text_is_bounded() -> None:
    assert effect_text("  a   b ") == "a b"
    for bad in ("   ", "x" * 101):
        with pytest.raises(RulesError, match="effect in 1 to 100"):
            effect_text(bad)


def test_no_mysteries_rolls_mind_alone() -> None:
    novice = person(mind=2)
    result = cast(novice, spell(), dice=ScriptedDice([9, 9]))
    assert result.roll is not None and result.roll.total == 18 + 2 - 10
