"""What the side tracker's operations report; a cog applies and renders these."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.twod10.initiative.model import Action, Sacrifice, Side


@dataclass(frozen=True)
class SurpriseRoundStarted:
    attackers: Side
    unaware: tuple[int, ...]  # combatant ids that can't react at its end


@dataclass(frozen=True)
class RoundStarted:
    round: int


@dataclass(frozen=True)
class InitiativeRolled:
    round: int
    faces: tuple[int, ...]  # the GM's d6 (two with advantage)
    kept: int
    npc_range: tuple[int, int]  # the faces that give the NPCs the first turn
    player_range: tuple[int, int]
    lost_momentum: tuple[Side, ...]
    advantage: Side | None  # a side whose disengaging gave it advantage
    winner: Side


@dataclass(frozen=True)
class SideTurnStarted:
    round: int
    side: Side
    combatant_ids: tuple[int, ...]
    spells_cast: tuple[int, ...]  # declared spells cast now, replacing the attack


@dataclass(frozen=True)
class SpellDeclared:
    combatant_id: int
    due: int | None = None  # declared again after an interruption: the round it goes off


@dataclass(frozen=True)
class PendingSpellsDue:
    """The end of ``side``'s turn: spells declared again last round go off now."""

    side: Side
    ready: tuple[int, ...]  # may /cast it now
    lost: tuple[int, ...]  # down before it went off


@dataclass(frozen=True)
class ReactionWindowOpened:
    """The end of ``after``'s turn: the other side's undeclared reactions."""

    after: Side
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class RoundEnded:
    round: int
    momentum_lost: tuple[Side, ...]  # sides whose next roll is narrowed


@dataclass(frozen=True)
class ActionMarked:
    combatant_id: int
    action: Action
    sacrifice: Sacrifice | None = None


@dataclass(frozen=True)
class CombatantDown:
    combatant_id: int
    side: Side
    downed_this_round: int
    side_size: int


Event = (
    SurpriseRoundStarted
    | RoundStarted
    | InitiativeRolled
    | SideTurnStarted
    | SpellDeclared
    | PendingSpellsDue
    | ReactionWindowOpened
    | RoundEnded
    | ActionMarked
    | CombatantDown
)
