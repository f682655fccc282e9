"""Invariants over random inputs (Hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.attack import AttackerStats, TargetStats, roll_attack
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.bands import category_shift
from bot.rules.twod10.categories import CAP, FLOOR, Category, shift
from bot.rules.twod10.equipment import WEAPONS
from bot.rules.twod10.initiative.model import Side
from bot.rules.twod10.initiative.rounds import initiative_ranges
from bot.rules.twod10.tasks import roll_task
from bot.rules.twod10.wielding import wield

d10 = st.integers(1, 10)


class WrappedDice:
    """Random raw numbers folded onto whatever die is asked for."""

    def __init__(self, raw: list[int]) -> None:
        self._raw = iter(raw)

    def roll(self, sides: int) -> int:
        return (next(self._raw) - 1) % sides + 1


@given(
    faces=st.lists(d10, min_size=3, max_size=3),
    attribute=st.integers(-1, 6),
    skill=st.integers(0, 6),
    difficulty=st.integers(-25, 5),
    advantage=st.integers(0, 3),
    disadvantage=st.integers(0, 3),
)
def test_total_is_kept_dice_plus_modifiers(
    faces: list[int], attribute: int, skill: int, difficulty: int, advantage: int,
    disadvantage: int,
) -> None:  # fmt: skip
    result = roll_task(attribute=attribute, skill=skill, difficulty=difficulty,
                       advantage=advantage, disadvantage=disadvantage,
                       dice=ScriptedDice(faces))  # fmt: skip
    assert result.total == sum(result.roll.kept) + attribute + skill + difficulty
    assert len(result.roll.kept) == 2
    if len(result.roll.faces) == 3:
        dropped = result.roll.faces[result.roll.dropped]  # type: ignore[index]
        if advantage > disadvantage:
            assert dropped == min(result.roll.faces)
        else:
            assert dropped == max(result.roll.faces)
    assert result.succeeded == (result.total >= 10 and result.natural != 2)


@given(start=st.sampled_from(list(Category)), steps=st.integers(-20, 20), miss=st.booleans())
def test_shift_stays_within_the_ladder(start: Category, steps: int, miss: bool) -> None:
    moved = shift(start, steps, miss=miss)
    if moved.category is None:
        assert miss and int(start) + steps < FLOOR
    else:
        assert Category.ONE <= moved.category <= CAP
        if miss:
            assert moved.category >= FLOOR


@given(total=st.integers(-40, 60))
def test_shift_is_monotonic(total: int) -> None:
    assert category_shift(total) <= category_shift(total + 1)


@given(
    weapon_index=st.integers(0, len(WEAPONS) - 1),
    faces=st.lists(st.integers(1, 120), min_size=20, max_size=20),
    defense=st.integers(-5, 15),
    reduction=st.integers(0, 12),
    armored=st.booleans(),
)
def test_damage_is_zero_or_at_least_one(
    weapon_index: int, faces: list[int], defense: int, reduction: int, armored: bool
) -> None:
    attacker = AttackerStats(finesse=2, strength=2, melee=2, ranged=2)
    target = TargetStats(attribute=Attribute.FINESSE, defense=defense, reduction=reduction,
                         armored=armored)  # fmt: skip
    result = roll_attack(wield(WEAPONS[weapon_index]), attacker, target, dice=WrappedDice(faces))
    assert result.damage is not None
    if result.damage.deals_damage:
        assert result.damage_total >= 1
        assert all(1 <= f.face <= f.sides for f in result.damage.faces)
    else:
        assert result.damage_total == 0


@given(lost=st.frozensets(st.sampled_from(list(Side))))
def test_initiative_ranges_cover_the_d6(lost: frozenset[Side]) -> None:
    (npc_low, npc_high), (p_low, p_high) = initiative_ranges(lost)
    assert (p_low, npc_high) == (1, 6) and p_high + 1 == npc_low
