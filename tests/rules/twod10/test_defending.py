"""The defender's declared defense roll: the roll flips, the edges swap, the tracker uses it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import AttackerStats, Situation, TargetStats, roll_attack
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.initiative.codec import encounter_from_dict, encounter_to_dict
from bot.rules.twod10.initiative.defenses import declare_defense, defends, use_defense
from bot.rules.twod10.initiative.model import Combatant, Encounter, Phase, Side
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds_attack import attack_odds
from bot.rules.twod10.wielding import wield

FIGHTER = AttackerStats(finesse=1, strength=2, melee=2, ranged=2, brawl=3)
SWORD = wield(weapon("one-handed sword"))


def test_defended_attack_reads_the_flipped_defender_roll() -> None:
    # Attacker: strength 2 + melee 2 = bonus 4. Defender: finesse defense 3.
    target = TargetStats(attribute=Attribute.FINESSE, defense=3)
    # The defender rolls 2 + 3 = 5, + 3 − 4 = 4 → flipped 16: a hit, +3 categories.
    result = roll_attack(
        SWORD, FIGHTER, target, situation=Situation(defended=True),
        dice=ScriptedDice([2, 3, 1, 1, 1, 1, 1]),
    )  # fmt: skip
    assert result.roll is None and result.defended is not None
    assert result.defended.defender.total == 4 and result.defended.total == 16
    assert result.outcome is result.defended and result.hit
    labels = [(m.label, m.value) for m in result.defended.defender.modifiers]
    assert labels == [("finesse defense", 3), ("attacker's bonus", -4)]
    # The same total read as an attack: a natural 16 + 4 − 3 would be 17; flipped 16 is
    # what the damage dice move by (one category per 2 above 10: +3).
    assert result.damage is not None and result.damage.shifted is not None
    assert result.damage.shifted.steps == 3


def test_a_defender_natural_twenty_is_nothing_but_a_low_flip() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=3)
    result = roll_attack(
        SWORD, FIGHTER, target, situation=Situation(defended=True),
        dice=ScriptedDice([10, 10]),
    )  # fmt: skip
    assert result.defended is not None
    assert result.defended.defender.total == 19 and result.defended.total == 1
    assert not result.hit and not result.defended.natural_two


def test_the_attacks_advantage_is_the_defenders_disadvantage() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=3)
    # Flanking gives the attack advantage: the defender rolls 3d10 and drops the highest.
    result = roll_attack(
        SWORD, FIGHTER, target, situation=Situation(defended=True, flanking=True),
        dice=ScriptedDice([9, 2, 4, 1, 1, 1, 1, 1]),
    )  # fmt: skip
    assert result.defended is not None
    defender = result.defended.defender
    assert defender.roll.faces == (9, 2, 4) and defender.roll.kept == (2, 4)
    assert defender.total == 5 and result.defended.total == 15


def test_the_attackers_bonus_is_every_modifier_but_the_defense() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=3)
    situation = Situation(defended=True, soft_cover=2, bonus=1, parry=3)
    result = roll_attack(SWORD, FIGHTER, target, situation=situation, dice=ScriptedDice([5, 5]))
    # 2 strength + 2 melee − 2 soft cover − 3 parry + 1 GM = 0: 10 + 3 − 0 = 13 → 7.
    assert result.plan.attacker_bonus == 0
    assert result.defended is not None and result.defended.total == 7


def test_a_defended_shot_into_melee_never_strays() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=3)
    situation = Situation(defended=True, firing_into_melee=True, melee_others=2)
    # The shot's disadvantage is the defender's advantage (3d10, the lowest dropped):
    # 10 + 10 + 3 − (1 finesse + 2 ranged) = 20 → 0: a miss, and no d8 is asked for.
    result = roll_attack(wield(weapon("shortbow")), FIGHTER, target, situation=situation,
                         dice=ScriptedDice([10, 4, 10]))  # fmt: skip
    assert result.stray is None and not result.hit


def test_a_defended_maneuver_reads_the_flipped_total() -> None:
    target = TargetStats(attribute=Attribute.STRENGTH, defense=2)
    # Trip with a light blunt (strength 2 + melee 2): defender 1 + 1 + 2 − 4 = 0 → 20.
    result = roll_attack(
        wield(weapon("light blunt")), FIGHTER, target, maneuver=Maneuver.TRIP,
        situation=Situation(defended=True), dice=ScriptedDice([1, 1, 1, 1, 1, 1, 1]),
    )  # fmt: skip
    assert result.effect is not None and result.effect.succeeded
    assert result.effect.steps == 2 and result.effect.movement_lost_feet == 10


def test_defending_shifts_the_odds_against_the_attacker() -> None:
    target = TargetStats(attribute=Attribute.FINESSE, defense=3)
    plain = attack_odds(SWORD, FIGHTER, target)
    defended = attack_odds(SWORD, FIGHTER, target, situation=Situation(defended=True))
    # The attack needs 2d10 ≥ 9 (72 of 100 pairs reach it); defended, 20 − (2d10 − 1)
    # ≥ 10 needs 2d10 ≤ 11: 55 of 100. No natural 20 extra dice either.
    assert plain.hit == Fraction(72, 100)
    assert defended.hit == Fraction(55, 100)


def _declared() -> Encounter:
    enc = Encounter(
        combatants=(
            Combatant(id=1, name="Mira", side=Side.PLAYERS),
            Combatant(id=2, name="Ogre", side=Side.NPCS),
        ),
        round=1,
        phase=Phase.DECLARE,
    )
    return declare_defense(enc, 1, Attribute.FINESSE)


def test_a_declared_defense_answers_one_attack_on_its_attribute() -> None:
    enc = _declared()
    assert enc.state(1).declared_reaction == "an attack on its finesse"
    assert defends(enc, 1, Attribute.FINESSE)
    assert not defends(enc, 1, Attribute.STRENGTH)  # a trip on strength: no defense
    used = use_defense(enc, 1)
    assert used.state(1).reaction_used and not defends(used, 1, Attribute.FINESSE)
    with pytest.raises(RulesError, match="no defense waiting"):
        use_defense(used, 1)


def test_a_defense_is_declared_at_the_round_start_only() -> None:
    enc = Encounter(
        combatants=(Combatant(id=1, name="Mira", side=Side.PLAYERS),), round=1, phase=Phase.TURN
    )
    with pytest.raises(RulesError, match="start of the round"):
        declare_defense(enc, 1, Attribute.MIND)


def test_a_declared_defense_survives_the_codec() -> None:
    enc = _declared()
    again = encounter_from_dict(encounter_to_dict(enc))
    assert again.state(1).defending is Attribute.FINESSE
    stored = encounter_to_dict(enc)
    for state in stored["states"]:
        del state["defending"]  # a tracker saved before defense rolls existed
    assert encounter_from_dict(stored).state(1).defending is None
