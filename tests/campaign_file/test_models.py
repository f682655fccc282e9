"""The file's models refuse what the bot could not hold, at the path of the bad field,
and the published JSON Schema is the one the models generate."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from bot.campaign_file.format import CampaignFile
from bot.campaign_file.schema import SCHEMA_PATH, campaign_schema, schema_text

STAMP = "2025-01-02T03:04:05.678Z"
SHEET = {"name": "Mira", "strength": 3, "agility": 2, "mind": 2, "presence": 1}


def hocs_character(ref: str = "h1", **changes: Any) -> dict[str, Any]:
    sheet = {**SHEET, **changes.pop("sheet", {})}
    return {"ref": ref, "owner_id": 1, "kind": "pc", "sheet": sheet, "hp": 12, "recovery": 3,
            "determination": 3, **changes}  # fmt: skip


def campaign(**parts: Any) -> dict[str, Any]:
    return {"format": "tablebot-campaign", "version": 1, "ruleset": "hocs",
            "exported_at": STAMP, **parts}  # fmt: skip


def refused(data: dict[str, Any]) -> tuple[str, str]:
    """The first error's path and message."""
    with pytest.raises(ValidationError) as caught:
        CampaignFile.model_validate_json(json.dumps(data))
    error = caught.value.errors()[0]
    return ".".join(map(str, error["loc"])), error["msg"]


def test_a_minimal_file_is_valid() -> None:
    file = CampaignFile.model_validate_json(json.dumps(campaign()))
    assert (file.ruleset, file.hocs.characters, file.log) == ("hocs", [], None)


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        ({"sheet": {"strength": 6}}, "hocs.characters.0.sheet.strength",
         "Input should be less than or equal to 5"),
        ({"sheet": {"strength": "3"}}, "hocs.characters.0.sheet.strength",
         "Input should be a valid integer"),
        ({"hp": True}, "hocs.characters.0.hp", "Input should be a valid integer"),
        ({"hp": 10**30}, "hocs.characters.0.hp", "Input should be less than or equal to 10000"),
        ({"sheet": {"name": ""}}, "hocs.characters.0.sheet.name",
         "String should have at least 1 character"),
        ({"sheet": {"name": "x" * 65}}, "hocs.characters.0.sheet.name",
         "String should have at most 64 characters"),
        ({"temp_hp": -1}, "hocs.characters.0.temp_hp",
         "Input should be greater than or equal to 0"),
        ({"colour": "red"}, "hocs.characters.0.colour", "Extra inputs are not permitted"),
        ({"kind": "boss"}, "hocs.characters.0.kind",
         "Input should be 'pc', 'ally' or 'antagonist'"),
    ],
)  # fmt: skip
def test_a_bad_character_field_is_named_by_its_path(
    change: dict[str, Any], path: str, message: str
) -> None:
    assert refused(campaign(hocs={"characters": [hocs_character(**change)]})) == (path, message)


def test_the_rules_own_checks_apply_to_a_sheet() -> None:
    # Training 2 at tier 1 passes every field bound; the rules refuse it.
    path, message = refused(
        campaign(hocs={"characters": [hocs_character(sheet={"training": {"athletics": 2}})]})
    )
    assert path == "hocs.characters.0.sheet"
    assert message.startswith("Value error, not a valid HOCS sheet (Training in Athletics")


def test_a_damaged_wound_is_refused() -> None:
    path, message = refused(
        campaign(hocs={"characters": [hocs_character(wounds=[{"kind": "NOPE"}])]})
    )
    assert (path, message.split(" (")[0]) == (
        "hocs.characters.0.wounds.0", "Value error, not a valid wound or injury",
    )  # fmt: skip


def test_unknown_ruleset_format_and_newer_version_are_refused() -> None:
    assert refused(campaign(ruleset="dnd"))[0] == "ruleset"
    assert refused(campaign(format="other"))[0] == "format"
    assert refused(campaign(version=2)) == ("version", "Input should be 1")


def test_refs_must_be_unique_and_resolve() -> None:
    twice = campaign(hocs={"characters": [hocs_character(), hocs_character(sheet={"name": "B"})]})
    assert refused(twice) == ("", "Value error, the character ref 'h1' appears twice")
    alike = campaign(hocs={"characters": [
        hocs_character(), hocs_character("h2", sheet={"name": "MIRA\u200b"})]})  # fmt: skip
    assert refused(alike) == ("", "Value error, the HOCS name 'mira' appears twice")
    dangling = campaign(hocs={"characters": [hocs_character()],
                              "active": [{"user_id": 1, "character": "h9"}]})  # fmt: skip
    assert refused(dangling) == (
        "", "Value error, an active character names the character 'h9', which is not in the file",
    )  # fmt: skip


def test_log_positions_must_lie_in_the_log() -> None:
    session = {"number": 1, "adventure": 1, "started_by": 9, "started_at": STAMP,
               "log_start": 0, "log_end": 1}  # fmt: skip
    assert refused(campaign(sessions=[session], log=[])) == (
        "", "Value error, session 1's log bounds pass the end of the log",
    )  # fmt: skip
    assert refused(campaign(sessions=[session])) == (
        "", "Value error, session 1 has log bounds but the file has no log",
    )  # fmt: skip


def test_twod10_hp_must_fit_the_sheet() -> None:
    sheet = {"name": "Brann", "background": "Smith",
             "attributes": {"finesse": 1, "strength": 1, "toughness": 2}}  # fmt: skip
    character = {"ref": "t1", "owner_id": 1, "kind": "pc", "sheet": sheet, "hp": 26}
    assert refused(campaign(twod10={"characters": [character]})) == (
        "twod10.characters.0", "Value error, hp must be between -4 and 25 for this sheet",
    )  # fmt: skip


def test_the_published_schema_is_the_generated_one() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), (
        "docs/campaign-file.schema.json is stale: run python -m bot.campaign_file.schema"
    )
    schema = campaign_schema()
    assert schema["properties"]["format"]["const"] == "tablebot-campaign"
    assert schema["additionalProperties"] is False
