"""Write a campaign file's ``twod10`` section (the inverse of ``campaign_rows``), inside
the caller's transaction. Every row gets a new id; the file's refs are mapped to them.
Columns the tables derive from a document (hit point range, name keys, ration weight)
are derived by the same codecs the repositories use."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.generic.names import normalise_name
from bot.rules.twod10.sheet_codec import character_from_dict
from bot.rules.twod10.survival_codec import infection_from_dict, rations_from_dict
from bot.storage.sql import fetch_one, run, run_many


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


async def write_part(
    conn: Any,
    guild_id: int,
    part: Mapping[str, Any],
    log_id: Callable[[int | None], int | None],
    channel_of: Callable[[int], int],
) -> None:
    """The calendar, characters with every survival table, active characters, and the
    running encounters (each moved to ``channel_of(its old channel)``). ``log_id``: a
    position in the file's log → the new roll-log id."""
    if part["day"] is not None:
        await run(
            conn,
            "INSERT INTO twod10_calendar (guild_id, day) VALUES (?, ?)",
            (guild_id, part["day"]),
        )
    ids = {c["ref"]: await _write_character(conn, guild_id, c, log_id) for c in part["characters"]}
    await run_many(
        conn,
        "INSERT INTO twod10_active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?)",
        ((guild_id, a["user_id"], ids[a["character"]]) for a in part["active"]),
    )
    for e in part["encounters"]:
        state = {
            "encounter": e["encounter"],
            "seats": [[s["combatant"], s["owner_id"], ids.get(s["character"])] for s in e["seats"]],
            "next_id": e["next_id"],
            "dying_due": [list(due) for due in e["dying_due"]],
            "morale": e["morale"],
        }
        await run(
            conn,
            "INSERT INTO twod10_encounters (guild_id, channel_id, gm_id, state, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (guild_id, channel_of(e["channel_id"]), e["gm_id"], _json(state), e["created_at"]),
        )


async def _write_character(
    conn: Any, guild_id: int, c: Mapping[str, Any], log_id: Callable[[int | None], int | None]
) -> int:
    character = character_from_dict(c["sheet"])
    row = await fetch_one(
        conn,
        "INSERT INTO twod10_characters (guild_id, owner_id, kind, name, name_key, sheet, max_hp,"
        " death_hp, hp, conditions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            c["owner_id"],
            c["kind"],
            character.name,
            normalise_name(character.name),
            _json(c["sheet"]),
            character.max_hp,
            character.death_threshold,
            c["hp"],
            _json(c["conditions"]),
        ),
    )
    cid = int(row[0])
    if (blocks := c["shield_blocks"]) is not None:
        await run(
            conn,
            "INSERT INTO twod10_shield_blocks (character_id, shield, used) VALUES (?, ?, ?)",
            (cid, blocks["shield"], blocks["used"]),
        )
    if (survival := c["survival"]) is not None:
        healing = survival["healing"]
        await run(
            conn,
            "INSERT INTO twod10_survival (character_id, guild_id, healing, supplies)"
            " VALUES (?, ?, ?, ?)",
            (cid, guild_id, None if healing is None else _json(healing), survival["supplies"]),
        )
    await run_many(
        conn,
        "INSERT INTO twod10_lights (guild_id, character_id, state) VALUES (?, ?, ?)",
        ((guild_id, cid, _json(light)) for light in c["lights"]),
    )
    if (ammo := c["ammo"]) is not None:
        await run(
            conn,
            "INSERT INTO twod10_ammo (character_id, guild_id, quivers, points, spent)"
            " VALUES (?, ?, ?, ?, ?)",
            (cid, guild_id, ammo["quivers"], ammo["points"], ammo["spent"]),
        )
    if c["oil"] is not None:
        await run(
            conn,
            "INSERT INTO twod10_oil (character_id, guild_id, units) VALUES (?, ?, ?)",
            (cid, guild_id, c["oil"]),
        )
    if (rations := c["rations"]) is not None:
        await run(
            conn,
            "INSERT INTO twod10_rations (character_id, guild_id, state, quarters, last_day)"
            " VALUES (?, ?, ?, ?, ?)",
            (
                cid,
                guild_id,
                _json(rations["state"]),
                rations_from_dict(rations["state"]).quarters,
                rations["last_day"],
            ),
        )
    await run_many(
        conn,
        "INSERT INTO twod10_infections (guild_id, character_id, name_key, state, due_day,"
        " treated_day) VALUES (?, ?, ?, ?, ?, ?)",
        (
            (
                guild_id,
                cid,
                normalise_name(infection_from_dict(i["state"]).disease.name),
                _json(i["state"]),
                i["due_day"],
                i["treated_day"],
            )
            for i in c["infections"]
        ),
    )
    await run_many(
        conn,
        "INSERT INTO twod10_items (guild_id, character_id, name, name_key, weight_quarters,"
        " worn, count) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            (
                guild_id,
                cid,
                i["name"],
                normalise_name(i["name"]),
                i["weight_quarters"],
                int(i["worn"]),
                i["count"],
            )
            for i in c["items"]
        ),
    )
    if (held := c["concentration"]) is not None:
        await run(
            conn,
            "INSERT INTO twod10_concentration (character_id, guild_id, effect, form, tier, roll_id)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (cid, guild_id, held["effect"], held["form"], held["tier"], log_id(held["roll"])),
        )
    return cid
