"""The exact search behind every HOCS pool odds: weights of each outcome of one pool.

No sampling: the chance of every success count (and, for clashes, every count of
6s with it) is computed exactly as integer weights over powers of 6, and every
talent reroll decision is the one ``policy._best``, the function
``rolling.roll_pool`` follows, makes, so these figures can never disagree with
the dice.

``pool_weights`` takes one of two fast paths: without talent rerolls a closed
form over category counts (``odds_fixed``), with them the first throw times what
the rerolls make of it over states far smaller than the policy's own
(``odds_rerolls``). ``_search_weights`` below is the earlier general search,
which asks ``_best`` itself at every state; it is slow (seconds for 31 dice with
much focus) but direct, and the tests check both fast paths against it.

How the general search goes (two phases, both over counts rather than 6^n face
sequences):

1. The first throw, one die at a time, into states that keep only what the
   policy and the final count can still tell apart: the rerollable ordinary
   dice the policy may reroll (the lowest ``rerolls`` of them, as it sees them),
   counts of failures, 3s and 5s capped where ``settle_counts`` stops seeing
   them, and the exact number of successes so far. The determination die is
   kept apart: its category, whether it may still be rerolled (a 6 whose chain
   fizzled may), whether it first showed a 1, and whether a live chain of 6s is
   still rolling on.
2. Talent rerolls, layer by layer: each state takes the policy's move (stop,
   the determination die, or the lowest ordinary die) and branches on the six
   faces.

A live chain of 6s (the determination die showed 6 and its first chain face a 6
too) can add any number of successes; it is left out of the weights and kept as
a flag, for callers to add in closed form (``CHAIN_*`` below).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from bot.rules.hocs.odds_fixed import fixed_weights, slot_bits
from bot.rules.hocs.odds_rerolls import reroll_weights
from bot.rules.hocs.policy import _DETERMINATION, _PLAIN, LOW, _best, settle_counts
from bot.rules.hocs.pool import DieOrigin, PoolSpec

SIDES = 6
# The first throw of the determination die below 6: (category, did it show a 1).
_DET_FACES = ((LOW, True), (LOW, False), (3, False), (4, False), (5, False))
# A live chain of 6s adds K 6s and K + E successes: each further face is a 6 with
# chance 1/6 (rolls on), a 4 or 5 with 1/3 (one more success, stops) or 1-3 with 1/2
# (stops). So P(K = k) = (5/6)(1/6)^k and, independently, P(E = 1) = 2/5.
CHAIN_STOP = Fraction(5, 6)
CHAIN_EXTRA = Fraction(2, 5)
# Successes added: P(0) = 1/2 and P(j) = (5/2)(1/6)^j for j >= 1; E = 1/5 + 2/5 = 3/5.
FRESH_CHAIN_MEAN = Fraction(3, 5)

# Each state carries its weights for every outcome at once, packed into one integer
# (Kronecker substitution): the weight of k successes and x 6s sits in slot
# k * width + x (width 1 and x ignored when 6s are not tracked). Gaining a success is
# a shift, merging states an addition. No weight exceeds the denominator
# 6^(dice + 1 + rerolls), so slots of its bit length (in whole bytes) never carry;
# a slot no wider than that keeps the integers, and so every addition, small.
_STOP_MOVE = 0


def _insert(plain: tuple[int, ...], cat: int, keep: int) -> tuple[int, ...]:
    """Add a rerollable ordinary die; the policy only ever looks at the lowest ``keep``."""
    if len(plain) >= keep and (keep == 0 or cat >= plain[-1]):
        return plain
    merged = tuple(sorted((*plain, cat)))
    return merged[:keep]


def _shift(poly: int, bits: int) -> int:
    # An outcome is only ever lost by a die that had it, so a right shift drops no weight.
    return poly << bits if bits >= 0 else poly >> -bits


# A state: (plain, failures, threes, fives, det, det_free, crit, chain) where
# plain = rerollable ordinary non-6 categories, lowest first, at most ``rerolls``;
# failures / threes / fives = ordinary dice in those categories (capped, see _caps);
# det = the determination die's category (None: no such die); det_free = it may
# still take a talent reroll; crit = it first showed a 1; chain = a live chain of
# 6s is still to be added. Outcomes so far live in the packed weights.
_State = tuple


@dataclass(frozen=True, slots=True)
class Weights:
    """``final[(crit, chain)]``: packed weights over ``denominator``, ``bits`` per slot.

    Slot ``k * width + x``: k successes and x 6s (x always 0 when ``width`` is 1).
    """

    final: dict[tuple[bool, bool], int]
    width: int
    denominator: int
    bits: int

    def outcomes(self) -> list[tuple[bool, bool, int, int, int]]:
        """(crit, chain, successes, sixes, weight) for every nonzero weight."""
        step = self.bits // 8
        width = self.width
        out: list[tuple[bool, bool, int, int, int]] = []
        for (crit, chain), packed in self.final.items():
            # One byte string, sliced per slot: shifting a long integer slot by slot
            # would copy it once per slot. Decoded in comprehensions, not a generator
            # step per slot: a clash side has thousands of slots.
            slots = (packed.bit_length() + self.bits - 1) // self.bits
            raw = packed.to_bytes(slots * step, "little")
            decode = int.from_bytes
            weights = [decode(raw[at : at + step], "little") for at in range(0, len(raw), step)]
            out.extend(
                (crit, chain, index // width, index % width, w)
                for index, w in enumerate(weights)
                if w
            )
        return out


def _caps(spec: PoolSpec, dice: int, sixes: bool) -> tuple[int, int, int]:
    focus, guaranteed = min(spec.focus, dice), min(spec.guaranteed, dice)
    # settle_counts and policy._best see threes and fives only through min(focus + free, ·)
    # and failures through min(guaranteed + focus + free, ·); free dice <= rerolls + 1.
    if not spec.rerolls:
        # No decisions left to make: only min(failures, guaranteed + min(focus, threes))
        # counts, and 5s only for the 6s focus makes of them (clash ties).
        return guaranteed + focus, focus, focus if sixes else 0
    free = spec.rerolls + 1
    return guaranteed + focus + free, focus + free, focus + free


class _Layout:
    """Bit offsets (one success moves ``width`` slots of ``bits`` bits, one 6 moves ``six``
    slots) and what a die of each category is worth.

    ``unlimited``: focus covers every die (focus >= dice), so every 3 ends a success and
    every 5 a 6 (``settle_counts`` with focus >= threes + fives). Then 3s and 5s are
    counted as they come, only failures 1-2 are kept as a count (what guarantees fix),
    and the policy is asked about the dice it may still reroll (``_policy_counts``):
    that keeps the states few when focus is large, where counting 3s and 5s up to the
    focus made the search take seconds.
    """

    __slots__ = ("bits", "six", "unlimited", "width")

    def __init__(self, dice: int, sixes: bool, unlimited: bool, bits: int = 128) -> None:
        # At most dice + 1 sixes before a live chain (the determination die's face and
        # its first chain face), so dice + 2 slots per success count.
        self.bits = bits
        self.width = (dice + 2 if sixes else 1) * bits
        self.six = bits if sixes else 0
        self.unlimited = unlimited

    def gain(self, successes: int, sixes: int) -> int:
        """The shift, in bits, for gaining ``successes`` and ``sixes`` (either may be < 0)."""
        return successes * self.width + sixes * self.six

    def value(self, cat: int) -> int:
        """Slots a die of this category adds before focus and guarantees are placed."""
        if self.unlimited:
            return self.gain(cat >= 3, cat >= 5)
        return self.gain(cat >= 4, cat == 6)

    def counts(self, cat: int) -> tuple[int, int, int]:
        """What the category adds to the (failures, threes, fives) a state keeps."""
        if self.unlimited:
            return (cat == LOW, 0, 0)
        return (cat < 4, cat == 3, cat == 5)


def _first_throw(spec: PoolSpec, lay: _Layout, sixes: bool) -> dict[_State, int]:
    """States after the first throw, weighted over 6^(dice + 1)."""
    extra = spec.extra_die
    ordinary = spec.dice_count - (1 if extra is DieOrigin.DETERMINATION else 0)
    fail_cap, three_cap, five_cap = _caps(spec, spec.dice_count, sixes)
    if lay.unlimited:
        # Only min(failures, guaranteed) counts, and the policy's free dice <= rerolls + 1.
        fail_cap = min(spec.guaranteed, spec.dice_count) + spec.rerolls + 1
    keep = spec.rerolls
    faces = [(cat, weight, lay.value(cat), lay.counts(cat)) for cat, weight in _ORDINARY]
    states: dict[tuple, int] = {((), 0, 0, 0): 1}
    for _ in range(ordinary):
        nxt: dict[tuple, int] = defaultdict(int)
        for (plain, fail, three, five), w in states.items():
            for cat, weight, slots, (df, dt, dv) in faces:
                key = (
                    _insert(plain, cat, keep),
                    min(fail_cap, fail + df),
                    min(three_cap, three + dt),
                    min(five_cap, five + dv),
                )
                nxt[key] += (w << slots) * weight
            nxt[(plain, fail, three, five)] += w << lay.value(6)  # never rerolled
        states = nxt
    out: dict[_State, int] = defaultdict(int)
    for (plain, fail, three, five), w in states.items():
        if extra is not DieOrigin.DETERMINATION:
            out[(plain, fail, three, five, None, False, False, False)] += w * 6
            continue
        for cat, is_one in _DET_FACES:
            moved = w << lay.value(cat)
            out[(plain, fail, three, five, cat, True, is_one, False)] += moved * 6
        # A 6 explodes at once: its first chain face decides whether it may be rerolled.
        fizzled = (plain, fail, three, five, 6, True, False, False)
        out[fizzled] += _shift(w, lay.gain(1, 1)) * 3  # 1-3: one success, one 6
        added = (plain, fail, three, five, 6, False, False, False)
        out[added] += _shift(w, lay.gain(2, 1)) * 2  # 4 or 5
        live = (plain, fail, three, five, 6, False, False, True)
        out[live] += _shift(w, lay.gain(2, 2))  # a 6: the chain rolls on
    return out


_ORDINARY = ((LOW, 2), (3, 1), (4, 1), (5, 1))


def _totals(s: _State) -> tuple[int, int, int]:
    _, failures, threes, fives, d = s[:5]
    if d is None:
        return failures, threes, fives
    return failures + (d < 4), threes + (d == 3), fives + (d == 5)


def _policy_counts(s: _State, left: int, lay: _Layout) -> tuple[int, int, int]:
    """The (failures, threes, fives) to ask the policy about.

    With unlimited focus the 3s and 5s no reroll can reach are a success and a 6 in
    every branch alike: the same constant on every move's value, so leaving them out
    changes no choice (nor a tie). What is left: every failure 1-2, and the 3s and 5s
    among the dice the policy may still reroll.
    """
    if not lay.unlimited:
        return _totals(s)
    plain, lows, _, _, d, det_free = s[:6]
    free = (*plain[:left], d) if det_free else plain[:left]
    threes, fives = free.count(3), free.count(5)
    return lows + (d == LOW) + threes, threes, fives


def _settled(s: _State, lay: _Layout, focus: int, guaranteed: int) -> int:
    """Slots focus and guarantees add once no reroll is left."""
    if lay.unlimited:
        return lay.gain(min(s[1] + (s[4] == LOW), guaranteed), 0)
    fixed, _, fives_up = settle_counts(*_totals(s), focus=focus, guaranteed=guaranteed)
    return lay.gain(fixed, fives_up)


def _reroll(
    s: _State, w: int, old: int, new: int, lay: _Layout, *, det: bool
) -> tuple[_State, int]:
    w = _shift(w, lay.value(new) - lay.value(old))
    plain, failures, threes, fives, d, free, crit, chain = s
    if det:
        return (plain, failures, threes, fives, new, False, crit, chain or new == 6), w
    # A capped count stays at or above the policy's own cap after this move (see _caps).
    (nf, nt, nv), (of, ot, ov) = lay.counts(new), lay.counts(old)
    return (
        plain[1:],
        max(0, failures + nf - of),
        max(0, threes + nt - ot),
        max(0, fives + nv - ov),
        d,
        free,
        crit,
        chain,
    ), w


def _plan(
    s: _State, left: int, lay: _Layout, focus: int, guaranteed: int
) -> tuple[tuple | None, int]:
    """(transitions, settled slots) for a state: the policy's move with ``left`` rerolls
    and, if it rerolls, each (next state's dice, whether a chain went live), slot shift
    and face weight; if it stops, the slots focus and guarantees add."""
    move = _STOP_MOVE
    if left:
        det = s[4] if s[5] else None
        counts = _policy_counts(s, left, lay)
        _, move = _best(left, s[0][:left], det, *counts, focus, guaranteed)
    if move != _DETERMINATION and move != _PLAIN:
        return None, _settled(s, lay, focus, guaranteed)
    is_det = move == _DETERMINATION
    old = s[4] if is_det else s[0][0]
    base = (*s[:6], False, False)
    moves = []
    for new, weight in ((LOW, 2), (3, 1), (4, 1), (5, 1), (6, 1)):
        key, _ = _reroll(base, 0, old, new, lay, det=is_det)
        slots = lay.value(new) - lay.value(old)
        moves.append(((key[:6], key[7]), slots, weight))
    return tuple(moves), 0


def pool_weights(spec: PoolSpec, *, sixes: bool = False, crit: bool = True) -> Weights:
    """Exact weights of every outcome of ``roll_pool(spec, dice)``, a live chain left apart.

    ``sixes``: also count 6s (rolled, made by focus from a 5, or in the chain so far),
    which clashes need to break ties. ``crit`` False: don't tell apart whether the
    determination die first showed a 1 (every key's crit is False), which a clash never
    reads and which halves the work of a determination side.
    """
    if not spec.rerolls:
        # No decision left to make: a closed form over category counts (odds_fixed).
        final, width, denominator, bits = fixed_weights(spec, sixes=sixes)
        if not crit:
            final = _without_crit(final)
        return Weights(final=final, width=width, denominator=denominator, bits=bits)
    # Talent rerolls: the first throw times what the rerolls make of it (odds_rerolls).
    denominator = SIDES ** (spec.dice_count + 1 + spec.rerolls)
    final, width, bits = reroll_weights(spec, sixes=sixes, crit=crit)
    return Weights(final=final, width=width, denominator=denominator, bits=bits)


def _without_crit(final: dict[tuple[bool, bool], int]) -> dict[tuple[bool, bool], int]:
    merged: dict[tuple[bool, bool], int] = defaultdict(int)
    for (_, chain), packed in final.items():
        merged[(False, chain)] += packed
    return dict(merged)


def _search_weights(spec: PoolSpec, *, sixes: bool = False, crit: bool = True) -> Weights:
    """The general search (module docstring), for pools with talent rerolls; ``crit`` as
    ``pool_weights``'s (kept apart either way: the callers that pass it merge it)."""
    dice = spec.dice_count
    focus, guaranteed = min(spec.focus, dice), min(spec.guaranteed, dice)
    denominator = SIDES ** (dice + 1 + spec.rerolls)
    bits = slot_bits(denominator)
    lay = _Layout(dice, sixes, unlimited=dice > 0 and focus >= dice, bits=bits)
    layer = _first_throw(spec, lay, sixes)
    # final[(crit, chain)]: packed weights over 6^(first throw) * 6^(rerolls spent), all
    # brought to one denominator 6^(dice + 1 + rerolls).
    final: dict[tuple[bool, bool], int] = defaultdict(int)
    rerolls = spec.rerolls
    # What a state does depends only on its dice, not on its flags (crit, live chain):
    # one policy question and one set of transitions per distinct set of dice.
    plans: dict[tuple, tuple] = {}
    for left in range(rerolls, -1, -1):
        nxt: dict[_State, int] = defaultdict(int)
        scale = SIDES**left
        for s, w in layer.items():
            dice_part = s[:6]
            plan = plans.get((left, dice_part))
            if plan is None:
                plan = _plan(s, left, lay, focus, guaranteed)
                plans[(left, dice_part)] = plan
            if plan[0] is None:
                final[(s[6], s[7])] += _shift(w, plan[1]) * scale
                continue
            crit, chain = s[6], s[7]
            for (key, live), slots, weight in plan[0]:
                nxt[(*key, crit, chain or live)] += _shift(w, slots) * weight
        layer = nxt
    width = lay.width // lay.bits
    return Weights(final=dict(final), width=width, denominator=denominator, bits=lay.bits)
