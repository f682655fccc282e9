"""Exporting a campaign played in both rulesets: exact contents, refs instead of ids,
log positions, no message ids, the log left out on request, and a lossless round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.campaign_file.export import CampaignNotFound, export_campaign
from bot.campaign_file.format import CampaignFile, dump
from tests.campaign_file.builders import GM_CHANNEL, ROLE, WOUND, play
from tests.web.views.support import GM, GUILD, OTHER_GUILD, PLAYER

pytestmark = pytest.mark.both_backends
STAMP = "2025-01-02T03:04:05.678Z"


async def exported(db: Any, **kw: Any) -> dict[str, Any]:
    return json.loads(dump(await export_campaign(db, GUILD, exported_at=STAMP, **kw)))


def leaves(value: Any, key: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in leaves(v, k)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in leaves(v, key)]
    return [(key, value)]


async def test_the_campaign_and_its_hocs_characters(db: Any) -> None:
    await play(db)
    data = await exported(db)
    assert (data["format"], data["version"], data["ruleset"]) == ("tablebot-campaign", 1, "2d10")
    assert data["exported_at"] == STAMP
    assert data["campaign"] == {
        "gm_role_id": ROLE, "gm_channel_id": GM_CHANNEL,
        "settings": {"show_npc_hp": False, "one_shot": False},
    }  # fmt: skip
    hocs = data["hocs"]
    names = [c["sheet"]["name"] for c in hocs["characters"]]
    assert names == ["Mira", "**Bob** <script>alert(1)</script> @everyone `x`", "Ogre", "Pet"]
    assert [c["ref"] for c in hocs["characters"]] == ["h1", "h2", "h3", "h4"]
    mira, _, ogre, _ = hocs["characters"]
    assert {k: v for k, v in mira.items() if k != "sheet"} == {
        "ref": "h1", "owner_id": PLAYER, "kind": "pc", "hp": 12, "temp_hp": 0, "nonlethal": 0,
        "recovery": 3, "determination": 3, "hero_points": 2, "conditions": {},
        "wounds": [WOUND.to_dict()], "fortune_sources": ["luck"],
    }  # fmt: skip
    assert (mira["sheet"]["strength"], mira["sheet"]["armor"], mira["sheet"]["traits"]) == (
        3, 1, ["brave"],
    )  # fmt: skip
    assert (ogre["hp"], ogre["conditions"], ogre["sheet"]["strength"]) == (11, {"bleeding": 2}, 5)
    assert hocs["active"] == []
    assert [(g["character"], g["kind"], g["amount"]) for g in hocs["point_gains"]] == [
        ("h1", "hero", 2), ("h1", "fortune", 1),
    ]  # fmt: skip


async def test_the_hocs_encounter_names_characters_by_ref(db: Any) -> None:
    await play(db)
    (enc,) = (await exported(db))["hocs"]["encounters"]
    assert (enc["channel_id"], enc["gm_id"], enc["round"], enc["next_participant_id"]) == (
        555, GM, 1, 4,
    )  # fmt: skip
    seen = [(p["participant_id"], p["name"], p["character"], p["hp"]) for p in enc["participants"]]
    assert seen == [
        (1, "Mira", "h1", 12), (2, "Ogre", "h3", 16), (3, "Brute", None, 37),
    ]  # fmt: skip
    assert enc["participants"][2]["conditions"] == {"bleeding": 3}
    assert enc["attack_turns"] == [
        {"character": "h1", "round": 1, "turn": 1, "attacks": 2, "tempo": False,
         "aegis_round": None},
    ]  # fmt: skip
    assert "tracker_message_id" not in enc


async def test_twod10_characters_carry_their_survival_state(db: Any) -> None:
    await play(db)
    two = (await exported(db))["twod10"]
    assert two["day"] == 3
    assert two["active"] == [{"user_id": PLAYER, "character": "t1"}]
    brann, ghoul = two["characters"]
    assert (brann["ref"], brann["sheet"]["name"], brann["hp"], brann["conditions"]) == (
        "t1", "Brann", 25, [],
    )  # fmt: skip
    assert brann["shield_blocks"] == {"shield": "buckler", "used": 1}
    assert brann["survival"]["supplies"] == 3
    assert (brann["survival"]["healing"]["hp"], brann["survival"]["healing"]["max_hp"]) == (20, 25)
    assert brann["lights"] == [
        {"version": 1, "kind": "torch", "remaining": 5, "status": "lit", "burn_roll": []}
    ]
    assert brann["ammo"] == {"quivers": 2, "points": 3, "spent": 1}
    assert brann["oil"] == 4
    assert brann["rations"]["state"]["quarters"] == 8 and brann["rations"]["last_day"] is None
    assert brann["items"] == [{"name": "Rope", "weight_quarters": 4, "worn": False, "count": 2}]
    assert (ghoul["hp"], ghoul["conditions"]) == (23, ["prone"])
    assert [(i["state"]["name"], i["due_day"]) for i in ghoul["infections"]] == [("Red Ache", 4)]
    # The casting's roll is the third of this server's log rows.
    assert ghoul["concentration"] == {"effect": "Shadow veil", "form": "spell", "tier": 1,
                                      "roll": 2}  # fmt: skip


async def test_the_twod10_encounter_seats_name_refs(db: Any) -> None:
    await play(db)
    (enc,) = (await exported(db))["twod10"]["encounters"]
    assert enc["seats"] == [
        {"combatant": 1, "owner_id": PLAYER, "character": "t1"},
        {"combatant": 2, "owner_id": GM, "character": "t2"},
        {"combatant": 3, "owner_id": GM, "character": None},
    ]
    assert [c["name"] for c in enc["encounter"]["combatants"]] == ["Brann", "Ghoul", "Rat"]
    assert enc["next_id"] == 4


async def test_sessions_point_into_the_files_own_log(db: Any) -> None:
    await play(db)
    data = await exported(db)
    log = data["log"]
    # Only this server's rows, in order; the other server's rolls are not in the file.
    assert [(r["user_id"], r["expression"], r["character"], r["opponent"], r["secret"])
            for r in log] == [
        (PLAYER, "2d6", "h1", None, False), (PLAYER, "2d6", "h1", "h3", False),
        (GM, "d20", None, None, True),
    ]  # fmt: skip
    first, second = data["sessions"]
    assert (first["number"], first["hero_points_given"], first["ended_by"]) == (1, True, GM)
    assert (first["log_start"], first["log_end"]) == (1, 3)  # its two rolls: log[1:3]
    assert (second["number"], second["ended_at"], second["log_start"], second["log_end"]) == (
        2, None, 3, None,
    )  # fmt: skip


async def test_no_message_ids_and_no_database_ids(db: Any) -> None:
    played = await play(db)
    data = await exported(db)
    keys = {key for key, _ in leaves(data)}
    assert not {k for k in keys if k.endswith("message_id")}
    assert not keys & {"character_id", "guild_id", "sheet_id", "opponent_id", "roll_id"}
    # The one "id" is the 2d10 tracker's own numbering of its combatants (file-local).
    (enc,) = data["twod10"]["encounters"]
    combatants = enc.pop("encounter")["combatants"]
    assert [c["id"] for c in combatants] == [1, 2, 3]
    assert "id" not in {key for key, _ in leaves(data)}
    assert GUILD not in {v for _, v in leaves(data)} and OTHER_GUILD not in {
        v for _, v in leaves(data)
    }
    assert 4242 not in {v for _, v in leaves(data)} and 31337 not in {v for _, v in leaves(data)}
    assert played.log_ids[1] != 1  # (ids and positions differ: the positions are the file's)


async def test_the_log_is_left_out_on_request(db: Any) -> None:
    await play(db)
    data = await exported(db, log=False)
    assert data["log"] is None
    assert [(s["log_start"], s["log_end"]) for s in data["sessions"]] == [(None, None)] * 2
    assert data["twod10"]["characters"][1]["concentration"]["roll"] is None
    assert data["hocs"]["characters"][0]["hero_points"] == 2  # the rest is all there


async def test_dump_round_trips(db: Any) -> None:
    await play(db)
    file = await export_campaign(db, GUILD, exported_at=STAMP)
    assert CampaignFile.model_validate_json(dump(file)) == file
    assert dump(CampaignFile.model_validate_json(dump(file))) == dump(file)


async def test_a_server_without_a_campaign_is_refused(db: Any) -> None:
    with pytest.raises(CampaignNotFound, match="Server 4040 has no campaign"):
        await export_campaign(db, 4040)


async def test_an_empty_campaign_exports_empty_parts(db: Any) -> None:
    from bot.storage.campaigns import CampaignRepository

    async with db.transaction() as conn:
        await CampaignRepository(conn).get_or_create(GUILD)
    data = await exported(db)
    assert data["hocs"] == {"characters": [], "active": [], "point_gains": [], "encounters": []}
    assert data["twod10"] == {"day": None, "characters": [], "active": [], "encounters": []}
    assert (data["sessions"], data["fights"], data["log"]) == ([], [], [])
