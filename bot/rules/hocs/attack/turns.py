"""Attacks within a turn on the initiative tracker: the extra-attack bane, tempo and aegis.

The text: "Attacking more than once per turn grants 1 bane on the second and
subsequent attacks until the end of that turn." Tempo: "You do not gain 1 bane on
your second and subsequent attacks until the end of your turn." Aegis: "You gain 1
reroll on a defense skill roll until the end of your next turn."

Rulings (also in /help attack):
* The bot counts attacks only when the tracker knows the turn: an /attack by the
  character whose turn it is in the channel's encounter. Other attacks (attacks of
  opportunity, no encounter) are not counted; add their banes by hand.
* The bane is 1 however many attacks came before (the text's "1 bane").
* Tempo earned on the attacker's turn removes that bane for the rest of the turn;
  earned off-turn it is announced only.
* Aegis gives 1 reroll on each defense roll its holder makes from the hit that
  earned it until the end of the holder's next turn (the rest of that round and the
  next round up to and including the holder's turn).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.hocs.attack.weapons import Advantage

EXTRA_ATTACK_BANE = ("second attack this turn", 1)
AEGIS_REROLL = ("aegis", 1)


@dataclass(frozen=True, kw_only=True)
class AttackTurn:
    """What is remembered of one character's attacks in an encounter."""

    round: int
    turn: int
    attacks: int = 0
    tempo: bool = False
    aegis_round: int | None = None


@dataclass(frozen=True, kw_only=True)
class TurnNow:
    """Where the encounter is, as one character sees it."""

    round: int
    turn: int
    on_turn: bool  # it is this character's turn
    turn_passed: bool = False  # this round, the character's turn is already over


def _same_turn(record: AttackTurn | None, now: TurnNow) -> bool:
    return record is not None and (record.round, record.turn) == (now.round, now.turn)


def extra_attack_banes(
    record: AttackTurn | None, now: TurnNow
) -> tuple[tuple[tuple[str, int], ...], str | None]:
    """The bane of a second or later attack this turn (none with tempo), and a note."""
    if not now.on_turn or not _same_turn(record, now):
        return (), None
    assert record is not None
    if record.attacks < 1:
        return (), None
    if record.tempo:
        return (), "Tempo: no bane for a further attack this turn."
    return (EXTRA_ATTACK_BANE,), None


def aegis_rerolls(record: AttackTurn | None, now: TurnNow) -> tuple[tuple[str, int], ...]:
    """The defender's aegis reroll, while it lasts."""
    if record is None or record.aegis_round is None:
        return ()
    if now.round == record.aegis_round:
        return (AEGIS_REROLL,)
    if now.round == record.aegis_round + 1 and not now.turn_passed:
        return (AEGIS_REROLL,)
    return ()


def after_attack(record: AttackTurn | None, now: TurnNow, earned: Advantage | None) -> AttackTurn:
    """The record once this character has attacked (counted only on its own turn)."""
    same = _same_turn(record, now)
    attacks = record.attacks if same and record is not None else 0
    tempo = bool(same and record is not None and record.tempo)
    if now.on_turn:
        attacks += 1
        tempo = tempo or earned is Advantage.TEMPO
    aegis = now.round if earned is Advantage.AEGIS else (record.aegis_round if record else None)
    return AttackTurn(
        round=now.round, turn=now.turn, attacks=attacks, tempo=tempo, aegis_round=aegis
    )
