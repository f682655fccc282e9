"""Reading a campaign file someone hands the bot: each hostile file is refused in one
sentence that names what is wrong and where, before any database is touched."""

from __future__ import annotations

import json
from typing import Any

import pytest

import bot.campaign_file.reading as reading
from bot.campaign_file.reading import CampaignFileRefused, field_path, read_campaign_file
from tests.campaign_file.test_models import campaign, hocs_character


def said(data: Any) -> str:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    with pytest.raises(CampaignFileRefused) as refused:
        read_campaign_file(raw)
    return str(refused.value)


def with_name(name: str) -> dict[str, Any]:
    return campaign(hocs={"characters": [hocs_character(sheet={"name": name})]})


def test_a_good_file_reads() -> None:
    found = read_campaign_file(json.dumps(with_name("Mira")).encode())
    assert [c.sheet.name for c in found.hocs.characters] == ["Mira"]


@pytest.mark.parametrize(
    ("raw", "sentence"),
    [
        (b'{"format": "tablebot-campaign", "version": 1, "hocs": {"charac',
         "The file is not valid JSON (line 1, column 56): it may be cut short; export it again."),
        (b"\xff\xd8\xff\xe0 a JPEG", "The file is not UTF-8 text, so not a campaign file:"
         " export one with /campaign export."),
        (b"[1, 2, 3]", 'This is not a campaign file (its "format" must be "tablebot-campaign"):'
         " export one with /campaign export."),
        (b'{"format": "tablebot-campaign", "version": 1, "x": NaN}',
         "The file is not valid JSON: it may be cut short; export it again."),
        (b'{"format": "tablebot-campaign", "version": 1, "x": ' + b"9" * 5000 + b"}",
         "The file is not valid JSON: it may be cut short; export it again."),
        (b"[" * 100_000 + b"]" * 100_000,
         "The file nests deeper than 64 levels, which no campaign file does."),
    ],
)  # fmt: skip
def test_what_is_not_a_campaign_file(raw: bytes, sentence: str) -> None:
    assert said(raw) == sentence


def test_deep_nesting_inside_a_campaign_file() -> None:
    deep: Any = "x"
    for _ in range(70):
        deep = [deep]
    assert said(campaign(extra=deep)) == (
        "The file nests deeper than 64 levels, which no campaign file does."
    )


def test_versions() -> None:
    assert said(campaign(version=2)) == (
        "The file is format version 2, newer than the 1 this bot reads: update the bot,"
        " then import it."
    )
    for bad in (0, "1", 1.0, None):
        assert said(campaign(version=bad)) == (
            'The file\'s "version" must be a whole number from 1 to 1: export it again.'
        )


def test_an_older_version_is_upgraded_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # Version 1 is the first format; a later one adds its step to UPGRADES. The chain is
    # exercised as if this bot read version 2 and version 1 had called hocs "heroes".
    monkeypatch.setattr(reading, "VERSION", 2)
    monkeypatch.setattr(reading, "UPGRADES", {1: lambda d: {**d, "hocs": d.pop("heroes")}})
    old = campaign(heroes={"characters": [hocs_character()]})
    upgraded = reading._upgraded(old)
    assert (upgraded["version"], [c["ref"] for c in upgraded["hocs"]["characters"]]) == (2, ["h1"])


def test_the_size_limit_comes_first() -> None:
    assert said(b" " * (10 * 2**20 + 1)) == (
        "The file is 10.0 MiB, over the 10 MiB a campaign file may be: export it again"
        " with log:False."
    )


def test_too_many_characters_in_both_rulesets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "MAX_CHARACTERS", 1)
    oskar = hocs_character("h2", sheet={"name": "Oskar"})
    two = campaign(hocs={"characters": [hocs_character("h1"), oskar]})
    assert said(two) == (
        "The file holds 2 characters, more than the 1 a campaign may have: nothing was imported."
    )


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Mira\u202eevil", "hocs.characters[0].sheet.name: holds a text-direction control"
         " character, which could make text read backwards."),
        ("Mira\x00", "hocs.characters[0].sheet.name: holds a control character."),
        ("@everyone", "hocs.characters[0].sheet.name: must not hold a mention (of everyone,"
         " here, a member, a role or a channel): rename it."),
        ("Pal <@123456789012345678>", "hocs.characters[0].sheet.name: must not hold a mention"
         " (of everyone, here, a member, a role or a channel): rename it."),
        ("<#1234>", "hocs.characters[0].sheet.name: must not hold a mention (of everyone,"
         " here, a member, a role or a channel): rename it."),
        ("Mi\u200bra", "hocs.characters[0].sheet.name: holds invisible, doubled-space or"
         " look-alike characters: retype it."),
        ("Ｍｉｒａ", "hocs.characters[0].sheet.name: holds invisible, doubled-space or"
         " look-alike characters: retype it."),
        ("Mira  Vale", "hocs.characters[0].sheet.name: holds invisible, doubled-space or"
         " look-alike characters: retype it."),
        ("***", "hocs.characters[0].sheet.name: must be one line with a letter or digit in it."),
    ],
)  # fmt: skip
def test_hostile_names(name: str, problem: str) -> None:
    assert said(with_name(name)) == f"The file was not imported: {problem}"


def test_look_alike_names_are_one_name() -> None:
    two = campaign(hocs={"characters": [hocs_character("h1"),
                                        hocs_character("h2", sheet={"name": "MIRA"})]})  # fmt: skip
    assert said(two) == ("The file was not imported: the HOCS name 'mira' appears twice.")


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"ruleset": "dnd5e"}, "ruleset: must be 'hocs' or '2d10'"),
        ({"hocs": {"characters": [hocs_character(hp=10**30)]}},
         "hocs.characters[0].hp: must be at most 10000"),
        ({"hocs": {"characters": [hocs_character(hp="12")]}},
         "hocs.characters[0].hp: must be a whole number"),
        ({"hocs": {"characters": [hocs_character(sheet={"strength": 0})]}},
         "hocs.characters[0].sheet.strength: must be at least 1"),
        ({"hocs": {"characters": [hocs_character(colour="red")]}},
         "hocs.characters[0].colour: is not a field of the campaign file"),
        ({"sessions": [{"number": 1}]}, "sessions[0].adventure: is missing (and 2 more problems)"),
        ({"campaign": {"gm_role_id": 2**64}}, "campaign.gm_role_id: must be at most"
         " 9223372036854775807"),
    ],
)  # fmt: skip
def test_bad_values_name_their_path(change: dict[str, Any], problem: str) -> None:
    assert said(campaign(**change)) == f"The file was not imported: {problem}."


def test_field_path() -> None:
    assert field_path(("hocs", "characters", 3, "sheet", "strength")) == (
        "hocs.characters[3].sheet.strength"
    )
    assert field_path(()) == "the file"
