"""A spell cast by a combatant of a tracked fight, and the attacks that trouble it.

"Spells declared at the start of a round are cast at the start of the combatants turn
and replace their attack action. If a spellcasters spell is interrupted before their
sides turn begins, then declaring a spell during their turn uses an attack action."
"Anytime a caster is attacked when casting a spell, the spell roll has disadvantage."

Rulings:

* ``attacked-while-casting``: a declared spell is being cast from the declarations
  until its combatant's turn starts; an /attack naming the combatant in that time
  makes it "attacked while casting", and its /cast that round has the disadvantage
  by itself. What the tracker can't see (a casting begun in an earlier round, an
  attack it didn't roll) the caster still gives with ``attacked:``.
* ``cast-in-tracker``: a spell not declared is cast on the combatant's own side's
  turn, at once, and takes its attack action (refused when the attack is used), so no
  attack falls inside it; one /cast per combatant a round; before the fight starts
  nothing is marked; rituals (minutes long) mark nothing.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.model import Action, Encounter, Phase, Sacrifice, with_state


def note_attack(enc: Encounter, combatant_id: int) -> Encounter:
    """An attack on ``combatant_id``: attacked while casting if its declared spell is
    still being cast (its turn hasn't started)."""
    state = enc.state(combatant_id)
    casting = (
        state.declared_spell
        and not state.spell_cast
        and Action.ATTACK not in state.actions  # its turn (and the casting) not begun
    )
    if not casting or state.attacked_casting:
        return enc
    return with_state(enc, combatant_id, replace(state, attacked_casting=True))


def cast_spell(enc: Encounter, combatant_id: int) -> tuple[Encounter, bool]:
    """The encounter with the combatant's spell cast, and whether it was attacked while
    casting (ruling cast-in-tracker); RulesError when it can't cast now."""
    c = enc.combatant(combatant_id)
    if enc.phase is Phase.NOT_STARTED:
        return enc, False
    state = enc.state(combatant_id)
    if c.down:
        raise RulesError(f"{c.name} is down and can't cast.")
    if state.spell_cast:
        raise RulesError(f"{c.name} has already cast a spell this round.")
    if state.declared_spell:
        return with_state(enc, combatant_id, replace(state, spell_cast=True)), (
            state.attacked_casting
        )
    if enc.phase not in (Phase.TURN, Phase.SURPRISE) or enc.acting is not c.side:
        raise RulesError(
            f"{c.name} declared no spell this round: declare one at the round's start"
            " (/init act spell) or cast on its side's turn."
        )
    if Action.ATTACK in state.actions:
        raise RulesError(f"{c.name} has already used their attack this turn; a spell takes it.")
    state = replace(
        state, actions=state.actions | {Action.ATTACK}, sacrificed=Sacrifice.SPELL,
        spell_cast=True,
    )  # fmt: skip
    return with_state(enc, combatant_id, state), False
