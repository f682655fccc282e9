"""The command tree as sync would send it, and the validators, against Discord's spec.

Each validator is tested both ways (a known-good payload passes, a broken one fails)
so that it can't silently accept everything.
"""

from __future__ import annotations

import copy
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.interactions.command_sync import command_payload
from bot.render.campaign import campaign_embed
from bot.storage.campaigns import Campaign, CampaignSettings, Ruleset
from tests.support.discord_schema import (
    SKIP_REASON,
    DiscordPayloadError,
    command_limit_errors,
    schema_errors,
    spec_available,
    validate_command,
    validate_embed,
    validate_interaction_message,
)

needs_spec = pytest.mark.skipif(not spec_available(), reason=SKIP_REASON)

GOOD_COMMAND: dict[str, Any] = {
    "name": "roll",
    "description": "Roll dice",
    "type": 1,
    "options": [
        {"type": 3, "name": "expression", "description": "e.g. 2d6+1", "required": True},
        {
            "type": 3,
            "name": "mode",
            "description": "How",
            "required": False,
            "choices": [{"name": "open", "value": "open"}, {"name": "secret", "value": "secret"}],
        },
        {"type": 4, "name": "times", "description": "Repeat", "min_value": 1, "max_value": 10},
    ],
    "dm_permission": True,
    "default_member_permissions": None,
    "contexts": None,
    "integration_types": None,
    "nsfw": False,
}

GOOD_EMBED: dict[str, Any] = (
    discord.Embed(title="Campaign", description="A test", colour=0x11AA22)
    .add_field(name="Ruleset", value="HOCS")
    .set_footer(text="footer")
    .to_dict()
)  # type: ignore[assignment]

GOOD_MESSAGE: dict[str, Any] = {
    "type": 4,
    "data": {
        "content": "Pick one",
        "flags": 64,
        "allowed_mentions": {"parse": []},
        "embeds": [GOOD_EMBED],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Go", "custom_id": "init:next:1"},
                    {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com/"},
                ],
            }
        ],
    },
}


def with_change(base: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(base)
    target = changed
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return changed


# --- the bot's own command tree ---


@needs_spec
async def test_every_command_validates_as_sync_would_send_it(bot: TableBot) -> None:
    payload = command_payload(bot.tree, None)
    names = {entry["name"] for entry in payload}
    assert {"help", "campaign"} <= names
    for entry in payload:
        validate_command(entry)
    await dpytest.empty_queue()


async def test_command_limits_hold_even_without_the_spec(bot: TableBot) -> None:
    for entry in command_payload(bot.tree, None):
        assert command_limit_errors(entry) == []
    await dpytest.empty_queue()


@needs_spec
async def test_campaign_embed_validates(bot: TableBot) -> None:
    campaign = Campaign(
        guild_id=1, ruleset=Ruleset.HOCS, gm_role_id=2, gm_channel_id=3, settings=CampaignSettings()
    )
    validate_embed(campaign_embed(campaign, "x" * 300).to_dict())  # type: ignore[arg-type]
    await dpytest.empty_queue()


# --- validate_command both ways ---


@needs_spec
def test_good_command_passes() -> None:
    validate_command(GOOD_COMMAND)


@needs_spec
@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["name"], "x" * 33),  # schema: maxLength 32
        (["options", 0, "type"], 99),  # schema: no option type 99
        (["options", 0, "description"], 5),  # schema: not a string
        (["default_member_permissions"], -1),  # schema: minimum 0
    ],
)
def test_schema_rejects_broken_commands(path: list[Any], value: Any) -> None:
    broken = with_change(GOOD_COMMAND, path, value)
    assert schema_errors(broken, "ApplicationCommandUpdateRequest")
    with pytest.raises(DiscordPayloadError):
        validate_command(broken)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["name"], "Roll", "lowercase"),
        (["name"], "roll dice", "lowercase"),
        (["description"], "", "1-100"),
        (["description"], "d" * 101, "1-100"),
        (["options", 0, "required"], False, None),  # fine on its own…
        (["options", 2, "required"], True, "after optional"),
        (["options", 1, "choices"], [{"name": str(i), "value": str(i)} for i in range(26)], "26"),
        (
            ["options"],
            [{"type": 5, "name": f"o{i}", "description": "d"} for i in range(26)],
            "26 options",
        ),
        (["options", 0, "description"], "x" * 100, None),
    ],
)
def test_limits_the_schema_cannot_express(path: list[Any], value: Any, message: str | None) -> None:
    errors = command_limit_errors(with_change(GOOD_COMMAND, path, value))
    if message is None:
        assert errors == []
    else:
        assert any(message in error for error in errors), errors


