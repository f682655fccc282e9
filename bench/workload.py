"""The command families: who runs what, where, and how each run is timed.

Every operation is a real ``INTERACTION_CREATE`` sent through the slash harness:
discord.py parses it, the command tree and the hybrid command convert the options,
the cog runs its checks, rules and transaction on the seeded file, and the reply
goes back through the (recording) webhook adapter. Operations are chosen before the
clock starts and spread over many guilds and characters, so the database's size
matters (indexes, page cache), not one hot row.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord.ext.test as dpytest

from bench.seed import TRAINABLE, SeededCharacter
from bench.world import FLOOR_COMMAND, Place, World, schema_validation
from bot.storage.hocs.characters import CharacterKind, CharacterRepository
from tests.support.slash import SlashResult

Op = Callable[[], Awaitable[SlashResult]]
ATTRIBUTES = ("Strength", "Agility", "Mind", "Presence")
FACTORS = ("beneficial", "good", "good", "subpar", "challenging")


@dataclass(frozen=True)
class Family:
    name: str  # as printed
    command: str  # the slash command
    dice: str  # the d20 expression rolling about as many dice (the dice ceiling)
    build: Callable[[World, random.Random, int], list[Op]]


@dataclass
class Sample:
    """Latencies of one timed run (nanoseconds) and what the commands answered."""

    name: str
    latencies_ns: list[int] = field(default_factory=list)
    elapsed_ns: int = 0
    refused: int = 0
    db_calls: int = 0  # calls into aiosqlite's worker thread during the timed part
    statements: int = 0  # SQL statements SQLite ran during the timed part
    note: str = ""
    # How long the work each command left for after its reply took (bot.delivery.followups:
    # tracker edits), drained after the clock stopped; its statements count above.
    followups_ns: list[int] = field(default_factory=list)

    @property
    def ops(self) -> int:
        return len(self.latencies_ns)

    @property
    def rate(self) -> float:
        return self.ops / (self.elapsed_ns / 1e9) if self.elapsed_ns else 0.0

    @property
    def mean_ns(self) -> float:
        return sum(self.latencies_ns) / self.ops if self.ops else 0.0


class UnexpectedError(RuntimeError):
    """A command failed in a way the bot's error handler treats as a bug."""


def _players_with_characters(world: World) -> list[tuple[Place, SeededCharacter]]:
    return [
        (place, character)
        for place in world.places
        for character in place.seeded.characters
        if character.active and character.owner_id != place.seeded.gm_id
    ]


def build_roll(world: World, rng: random.Random, n: int) -> list[Op]:
    ops = []
    for _ in range(n):
        place = rng.choice(world.places)
        user = place.member(rng.choice(place.seeded.user_ids))
        ops.append(_op(world, "roll", user, place.table, expression="1d20+5"))
    return ops


def build_check(world: World, rng: random.Random, n: int) -> list[Op]:
    subjects = _players_with_characters(world)
    ops = []
    for _ in range(n):
        place, character = rng.choice(subjects)
        skill = rng.choice(TRAINABLE + ATTRIBUTES)
        ops.append(_op(world, "check", place.member(character.owner_id), place.table, skill=skill))
    return ops


def build_pool(world: World, rng: random.Random, n: int) -> list[Op]:
    subjects = _players_with_characters(world)
    ops = []
    for _ in range(n):
        place, character = rng.choice(subjects)
        user = place.member(character.owner_id)
        ops.append(_op(world, "pool", user, place.table, dice=rng.randint(2, 6)))
    return ops


def build_clash(world: World, rng: random.Random, n: int) -> list[Op]:
    """The active character against a number of dice (the opponent needs no sheet)."""
    subjects = _players_with_characters(world)
    ops = []
    for _ in range(n):
        place, character = rng.choice(subjects)
        skill = rng.choice(TRAINABLE + ATTRIBUTES)
        user = place.member(character.owner_id)
        opponent = str(rng.randint(2, 5))
        ops.append(_op(world, "clash", user, place.table, skill=skill, opponent=opponent))
    return ops


def build_damage(world: World, rng: random.Random, n: int) -> list[Op]:
    """The GM rolls 1d6 damage onto a random character of the guild."""
    ops = []
    for _ in range(n):
        place = rng.choice(world.places)
        target = rng.choice(place.seeded.characters)
        user = place.member(place.seeded.gm_id)
        ops.append(_op(world, "damage", user, place.table, dice="1d6", target=target.name))
    return ops


def build_attack(world: World, rng: random.Random, n: int) -> list[Op]:
    """Distinct attacker/target pairs while they last, so nobody is attacked while down."""
    unused = {id(place): list(place.seeded.characters) for place in world.places}
    for characters in unused.values():
        rng.shuffle(characters)
    ops = []
    for _ in range(n):
        places = [p for p in world.places if len(unused[id(p)]) >= 2] or world.places
        place = rng.choice(places)
        pool = unused[id(place)]
        if len(pool) >= 2:
            attacker, target = pool.pop(), pool.pop()
        else:
            attacker, target = rng.sample(place.seeded.characters, 2)
        options = {"target": target.name, "character": attacker.name}
        if rng.random() < 0.5:
            options["weapon"] = rng.choice(attacker.weapons)
        ops.append(_op(world, "attack", place.member(attacker.owner_id), place.table, **options))
    return ops


def build_init_next(world: World, rng: random.Random, n: int) -> list[Op]:
    fights = [place for place in world.places if place.combat is not None]
    ops = []
    for _ in range(n):
        place = rng.choice(fights)
        ops.append(_op(world, "init next", place.member(place.seeded.gm_id), place.combat))
    return ops


