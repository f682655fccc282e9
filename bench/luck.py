"""Luck benchmark: scoring a 5,000-roll session, beside trivial baselines from the same run.

``PYTHONPATH=. python -m bench.luck [--rolls N] [--seed S]`` builds N roll-log results
(a session's mix: /pool, /check, /clash, /attack, /damage, /hero spend damage and
/roll, from a table's handful of pools and weapons) with the real rules and random
dice, encodes them as the roll log stores them, then prints CPU time (process time,
so other processes' load does not count) for:

* the floor: ``json.loads`` of every row (a recap reads them at least that far), and a
  loop that only looks at each row's kind;
* scoring every row (``bot.rules.hocs.luck.parts``, ``luck_roll.roll_percentile``)
  cold, every cache emptied (the ladders and the exact odds beneath them; the shared
  reroll table too, as before the bot's start-up warm-up), then warm (the ladders
  cached, as for a second recap of the same evening), each with its ratio to the floor;
* scoring a tenth of the rows with every ladder built again for each (times ten): what
  the ladder cache saves;
* ``luck_summary`` over every score;
* what the commands now pay per logged roll for the ``luck`` snapshot
  (``first_throw``), in µs, beside ``json.dumps`` of the same result.

The issue's budget is 300 ms of CPU for a 5,000-roll recap; the figures are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

from bot.rules.dice_source import RandomDice
from bot.rules.generic import luck_roll
from bot.rules.generic.luck import luck_summary
from bot.rules.generic_roll import roll_expression
from bot.rules.hocs import luck_ladders, odds, odds_clash, odds_core, odds_damage, policy
from bot.rules.hocs.clash import resolve_clash
from bot.rules.hocs.luck import SNAPSHOT_KEY, first_throw, parts
from bot.rules.hocs.many_dice import roll_one_result
from bot.rules.hocs.pool import PoolSpec
from bot.rules.hocs.rolling import roll_pool

# A table's evening: a few characters' pools, weapons and expressions, repeated.
SPECS = (
    PoolSpec(base=3),
    PoolSpec(base=4, rerolls=1),
    PoolSpec(base=5, focus=1),
    PoolSpec(base=2, boons=1),
    PoolSpec(base=4, banes=2),
    PoolSpec(base=6, guaranteed=1),
    PoolSpec(base=3, determination=True),
    PoolSpec(base=5, rerolls=2, focus=1),
)
WEAPONS = ((12, 10, 8), (8, 10, 6), (6, 10, 6), (10, 10, 8, 8), (8, 6))
EXPRESSIONS = ("1d20 + 5", "4d6kh3", "2d20kh1 + 3", "8d6", "1d8 + 2", "1d6e6")
KINDS = ("pool", "check", "clash", "attack", "damage", "hero_damage", "roll")


def _row(kind: str, rng: random.Random, dice: RandomDice) -> dict[str, Any]:
    if kind in ("pool", "check"):
        roll = roll_pool(rng.choice(SPECS), dice)
        result = {"roll": roll.to_dict(), "difficulty": rng.randint(1, 4), "revision": 0}
    elif kind in ("clash", "attack"):
        a, b = rng.choice(SPECS), rng.choice(SPECS[:4])
        clash = resolve_clash(a, b, dice=dice, attack=kind == "attack").to_dict()
        if kind == "clash":
            result = {"clash": clash, "revision": 0}
        else:
            kept = roll_one_result(rng.choice(WEAPONS), dice)
            damage = {"kept": kept.to_dict(), "bonus": 0, "amount": kept.total}
            result = {"attack": {"mode": "clash", "clash": clash}, "damage": damage, "hit": None}
    elif kind == "damage":
        kept = roll_one_result(rng.choice(WEAPONS), dice)
        damage = {"kept": kept.to_dict(), "bonus": 0, "amount": kept.total}
        result = {"target": None, "damage": damage, "hit": None}
    elif kind == "hero_damage":
        faces = [dice.roll(6), dice.roll(6)]
        result = {"faces": faces, "total": sum(faces)}
    else:
        return roll_expression(rng.choice(EXPRESSIONS), dice=dice).to_dict()
    result[SNAPSHOT_KEY] = first_throw(kind, result)
    return result


def _session(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    dice = RandomDice(random.Random(seed + 1))
    weights = (25, 20, 10, 15, 10, 2, 18)
    kinds = rng.choices(KINDS, weights=weights, k=n)
    return [(kind, json.dumps(_row(kind, rng, dice), separators=(",", ":"))) for kind in kinds]


def _score(kind: str, result: dict[str, Any]) -> list:
    if kind == "roll":
        scored = luck_roll.roll_percentile(result)
        return [scored] if scored is not None else []
    return [part.scored for part in parts(kind, result)]


def _cold() -> None:
    luck_ladders.clear_caches()
    luck_roll.roll_ladder.cache_clear()
    for cached in (odds.pool_odds, odds._test_odds, odds_clash.clash_odds, odds_clash._raw):
        cached.cache_clear()
    odds_damage.damage_odds.cache_clear()
    for module in (odds_core, policy):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


def _cpu_ms(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    out = fn()
    return (time.process_time() - start) * 1000, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {args.rolls} rolls, seed {args.seed}")
    rows = _session(args.rolls, args.seed)

    parse_ms, results = _cpu_ms(lambda: [(kind, json.loads(text)) for kind, text in rows])
    assert isinstance(results, list)
    loop_ms, _ = _cpu_ms(lambda: sum(1 for kind, _ in results if kind))

    def score_all() -> list:
        return [s for kind, result in results for s in _score(kind, result)]

    _cold()
    cold_ms, scores = _cpu_ms(score_all)
    warm_ms, _ = _cpu_ms(score_all)
    assert isinstance(scores, list)

    def uncached() -> None:
        # Every ladder built again for each row (the exact odds beneath stay cached):
        # what the ladder cache saves.
        for kind, result in results[: len(results) // 10]:
            luck_ladders.clear_caches()
            luck_roll.roll_ladder.cache_clear()
            _score(kind, result)

    uncached_ms = _cpu_ms(uncached)[0] * 10
    summary_ms, summary = _cpu_ms(lambda: luck_summary(scores))
    floor = max(parse_ms, 1e-6)

    def line(what: str, ms: float, ratio: str = "") -> None:
        print(f"{what:40} {ms:8.1f} ms CPU{ratio}")

    line("floor: json.loads of every row", parse_ms)
    line("floor: a loop over the rows", loop_ms)
    line("score every row, cold", cold_ms, f"  {cold_ms / floor:6.2f}x loads")
    line("score every row, warm (ladders kept)", warm_ms, f"  {warm_ms / floor:6.2f}x loads")
    line(
        "score, a ladder per row (a tenth, x10)",
        uncached_ms,
        f"  {uncached_ms / floor:6.2f}x loads",
    )
    line(f"luck_summary of {len(scores)} scores", summary_ms)
    print(f"  ({summary.n} scored, mean {summary.mean:.3f}, z {summary.z:+.2f}: {summary.verdict})")
    line("recap: loads + cold scoring + summary", parse_ms + cold_ms + summary_ms, " (budget 300)")

    print("snapshot per logged roll (first_throw), beside json.dumps of the result:")
    samples: dict[str, dict[str, Any]] = {}
    for kind, result in results:
        samples.setdefault(kind, result)
    runs = 2000
    for kind, result in samples.items():
        if kind in ("roll", "hero_damage"):
            continue  # no snapshot: nothing changes them after the roll
        snap_ms, _ = _cpu_ms(lambda k=kind, r=result: [first_throw(k, r) for _ in range(runs)])
        dump_ms, _ = _cpu_ms(lambda r=result: [json.dumps(r) for _ in range(runs)])
        ratio = snap_ms / max(dump_ms, 1e-6)
        print(f"  {kind:8} {snap_ms * 1000 / runs:6.1f} µs  {ratio:5.2f}x dumps")


if __name__ == "__main__":
    main()
