"""The recap's reading of 2d10 roll-log rows (``recap_facts``), row by row in the shapes the
commands log (the task rolls through the real ``roll_task`` and ``task_record``), each
field exact; then several facts summed by the shared ``recap``. The commands' own rows
are in tests/cogs/twod10/test_recap_facts_rows.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from bot.rules.dice_source import ScriptedDice
from bot.rules.generic.recap import Figures, Luck, RollFacts, recap
from bot.rules.twod10.recap_facts import facts_of
from bot.rules.twod10.tasks import Modifier, roll_task
from cogs.twod10.survival_log import task_record
from tests.rules.twod10.test_luck import oracle

ARIA, BRANN, GOB = 1, 2, 9  # Gob is an NPC: not among the players
PLAYERS = {ARIA: "Aria", BRANN: "Brann"}


@dataclass(frozen=True)
class Row:
    """A roll-log row as ``LoggedRow`` reads it."""

    kind: str
    result: dict[str, Any] = field(default_factory=dict)
    id: int = 5
    secret: bool = False
    user_id: int = 100
    character_id: int | None = None  # NULL on 2d10 rows: HOCS characters only
    message_id: int | None = 700
    channel_id: int | None = 800


def facts(kind: str, result: dict[str, Any], **row: Any) -> RollFacts:
    return facts_of(Row(kind, result, **row), PLAYERS)


def rolled(*faces: int, modifier: int = 0, **extra: Any) -> dict[str, Any]:
    """A task record as /dying, /medicine and morale log it: 2d10 (3d10 with an edge)."""
    edge = {"advantage": 1} if len(faces) == 3 else {}
    result = roll_task(attribute=0, extra=(Modifier(label="m", value=modifier),),
                       dice=ScriptedDice(faces), **edge)  # fmt: skip
    return {**task_record(result), **extra}


def luck(owner: str | None, edge: str, natural: int, part: str) -> Luck:
    pct, var = oracle(edge, natural)
    return Luck(owner=owner, percentile=pct, variance=var, part=part)


def task_row(*faces: int, total: int, who: int | None = ARIA, **extra: Any) -> dict[str, Any]:
    """/task's record: advantage counts, modifiers as {"label", "value"}."""
    return {
        "character_id": who, "target_id": None, "faces": list(faces), "dropped": None,
        "advantage": 0, "disadvantage": 0,
        "modifiers": [{"label": "mind", "value": 1}, {"label": "perception", "value": 2}],
        "natural": sum(faces), "total": total, "band": "", "label": None, **extra,
    }  # fmt: skip


def test_a_task_is_its_characters() -> None:
    assert facts("2d10-task", task_row(6, 5, total=14)) == RollFacts(
        roll_id=5, kind="2d10-task", roller="Aria", succeeded=True,
        luck=(luck("Aria", "none", 11, "task"),), message_id=700, channel_id=800,
        label="Aria's perception task",
    )  # fmt: skip


def test_a_task_for_no_player_character_and_a_typed_label() -> None:
    got = facts("2d10-task", task_row(3, 4, total=10, who=GOB, label="spot it"), secret=True)
    assert (got.roller, got.succeeded, got.secret) == (None, True, True)
    assert got.luck == (luck(None, "none", 7, "task"),)
    assert got.label == "a perception task (spot it)"
    raw = task_row(2, 3, total=10, who=None)
    raw["modifiers"] = [{"label": "score", "value": 3}, {"label": "rank", "value": 2}]
    assert facts("2d10-task", raw).label == "a task"


@pytest.mark.parametrize(
    ("faces", "total", "succeeded", "critical", "nat2", "nat20"),
    [
        ((1, 1), 12, False, False, True, False),  # a natural 2 fails, a plain failure
        ((1, 1), 5, False, True, True, False),  # … and at 5 or less the worst band too
        ((2, 4), 5, False, True, False, False),  # the worst band: recap-critical
        ((3, 3), 6, False, False, False, False),  # 6-9: a plain failure
        ((10, 10), 9, False, False, False, True),  # a natural 20 can fail
        ((5, 5), 10, True, False, False, False),
    ],
)
def test_success_critical_failure_and_naturals(
    faces: tuple[int, int], total: int, succeeded: bool, critical: bool, nat2: bool, nat20: bool
) -> None:
    got = facts("2d10-task", task_row(*faces, total=total))
    assert (got.succeeded, got.critical_failure, got.natural_two, got.natural_twenty) == (
        succeeded, critical, nat2, nat20,
    )  # fmt: skip


