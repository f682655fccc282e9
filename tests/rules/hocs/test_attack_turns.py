"""Attacks within a turn: the extra-attack bane, tempo and aegis (rules text, Part 4)."""

from __future__ import annotations

from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.attack import SideModifiers, resolve_attack
from bot.rules.hocs.attack.turns import (
    AEGIS_REROLL,
    EXTRA_ATTACK_BANE,
    AttackTurn,
    TurnNow,
    aegis_rerolls,
    after_attack,
    extra_attack_banes,
)
from bot.rules.hocs.attack.weapons import Advantage
from tests.rules.hocs.test_attack import GREATSWORD, fighter

ON_TURN = TurnNow(round=2, turn=5, on_turn=True)


def test_the_second_and_later_attacks_of_a_turn_take_one_bane() -> None:
    first = after_attack(None, ON_TURN, None)
    assert first.attacks == 1 and extra_attack_banes(None, ON_TURN) == ((), None)
    assert extra_attack_banes(first, ON_TURN) == ((EXTRA_ATTACK_BANE,), None)
    third = after_attack(after_attack(first, ON_TURN, None), ON_TURN, None)
    assert third.attacks == 3 and extra_attack_banes(third, ON_TURN)[0] == (EXTRA_ATTACK_BANE,)
    # The next turn starts again from 0.
    later = TurnNow(round=2, turn=6, on_turn=True)
    assert extra_attack_banes(third, later) == ((), None)
    # Off its turn (an attack of opportunity) nothing is counted or added.
    off = TurnNow(round=2, turn=5, on_turn=False)
    assert extra_attack_banes(first, off) == ((), None)
    assert after_attack(first, off, None).attacks == 1


def test_tempo_lifts_the_bane_until_the_end_of_the_turn() -> None:
    record = after_attack(None, ON_TURN, Advantage.TEMPO)
    assert record.tempo
    banes, note = extra_attack_banes(record, ON_TURN)
    assert banes == () and note is not None and note.startswith("Tempo")
    assert not after_attack(record, TurnNow(round=3, turn=9, on_turn=True), None).tempo


def test_aegis_lasts_until_the_end_of_the_holders_next_turn() -> None:
    record = after_attack(None, ON_TURN, Advantage.AEGIS)
    assert record.aegis_round == 2
    assert aegis_rerolls(record, TurnNow(round=2, turn=7, on_turn=False)) == (AEGIS_REROLL,)
    next_round = TurnNow(round=3, turn=8, on_turn=False)
    assert aegis_rerolls(record, next_round) == (AEGIS_REROLL,)
    passed = TurnNow(round=3, turn=12, on_turn=False, turn_passed=True)
    assert aegis_rerolls(record, passed) == ()
    assert aegis_rerolls(record, TurnNow(round=4, turn=14, on_turn=False)) == ()
    assert aegis_rerolls(AttackTurn(round=1, turn=1), ON_TURN) == ()


def test_aegis_reroll_reaches_the_defense_roll() -> None:
    bram, gob = fighter("Bram"), fighter("Gob", strength=2)
    # Gob 1 2: the aegis reroll takes the 1 → 5. Bram 4 1: 1 vs 1, the attacker wins ties.
    result = resolve_attack(
        bram,
        gob,
        GREATSWORD,
        dice=ScriptedDice([4, 1, 1, 2, 5, 1, 1, 1]),
        defense=SideModifiers(extra_rerolls=(AEGIS_REROLL,)),
    )
    assert result.roll.clash is not None
    assert result.roll.clash.b.rerolls == 1
    assert result.roll.defense_rerolls == (AEGIS_REROLL,)
    assert result.roll.clash.final.b.successes == 1
