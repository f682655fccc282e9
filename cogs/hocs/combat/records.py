"""Attacks and damage rolls in the roll log ("every roll goes to the roll log").

Each /attack and /damage is logged in the same transaction as the hit it applies:
kind ``attack`` or ``damage``, a one-line expression, the full result (every die,
every step: ``bot.rules.hocs.attack.record``), total = the damage received after
toughness/mettle when applied to a target (else the damage rolled; 0 for a miss),
character = the attacker. When the hit is redone later (another die kept, a hero
point's reduction) the logged entry is brought up to date, with the change noted.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import aiosqlite

from bot.rules.hocs.attack import (
    AttackResult,
    HitInputs,
    HitResult,
    attack_record,
    damage_record,
    hit_record,
    roll_record,
)
from bot.rules.hocs.damage_pool import DamageRoll
from bot.rules.hocs.luck import SNAPSHOT_KEY as LUCK_KEY
from bot.rules.hocs.luck import first_throw
from bot.storage.json_text import encode, encode_around
from bot.storage.roll_log import LoggedRoll, RollLogRepository

log = logging.getLogger(__name__)

HIT_KINDS = ("attack", "damage")
MAX_EXPRESSION = 500


def hit_total(damage: DamageRoll | None, hit: HitResult | None) -> int:
    """Damage received by the target, or rolled when nothing was applied."""
    if hit is not None:
        return hit.application.after_reductions
    return damage.amount if damage is not None else 0


def choice_dicts(record: Mapping[str, Any]) -> dict[str, Any]:
    """From a hit's roll-log record (``attack_record``, ``roll_record``), the dict forms
    of what its damage choice stores too (``CombatRepository.add_choice``'s ``dicts``):
    the same values, so they need not be built again."""
    damage, hit = record.get("damage"), record.get("hit")
    shared: dict[str, Any] = {}
    if damage is not None:
        shared["inputs"] = damage["inputs"]
    if hit is not None:
        shared.update(rolls=hit["rolls"], before=hit["before"], after=hit["after"])
    return shared


# Where each part a damage choice shares sits in a hit's roll-log record.
_SHARED_AT = {
    "inputs": ("damage", "inputs"),
    "rolls": ("hit", "rolls"),
    "before": ("hit", "before"),
    "after": ("hit", "after"),
}


def choice_texts(dicts: Mapping[str, Any]) -> dict[str, str]:
    """The JSON text of each of ``choice_dicts``' values, encoded once for both rows."""
    return {name: encode(value) for name, value in dicts.items()}


def _record_text(record: Mapping[str, Any], texts: Mapping[str, str] | None) -> str | None:
    """The roll-log text of ``record``, built around the choice's ``texts`` (None: the
    repository encodes it all)."""
    if not texts:
        return None
    return encode_around(record, {_SHARED_AT[name]: text for name, text in texts.items()})


async def log_attack(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    user_id: int,
    attacker_id: int,
    result: AttackResult,
    source: str,
    extra: dict[str, Any] | None = None,
    target_id: int | None = None,
    record: dict[str, Any] | None = None,
    texts: Mapping[str, str] | None = None,
) -> LoggedRoll:
    """Log an attack, returning the stored row; ``extra`` adds what points spent later
    need to redo it (the target, the open damage choice, the options given, the
    revision); ``target_id`` is the character on the roll's second side; ``record``:
    ``attack_record(result)`` when the caller already built it; ``texts``: the
    ``choice_texts`` of that record's ``choice_dicts``, when they were encoded."""
    hit = result.hit
    outcome = f"{hit.application.after_reductions} received" if hit else "miss"
    logged = {**(attack_record(result) if record is None else record), **(extra or {})}
    # The first throw, for luck (ruling luck-first-throw): spends rewrite the rest.
    logged[LUCK_KEY] = first_throw("attack", logged)
    return await RollLogRepository(conn).add(
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        kind="attack",
        expression=f"attack {result.attacker} → {result.target} ({source}): {outcome}"[
            :MAX_EXPRESSION
        ],
        result=logged,
        total=hit_total(hit.damage if hit else None, hit),
        secret=False,
        character_id=attacker_id,
        opponent_id=target_id,
        text=_record_text(logged, texts if record is not None else None),
    )


async def log_damage(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    user_id: int,
    attacker_id: int | None,
    source: str,
    target: str | None,
    inputs: HitInputs,
    damage: DamageRoll,
    hit: HitResult | None,
    record: dict[str, Any] | None = None,
    texts: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> LoggedRoll:
    """Log a /damage roll, returning the stored row; ``record``: ``roll_record(...)`` when
    the caller built it; ``texts``: the ``choice_texts`` of its ``choice_dicts``, when
    they were encoded; ``extra`` adds what points spent later on the target's threshold
    test need (the target, the open damage choice, the revision)."""
    against = f" → {target}" if target else ""
    result = roll_record(inputs, damage, hit, target=target) if record is None else record
    if extra:
        result = {**result, **extra}
    # The first throw, for luck (ruling luck-first-throw); a copy: ``record`` is the caller's.
    result = {**result, LUCK_KEY: first_throw("damage", result)}
    logged = await RollLogRepository(conn).add(
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        kind="damage",
        expression=f"damage {source}{against}: {damage.amount}"[:MAX_EXPRESSION],
        result=result,
        total=hit_total(damage, hit),
        secret=False,
        character_id=attacker_id,
        text=_record_text(result, texts if record is not None else None),
    )
    return logged


async def relog_hit(
    conn: aiosqlite.Connection,
    message_id: int | None,
    *,
    inputs: HitInputs,
    damage: DamageRoll,
    hit: HitResult | None,
    change: dict[str, Any],
) -> bool:
    """Bring the logged /attack or /damage shown in ``message_id`` up to date after
    its hit was redone; False when there is no such entry (nothing written)."""
    if message_id is None:
        return False
    repo = RollLogRepository(conn)
    logged = await repo.get_by_message(message_id)
    if logged is None or logged.kind not in HIT_KINDS:
        return False
    result = {
        **logged.result,
        "damage": damage_record(inputs, damage),
        "hit": hit_record(hit) if hit is not None else None,
        "changes": [*logged.result.get("changes", ()), change],
    }
    updated = await repo.update_result(logged.id, result, hit_total(damage, hit))
    log.debug("roll %s brought up to date after %s", logged.id, change)
    return updated