def test_an_edge_keeps_two_of_three_dice() -> None:
    row = task_row(10, 2, 10, total=22, advantage=1)
    del row["natural"]  # read from the faces less the dropped die
    row["dropped"] = 1
    got = facts("2d10-task", row)
    assert (got.natural_twenty, got.luck) == (True, (luck("Aria", "advantage", 20, "task"),))


def attack_row(**changes: Any) -> dict[str, Any]:
    """/attack's record, Gob's to-hit 8 + 8 on Aria, 4 damage from her 3 HP."""
    return {
        "ruleset": "2d10", "attacker_id": GOB, "target_id": ARIA, "aimed_at": "Aria",
        "weapon": "Spear", "maneuver": None, "cover_face": None, "hard_cover": None,
        "faces": [8, 8], "dropped": None, "edge": "none", "look_edge": None,
        "defense_edge": None, "modifiers": [["strength", 0]], "total": 16, "band": "",
        "stray_face": None, "damage_faces": [4], "damage": 4, "hp": [3, -1], "ammo": None,
        "damage_roll": {"sides": [6], "twice": [False], "flat": 0, "block": False,
                        "reduction": 0},
        "look": None, "defended": None, "rending": [], **changes,
    }  # fmt: skip


def test_an_npcs_blow_downs_a_player() -> None:
    got = facts("2d10-attack", attack_row())
    assert got == RollFacts(
        roll_id=5, kind="2d10-attack", roller=None, target="Aria", succeeded=True,
        damage_taken=4, downed=True, dying=True,
        luck=(luck(None, "none", 16, "to-hit"),
              Luck(owner=None, percentile=Fraction(7, 12), variance=Fraction(35, 432),
                   part="damage")),
        message_id=700, channel_id=800, label="an attack on Aria",
    )  # fmt: skip


def test_death_is_read_from_the_hp_floor() -> None:
    # Death threshold -2: 6 damage from 3 HP stops at -2, one short: dead (recap-hurt).
    dead = facts("2d10-attack", attack_row(damage=6, hp=[3, -2]))
    assert (dead.downed, dead.dying) == (True, False)
    # Landing exactly on the threshold can't be told from dying: counted dying.
    assert facts("2d10-attack", attack_row(damage=5, hp=[3, -2])).dying
    # A "dead" flag decides where a row logs one; a slaying blow's rending says so too.
    assert not facts("2d10-attack", attack_row(damage=4, dead=True)).dying
    rent = [{"living": False, "faces": [5, 5], "dropped": None, "total": 12,
             "succeeded": True}]  # fmt: skip
    assert not facts("2d10-attack", attack_row(rending=rent)).dying
    # Already down: hit again and left dying, but not downed anew.
    again = facts("2d10-attack", attack_row(damage=1, hp=[0, -1]))
    assert (again.downed, again.dying, again.damage_taken) == (False, True, 1)


def test_a_players_attack_on_an_npc_tells_only_the_damage_dealt() -> None:
    row = attack_row(attacker_id=ARIA, target_id=GOB, aimed_at="Gob", maneuver="trip",
                     hp=[5, 1])  # fmt: skip
    got = facts("2d10-attack", row)
    assert (got.roller, got.target, got.damage_dealt, got.damage_taken) == ("Aria", None, 4, 0)
    assert (got.downed, got.dying, got.label) == (False, False, "Aria's trip on Gob")
    assert [x.owner for x in got.luck] == ["Aria", "Aria"]


def test_a_miss_hurts_nobody_and_hard_cover_is_a_miss() -> None:
    miss = facts("2d10-attack", attack_row(faces=[1, 1], total=6, damage=0, hp=[3, 3],
                                           damage_roll=None, damage_faces=[]))  # fmt: skip
    assert (miss.succeeded, miss.natural_two, miss.target, miss.damage_taken) == (
        False, True, None, 0,
    )  # fmt: skip
    stopped = attack_row(faces=[], total=None, edge=None, cover_face=1, hard_cover=2,
                         damage=0, hp=[3, 3], damage_roll=None, damage_faces=[])  # fmt: skip
    got = facts("2d10-attack", stopped)
    assert (got.succeeded, got.critical_failure, got.target) == (False, False, None)
    assert got.luck == (Luck(owner=None, percentile=Fraction(1, 4), variance=Fraction(1, 16),
                             part="cover"),)  # fmt: skip


def test_a_defended_attack_is_the_targets_luck_and_no_natural() -> None:
    row = attack_row(
        faces=[], edge=None, total=15, defense_edge="none",
        defended={"faces": [1, 1], "dropped": None, "modifiers": [], "total": 5,
                  "flipped": 15},
    )  # fmt: skip
    got = facts("2d10-attack", row)
    assert (got.succeeded, got.natural_two, got.critical_failure) == (True, False, False)
    assert got.luck[0] == luck("Aria", "none", 2, "defense")
    assert got.luck[1].owner is None  # the damage dice stay the attacker's


