"""Write a campaign file's ``hocs`` section (the inverse of ``campaign_rows``), inside
the caller's transaction. Every row gets a new id; the file's refs are mapped to them."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.generic.names import normalise_name
from bot.storage.sql import fetch_one, run, run_many

DELETED = 0  # the character id of a point gain whose character was deleted (ids start at 1)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


async def write_characters(
    conn: Any, guild_id: int, characters: list[dict[str, Any]]
) -> dict[str, int]:
    """Insert the characters and their fortune points; each ref → its new id."""
    ids: dict[str, int] = {}
    for c in characters:
        row = await fetch_one(
            conn,
            "INSERT INTO characters (guild_id, owner_id, name, name_key, kind, sheet, hp,"
            " temp_hp, nonlethal, recovery, determination, hero_points, conditions, wounds)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                guild_id,
                c["owner_id"],
                c["sheet"]["name"],
                normalise_name(c["sheet"]["name"]),
                c["kind"],
                _json(c["sheet"]),
                c["hp"],
                c["temp_hp"],
                c["nonlethal"],
                c["recovery"],
                c["determination"],
                c["hero_points"],
                _json(c["conditions"]),
                _json(c["wounds"]),
            ),
        )
        ids[c["ref"]] = int(row[0])
    await run_many(
        conn,
        "INSERT INTO fortune_points (character_id, source) VALUES (?, ?)",
        ((ids[c["ref"]], source) for c in characters for source in c["fortune_sources"]),
    )
    return ids


async def write_rest(
    conn: Any,
    guild_id: int,
    part: Mapping[str, Any],
    ids: Mapping[str, int],
    channel_of: Callable[[int], int],
) -> None:
    """Active characters, the points gained, and the running encounters, each moved to
    ``channel_of(its old channel)``."""
    await run_many(
        conn,
        "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?)",
        ((guild_id, a["user_id"], ids[a["character"]]) for a in part["active"]),
    )
    # Inserting fortune points made the database's own trigger log gains for them; the
    # file's ledger replaces those with what was really gained, and when.
    await run(conn, "DELETE FROM point_gains WHERE guild_id = ?", (guild_id,))
    await run_many(
        conn,
        "INSERT INTO point_gains (guild_id, character_id, kind, amount, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (
            (guild_id, ids.get(g["character"], DELETED), g["kind"], g["amount"], g["created_at"])
            for g in part["point_gains"]
        ),
    )
    for encounter in part["encounters"]:
        await _write_encounter(conn, guild_id, encounter, ids, channel_of(encounter["channel_id"]))


async def _write_encounter(
    conn: Any, guild_id: int, e: Mapping[str, Any], ids: Mapping[str, int], channel_id: int
) -> None:
    row = await fetch_one(
        conn,
        "INSERT INTO encounters (guild_id, channel_id, gm_id, social, skip_down, show_npc_hp,"
        " round, current_slot, turn, next_participant_id, next_effect_id, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            channel_id,
            e["gm_id"],
            int(e["social"]),
            int(e["skip_down"]),
            int(e["show_npc_hp"]),
            e["round"],
            e["current_slot"],
            e["turn"],
            e["next_participant_id"],
            e["next_effect_id"],
            e["created_at"],
        ),
    )
    encounter_id = int(row[0])

    def sheet(ref: str | None) -> int | None:
        return None if ref is None else ids[ref]

    await run_many(
        conn,
        "INSERT INTO encounter_participants (encounter_id, participant_id, name, name_key,"
        " side, group_name, owner_id, character_id, slot, stats, hp, max_hp, temp_hp,"
        " threshold, conditions, roll, preset, actions_spent, quick_spent, reactions_spent)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                encounter_id,
                p["participant_id"],
                p["name"],
                normalise_name(p["name"]),
                p["side"],
                p["group_name"],
                p["owner_id"],
                sheet(p["character"]),
                p["slot"],
                _json(p["stats"]),
                p["hp"],
                p["max_hp"],
                p["temp_hp"],
                p["threshold"],
                _json(p["conditions"]),
                None if p["roll"] is None else _json(p["roll"]),
                p["preset"],
                p["actions_spent"],
                p["quick_spent"],
                p["reactions_spent"],
            )
            for p in e["participants"]
        ),
    )
    await run_many(
        conn,
        "INSERT INTO encounter_effects (encounter_id, effect_id, participant_id, condition,"
        " value, added_round, expires_round) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            (
                encounter_id,
                x["effect_id"],
                x["participant_id"],
                x["condition"],
                x["value"],
                x["added_round"],
                x["expires_round"],
            )
            for x in e["effects"]
        ),
    )
    await run_many(
        conn,
        "INSERT INTO attack_turns (encounter_id, character_id, round, turn, attacks, tempo,"
        " aegis_round) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            (
                encounter_id,
                ids[t["character"]],
                t["round"],
                t["turn"],
                t["attacks"],
                int(t["tempo"]),
                t["aegis_round"],
            )
            for t in e["attack_turns"]
        ),
    )