def build_hero_spend(world: World, rng: random.Random, n: int) -> list[Op]:
    subjects = [
        (place, character)
        for place, character in _players_with_characters(world)
        if character.kind is CharacterKind.PC
    ]
    ops = []
    for _ in range(n):
        place, character = rng.choice(subjects)
        user = place.member(character.owner_id)
        ops.append(_op(world, "hero spend", user, place.table, option="action"))
    return ops


def build_rest(world: World, rng: random.Random, n: int) -> list[Op]:
    subjects = _players_with_characters(world)
    ops = []
    for _ in range(n):
        place, character = rng.choice(subjects)
        factors = {key: rng.choice(FACTORS) for key in ("place", "resources", "time")}
        ops.append(_op(world, "rest", place.member(character.owner_id), place.table, **factors))
    return ops


def build_floor(world: World, rng: random.Random, n: int) -> list[Op]:
    ops = []
    for _ in range(n):
        place = rng.choice(world.places)
        user = place.member(rng.choice(place.seeded.user_ids))
        ops.append(_op(world, FLOOR_COMMAND, user, place.table))
    return ops


def _op(world: World, command: str, user: object, channel: object, **options: object) -> Op:
    def run() -> Awaitable[SlashResult]:
        return world.slash.run(command, user=user, channel=channel, options=options)  # type: ignore[arg-type]

    return run


# The order the issue lists them in; dice expressions roll about as many dice as the
# command does (roll: the same expression; check: a 4-die pool; attack: clash pools
# and damage dice; init next: a new round re-rolls a few pools; rest: a few d6).
FAMILIES = (
    Family("roll", "roll", "1d20+5", build_roll),
    Family("pool", "pool", "4d6", build_pool),
    Family("check", "check", "4d6", build_check),
    Family("clash", "clash", "4d6+3d6", build_clash),
    Family("attack", "attack", "1d12+1d10+1d8", build_attack),
    Family("damage", "damage", "1d6", build_damage),
    Family("init next", "init next", "3d6", build_init_next),
    Family("hero spend", "hero spend", "1d6", build_hero_spend),
    Family("rest", "rest", "3d6kh1", build_rest),
)
# Run order: attacks last among the character families, so no rest or spend finds a
# character an attack has just put down.
RUN_ORDER = ("roll", "pool", "check", "clash", "hero spend", "rest", "attack", "damage",
             "init next")  # fmt: skip
# The targets: these at most 3x the floor, the encounter commands at most 5x.
LIGHT = frozenset({"roll", "pool", "check", "clash", "hero spend", "rest"})


async def grant_hero_points(world: World, points: int) -> None:
    """What a session start does: every player character gets hero points."""
    async with world.bot.db.transaction() as conn:
        repo = CharacterRepository(conn)
        for place in world.places:
            await repo.set_hero_points_of_pcs(place.seeded.guild_id, points)


async def count_rows(world: World, table: str) -> int:
    async with world.bot.db.read() as conn, conn.execute(f"SELECT COUNT(*) FROM {table}") as cur:
        row = await cur.fetchone()
    return int(row[0])


async def run_ops(
    name: str,
    ops: list[Op],
    *,
    warmup: int,
    world: World,
    floor: list[Op] | None = None,
    floor_sample: Sample | None = None,
) -> Sample:
    """Run ``ops`` one after another; the first ``warmup`` are not timed.

    With ``floor`` (pong-floor operations, as many as ``ops``), one floor operation
    runs after each operation and its latency goes to ``floor_sample``: a burst of
    load from another process then hits the family and its yardstick alike.
    """
    sample = Sample(name)
    for op in ops[:warmup]:
        _classify(await op(), name)
    clock = time.perf_counter_ns
    started = clock()
    for index, op in enumerate(ops[warmup:]):
        calls, statements = world.round_trips.count, world.round_trips.statements
        with world.holding_followups():  # as the command tree does, to the very end
            before = clock()
            result = await op()
            sample.latencies_ns.append(clock() - before)
        # The reply is out: what the command left for later runs now, off the clock,
        # so it neither counts as reply time nor runs beside the next operation.
        took = await world.drain_followups()
        if took is not None:
            sample.followups_ns.append(took)
        sample.db_calls += world.round_trips.count - calls
        sample.statements += world.round_trips.statements - statements
        sample.refused += _classify(result, name)
        if floor is not None and floor_sample is not None:
            with world.holding_followups():
                before = clock()
                _classify(await floor[warmup + index](), FLOOR_COMMAND)
                floor_sample.latencies_ns.append(clock() - before)
            await world.drain_followups()  # (what it left: a GM remembered, off the clock)
    sample.elapsed_ns = clock() - started
    await dpytest.empty_queue()
    world.forget_responses()
    return sample


async def run_alternating(
    name: str, ops: list[Op], *, warmup: int, world: World
) -> tuple[Sample, Sample]:
    """Every other op with the harness's schema checks off, then on, interleaved so a
    burst of load from another process hits both halves alike."""
    off, on = Sample(f"{name} off"), Sample(f"{name} on")
    clock = time.perf_counter_ns
    for index, op in enumerate(ops):
        sample = on if index % 2 else off
        with schema_validation(sample is on), world.holding_followups():
            before = clock()
            result = await op()
            took = clock() - before
        await world.drain_followups()
        _classify(result, name)
        if index >= 2 * warmup:
            sample.latencies_ns.append(took)
            sample.elapsed_ns += took
    await dpytest.empty_queue()
    world.forget_responses()
    return off, on


def _classify(result: SlashResult, name: str) -> int:
    """1 if the bot refused (answered a user error privately), 0 if it did the work."""
    if result.command_errors:
        raise UnexpectedError(f"/{name} failed: {result.command_errors[0]!r}")
    message = result.message
    if message is None:
        raise UnexpectedError(f"/{name} answered nothing: {result.responses}")
    return 1 if message.ephemeral else 0
