"""Combat state: a character's vitals and wounds, and the open damage-die choices.

Every roll applied to a target is stored in ``damage_choices`` with the target's
state before and after it, for 15 minutes: the die-choice buttons and a hero
point's damage reduction redo the hit from there.

Every write here happens inside the caller's transaction (``BEGIN IMMEDIATE``):
a command loads the target, computes the hit and saves it before anyone else
can read, so simultaneous hits all count.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import aiosqlite

from bot.rules.hocs.attack import Combatant, HitInputs, PriorRolls, Vitals
from bot.rules.hocs.attack.turns import AttackTurn
from bot.rules.hocs.effective import EffectiveValues
from bot.rules.hocs.wounds import Wound
from bot.storage.database import Database
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.damage_choice import DamageChoice, choice_from_row, timestamp
from bot.storage.json_text import encode
from bot.storage.sql import fetch_one, run

CHOICE_LIFETIME = timedelta(minutes=15)
# Expired choices are never used (every reader checks ``expires_at``), so deleting them
# is housekeeping: at most once a minute (by the ``now`` the writer passes) rather than
# inside every attack. A clock that went backwards sweeps at once.
SWEEP_EVERY = timedelta(minutes=1)
_last_sweep: datetime | None = None


# One encoder for a character's columns (``json.dumps`` with arguments builds one per
# call); the same text as ``json.dumps(data, separators=(",", ":"), sort_keys=True)``.
_ENCODE = json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False).encode


def _json(data: Any) -> str:
    return _ENCODE(data)


# A choice's columns take the roll log's form (keys unsorted) so the parts both rows hold
# are encoded once; rows stored sorted before are compared as read (``stored_inputs``).
_choice_json = encode


@dataclass(frozen=True)
class CombatCharacter:
    """A character as combat reads it: its vitals (wounds included) and its combatant."""

    character: Character

    @property
    def wounds(self) -> tuple[Wound, ...]:
        return self.character.wounds

    @property
    def effective(self) -> EffectiveValues:
        return self.character.effective

    @property
    def vitals(self) -> Vitals:
        state = self.character.state
        return Vitals(
            hp=state.hp,
            temp_hp=state.temp_hp,
            nonlethal=state.nonlethal,
            conditions=state.conditions,
            wounds=self.wounds,
        )

    @property
    def combatant(self) -> Combatant:
        details = self.character.details
        return Combatant(
            sheet=self.character.sheet,
            vitals=self.vitals,
            armor=details.armor,
            resistances=details.resistances,
            immunities=details.immunities,
            weaknesses=details.weaknesses,
            speed=details.speed,
            load=details.load,
        )


class CombatRepository:
    """All SQL about combat state. Never commits: the caller owns the transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._characters = CharacterRepository(conn)

    # --- characters ---

    async def wounds(self, character_id: int) -> tuple[Wound, ...]:
        """The stored wounds and injuries (none for an unknown character); RulesError if
        the stored list is damaged."""
        character = await self._characters.get(character_id)
        return () if character is None else character.wounds

    async def with_wounds(self, character: Character) -> CombatCharacter:
        """``character`` as combat reads it (its row already holds its wounds)."""
        return CombatCharacter(character)

    async def get(self, character_id: int) -> CombatCharacter | None:
        character = await self._characters.get(character_id)
        return None if character is None else CombatCharacter(character)

    async def save_vitals(self, character_id: int, vitals: Vitals) -> None:
        """Write HP, temporary HP, non-lethal damage, conditions and wounds at once."""
        # ``revision`` rises here as the trigger would raise it (migration 0008): with it
        # unchanged the trigger runs a second UPDATE of the row, JSON checks and all.
        await self._conn.execute(
            "UPDATE characters SET hp = ?, temp_hp = ?, nonlethal = ?, conditions = ?,"
            " wounds = ?, version = version + 1, revision = revision + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (
                vitals.hp,
                vitals.temp_hp,
                vitals.nonlethal,
                _json(vitals.conditions.to_dict()),
                _json([w.to_dict() for w in vitals.wounds]),
                character_id,
            ),
        )

    # --- damage-die choices ---

    async def add_choice(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        attacker_id: int | None,
        target_id: int | None,
        intro: dict[str, Any],
        inputs: HitInputs,
        rolls: PriorRolls,
        chosen_index: int,
        before: Vitals | None,
        after: Vitals | None,
        now: datetime,
        dicts: Mapping[str, Any] | None = None,
        texts: Mapping[str, str] | None = None,
    ) -> DamageChoice:
        """Store an open choice (and drop expired ones, at most once a minute), returning
        it as stored: its buttons are drawn from it at once, with no read-back. The values
        are the caller's: it must not change them. ``dicts``: the ``to_dict()`` forms of
        ``inputs``, ``rolls``, ``before`` or ``after`` the caller already built (the roll
        log's record holds them), by those names, so they are not built twice; ``texts``:
        their JSON (``json_text.encode``), which the roll log's row reuses too."""
        built = dicts or {}
        done = texts or {}
        global _last_sweep
        if _last_sweep is None or not _last_sweep <= now < _last_sweep + SWEEP_EVERY:
            # Choices expire in the order made: the expired ones are the ids before the
            # oldest open one (no index on expires_at to keep up, migration 0016); one
            # that expired out of order (a clock set back) goes at a later sweep.
            await run(
                self._conn,
                "DELETE FROM damage_choices WHERE id < COALESCE("
                "(SELECT id FROM damage_choices WHERE expires_at >= ? ORDER BY id LIMIT 1),"
                " (SELECT MAX(id) FROM damage_choices) + 1)",
                (timestamp(now),),
            )
            _last_sweep = now
        expires_at = timestamp(now + CHOICE_LIFETIME)
        stored_inputs = done.get("inputs") or _choice_json(built.get("inputs") or inputs.to_dict())
        row = await fetch_one(
            self._conn,
            "INSERT INTO damage_choices (guild_id, channel_id, user_id, attacker_id, target_id,"
            " intro, inputs, rolls, chosen_index, before_state, after_state, expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                channel_id,
                user_id,
                attacker_id,
                target_id,
                _choice_json(intro),
                stored_inputs,
                done.get("rolls") or _choice_json(built.get("rolls") or rolls.to_dict()),
                chosen_index,
                (done.get("before") or _choice_json(built.get("before") or before.to_dict()))
                if before
                else None,
                (done.get("after") or _choice_json(built.get("after") or after.to_dict()))
                if after
                else None,
                expires_at,
            ),
        )
        assert row is not None  # an INSERT without conflict handling returns its row
        return DamageChoice(
            id=int(row[0]),
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            attacker_id=attacker_id,
            target_id=target_id,
            intro=intro,
            inputs=inputs,
            rolls=rolls,
            chosen_index=chosen_index,
            before=before,
            after=after,
            message_id=None,
            expires_at=expires_at,
            stored_inputs=stored_inputs,
        )

    async def get_choice(self, choice_id: int) -> DamageChoice | None:
        row = await fetch_one(self._conn, "SELECT * FROM damage_choices WHERE id = ?", (choice_id,))
        return choice_from_row(row) if row else None

    async def latest_hit_on(
        self, guild_id: int, target_id: int, now: datetime
    ) -> DamageChoice | None:
        """The newest stored hit on ``target_id`` in the guild that is still open (not
        expired), or None. Raises RulesError if its stored form is damaged."""
        row = await fetch_one(
            self._conn,
            "SELECT * FROM damage_choices WHERE guild_id = ? AND target_id = ?"
            " AND expires_at >= ? ORDER BY id DESC LIMIT 1",
            (guild_id, target_id, timestamp(now)),
        )
        return choice_from_row(row) if row else None

    async def update_choice(
        self, choice_id: int, *, chosen_index: int, rolls: PriorRolls, after: Vitals | None
    ) -> None:
        await self._conn.execute(
            "UPDATE damage_choices SET chosen_index = ?, rolls = ?, after_state = ? WHERE id = ?",
            (
                chosen_index,
                _choice_json(rolls.to_dict()),
                _choice_json(after.to_dict()) if after else None,
                choice_id,
            ),
        )

    async def set_choice_message(self, choice_id: int, message_id: int) -> None:
        await self._conn.execute(
            "UPDATE damage_choices SET message_id = ? WHERE id = ?", (message_id, choice_id)
        )

    async def update_choice_intro(self, choice_id: int, intro: dict[str, Any]) -> None:
        """Replace the rendered attack steps of a choice (a point spent on the attack roll)."""
        await self._conn.execute(
            "UPDATE damage_choices SET intro = ? WHERE id = ?", (_choice_json(intro), choice_id)
        )

    async def delete_choice(self, choice_id: int) -> bool:
        """Forget a hit that was undone (its buttons then refuse); False if it was gone."""
        cursor = await self._conn.execute("DELETE FROM damage_choices WHERE id = ?", (choice_id,))
        return cursor.rowcount == 1

    async def replace_choice_roll(
        self,
        choice_id: int,
        *,
        expected: HitInputs | str,
        inputs: HitInputs,
        rolls: PriorRolls,
        chosen_index: int,
        after: Vitals | None,
        intro: dict[str, Any],
    ) -> bool:
        """New faces for a choice's damage roll (a hero reroll), by compare-and-set on
        the faces it had: False (nothing written) when they changed meanwhile.
        ``expected``: the ``inputs`` text read (``DamageChoice.stored_inputs``), or the
        inputs themselves (then either form they were ever stored in matches)."""
        if isinstance(expected, str):
            matches, known = "inputs = ?", [expected]
        else:
            data = expected.to_dict()  # stored sorted (``_json``) before 0016's release
            matches, known = "inputs IN (?, ?)", [_choice_json(data), _json(data)]
        cursor = await self._conn.execute(
            "UPDATE damage_choices SET inputs = ?, rolls = ?, chosen_index = ?, after_state = ?,"
            f" intro = ? WHERE id = ? AND {matches}",
            (
                _choice_json(inputs.to_dict()),
                _choice_json(rolls.to_dict()),
                chosen_index,
                _choice_json(after.to_dict()) if after else None,
                _choice_json(intro),
                choice_id,
                *known,
            ),
        )
        return cursor.rowcount == 1

    # --- attacks within a turn (bot.rules.hocs.attack.turns) ---

    async def attack_turn(self, encounter_id: int, character_id: int) -> AttackTurn | None:
        """What is remembered of a character's attacks in an encounter, or None."""
        async with self._conn.execute(
            "SELECT round, turn, attacks, tempo, aegis_round FROM attack_turns"
            " WHERE encounter_id = ? AND character_id = ?",
            (encounter_id, character_id),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return AttackTurn(
            round=row["round"],
            turn=row["turn"],
            attacks=row["attacks"],
            tempo=bool(row["tempo"]),
            aegis_round=row["aegis_round"],
        )

    async def save_attack_turn(
        self, encounter_id: int, character_id: int, record: AttackTurn
    ) -> None:
        """Store (insert or replace) a character's attack record in an encounter."""
        await self._conn.execute(
            "INSERT INTO attack_turns (encounter_id, character_id, round, turn, attacks, tempo,"
            " aegis_round) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (encounter_id, character_id) DO UPDATE SET round = excluded.round,"
            " turn = excluded.turn, attacks = excluded.attacks, tempo = excluded.tempo,"
            " aegis_round = excluded.aegis_round",
            (
                encounter_id,
                character_id,
                record.round,
                record.turn,
                record.attacks,
                int(record.tempo),
                record.aegis_round,
            ),
        )


def remember_choice_message(db: Database, choice_id: int, message_id: int) -> None:
    """Store the id of the reply carrying a choice's buttons, without a transaction of
    its own (``Database.defer``: a click's transaction writes it first)."""

    async def write(conn: aiosqlite.Connection) -> None:
        await CombatRepository(conn).set_choice_message(choice_id, message_id)

    db.defer(write)