def test_medicine_is_the_medics_by_name() -> None:
    row = rolled(6, 5, use="stabilise", character_id=ARIA, medic="brann", hp=[-1, -1])
    got = facts("2d10-medicine", row)
    assert (got.roller, got.target, got.succeeded) == ("Brann", None, True)
    assert got.luck == (luck("Brann", "none", 11, "medicine"),)
    assert got.label == "Brann's medicine on Aria (stabilise)"
    stranger = facts("2d10-medicine", {**row, "medic": "Healer Hob", "character_id": GOB})
    assert (stranger.roller, stranger.luck[0].owner, stranger.label) == (
        None, None, "a medicine roll (stabilise)",
    )  # fmt: skip


def test_the_sides_rolls_are_nobodys() -> None:
    morale = facts("2d10-morale", rolled(2, 1, triggers=[], flees=True, leader=None))
    assert (morale.roller, morale.succeeded, morale.critical_failure) == (None, False, True)
    assert morale.luck == (luck(None, "none", 3, "morale"),)
    assert morale.label == "the NPCs' morale roll"
    side = {"ruleset": "2d10", "round": 2, "faces": [5], "kept": 5, "npc_range": [4, 6],
            "player_range": [1, 3], "winner": "npcs", "advantage": None}  # fmt: skip
    got = facts("2d10-initiative", side)
    assert (got.roller, got.succeeded, got.label) == (None, None, "the side initiative, round 2")
    assert got.luck == (Luck(owner=None, percentile=Fraction(1, 4), variance=Fraction(1, 16),
                             part="initiative"),)  # fmt: skip
    react = {"ruleset": "2d10", "reactor_id": ARIA, "opponent_id": 3, "reactor_faces": [3],
             "reactor_total": 5, "opponent_face": 6, "opponent_total": 6,
             "reacts_first": False}  # fmt: skip
    got = facts("2d10-interrupt", react)
    # reactor_id is a tracker combatant, not a sheet: never a player's, even if it clashes.
    assert (got.roller, got.succeeded, got.luck[0].owner) == (None, False, None)


def test_casting_dying_and_rations() -> None:
    cast = rolled(1, 1, modifier=3, character_id=ARIA, what="fire", form="spell")
    got = facts("2d10-cast", cast)
    assert (got.roller, got.succeeded, got.natural_two, got.critical_failure) == (
        "Aria", False, True, True,
    )  # fmt: skip
    assert (got.label, got.luck) == ("Aria's fire spell", (luck("Aria", "none", 2, "cast"),))
    cut = facts("2d10-cast", {**cast, "faces": [], "dropped": None, "total": None})
    assert (cut.succeeded, cut.luck, cut.unscored) == (False, (), False)
    assert cut.label == "Aria's fire spell, interrupted"
    ritual = facts("2d10-ritual", {**cast, "what": "Ward"})
    assert ritual.label == "Aria's Ward ritual"
    dying = facts("2d10-dying", rolled(9, 2, 10, character_id=BRANN, hp=[0, 1], died=False))
    assert (dying.roller, dying.succeeded, dying.natural_twenty) == ("Brann", True, False)
    assert (dying.label, dying.luck) == (
        "Brann's dying roll", (luck("Brann", "advantage", 19, "dying"),),
    )  # fmt: skip
    eat = {"character_id": ARIA, "faces": [2, 3], "total": 1, "exhaustion": True}
    got = facts("2d10-rations", eat)
    assert (got.roller, got.succeeded, got.critical_failure) == ("Aria", False, True)
    assert got.label == "Aria's rations roll"


def test_disease_sets_and_treatment() -> None:
    rolls = [
        {"faces": [3, 4], "dropped": None, "natural": 7, "total": 9, "succeeded": False},
        {"faces": [10, 10], "dropped": None, "natural": 20, "total": 22, "succeeded": True},
    ]
    infection = {"character_id": ARIA, "rolls": rolls, "infected": False, "contact": "long"}
    got = facts("2d10-disease", infection, secret=True)
    assert (got.roller, got.succeeded, got.natural_twenty, got.secret) == (
        "Aria", True, True, True,
    )  # fmt: skip
    assert [x.percentile for x in got.luck] == [oracle("none", 7)[0], oracle("none", 20)[0]]
    assert got.label == "Aria's infection roll"
    overcome = {"character_id": ARIA, "rolls": rolls[:1], "overcome": False, "treated": False}
    got = facts("2d10-disease", overcome)
    assert (got.succeeded, got.natural_twenty, got.label) == (
        False, False, "Aria's overcoming roll",
    )  # fmt: skip
    # A treatment row names the patient only (recap-owners): nobody's roll, and unscored.
    treated = {"character_id": ARIA, "faces": [6, 6], "total": 12, "succeeded": True}
    got = facts("2d10-disease", treated)
    assert (got.roller, got.succeeded, got.unscored, got.label) == (
        None, True, True, "the treatment of Aria",
    )  # fmt: skip


