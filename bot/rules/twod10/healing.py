"""Hit points between fights: damage, short and long rests, as pure state transitions.

``HealingState`` is everything a store needs to keep the text's limits across
commands: the HP, the HP at the last short rest, whether damage was taken since,
consciousness, a stabilisation's advantage and the once-a-day medicine uses.

Rulings:

* ``short-rest-gain``: a short rest gains toughness or 1 HP, whichever is higher
  (as the long rest says outright).
* ``short-rest-cap``: "It cannot move hit points to higher than they were at the
  last short rest" caps the short rest (and its medicine) at the HP the
  character had when their last short rest ended; the first short rest, and the
  first after a long rest, are capped only by the maximum. A long rest clears
  the cap and the once-a-day medicine uses.
* ``rest-damage``: only damage re-opens the short rest; HP lost to a medicine
  mishap or a failed dying roll is not "damage taken".
* ``rest-while-dying``: a character at 0 HP or below can't rest; dying rolls and
  stabilisation bring them back first.
* ``dying-awake``: a character who drops to 0 or below stays conscious until a
  dying roll fails, and wakes on returning to 1 HP by any means.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import death_threshold, max_hit_points

LONG_REST_MULTIPLIER = 3
LONG_REST_MINIMUM = 2
SHORT_REST_MINIMUM = 1
MAX_DAMAGE = 500
MAX_HP = max_hit_points(6)
LOWEST_HP = death_threshold(6)


def check_whole(value: int, *, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(f"{name} must be a whole number from {low} to {high}.")
    return value


@dataclass(frozen=True, kw_only=True)
class HealingState:
    hp: int
    max_hp: int
    short_rest_cap: int | None = None  # HP when the last short rest ended (short-rest-cap)
    damaged_since_rest: bool = False
    unconscious: bool = False
    toughness_advantage: bool = False  # from a stabilisation, spent by the next toughness roll
    daily_medicine_used: bool = False
    attribute_healed_today: bool = False

    def __post_init__(self) -> None:
        check_whole(self.max_hp, name="Maximum HP", low=max_hit_points(-1), high=MAX_HP)
        check_whole(self.hp, name="HP", low=LOWEST_HP, high=self.max_hp)
        if self.short_rest_cap is not None:
            check_whole(self.short_rest_cap, name="Short rest cap", low=1, high=self.max_hp)

    @property
    def dying(self) -> bool:
        return self.hp <= 0

    def dead(self, toughness: int) -> bool:
        return self.hp <= death_threshold(toughness)


def fresh(max_hp: int) -> HealingState:
    """A character at full HP who has not rested yet."""
    return HealingState(hp=max_hp, max_hp=max_hp)


def resize(state: HealingState, max_hp: int) -> HealingState:
    """A new maximum (toughness changed): HP and the short-rest cap stay within it."""
    check_whole(max_hp, name="Maximum HP", low=max_hit_points(-1), high=MAX_HP)
    cap = None if state.short_rest_cap is None else min(state.short_rest_cap, max_hp)
    return replace(state, max_hp=max_hp, hp=min(state.hp, max_hp), short_rest_cap=cap)


def set_hp(state: HealingState, hp: int, *, toughness: int) -> HealingState:
    """Move HP (never past the maximum or the death threshold), waking at 1 HP (dying-awake)."""
    hp = max(min(hp, state.max_hp), death_threshold(toughness))
    unconscious = state.unconscious and hp < 1
    return replace(state, hp=hp, unconscious=unconscious)


def take_damage(state: HealingState, amount: int, *, toughness: int) -> HealingState:
    """Damage lowers HP and opens the next short rest (rest-damage); dead stays dead."""
    check_whole(amount, name="Damage", low=0, high=MAX_DAMAGE)
    if state.dead(toughness):
        raise RulesError("This character is dead; damage changes nothing.")
    after = set_hp(state, state.hp - amount, toughness=toughness)
    return replace(after, damaged_since_rest=state.damaged_since_rest or amount > 0)


@dataclass(frozen=True, kw_only=True)
class RestResult:
    before: HealingState
    after: HealingState
    natural: int  # HP the rest itself offers
    medicine: int = 0  # the short-rest medicine roll's change, if one was made
    cap: int  # the most HP this rest could reach

    @property
    def gained(self) -> int:
        return self.after.hp - self.before.hp


def check_can_rest(state: HealingState, toughness: int) -> None:
    if state.dead(toughness):
        raise RulesError("This character is dead and can't rest.")
    if state.dying:
        # Ruling rest-while-dying.
        raise RulesError("A character at 0 HP or below can't rest; stabilise them first.")


def check_short_rest(state: HealingState, toughness: int) -> None:
    """Refuse a short rest the text doesn't allow now (checked before any die is rolled)."""
    check_can_rest(state, toughness)
    if not state.damaged_since_rest:
        raise RulesError(
            "A short rest helps only after damage is taken again; take a long rest instead."
        )


def short_rest_gain(toughness: int) -> int:
    """Toughness or 1 HP, whichever is higher (ruling short-rest-gain)."""
    return max(toughness, SHORT_REST_MINIMUM)


def long_rest_gain(toughness: int) -> int:
    """3 x toughness or 2 HP, whichever is higher."""
    return max(LONG_REST_MULTIPLIER * toughness, LONG_REST_MINIMUM)


def short_rest(state: HealingState, *, toughness: int, medicine: int = 0) -> RestResult:
    """Five minutes' rest: toughness or 1 HP, plus a medicine roll's change, under the cap.

    Refused until damage is taken again after the last short rest.
    """
    check_whole(medicine, name="Medicine change", low=-2, high=3)
    check_short_rest(state, toughness)
    cap = state.short_rest_cap if state.short_rest_cap is not None else state.max_hp
    natural = short_rest_gain(toughness)
    wanted = state.hp + natural + medicine
    # Ruling short-rest-cap: the rest never lifts HP past the cap, and never lowers
    # HP the character already has above it; a medicine mishap can still cost HP.
    if wanted > state.hp:
        hp = max(state.hp, min(wanted, cap))
    else:
        hp = wanted
    after = set_hp(state, hp, toughness=toughness)
    after = replace(after, damaged_since_rest=False, short_rest_cap=max(after.hp, 1))
    return RestResult(before=state, after=after, natural=natural, medicine=medicine, cap=cap)


def long_rest(state: HealingState, *, toughness: int) -> RestResult:
    """Eight hours: 3 x toughness or 2 HP; clears the short-rest cap and the daily uses."""
    check_can_rest(state, toughness)
    natural = long_rest_gain(toughness)
    after = set_hp(state, state.hp + natural, toughness=toughness)
    after = replace(
        after,
        short_rest_cap=None,  # ruling short-rest-cap
        daily_medicine_used=False,
        attribute_healed_today=False,
    )
    return RestResult(before=state, after=after, natural=natural, cap=state.max_hp)
