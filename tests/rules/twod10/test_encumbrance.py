"""Encumbrance: item weight to EP, toughness's ignored points, effects, drawing, item damage."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.encumbrance import (
    IGNORED,
    RATION_WEIGHT,
    Encumbrance,
    Item,
    damaged_item,
    draw_from_backpack,
    encumbrance,
    encumbrance_modifier,
    equipped_items,
    load_ep,
)
from bot.rules.twod10.encumbrance import carried as carried_load
from bot.rules.twod10.equipment import armor, shield, weapon
from bot.rules.twod10.skills import Skill, SkillKey

from .survival_support import person


def load(worn: int, pack: int) -> tuple[Item, ...]:
    return (Item(name="gear", weight=worn, worn=True), Item(name="pack", weight=pack))


def test_full_sixes_and_fours_only() -> None:
    state = encumbrance(load(7, 11), toughness=0)
    assert (state.worn_ep, state.backpack_ep) == (1, 1)
    state = encumbrance(load(8, 13), toughness=0)
    assert (state.worn_ep, state.backpack_ep, state.raw_ep) == (2, 2, 4)


@pytest.mark.parametrize(
    ("toughness", "ep"), [(-1, 5), (0, 5), (1, 4), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1)]
)
def test_toughness_ignores_points_by_the_table(toughness: int, ep: int) -> None:
    # 6 raw EP: worn 12 (3 EP) and backpack 18 (3 EP).
    assert encumbrance(load(12, 18), toughness=toughness).ep == ep


@pytest.mark.parametrize(("raw", "ep"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_toughness_one_ignores_the_first_and_third(raw: int, ep: int) -> None:
    assert encumbrance(load(4 * raw, 0), toughness=1).ep == ep


def test_effects_per_point() -> None:
    state = encumbrance(load(8, 13), toughness=0)  # 4 raw, 3 after toughness 0
    assert state.ep == 3 and state.movement == 15
    assert state.roll_penalty == -3 and state.travel_penalty == -3
    heavy = encumbrance((Item(name="bricks", weight=1, worn=True, count=40),), toughness=0)
    assert heavy.movement == 0


def test_rolls_affected() -> None:
    state = encumbrance(load(8, 13), toughness=0)
    mod = encumbrance_modifier(state, Attribute.FINESSE)
    assert mod is not None and mod.value == -3
    athletics = encumbrance_modifier(state, Attribute.STRENGTH, SkillKey(skill=Skill.ATHLETICS))
    assert athletics is not None and athletics.value == -3
    assert encumbrance_modifier(state, Attribute.MIND, SkillKey(skill=Skill.HISTORY)) is None
    light = encumbrance(load(4, 0), toughness=0)
    assert encumbrance_modifier(light, Attribute.FINESSE) is None


def test_equipment_weights_from_the_tables() -> None:
    sheet = replace(
        person(),
        armor=armor("chain shirt"),
        shield=shield("heavy round shield"),
        weapons=(weapon("one-handed sword"), weapon("longbow")),
    )
    items = equipped_items(sheet)
    assert [(i.name, i.weight) for i in items] == [
        ("Chain shirt", 2), ("Heavy round shield", 2), ("One-handed sword", 1), ("Longbow", 2),
    ]  # fmt: skip
    assert encumbrance(items, toughness=2).worn_ep == 1  # 7 worn weight: one full 4


def test_fractional_weights() -> None:
    rations = Item(name="rations", weight=RATION_WEIGHT, count=12)
    assert rations.total == 6
    assert encumbrance((rations,), toughness=-1).raw_ep == 1
    assert Item(name="x", weight=Fraction(1, 2)).weight == Fraction(1, 2)
    with pytest.raises(RulesError, match="0 to 20"):
        Item(name="anvil", weight=21)
    with pytest.raises(RulesError, match="0 to 20"):
        Item(name="fog", weight="heavy")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("ep", "attempt", "face", "drawn", "sides"),
    [(1, 1, 4, True, 4), (1, 1, 3, False, 4), (1, 2, 3, True, 4), (2, 1, 6, True, 6),
     (3, 3, 5, False, 8), (3, 4, 5, True, 8)],
)  # fmt: skip
def test_drawing_from_the_backpack(ep: int, attempt: int, face: int, drawn: bool,
                                   sides: int) -> None:  # fmt: skip
    dice = ScriptedDice([face])
    draw = draw_from_backpack(ep, attempt=attempt, dice=dice)
    assert draw.drawn is drawn and dice.requests == [sides]


def test_empty_backpack_draws_at_once() -> None:
    assert draw_from_backpack(0, dice=ScriptedDice([])).drawn


def test_item_damage_counts_accessible_items_first() -> None:
    items = (Item(name="rope", weight=1), Item(name="sword", weight=1, worn=True))
    assert damaged_item(20, items, dice=ScriptedDice([])) is None
    hit = damaged_item(21, items, dice=ScriptedDice([2]))
    assert hit is not None and hit.name == "rope"
    assert damaged_item(25, items, dice=ScriptedDice([3])) is None


@pytest.mark.parametrize(
    ("weight", "options", "ep"),
    [(19, {}, 1), (20, {}, 2), (29, {"mount": True}, 2), (29, {"mount": True, "pulled": True}, 1),
     (30, {"mount": True, "pulled": True}, 2), (Fraction(39, 2), {}, 1)],
)  # fmt: skip
def test_carts_and_mounts(weight: int, options: dict, ep: int) -> None:  # type: ignore[type-arg]
    assert load_ep(weight, **options) == ep


def test_load_bounds() -> None:
    with pytest.raises(RulesError, match="A load weighs"):
        load_ep(-1)


def test_carried_counts_sheet_gear_worn_and_rations_supplies_in_the_backpack() -> None:
    # Ruling pack-supplies: plate (heavy, 3) and a two-handed sword (2) are worn: 5 -> 1 EP;
    # 4 backpack weight + 6 rations (3) + 5 supplies (5) = 12 -> 2 EP. Toughness 2 ignores
    # the first two: 3 raw, 1 left.
    sheet = replace(person(toughness=2), armor=armor("Plate"),
                    weapons=(weapon("Two-handed sword 2d6"),))  # fmt: skip
    load = carried_load(sheet, worn=Fraction(0), backpack=Fraction(4), rations=Fraction(6),
                        supplies=5)  # fmt: skip
    assert (load.worn_weight, load.backpack_weight) == (5, 12)
    assert (load.worn_ep, load.backpack_ep, load.raw_ep, load.ep) == (1, 2, 3, 1)
    assert (load.movement, load.roll_penalty) == (25, -1)
    # Quarter rations weigh exactly: 1/4 ration is 1/8 item weight.
    light = carried_load(person(), worn=Fraction(0), backpack=Fraction(0),
                         rations=Fraction(1, 4))  # fmt: skip
    assert light.backpack_weight == Fraction(1, 8)
    with pytest.raises(RulesError):
        carried_load(person(), worn=Fraction(-1), backpack=Fraction(0))


@given(
    toughness=st.sampled_from(sorted(IGNORED)),
    worn=st.integers(0, 400),
    pack=st.integers(0, 400),
    more=st.integers(0, 40),
    worn_more=st.booleans(),
)
def test_more_weight_never_lightens_the_load(
    toughness: int, worn: int, pack: int, more: int, worn_more: bool
) -> None:
    """EP never falls as weight is added, each point costs at most one EP, toughness never
    ignores more than its table, and movement stays between 0 and 30."""

    def load(w: int, p: int) -> Encumbrance:
        return Encumbrance(worn_weight=Fraction(w, 4), backpack_weight=Fraction(p, 4),
                           toughness=toughness)  # fmt: skip

    before = load(worn, pack)
    after = load(worn + more, pack) if worn_more else load(worn, pack + more)
    assert before.ep <= after.ep and after.ep - before.ep <= after.raw_ep - before.raw_ep
    assert 0 <= after.ignored <= len(IGNORED[toughness]) and after.ep >= 0
    assert 0 <= after.movement <= 30 and after.roll_penalty == -after.ep
