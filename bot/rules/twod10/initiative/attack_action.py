"""An /attack in a tracked fight takes its attacker's attack action: "During a sides turn,
combatants on that side may make a movement, an attack, an interact with environment
action and a bonus action." Two-weapon fighting: "attacks may be made with [the offhand
weapon] as a bonus action."

Rulings:

* ``attack-action``: on its own side's turn (or surprise round) a seated attacker's
  /attack marks its attack action, or spends an extra attack (a 25+ roll, endless
  cleave) once the attack is used; with neither left (used, or given up to dash,
  disengage, parry, prepare, load or a spell) /attack is refused before any die. On the
  other side's turn an attack is a reaction (/init react keeps that) and marks nothing;
  before the fight starts, or for an attacker the tracker has down, nothing is marked.
* ``offhand-bonus``: an offhand attack marks the bonus action instead, refused once it
  is used; an extra attack is one more attack of the turn, not a bonus action.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Action, Encounter, Phase, with_state
from bot.rules.twod10.initiative.turns import mark_action


def _on_turn(enc: Encounter, combatant_id: int) -> bool:
    """Whether an attack by ``combatant_id`` now is one of its turn's actions."""
    c = enc.combatant(combatant_id)
    return enc.phase in (Phase.TURN, Phase.SURPRISE) and enc.acting is c.side and not c.down


def check_attack_left(enc: Encounter, combatant_id: int, *, offhand: bool = False) -> None:
    """Raises RulesError when this attack on the combatant's own turn has no action left."""
    if not _on_turn(enc, combatant_id):
        return
    c = enc.combatant(combatant_id)
    state = enc.state(combatant_id)
    if offhand:
        if Action.BONUS in state.actions:
            raise RulesError(
                f"{c.name} has already used their bonus action this turn: an offhand attack"
                " takes it."
            )
        return
    if Action.ATTACK not in state.actions or state.extra_attacks:
        return
    if state.sacrificed is not None:
        raise RulesError(
            f"{c.name} gave up their attack this turn to {state.sacrificed.value}: no attack"
            " left until their side's next turn."
        )
    raise RulesError(f"{c.name} has already used their attack this turn.")


def spend_attack(enc: Encounter, combatant_id: int, *, offhand: bool = False) -> Encounter:
    """The encounter with the attack (or an extra attack, or for ``offhand`` the bonus
    action) marked; unchanged off its turn (a reaction) or before the fight starts."""
    if not _on_turn(enc, combatant_id):
        return enc
    if offhand:
        state = enc.state(combatant_id)  # (checked before the roll: mark it unconditionally)
        return with_state(enc, combatant_id, replace(state, actions=state.actions | {Action.BONUS}))
    enc, _ = mark_action(enc, combatant_id, Action.ATTACK)
    return enc
