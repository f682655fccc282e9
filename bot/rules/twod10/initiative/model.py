"""The state of a 2d10 encounter fought by sides; every operation returns a new one."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute

MAX_COMBATANTS = 50
MOVEMENT_FEET = 30
MAX_NAME = 64


class Side(Enum):
    PLAYERS = "players"
    NPCS = "npcs"

    @property
    def other(self) -> Side:
        return Side.NPCS if self is Side.PLAYERS else Side.PLAYERS

    @property
    def label(self) -> str:
        return "Players" if self is Side.PLAYERS else "NPCs"


class Phase(Enum):
    NOT_STARTED = "not started"
    SURPRISE = "surprise round"  # the attacking side's one turn
    DECLARE = "declarations"  # start of round: spells and declared reactions
    TURN = "side turn"
    END_OF_TURN = "end of turn reactions"  # the other side's undeclared reactions


class Action(Enum):
    MOVEMENT = "movement"
    ATTACK = "attack"
    INTERACT = "interact"
    BONUS = "bonus action"


class Sacrifice(Enum):
    """What an attack action can be given up for."""

    DASH = "dash"  # double movement
    DISENGAGE = "disengage"  # leave threat ranges; advantage on initiative
    PARRY = "parry"  # subtract melee/ranged + finesse from the next attack this round
    PREPARE = "prepare"  # advantage on the next action
    SPELL = "spell"  # a spell declared at the start of the round replaces the attack
    LOAD = "load"  # a crossbow is loaded with an attack action between shots


@dataclass(frozen=True, kw_only=True)
class PendingSpell:
    """A spell declared again on the caster's turn after an interruption (ruling
    ``spell-interrupted``): it goes off at the end of its side's turn in round ``due``."""

    due: int
    attacked: bool = False  # attacked while it was being cast


@dataclass(frozen=True, kw_only=True)
class Combatant:
    id: int
    name: str
    side: Side
    finesse: int = 0
    reach: bool = False  # a reach weapon: advantage on interrupts when a foe enters its range
    aware: bool = True  # False: surprised and unaware until attacked
    down: bool = False  # unconscious or dead
    # Feet a round: 30 less 5 per encumbrance point, from a linked sheet's load
    # (ruling movement-encumbrance); a combatant with no sheet moves the full 30.
    movement: int = MOVEMENT_FEET
    pending_spell: PendingSpell | None = None  # kept across rounds, unlike TurnState
    unloaded: tuple[str, ...] = ()  # crossbows shot and not loaded since, in shot order (loading)
    pinned_by: int | None = None  # the combatant holding it in a pin (initiative.pins)
    dropped: tuple[str, ...] = ()  # weapons disarmed and not picked up, in drop order (disarm)
    holding: int | None = None  # an opponent wielded as a weapon (initiative.holds)
    hold_until: int = 0  # the last round of that hold

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_NAME:
            raise RulesError(f"A combatant needs a name of 1 to {MAX_NAME} characters.")
        if not -1 <= self.finesse <= 6:
            raise RulesError("Finesse must be from -1 to 6.")
        if not 0 <= self.movement <= MOVEMENT_FEET:
            raise RulesError(f"Movement must be from 0 to {MOVEMENT_FEET} feet.")


@dataclass(frozen=True, kw_only=True)
class TurnState:
    """What one combatant has done this round."""

    actions: frozenset[Action] = frozenset()
    sacrificed: Sacrifice | None = None
    feet_moved: int = 0
    declared_reaction: str | None = None  # the action it reacts to
    defending: Attribute | None = None  # what a declared defense roll guards (defenses)
    declared_spell: bool = False
    reaction_used: bool = False
    parry: int = 0  # a parry waiting for the next attack against this combatant
    extra_attacks: int = 0  # endless cleave or a 25+ roll: attacks outside the economy
    spell_cast: bool = False  # a /cast this round (initiative.spells)
    attacked_casting: bool = False  # attacked while its declared spell was being cast
    spell_interrupted: bool = False  # its declared spell failed to damage (spells)
    spell_ready: bool = False  # its pending spell went off: one /cast this round
    offhand_attack: bool = False  # attacked with an offhand weapon (two_weapons)
    strength_attack: bool = False  # a main-hand attack used strength (two_weapons)

    def allowance(self, movement: int = MOVEMENT_FEET) -> int:
        """Feet this turn for a combatant moving ``movement`` a round (a dash doubles it)."""
        return movement * (2 if self.sacrificed is Sacrifice.DASH else 1)


@dataclass(frozen=True, kw_only=True)
class Encounter:
    combatants: tuple[Combatant, ...] = ()
    round: int = 0  # 0 is the surprise round
    phase: Phase = Phase.NOT_STARTED
    surprised: Side | None = None
    first: Side | None = None  # the side that won this round's initiative
    acting: Side | None = None  # whose turn it is (or just ended, in END_OF_TURN)
    sides_done: int = 0  # side turns finished this round
    states: tuple[tuple[int, TurnState], ...] = ()
    standing_at_start: tuple[tuple[Side, int], ...] = ()  # for momentum
    downed_this_round: tuple[tuple[Side, int], ...] = ()
    lost_momentum: frozenset[Side] = frozenset()  # applied to this round's roll
    disengaged: frozenset[Side] = frozenset()  # sides that disengaged this round
    advantaged: frozenset[Side] = frozenset()  # sides that disengaged last round: this roll

    def combatant(self, combatant_id: int) -> Combatant:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise RulesError("That combatant isn't in this encounter.")

    def state(self, combatant_id: int) -> TurnState:
        return dict(self.states).get(combatant_id, TurnState())

    def side(self, side: Side) -> tuple[Combatant, ...]:
        return tuple(c for c in self.combatants if c.side is side)

    def standing(self, side: Side) -> int:
        return sum(1 for c in self.side(side) if not c.down)

    def downed(self, side: Side) -> int:
        return dict(self.downed_this_round).get(side, 0)


def with_state(enc: Encounter, combatant_id: int, state: TurnState) -> Encounter:
    states = dict(enc.states)
    states[combatant_id] = state
    return replace(enc, states=tuple(sorted(states.items())))


def with_movements(enc: Encounter, movements: dict[int, int]) -> Encounter:
    """Each combatant named in ``movements`` (id → feet a round) moving that much."""
    changed = tuple(
        replace(c, movement=movements[c.id])
        if c.id in movements and c.movement != movements[c.id]
        else c
        for c in enc.combatants
    )
    return enc if changed == enc.combatants else replace(enc, combatants=changed)


def with_combatant(enc: Encounter, combatant: Combatant) -> Encounter:
    return replace(
        enc,
        combatants=tuple(combatant if c.id == combatant.id else c for c in enc.combatants),
    )


def add_combatant(enc: Encounter, combatant: Combatant) -> Encounter:
    if any(c.id == combatant.id for c in enc.combatants):
        raise RulesError(f"{combatant.name} is already in this encounter.")
    if len(enc.combatants) >= MAX_COMBATANTS:
        raise RulesError(f"An encounter holds at most {MAX_COMBATANTS} combatants.")
    return replace(enc, combatants=(*enc.combatants, combatant))


def remove_combatant(enc: Encounter, combatant_id: int) -> Encounter:
    enc.combatant(combatant_id)
    # A pin ends when either side of it leaves the encounter (initiative.pins).
    kept = tuple(
        replace(c, pinned_by=None) if c.pinned_by == combatant_id else c
        for c in enc.combatants
        if c.id != combatant_id
    )
    return replace(
        enc,
        combatants=kept,
        states=tuple((i, s) for i, s in enc.states if i != combatant_id),
    )
