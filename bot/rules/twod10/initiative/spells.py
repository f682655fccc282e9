"""A spell cast by a combatant of a tracked fight, and the attacks that trouble it.

"Spells declared at the start of a round are cast at the start of the combatants turn
and replace their attack action. If a spellcasters spell is interrupted before their
sides turn begins, then declaring a spell during their turn uses an attack action.
Said spell is cast at the end of their next turn."
"Anytime a caster is attacked when casting a spell, the spell roll has disadvantage.
Anytime a caster takes damage in combat, the spell or ritual fails"

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
* ``spell-interrupted``: a declared spell is interrupted when damage in combat makes
  it fail before its side's turn (the magic text: damage fails a spell; an attack
  alone only gives disadvantage). The bot learns it from the caster's
  ``/cast damaged:True`` for that spell, or from an /attack whose damage lands on it
  (which also makes a spell declared again and pending fail), which frees the attack
  action the spell would have replaced. On that same turn ``/init act declare spell`` declares it
  again with the attack action; it is pending until the end of its side's turn the
  next round, when it goes off and ``/cast`` allows it once (until that round ends);
  before then ``/cast`` and other declarations are refused. An attack on the caster
  while it is pending is an attack while casting; a caster down by then loses it.
  Only the declaring takes an attack action: the next turn's actions are its own.
"""

from __future__ import annotations

from dataclasses import replace

from bot.rules.errors import RulesError
from bot.rules.twod10.initiative.events import PendingSpellsDue, SpellDeclared
from bot.rules.twod10.initiative.model import (
    Action,
    Combatant,
    Encounter,
    PendingSpell,
    Phase,
    Sacrifice,
    TurnState,
    with_combatant,
    with_state,
)
from bot.rules.twod10.initiative.turns import declare_spell


def note_attack(enc: Encounter, combatant_id: int) -> Encounter:
    """An attack on ``combatant_id``: attacked while casting if its declared spell is
    still being cast (its turn hasn't started), or a spell it declared again is pending."""
    c = enc.combatant(combatant_id)
    pending = c.pending_spell
    if pending is not None:  # being cast until it goes off (ruling spell-interrupted)
        if pending.attacked:
            return enc
        return with_combatant(enc, replace(c, pending_spell=replace(pending, attacked=True)))
    state = enc.state(combatant_id)
    casting = (
        state.declared_spell
        and not state.spell_cast
        and Action.ATTACK not in state.actions  # its turn (and the casting) not begun
    )
    if not casting or state.attacked_casting:
        return enc
    return with_state(enc, combatant_id, replace(state, attacked_casting=True))


def note_damage(enc: Encounter, combatant_id: int, damage: int) -> tuple[Encounter, str | None]:
    """Damage an /attack dealt ``combatant_id``: a declared spell still being cast is
    interrupted, as ``/cast damaged:True`` says, and a spell declared again and pending
    fails outright (ruling spell-interrupted); the line to show, if any."""
    if damage <= 0:
        return enc, None
    c = enc.combatant(combatant_id)
    if c.pending_spell is not None:
        enc = with_combatant(enc, replace(c, pending_spell=None))
        return enc, f"{c.name}'s pending spell fails: the damage broke it while it was cast."
    state = enc.state(combatant_id)
    casting = state.declared_spell and not state.spell_cast and Action.ATTACK not in state.actions
    if not casting:
        return enc, None
    enc = with_state(enc, combatant_id, _interrupted(replace(state, spell_cast=True)))
    return enc, (
        f"{c.name}'s declared spell is interrupted by the damage: on their turn /init act"
        " declare spell casts it again, going off at the end of their next turn."
    )


def _waiting(c: Combatant, pending: PendingSpell) -> str:
    return (
        f"{c.name}'s spell goes off at the end of their side's turn in round {pending.due}:"
        " /cast it then."
    )