def test_scavenge_and_draw() -> None:
    found = {"ruleset": "2d10", "character_id": ARIA, "face": 2, "chance": 3, "turns": 3,
             "points": [1, 3], "left_behind": 0}  # fmt: skip
    got = facts("2d10-scavenge", found)
    assert (got.roller, got.succeeded, got.label) == ("Aria", True, "Aria's scavenge")
    assert got.luck == (Luck(owner="Aria", percentile=Fraction(17, 20),
                             variance=Fraction(1 - Fraction(343 + 27, 1000), 12),
                             part="scavenge"),)  # fmt: skip
    draw = {"character_id": BRANN, "face": 3, "bonus": 0, "sides": 4, "drawn": False}
    got = facts("2d10-draw", draw)
    assert (got.roller, got.succeeded, got.label) == ("Brann", False, "Brann's backpack draw")


def test_a_generic_roll_and_unknown_kinds() -> None:
    got = facts("roll", {"expression": "1d20 + 5", "label": None, "total": 15})
    assert got == RollFacts(
        roll_id=5, kind="roll", roller=None, message_id=700, channel_id=800,
        luck=(Luck(owner=None, percentile=Fraction(19, 40), variance=Fraction(399, 4800),
                   part="roll"),),
        label="a roll of 1d20 + 5",
    )  # fmt: skip
    exploding = facts("roll", {"expression": "1d6e6", "label": "Boom", "total": 4})
    assert (exploding.luck, exploding.unscored, exploding.label) == ((), True, "Boom (1d6e6)")
    odd = facts("hocs-skill", {"anything": 1})
    assert (odd.roller, odd.unscored, odd.label) == (None, True, "hocs-skill")
    broken = facts("2d10-attack", {"faces": "x", "hp": "y", "damage": True})
    # A damaged row tells what it can and crashes nothing: its dice count, unscored.
    assert (broken.roller, broken.damage_dealt, broken.unscored) == (None, 0, True)


def test_a_night_summed_per_character() -> None:
    brann_hits = attack_row(attacker_id=BRANN, target_id=GOB, aimed_at="Gob", hp=[6, 2])
    brann_heals = rolled(10, 10, character_id=ARIA, medic="Brann", hp=[-1, -1])
    night = [
        facts("2d10-task", task_row(6, 5, total=14), id=1),  # Aria succeeds
        facts("2d10-task", task_row(1, 1, total=4, who=BRANN), id=2),  # Brann: nat 2, worst
        facts("2d10-attack", attack_row(), id=3),  # Gob downs Aria: 4 damage
        facts("2d10-attack", brann_hits, id=4),  # Brann deals Gob 4
        facts("2d10-medicine", brann_heals, id=5),  # Brann's natural 20
        facts("2d10-morale", rolled(5, 6, triggers=[], flees=False, leader=None), id=6),
    ]
    summed = recap(night, players=frozenset({"Aria", "Brann", "Cora"}))
    by_name = dict(summed.characters)
    assert [name for name, _ in summed.characters] == ["Aria", "Brann", "Cora"]
    assert by_name["Aria"] == Figures(
        rolls=1, successes=1, damage_taken=4, downs=1, dying=1,
        scored=((oracle("none", 11)[0], oracle("none", 11)[1]),),
    )  # fmt: skip
    brann_damage = (Fraction(7, 12), Fraction(35, 432))
    assert by_name["Brann"] == Figures(
        rolls=3, successes=2, failures=1, critical_failures=1, natural_twos=1,
        natural_twenties=1, damage_dealt=4,
        scored=(oracle("none", 2), oracle("none", 16), brann_damage, oracle("none", 20)),
    )  # fmt: skip
    assert by_name["Cora"] == Figures()
    assert (summed.other_rolls, summed.rolls) == (2, 6)
    assert summed.party.damage_taken == 4 and summed.party.damage_dealt == 4
    assert summed.luckiest is not None and summed.luckiest.facts.roll_id == 5
    assert summed.unluckiest is not None and summed.unluckiest.facts.roll_id == 2
