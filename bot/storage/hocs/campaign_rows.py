"""Read a guild's HOCS rows into the file's shape (inside the caller's read transaction)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from bot.storage.hocs.character_codec import sheet_from_dict, sheet_to_dict
from bot.storage.sql import fetch_all


async def hocs_part(conn: Any, guild_id: int) -> tuple[dict[str, Any], dict[int, str]]:
    """The ``hocs`` section, and each character's database id → its ref in the file."""
    rows = await fetch_all(
        conn,
        "SELECT id, owner_id, kind, sheet, hp, temp_hp, nonlethal, recovery, determination,"
        " hero_points, conditions, wounds FROM characters WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )
    refs = {row["id"]: f"h{n}" for n, row in enumerate(rows, 1)}
    sources: dict[int, list[str]] = defaultdict(list)
    for row in await fetch_all(
        conn,
        "SELECT f.character_id, f.source FROM fortune_points f JOIN characters c"
        " ON c.id = f.character_id WHERE c.guild_id = ? ORDER BY f.character_id, f.source",
        (guild_id,),
    ):
        sources[row["character_id"]].append(row["source"])
    characters = [
        {
            "ref": refs[row["id"]],
            "owner_id": row["owner_id"],
            "kind": row["kind"],
            # Through the codec: an older row's missing fields get their defaults.
            "sheet": sheet_to_dict(*sheet_from_dict(json.loads(row["sheet"]))),
            "hp": row["hp"],
            "temp_hp": row["temp_hp"],
            "nonlethal": row["nonlethal"],
            "recovery": row["recovery"],
            "determination": row["determination"],
            "hero_points": row["hero_points"],
            "conditions": json.loads(row["conditions"]),
            "wounds": json.loads(row["wounds"]),
            "fortune_sources": sources[row["id"]],
        }
        for row in rows
    ]
    active = await fetch_all(
        conn,
        "SELECT user_id, character_id FROM active_characters WHERE guild_id = ? ORDER BY user_id",
        (guild_id,),
    )
    gains = await fetch_all(
        conn,
        "SELECT character_id, kind, amount, created_at FROM point_gains WHERE guild_id = ?"
        " ORDER BY id",
        (guild_id,),
    )
    part = {
        "characters": characters,
        "active": [
            {"user_id": r["user_id"], "character": refs[r["character_id"]]}
            for r in active
            if r["character_id"] in refs  # (a row of another guild's character: not ours)
        ],
        "point_gains": [
            {
                "character": refs.get(g["character_id"]),  # None: deleted since
                "kind": g["kind"],
                "amount": g["amount"],
                "created_at": g["created_at"],
            }
            for g in gains
        ],
        "encounters": await _encounters(conn, guild_id, refs),
    }
    return part, refs


async def _encounters(conn: Any, guild_id: int, refs: dict[int, str]) -> list[dict[str, Any]]:
    encounters = await fetch_all(
        conn,
        "SELECT id, channel_id, gm_id, social, skip_down, show_npc_hp, round, current_slot,"
        " turn, next_participant_id, next_effect_id, created_at FROM encounters"
        " WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )
    mine = "(SELECT id FROM encounters WHERE guild_id = ?)"
    participants = _by_encounter(
        await fetch_all(
            conn,
            f"SELECT * FROM encounter_participants WHERE encounter_id IN {mine}"
            " ORDER BY encounter_id, participant_id",
            (guild_id,),
        )
    )
    effects = _by_encounter(
        await fetch_all(
            conn,
            f"SELECT * FROM encounter_effects WHERE encounter_id IN {mine}"
            " ORDER BY encounter_id, effect_id",
            (guild_id,),
        )
    )
    turns = _by_encounter(
        await fetch_all(
            conn,
            f"SELECT * FROM attack_turns WHERE encounter_id IN {mine}"
            " ORDER BY encounter_id, character_id",
            (guild_id,),
        )
    )
    return [
        {
            "channel_id": e["channel_id"],
            "gm_id": e["gm_id"],
            "social": bool(e["social"]),
            "skip_down": bool(e["skip_down"]),
            "show_npc_hp": bool(e["show_npc_hp"]),
            "round": e["round"],
            "current_slot": e["current_slot"],
            "turn": e["turn"],
            "next_participant_id": e["next_participant_id"],
            "next_effect_id": e["next_effect_id"],
            "created_at": e["created_at"],
            "participants": [_participant(p, refs) for p in participants[e["id"]]],
            "effects": [_effect(x) for x in effects[e["id"]]],
            "attack_turns": [_turn(t, refs) for t in turns[e["id"]] if t["character_id"] in refs],
        }
        for e in encounters
    ]


def _by_encounter(rows: list[Any]) -> dict[int, list[Any]]:
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row["encounter_id"]].append(row)
    return grouped


def _participant(p: Any, refs: dict[int, str]) -> dict[str, Any]:
    return {
        "participant_id": p["participant_id"],
        "name": p["name"],
        "side": p["side"],
        "group_name": p["group_name"],
        "owner_id": p["owner_id"],
        "character": refs.get(p["character_id"]) if p["character_id"] is not None else None,
        "slot": p["slot"],
        "stats": json.loads(p["stats"]),
        "hp": p["hp"],
        "max_hp": p["max_hp"],
        "temp_hp": p["temp_hp"],
        "threshold": p["threshold"],
        "conditions": json.loads(p["conditions"]),
        "roll": json.loads(p["roll"]) if p["roll"] is not None else None,
        "preset": p["preset"],
        "actions_spent": p["actions_spent"],
        "quick_spent": p["quick_spent"],
        "reactions_spent": p["reactions_spent"],
    }


def _effect(x: Any) -> dict[str, Any]:
    return {
        "effect_id": x["effect_id"],
        "participant_id": x["participant_id"],
        "condition": x["condition"],
        "value": x["value"],
        "added_round": x["added_round"],
        "expires_round": x["expires_round"],
    }


def _turn(t: Any, refs: dict[int, str]) -> dict[str, Any]:
    return {
        "character": refs[t["character_id"]],
        "round": t["round"],
        "turn": t["turn"],
        "attacks": t["attacks"],
        "tempo": bool(t["tempo"]),
        "aegis_round": t["aegis_round"],
    }
