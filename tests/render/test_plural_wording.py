"""Counts read as English, "1 turn" and "2 turns", never a placeholder that leaves the
choice to the reader: the shared helper and each 2d10 and HOCS line that counts."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from bot.render.hocs.skill_roll_clash import ClashSides, clash_embed, winner_change_line
from bot.render.hocs.skill_roll_dice import RollHeading
from bot.render.text import noun, plural
from bot.render.twod10.combat import ShieldUse
from bot.render.twod10.initiative import combatant_line
from bot.render.twod10.inventory import inventory_embed
from bot.render.twod10.rations import state_text
from bot.render.twod10.survival_light import gm_burn_text
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.clash import resolve_clash
from bot.rules.hocs.determination import determination_refusal
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.rolling import roll_pool
from bot.rules.twod10.encumbrance import Encumbrance
from bot.rules.twod10.initiative.model import with_state
from bot.rules.twod10.light import Light, LightKind
from bot.rules.twod10.rations import RationState
from tests.rules.twod10.test_initiative_attack_action import fight


@pytest.mark.parametrize(
    ("n", "one", "many", "expected"),
    [
        (0, "turn", None, "0 turns"),
        (1, "turn", None, "1 turn"),
        (2, "turn", None, "2 turns"),
        (1, "success", "successes", "1 success"),
        (3, "success", "successes", "3 successes"),
    ],
)
def test_plural(n: int, one: str, many: str | None, expected: str) -> None:
    assert plural(n, one, many) == expected
    assert noun(n, one, many) == expected.split(" ", 1)[1]


def test_blocks_left() -> None:
    assert ShieldUse(shield="Buckler", left=1).line == "Block with the buckler: 1 block left."
    assert ShieldUse(shield="Buckler", left=2).line == "Block with the buckler: 2 blocks left."


def test_burn_time_turns() -> None:
    one = Light(kind=LightKind.TORCH, remaining=1, burn_roll=(1, 1))
    assert gm_burn_text("Brann", 3, one).endswith("2d6 [1, 1], highest **1** turn.")
    many = Light(kind=LightKind.TORCH, remaining=5, burn_roll=(5, 2))
    assert gm_burn_text("Brann", 3, many).endswith("2d6 [5, 2], highest **5** turns.")


@pytest.mark.parametrize(
    ("quarters", "expected"),
    [
        (0, "0 rations (weight 0)"),
        (2, "1/2 ration (weight 1/4)"),
        (4, "1 ration (weight 1/2)"),
        (6, "1 1/2 rations (weight 3/4)"),
    ],
)
def test_rations(quarters: int, expected: str) -> None:
    assert state_text(RationState(quarters=quarters)) == expected


@pytest.mark.parametrize(("supplies", "expected"), [(1, "1 unit"), (0, "0 units"), (4, "4 units")])
def test_medical_supplies_units(supplies: int, expected: str) -> None:
    load = Encumbrance(worn_weight=Fraction(0), backpack_weight=Fraction(0), toughness=1)
    embed = inventory_embed("Cora", (), [], load, rations="1 ration", supplies=supplies)
    assert embed.fields[0].value == f"1 ration; {expected} of medical supplies"


@pytest.mark.parametrize(("extra", "expected"), [(1, "1 extra attack"), (2, "2 extra attacks")])
def test_extra_attacks_on_the_tracker(extra: int, expected: str) -> None:
    enc = fight()
    enc = with_state(enc, 1, replace(enc.state(1), extra_attacks=extra))
    line = combatant_line(enc, enc.combatant(1), {})
    assert expected in line and "(s)" not in line


def test_hocs_clash_rounds() -> None:
    a, b = PoolSpec(base=1), PoolSpec(base=1)
    won = resolve_clash(a, b, dice=ScriptedDice([5, 2]))  # A in one round
    # B after a deadlock, then two (5 5: same successes and 6s): 2 and 3 rounds.
    after_one = resolve_clash(a, b, dice=ScriptedDice([5, 5, 2, 6]))
    after_two = resolve_clash(a, b, dice=ScriptedDice([5, 5, 5, 5, 2, 6]))
    assert (len(after_one.rounds), len(after_two.rounds)) == (2, 3)
    names = ("A", "B")
    assert (
        winner_change_line(won, after_one, names)
        == "**The clash changes after 1 more round**: A → B."
    )
    assert (
        winner_change_line(won, after_two, names)
        == "**The clash changes after 2 more rounds**: A → B."
    )
    sides = ClashSides(
        a=RollHeading(who="A", what="Athletics"), b=RollHeading(who="B", what="Athletics")
    )
    for result, repeated in (
        (won, None),
        (after_one, "1 deadlocked round"),
        (after_two, "2 deadlocked rounds"),
    ):
        description = clash_embed(sides, result).description or ""
        assert "(s)" not in description
        if repeated:
            assert f"\n{repeated} repeated before the last." in description
        else:
            assert "repeated before the last" not in description


@pytest.mark.parametrize(("banes", "left"), [(2, "1 bane left"), (4, "3 banes left")])
def test_hocs_determination_refusal_banes(banes: int, left: str) -> None:
    roll = roll_pool(PoolSpec(base=3, banes=banes), ScriptedDice([1, 1, 1]))
    refusal = determination_refusal(roll)
    assert refusal is not None and refusal.startswith(f"With {left} after one more boon")
