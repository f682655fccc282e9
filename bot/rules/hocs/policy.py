"""The best use of talent rerolls, focus and guaranteed successes: pure and exact.

Given the faces showing and the modifiers left, these functions say which die a
talent reroll should take next (or none) and which dice take focus and
guaranteed successes. No dice, no I/O: an exact-odds feature can call
``expected_value`` on any position.

Objective (one ruling): maximise the expected number of successes, then the
expected number of 6s (the rules break clash ties by who rolled more 6s).

What the rules allow: a talent reroll rolls one die again, once per die, and the
player sees each result before choosing the next; focus adds 1 to one die (one
per die); a guaranteed success turns one die into a 4; only the determination
die explodes, and only on a rolled 6 (3/5 of a success and 1/5 of a 6 expected
from its chain). Focus and guarantees need no dice, so they are placed last.

The search is an exact expectimax over the reroll decisions, with two
reductions, each checked against exhaustive search on every pool of up to four
dice with every modifier combination (tests/rules/hocs/test_optimal_policy.py):

* the settled value (``settle_counts``) never drops when one die shows a higher
  face, so among ordinary dice the lowest face is the one to reroll first (a
  coupling argument: whatever happens to the higher die after, the lower one
  could have had), and an ordinary 6 is never rerolled; nor is a determination 6
  whose chain added a success (one whose chain fizzled can be, with a spare
  guarantee: the reroll can't lose the success and may explode again);
* faces 1 and 2 are worth the same (failures only a guarantee can fix), so they
  share one category, and only the first ``rerolls`` ordinary dice can matter;
* counts the settled value can no longer tell apart are capped (see ``_best``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from bot.rules.errors import RulesError

SIDES = 6
SUCCESS_FACE = 4
LOW = 1  # the category of faces 1 and 2
# What a determination die's explosion chain is worth on average when a reroll
# turns up a 6: 1/(1 - 1/6) = 6/5 more faces, each a success half the time and
# a 6 a sixth of the time.
CHAIN_VALUE = (Fraction(3, 5), Fraction(1, 5))
# Outcome categories of one d6 and how many faces land in each.
_OUTCOMES = ((LOW, 2), (3, 1), (4, 1), (5, 1), (6, 1))

_STOP, _DETERMINATION, _PLAIN = 0, 1, 2

Value = tuple[Fraction, Fraction]  # (expected successes, expected 6s)


def category(face: int) -> int:
    return LOW if face < 3 else face


def settle_counts(
    failures: int, threes: int, fives: int, *, focus: int, guaranteed: int
) -> tuple[int, int, int]:
    """Place focus and guarantees: (failures fixed, focus spent on 3s, 5s made 6s).

    Successes first: a guarantee fixes any failure, a focus only a 3. Then 6s:
    guarantees cover 3s where they can, so focus is free to turn 5s into 6s.
    """
    fixed = min(failures, guaranteed + min(focus, threes))
    fives_up = min(fives, focus - max(0, fixed - guaranteed))
    focus_on_threes = min(threes, focus - fives_up, fixed)
    return fixed, focus_on_threes, fives_up


def settle(
    faces: Sequence[int], *, focus: int, guaranteed: int
) -> tuple[frozenset[int], frozenset[int]]:
    """Which dice take a focus and which a guaranteed success (indices into ``faces``)."""
    threes = [i for i, face in enumerate(faces) if face == 3]
    lows = sorted((i for i, face in enumerate(faces) if face < 3), key=lambda i: (faces[i], i))
    fives = [i for i, face in enumerate(faces) if face == 5]
    fixed, on_threes, fives_up = settle_counts(
        len(lows) + len(threes), len(threes), len(fives), focus=focus, guaranteed=guaranteed
    )
    focused = threes[:on_threes] + fives[:fives_up]
    guaranteed_dice = (lows + threes[on_threes:])[: fixed - on_threes]
    return frozenset(focused), frozenset(guaranteed_dice)


def _totals(categories: Sequence[int]) -> tuple[int, int, int]:
    failures = sum(1 for c in categories if c < SUCCESS_FACE)
    return failures, sum(1 for c in categories if c == 3), sum(1 for c in categories if c == 5)


def _moved(counts: tuple[int, int, int], old: int, new: int) -> tuple[int, int, int]:
    """Counts after one die goes from category ``old`` to ``new``."""
    failures, threes, fives = counts
    failures += (new < SUCCESS_FACE) - (old < SUCCESS_FACE)
    threes += (new == 3) - (old == 3)
    fives += (new == 5) - (old == 5)
    return failures, threes, fives


def _scale(rerolls: int) -> int:
    """Values with ``rerolls`` left are exact integers over 5·6^rerolls (5 for the chain)."""
    return 5 * SIDES**rerolls


def _expect_reroll(
    rerolls: int,
    plain: tuple[int, ...],
    det: int | None,
    counts: tuple[int, int, int],
    old: int,
    exploding: bool,
    focus: int,
    guaranteed: int,
) -> tuple[int, int]:
    """Worth of rerolling one die of category ``old`` and playing on optimally.

    ``rerolls`` is what is left after this one; the result is over ``_scale(rerolls + 1)``.
    """
    unit = _scale(rerolls)
    total_s = total_x = 0
    for new, weight in _OUTCOMES:
        (vs, vx), _ = _best(rerolls, plain, det, *_moved(counts, old, new), focus, guaranteed)
        s = ((new >= SUCCESS_FACE) - (old >= SUCCESS_FACE)) * unit + vs
        x = ((new == SIDES) - (old == SIDES)) * unit + vx
        if exploding and new == SIDES:
            s += unit * CHAIN_VALUE[0].numerator // CHAIN_VALUE[0].denominator
            x += unit * CHAIN_VALUE[1].numerator // CHAIN_VALUE[1].denominator
        total_s += weight * s
        total_x += weight * x
    return total_s, total_x


def _best(
    rerolls: int,
    plain: tuple[int, ...],
    det: int | None,
    failures: int,
    threes: int,
    fives: int,
    focus: int,
    guaranteed: int,
) -> tuple[tuple[int, int], int]:
    """Best value from here (settled gains plus face changes, over ``_scale(rerolls)``) and
    the move that gets it.

    ``plain``: categories of the ordinary dice that may still take a talent
    reroll, lowest first, 6s left out, cut to ``rerolls`` entries; ``det``: the
    category of the determination die if it may still take one (never a 6).
    Ties keep the reroll (stop), then prefer the determination die.

    Counts are capped where the settled value stops depending on them: it sees
    threes only through ``min(focus, threes)`` and fives through a ``min`` with
    the focus left, and only free dice can still leave a category, so a count
    above ``focus`` (plus ``guaranteed`` for failures) plus the free dice that
    could leave it gives the same answer. And when the guarantees alone can fix
    every failure there is or could be (each free success could still fail), the
    threes no longer matter at all. That keeps the search small without changing
    any value.
    """
    free = plain if det is None else (*plain, det)
    free_failures = sum(1 for c in free if c < SUCCESS_FACE)
    free_threes = sum(1 for c in free if c == 3)
    free_fives = sum(1 for c in free if c == 5)
    if guaranteed >= failures + len(free) - free_failures:
        threes = free_threes = 0
    return _best_capped(
        rerolls,
        plain,
        det,
        min(failures, guaranteed + focus + free_failures),
        min(threes, focus + free_threes),
        min(fives, focus + free_fives),
        focus,
        guaranteed,
    )


@lru_cache(maxsize=1 << 18)
def _best_capped(
    rerolls: int,
    plain: tuple[int, ...],
    det: int | None,
    failures: int,
    threes: int,
    fives: int,
    focus: int,
    guaranteed: int,
) -> tuple[tuple[int, int], int]:
    fixed, _, fives_up = settle_counts(failures, threes, fives, focus=focus, guaranteed=guaranteed)
    unit = _scale(rerolls)
    best = ((fixed * unit, fives_up * unit), _STOP)
    if rerolls == 0:
        return best
    counts = (failures, threes, fives)
    if det is not None:
        value = _expect_reroll(
            rerolls - 1, plain[: rerolls - 1], None, counts, det, True, focus, guaranteed
        )
        if value > best[0]:
            best = (value, _DETERMINATION)
    if plain:
        value = _expect_reroll(
            rerolls - 1, plain[1:rerolls], det, counts, plain[0], False, focus, guaranteed
        )
        if value > best[0]:
            best = (value, _PLAIN)
    return best


@dataclass(frozen=True, kw_only=True)
class Position:
    """A rolled pool as the policy sees it: faces before focus or guarantees, and what is left.

    ``rerollable[i]``: die ``i`` has not had its talent reroll yet; ``determination``:
    the exploding die's index, if any; ``chain``: successes and 6s its explosions
    already added (a reroll of that die discards them); ``rerolls``, ``focus``,
    ``guaranteed``: the modifiers the roll has (rerolls: those still unused).
    """

    faces: tuple[int, ...]
    rerollable: tuple[bool, ...]
    determination: int | None = None
    chain: tuple[int, int] = (0, 0)
    rerolls: int = 0
    focus: int = 0
    guaranteed: int = 0

    def __post_init__(self) -> None:
        if len(self.rerollable) != len(self.faces):
            raise RulesError("Every die needs to say whether it can still be rerolled.")
        if any(
            isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= SIDES for f in self.faces
        ):
            raise RulesError("A d6 shows a face from 1 to 6.")
        if self.determination is not None and not 0 <= self.determination < len(self.faces):
            raise RulesError("The determination die must be one of the dice.")
        counts = (self.rerolls, self.focus, self.guaranteed, *self.chain)
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts):
            raise RulesError("Rerolls, focus and guaranteed successes are counts of 0 or more.")

    def _search_view(self) -> tuple[tuple[int, ...], int | None, list[int], tuple[int, int, int]]:
        """Free ordinary categories (lowest first, cut to the rerolls left), the free
        determination category, the ordinary dice in reroll order, and the counts."""
        det_index = self.determination
        order = sorted(
            (
                i
                for i, face in enumerate(self.faces)
                if self.rerollable[i] and i != det_index and face != SIDES
            ),
            key=lambda i: (self.faces[i], i),
        )[: self.rerolls]
        det = None
        # A determination 6 whose chain added a success is never worth rerolling (at most
        # 1.1 expected successes come back); one whose chain fizzled (a single 1-3) can be.
        if det_index is not None and self.rerollable[det_index] and self.chain[0] == 0:
            det = category(self.faces[det_index])
        plain = tuple(category(self.faces[i]) for i in order)
        return plain, det, order, _totals([category(f) for f in self.faces])

    def _solve(self) -> tuple[Value, int, list[int]]:
        plain, det, order, counts = self._search_view()
        # More focus or guarantees than dice are worth no more (one of each per die).
        dice = len(self.faces)
        (gain_s, gain_x), move = _best(
            self.rerolls, plain, det, *counts, min(self.focus, dice), min(self.guaranteed, dice)
        )
        unit = _scale(self.rerolls)
        successes = sum(1 for f in self.faces if f >= SUCCESS_FACE) + self.chain[0]
        sixes = sum(1 for f in self.faces if f == SIDES) + self.chain[1]
        return (successes + Fraction(gain_s, unit), sixes + Fraction(gain_x, unit)), move, order


def next_talent_reroll(position: Position) -> int | None:
    """The die the next talent reroll should take (an index), or None to keep the rest."""
    if position.rerolls == 0:
        return None
    _, move, order = position._solve()
    if move == _DETERMINATION:
        return position.determination
    if move == _PLAIN:
        return order[0]
    return None


def expected_value(position: Position) -> Value:
    """Expected (successes, 6s) of the whole roll when the rest is played optimally."""
    return position._solve()[0]


def expected_after_reroll(position: Position, index: int) -> Value:
    """Expected (successes, 6s) if die ``index`` is rolled again now (a hero or fortune
    reroll, which any die may take), then the rest is played optimally."""
    if (
        isinstance(index, bool)
        or not isinstance(index, int)
        or not 0 <= index < len(position.faces)
    ):
        raise RulesError("Pick one of the dice.")
    exploding = index == position.determination
    total_s, total_x = Fraction(0), Fraction(0)
    for face in range(1, SIDES + 1):
        after = replace(
            position,
            faces=(*position.faces[:index], face, *position.faces[index + 1 :]),
            chain=(0, 0) if exploding else position.chain,
        )
        if exploding and face == SIDES:
            # The chain is seen before any talent reroll: half the time it fizzles at
            # once (a 1-3, worth nothing, and the die may still be worth a reroll),
            # otherwise it is worth 6/5 successes and 2/5 6s on average and the die stays.
            dead_s, dead_x = expected_value(after)
            live_s, live_x = expected_value(replace(after, chain=(1, 0)))
            s = (dead_s + live_s - 1 + Fraction(6, 5)) / 2
            x = (dead_x + live_x + Fraction(2, 5)) / 2
        else:
            s, x = expected_value(after)
        total_s += s
        total_x += x
    return total_s / SIDES, total_x / SIDES
