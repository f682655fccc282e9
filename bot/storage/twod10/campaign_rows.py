"""Read a guild's 2d10 rows into the file's shape (inside the caller's read transaction).

Each per-character table is read once for the whole guild (one statement each, not one
per character) and folded into its character.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from bot.rules.twod10.sheet_codec import character_from_dict, character_to_dict
from bot.storage.sql import fetch_all, fetch_one

_MINE = "character_id IN (SELECT id FROM twod10_characters WHERE guild_id = ?)"


async def _per_character(
    conn: Any, table: str, columns: str, guild_id: int, order: str = "character_id"
) -> dict[int, list[Any]]:
    rows = await fetch_all(
        conn,
        f"SELECT character_id, {columns} FROM {table} WHERE {_MINE} ORDER BY {order}",
        (guild_id,),
    )
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row["character_id"]].append(row)
    return grouped


def _one(rows: list[Any], build: Callable[[Any], Any]) -> Any:
    return build(rows[0]) if rows else None


async def twod10_part(
    conn: Any, guild_id: int, log_position: Callable[[int | None], int | None]
) -> tuple[dict[str, Any], dict[int, str]]:
    """The ``twod10`` section, and each character's database id → its ref in the file.
    ``log_position``: a roll-log id → its position in the file's log (None if absent)."""
    rows = await fetch_all(
        conn,
        "SELECT id, owner_id, kind, sheet, hp, conditions FROM twod10_characters"
        " WHERE guild_id = ? ORDER BY id",
        (guild_id,),
    )
    refs = {row["id"]: f"t{n}" for n, row in enumerate(rows, 1)}
    shields = await _per_character(conn, "twod10_shield_blocks", "shield, used", guild_id)
    survival = await _per_character(conn, "twod10_survival", "healing, supplies", guild_id)
    lights = await _per_character(conn, "twod10_lights", "state", guild_id, "character_id, id")
    ammo = await _per_character(conn, "twod10_ammo", "quivers, points, spent", guild_id)
    oil = await _per_character(conn, "twod10_oil", "units", guild_id)
    rations = await _per_character(conn, "twod10_rations", "state, last_day", guild_id)
    infections = await _per_character(
        conn, "twod10_infections", "state, due_day, treated_day", guild_id, "character_id, id"
    )
    items = await _per_character(
        conn, "twod10_items", "name, weight_quarters, worn, count", guild_id, "character_id, id"
    )
    held = await _per_character(
        conn, "twod10_concentration", "effect, form, tier, roll_id", guild_id
    )
    characters = []
    for row in rows:
        cid = row["id"]
        characters.append(
            {
                "ref": refs[cid],
                "owner_id": row["owner_id"],
                "kind": row["kind"],
                "sheet": character_to_dict(character_from_dict(json.loads(row["sheet"]))),
                "hp": row["hp"],
                "conditions": json.loads(row["conditions"]),
                "shield_blocks": _one(
                    shields[cid], lambda r: {"shield": r["shield"], "used": r["used"]}
                ),
                "survival": _one(survival[cid], _survival),
                "lights": [json.loads(r["state"]) for r in lights[cid]],
                "ammo": _one(
                    ammo[cid],
                    lambda r: {"quivers": r["quivers"], "points": r["points"], "spent": r["spent"]},
                ),
                "oil": _one(oil[cid], lambda r: r["units"]),
                "rations": _one(
                    rations[cid],
                    lambda r: {"state": json.loads(r["state"]), "last_day": r["last_day"]},
                ),
                "infections": [
                    {
                        "state": json.loads(r["state"]),
                        "due_day": r["due_day"],
                        "treated_day": r["treated_day"],
                    }
                    for r in infections[cid]
                ],
                "items": [
                    {
                        "name": r["name"],
                        "weight_quarters": r["weight_quarters"],
                        "worn": bool(r["worn"]),
                        "count": r["count"],
                    }
                    for r in items[cid]
                ],
                "concentration": _one(
                    held[cid],
                    lambda r: {
                        "effect": r["effect"],
                        "form": r["form"],
                        "tier": r["tier"],
                        "roll": log_position(r["roll_id"]),
                    },
                ),
            }
        )
    day = await fetch_one(conn, "SELECT day FROM twod10_calendar WHERE guild_id = ?", (guild_id,))
    active = await fetch_all(
        conn,
        "SELECT user_id, character_id FROM twod10_active_characters WHERE guild_id = ?"
        " ORDER BY user_id",
        (guild_id,),
    )
    part = {
        "day": day["day"] if day else None,
        "characters": characters,
        "active": [
            {"user_id": r["user_id"], "character": refs[r["character_id"]]}
            for r in active
            if r["character_id"] in refs
        ],
        "encounters": await _encounters(conn, guild_id, refs),
    }
    return part, refs


def _survival(row: Any) -> dict[str, Any]:
    healing = row["healing"]
    return {
        "healing": json.loads(healing) if healing is not None else None,
        "supplies": row["supplies"],
    }


async def _encounters(conn: Any, guild_id: int, refs: dict[int, str]) -> list[dict[str, Any]]:
    rows = await fetch_all(
        conn,
        "SELECT channel_id, gm_id, state, created_at FROM twod10_encounters WHERE guild_id = ?"
        " ORDER BY id",
        (guild_id,),
    )
    found = []
    for row in rows:
        # The stored document's seats name sheets by database id: the file names refs.
        state = json.loads(row["state"])
        found.append(
            {
                "channel_id": row["channel_id"],
                "gm_id": row["gm_id"],
                "created_at": row["created_at"],
                "encounter": state["encounter"],
                "seats": [
                    {
                        "combatant": combatant,
                        "owner_id": owner,
                        "character": refs.get(sheet) if sheet is not None else None,
                    }
                    for combatant, owner, sheet in state["seats"]
                ],
                "next_id": state["next_id"],
                "dying_due": [list(due) for due in state.get("dying_due", ())],
                "morale": state.get("morale"),
            }
        )
    return found