def test_total_characters_per_command() -> None:
    choices = [{"name": f"choice{i:04}", "value": f"value{i:04}"} for i in range(25)]
    many = [
        {"type": 3, "name": f"o{i}", "description": "d" * 100, "choices": choices}
        for i in range(10)
    ]
    assert command_limit_errors(with_change(GOOD_COMMAND, ["options"], many[:5])) == []
    big = with_change(GOOD_COMMAND, ["options"], many)
    assert any("at most 4000" in error for error in command_limit_errors(big))


# --- validate_embed both ways ---


@needs_spec
def test_good_embed_passes() -> None:
    validate_embed(GOOD_EMBED)


@needs_spec
@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["title"], "t" * 257),
        (["color"], -1),  # schema-only: no hand check covers colours
        (["color"], 0x1000000),
        (["fields", 0, "value"], None),  # schema-only: value is required, a string
        (["footer"], "not an object"),
    ],
)
def test_schema_rejects_broken_embeds(path: list[Any], value: Any) -> None:
    broken = with_change(GOOD_EMBED, path, value)
    assert schema_errors(broken, "RichEmbed")
    with pytest.raises(DiscordPayloadError):
        validate_embed(broken)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["description"], "d" * 4097, "description"),
        (["footer", "text"], "f" * 2049, "footer"),
        (["fields", 0, "name"], "n" * 257, "field.name"),
        (["fields", 0, "value"], "v" * 1025, "field.value"),
        (["fields"], [{"name": "n", "value": "v"}] * 26, "26 fields"),
        (
            ["fields"],
            [{"name": "n" * 256, "value": "v" * 1024} for _ in range(5)],
            "in total",
        ),
    ],
)
def test_embed_limits(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(DiscordPayloadError, match=message):
        validate_embed(with_change(GOOD_EMBED, path, value))


# --- validate_interaction_message both ways ---


@needs_spec
def test_good_interaction_message_passes() -> None:
    validate_interaction_message(GOOD_MESSAGE)


@needs_spec
@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["type"], 7),  # a message response is type 4 or 5
        (["data", "embeds"], "not a list"),
        (["data", "components", 0, "components", 0, "style"], "blurple"),
        (["data", "allowed_mentions", "parse"], ["everybody"]),
        (["data", "components", 0, "components"], []),  # an empty action row
    ],
)
def test_schema_rejects_broken_interaction_messages(path: list[Any], value: Any) -> None:
    broken = with_change(GOOD_MESSAGE, path, value)
    assert schema_errors(broken, "CreateMessageInteractionCallbackRequest")
    with pytest.raises(DiscordPayloadError):
        validate_interaction_message(broken)


def _row(count: int, prefix: str = "b") -> dict[str, Any]:
    return {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": f"{prefix}{i}"} for i in range(count)
        ],
    }


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["data", "content"], "c" * 2001, "content"),
        (["data", "components"], [_row(1, f"r{i}-") for i in range(6)], "6 action rows"),
        (["data", "components"], [_row(6)], "6 items"),
        (["data", "components", 0, "components", 0, "custom_id"], "i" * 101, "101"),
        (["data", "embeds"], [GOOD_EMBED] * 11, "11 embeds"),
        (["data", "components"], [_row(2, "same"), _row(1, "same")], "unique"),
    ],
)
def test_interaction_message_limits(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(DiscordPayloadError, match=message):
        validate_interaction_message(with_change(GOOD_MESSAGE, path, value))


def test_without_the_spec_only_the_hand_checks_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.support import discord_schema

    monkeypatch.setattr(discord_schema, "SPEC_PATH", discord_schema.SPEC_PATH / "absent")
    assert not spec_available()
    assert schema_errors({"title": 5}, "RichEmbed") == []
    with pytest.raises(DiscordPayloadError, match="title"):
        validate_embed({"title": "t" * 257})
