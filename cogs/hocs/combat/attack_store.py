"""Writing one /attack in its transaction: the hit applied, the damage choice, the roll log
(with what points spent later need to redo it), and the reply's buttons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.render.buttons import Buttons
from bot.render.hocs.combat import Intro
from bot.rules.hocs.attack import AttackResult, attack_record
from bot.storage.hocs.characters import Character
from bot.storage.hocs.combat import CombatRepository
from cogs.hocs.combat.choices import record_choice
from cogs.hocs.combat.records import choice_dicts, choice_texts, log_attack
from cogs.hocs.points.stored import attack_side_rolls
from cogs.hocs.points.views import roll_view


@dataclass(frozen=True)
class StoredAttack:
    log_id: int
    choice_id: int | None
    view: Buttons | None


async def store_attack(
    conn: aiosqlite.Connection,
    *,
    guild_id: int,
    channel_id: int,
    user_id: int,
    attacker_id: int,
    target_id: int,
    result: AttackResult,
    intro: Intro,
    source: str,
    options: dict[str, Any],
    known: Mapping[int, Character] | None = None,
) -> StoredAttack:
    """Apply and record the attack; ``options`` are the ones a later spend reuses;
    ``known``: characters read in this transaction whose points are unchanged since
    (the buttons need not read them again: a hit changes vitals, not points)."""
    hit = result.hit
    choice, texts = None, None
    record = attack_record(result)  # the roll log's, whose parts the choice stores too
    if hit is not None and result.inputs is not None:
        dicts = choice_dicts(record)
        texts = choice_texts(dicts)  # encoded once: both rows hold them
        await CombatRepository(conn).save_vitals(target_id, hit.after)
        choice = await record_choice(
            conn,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            attacker_id=attacker_id,
            target_id=target_id,
            intro=intro,
            inputs=result.inputs,
            rolls=hit.rolls,
            chosen_index=hit.damage.result.chosen_index if hit.damage.result else None,
            before=hit.before,
            after=hit.after,
            dicts=dicts,
            texts=texts,
        )
    choice_id = choice.id if choice is not None else None
    logged = await log_attack(
        conn,
        guild_id=guild_id,
        channel_id=channel_id,
        user_id=user_id,
        attacker_id=attacker_id,
        result=result,
        source=source,
        extra={"target_id": target_id, "choice_id": choice_id, "revision": 0, **options},
        target_id=target_id,
        record=record,
        texts=texts,
    )
    view = await roll_view(conn, logged, known, attack_side_rolls(result), choice=choice)
    return StoredAttack(logged.id, choice_id, view)
