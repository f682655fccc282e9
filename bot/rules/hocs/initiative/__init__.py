"""The initiative tracker: participants, a round's order, turns, actions and timed effects.

HOCS Part 3, "Turns and Rounds", "Initiative" and "Actions in Combat". Everything here
is pure: each operation takes an immutable ``Encounter`` (and a ``Dice`` when it
rolls) and returns the new ``Encounter`` with the events that happened, which the
cog applies to characters (hit points lost to bleeding, conditions) and renders.

Modules (each holds the full wording of its rulings):

* ``values`` – limits, sides, action kinds, names, the initiative pool and roll.
* ``model`` – participants and the encounter, and their saved form (to/from dict).
* ``events`` – what the operations report.
* ``order`` – rolling a round, tie-breaks, results set by hand, groups.
* ``turns`` – next, prev and move; skipping participants who are down.
* ``roster`` – finding by name, joining, leaving, refreshing, the summary.
* ``actions`` – the action economy.
* ``effects`` – timed conditions and the start of a turn (expiry, bleeding, notes).
* ``clock`` – when dying and unconscious tests fall due, and applying their outcome.

Rulings, in short (also listed on the commands):

* Order: most successes, then PCs, allies, antagonists, then join order. Every round
  re-rolls everyone; a result set by hand applies at once to a slot still to act,
  otherwise to the next roll. Every group member rolls and acts alone unless the GM
  chose group initiative: then the group rolls once (first living member) and acts
  on one turn. The GM's bonus dice and boons join a participant's pool.
* A timed condition lasting N rounds ends at the start of its holder's turn N rounds
  after the round it was added (or when the round after that starts).
* Start of a turn: expiries, then bleeding (hit point loss; death beyond the
  threshold, a threshold test inside it), then notes on dying, unconscious,
  staggered and slow.
* 2 actions, 1 quick action, 1 reaction per round, limited by conditions; a spent
  quick action may be paid with an action. A hero point gives 1 extra action until
  the end of the turn, one per turn.
* ``skip_down`` passes over slots that are all down (unless everyone is); ``prev``
  stays within the round and doesn't repeat a turn's start; ``move`` starts a turn.
* Removing the current participant passes the turn on; joining mid-round rolls at
  once. A player ends only their own turn (a group's turn ends whole); only a
  player character's owner is pinged. Participant and group names never coincide.
"""

from __future__ import annotations

from bot.rules.hocs.initiative.actions import (
    MAX_EXTRA_ACTIONS,
    ExtraAction,
    end_turn_bonuses,
    grant_extra_action,
    spend,
)
from bot.rules.hocs.initiative.clock import (
    ROUNDS_PER_MINUTE,
    UNCONSCIOUS_WAIT_ROUNDS,
    apply_recovery_test,
    check_test,
    update_clocks,
)
from bot.rules.hocs.initiative.effects import NOTED_CONDITIONS, add_effect, clear_effect
from bot.rules.hocs.initiative.events import (
    ActionMarked,
    BleedingTick,
    BonusSet,
    ConditionNote,
    Died,
    EffectAdded,
    EffectCleared,
    EffectExpired,
    Event,
    Joined,
    RecoveryTestDue,
    RecoveryTestRolled,
    Removed,
    ResultSet,
    RoundStarted,
    SlotRoll,
    ThresholdTestDue,
    TurnReturned,
    TurnSkipped,
    TurnStarted,
)
from bot.rules.hocs.initiative.model import (
    DOWN_CONDITIONS,
    SERIAL_VERSION,
    Encounter,
    NewParticipant,
    Participant,
    encounter_from_dict,
    encounter_to_dict,
    participant_from_dict,
    participant_to_dict,
)
from bot.rules.hocs.initiative.order import roll_slot, set_bonus, set_result, start_round
from bot.rules.hocs.initiative.roster import (
    Summary,
    add_participants,
    find,
    find_one,
    refresh_participant,
    remove_participants,
    status_word,
    summarise,
)
from bot.rules.hocs.initiative.turns import move_to, next_turn, prev_turn
from bot.rules.hocs.initiative.values import (
    MAX_COUNT,
    MAX_NAME,
    MAX_PARTICIPANTS,
    MAX_ROUNDS,
    MAX_SUCCESSES,
    ActionKind,
    Effect,
    InitiativeRoll,
    InitiativeStats,
    RecoveryClock,
    Side,
    Spent,
    check_name,
)

__all__ = [
    "DOWN_CONDITIONS",
    "MAX_COUNT",
    "MAX_EXTRA_ACTIONS",
    "MAX_NAME",
    "MAX_PARTICIPANTS",
    "MAX_ROUNDS",
    "MAX_SUCCESSES",
    "NOTED_CONDITIONS",
    "ROUNDS_PER_MINUTE",
    "SERIAL_VERSION",
    "UNCONSCIOUS_WAIT_ROUNDS",
    "ActionKind",
    "ActionMarked",
    "BleedingTick",
    "BonusSet",
    "ConditionNote",
    "Died",
    "Effect",
    "EffectAdded",
    "EffectCleared",
    "EffectExpired",
    "Encounter",
    "Event",
    "ExtraAction",
    "InitiativeRoll",
    "InitiativeStats",
    "Joined",
    "NewParticipant",
    "Participant",
    "RecoveryClock",
    "RecoveryTestDue",
    "RecoveryTestRolled",
    "Removed",
    "ResultSet",
    "RoundStarted",
    "Side",
    "SlotRoll",
    "Spent",
    "Summary",
    "ThresholdTestDue",
    "TurnReturned",
    "TurnSkipped",
    "TurnStarted",
    "add_effect",
    "add_participants",
    "apply_recovery_test",
    "check_name",
    "check_test",
    "clear_effect",
    "encounter_from_dict",
    "encounter_to_dict",
    "end_turn_bonuses",
    "find",
    "find_one",
    "grant_extra_action",
    "move_to",
    "next_turn",
    "participant_from_dict",
    "participant_to_dict",
    "prev_turn",
    "refresh_participant",
    "remove_participants",
    "roll_slot",
    "set_bonus",
    "set_result",
    "spend",
    "start_round",
    "status_word",
    "summarise",
    "update_clocks",
]