def cast_spell(
    enc: Encounter, combatant_id: int, *, damaged: bool = False
) -> tuple[Encounter, bool]:
    """The encounter with the combatant's spell cast, and whether it was attacked while
    casting (ruling cast-in-tracker); RulesError when it can't cast now. ``damaged``: the
    caster took damage while casting, so a declared spell is interrupted."""
    c = enc.combatant(combatant_id)
    if enc.phase is Phase.NOT_STARTED:
        return enc, False
    state = enc.state(combatant_id)
    if c.down:
        raise RulesError(f"{c.name} is down and can't cast.")
    if c.pending_spell is not None:
        raise RulesError(_waiting(c, c.pending_spell))
    if state.spell_ready:  # the pending spell went off at its turn's end: its one /cast
        state = replace(state, spell_ready=False, spell_cast=True)
        return with_state(enc, combatant_id, state), state.attacked_casting
    if state.spell_cast:
        raise RulesError(f"{c.name} has already cast a spell this round.")
    if state.declared_spell:
        cast = replace(state, spell_cast=True)
        if damaged:  # ruling spell-interrupted
            cast = _interrupted(cast)
        return with_state(enc, combatant_id, cast), state.attacked_casting
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


def _interrupted(state: TurnState) -> TurnState:
    """A declared spell damage made fail: the attack it would replace is the caster's
    again, to declare a spell anew with on its turn (ruling spell-interrupted)."""
    state = replace(state, spell_interrupted=True)
    if state.sacrificed is Sacrifice.SPELL:  # its turn had begun and taken the attack
        state = replace(state, actions=state.actions - {Action.ATTACK}, sacrificed=None)
    return state


def declare(enc: Encounter, combatant_id: int) -> tuple[Encounter, SpellDeclared]:
    """A spell declared at the round's start, or again on the caster's own turn after
    its declared spell was interrupted: then it takes the attack action and goes off
    at the end of its side's turn next round (ruling spell-interrupted)."""
    c = enc.combatant(combatant_id)
    if c.pending_spell is not None:
        raise RulesError(
            f"{c.name} is still casting the spell that goes off at the end of their side's"
            f" turn in round {c.pending_spell.due}."
        )
    state = enc.state(combatant_id)
    on_turn = enc.phase is Phase.TURN and enc.acting is c.side
    if not (on_turn and state.spell_interrupted):
        return declare_spell(enc, combatant_id), SpellDeclared(combatant_id)
    if c.down:
        raise RulesError(f"{c.name} is down and can't cast.")
    if Action.ATTACK in state.actions:
        raise RulesError(
            f"{c.name} has already used their attack this turn; declaring a spell takes it."
        )
    pending = PendingSpell(due=enc.round + 1)
    enc = with_combatant(enc, replace(c, pending_spell=pending))
    state = replace(state, actions=state.actions | {Action.ATTACK}, sacrificed=Sacrifice.SPELL)
    return with_state(enc, combatant_id, state), SpellDeclared(combatant_id, due=pending.due)


def pending_spells_due(enc: Encounter) -> tuple[Encounter, PendingSpellsDue | None]:
    """The end of the acting side's turn: its pending spells due this round go off
    (ruling spell-interrupted); a caster down by then loses its spell."""
    assert enc.acting is not None
    due = [
        c for c in enc.side(enc.acting)
        if c.pending_spell is not None and c.pending_spell.due <= enc.round
    ]  # fmt: skip
    if not due:
        return enc, None
    for c in due:
        assert c.pending_spell is not None
        enc = with_combatant(enc, replace(c, pending_spell=None))
        if not c.down:
            state = enc.state(c.id)
            attacked = state.attacked_casting or c.pending_spell.attacked
            state = replace(state, spell_ready=True, attacked_casting=attacked)
            enc = with_state(enc, c.id, state)
    event = PendingSpellsDue(
        side=enc.acting,
        ready=tuple(c.id for c in due if not c.down),
        lost=tuple(c.id for c in due if c.down),
    )
    return enc, event
