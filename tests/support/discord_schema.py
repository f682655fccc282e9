"""Validate what the bot sends against Discord's own OpenAPI description.

The spec lives beside the project, in ``../shared/discord-api-spec/openapi.json``
(never copied into the repository). OpenAPI 3.1 schemas are JSON Schema 2020-12, so
the whole document is registered as one ``referencing`` resource and each check is a
``Draft202012Validator`` for ``{"$ref": "<spec>#/components/schemas/<Name>"}``: the
``$ref``s inside resolve against the document and the ``nullable`` idiom
(``"type": ["string", "null"]`` / ``oneOf: [{"type": "null"}, …]``) is plain JSON Schema.

The spec cannot express every limit Discord enforces, so each ``validate_*`` helper
also checks the documented extras by hand (see the ``*_limit_errors`` functions).
Those hand checks always run; the schema part runs only when the spec is present.
Tests that need the spec skip with :data:`SKIP_REASON` when it is absent.

Every helper raises :class:`DiscordPayloadError` (an ``AssertionError``) listing all
the problems it found; the ``*_errors`` variants return the list instead.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

REPO_ROOT = Path(__file__).resolve().parents[2]
SPEC_PATH = (REPO_ROOT / ".." / "shared" / "discord-api-spec" / "openapi.json").resolve()
SKIP_REASON = (
    f"Discord's OpenAPI spec is not at {SPEC_PATH}: it lives beside the project in"
    " ../shared/discord-api-spec (see ENGINEERING.md), so schema checks are skipped."
)
_SPEC_URI = "urn:discord-api-spec:openapi.json"

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARS = 4000
MAX_DESCRIPTION = 100
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FIELDS = 25
MAX_ACTION_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
EMBED_FIELD_LIMITS = {
    "title": 256,
    "description": 4096,
    "footer.text": 2048,
    "author.name": 256,
    "field.name": 256,
    "field.value": 1024,
}

# Which schema a recorded interaction callback is checked against, by callback type.
CALLBACK_SCHEMAS = {
    4: "CreateMessageInteractionCallbackRequest",  # CHANNEL_MESSAGE_WITH_SOURCE
    5: "CreateMessageInteractionCallbackRequest",  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    6: "UpdateMessageInteractionCallbackRequest",  # DEFERRED_UPDATE_MESSAGE
    7: "UpdateMessageInteractionCallbackRequest",  # UPDATE_MESSAGE
    8: "ApplicationCommandAutocompleteCallbackRequest",
    9: "ModalInteractionCallbackRequest",
}
WEBHOOK_EXECUTE_SCHEMA = "IncomingWebhookRequestPartial"  # followup.send
WEBHOOK_EDIT_SCHEMA = "IncomingWebhookUpdateRequestPartial"  # edit original / followup


class DiscordPayloadError(AssertionError):
    """A payload Discord would refuse; the message lists every problem found."""


def spec_available() -> bool:
    return SPEC_PATH.is_file()


@functools.cache
def _registry() -> Registry:
    document = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return Registry().with_resource(_SPEC_URI, DRAFT202012.create_resource(document))


@functools.cache
def schema_validator(schema_name: str) -> Draft202012Validator:
    """A 2020-12 validator for ``components/schemas/<schema_name>`` of the spec."""
    registry = _registry()
    resolved = registry.resolver().lookup(f"{_SPEC_URI}#/components/schemas/{schema_name}")
    if not isinstance(resolved.contents, Mapping):  # pragma: no cover - spec changed shape
        raise KeyError(f"no schema {schema_name!r} in {SPEC_PATH}")
    return Draft202012Validator(
        {"$ref": f"{_SPEC_URI}#/components/schemas/{schema_name}"},
        registry=registry,
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


_checked: dict[tuple[str, str], tuple[str, ...]] = {}  # (schema, payload JSON) -> errors
_CHECKED_LIMIT = 50_000


def schema_errors(instance: Any, schema_name: str) -> list[str]:
    """Readable schema violations ('' path is the root); [] when the spec is absent.

    The answer depends on nothing but the payload, and the same payloads come back
    again and again (a refusal, a tracker redrawn unchanged): each distinct one is
    validated once per process.
    """
    if not spec_available():
        return []
    try:
        key = (schema_name, json.dumps(instance, sort_keys=True))
    except (TypeError, ValueError):  # not JSON: nothing to share, validate it as it is
        return _schema_errors(instance, schema_name)
    found = _checked.get(key)
    if found is None:
        found = tuple(_schema_errors(instance, schema_name))
        if len(_checked) < _CHECKED_LIMIT:
            _checked[key] = found
    return list(found)


def _schema_errors(instance: Any, schema_name: str) -> list[str]:
    messages = []
    for error in schema_validator(schema_name).iter_errors(instance):
        # oneOf/anyOf failures carry the real reason in their context: take the best one.
        best = best_match([error]) or error
        where = "/".join(str(part) for part in best.absolute_path) or "<root>"
        messages.append(f"{schema_name} at {where}: {best.message[:300]}")
    return messages


def _safely(check: Any, payload: Any) -> list[str]:
    """Run a hand check; a payload of the wrong shape is an error, not a crash."""
    try:
        return list(check(payload))
    except (TypeError, AttributeError, KeyError, ValueError) as error:
        return [f"malformed payload for {check.__name__}: {error!r}"]


def _raise(errors: list[str], what: str) -> None:
    if errors:
        raise DiscordPayloadError(f"{what} would be refused by Discord:\n- " + "\n- ".join(errors))


# --- application commands -------------------------------------------------------------------


def _command_chars(entry: Mapping[str, Any]) -> int:
    total = len(entry.get("name") or "") + len(entry.get("description") or "")
    for choice in entry.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for option in entry.get("options") or []:
        total += _command_chars(option)
    return total


def _option_limit_errors(entry: Mapping[str, Any], where: str, *, chat_input: bool) -> list[str]:
    errors: list[str] = []
    name = entry.get("name") or ""
    if not COMMAND_NAME.match(name) or name != name.lower():
        errors.append(f"{where}: name {name!r} must be 1-32 lowercase letters, digits, - or _")
    description = entry.get("description") or ""
    if chat_input and not 1 <= len(description) <= MAX_DESCRIPTION:
        errors.append(f"{where}: description must be 1-100 characters, is {len(description)}")
    options = entry.get("options") or []
    if len(options) > MAX_OPTIONS:
        errors.append(f"{where}: {len(options)} options, at most {MAX_OPTIONS}")
    choices = entry.get("choices") or []
    if len(choices) > MAX_CHOICES:
        errors.append(f"{where}: {len(choices)} choices, at most {MAX_CHOICES}")
    seen_optional = False
    for option in options:
        if option.get("type") in (1, 2):
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(f"{where}: required option {option.get('name')!r} after optional")
        else:
            seen_optional = True
    for option in options:
        errors += _option_limit_errors(option, f"{where} {option.get('name')}", chat_input=True)
    return errors


def command_limit_errors(command: Mapping[str, Any]) -> list[str]:
    """The command limits Discord enforces that the schema does not express."""
    chat_input = command.get("type", 1) in (1, None)
    where = f"/{command.get('name')}"
    errors = _option_limit_errors(command, where, chat_input=chat_input)
    total = _command_chars(command)
    if total > MAX_COMMAND_CHARS:
        errors.append(f"{where}: {total} characters of names/descriptions/choices, at most 4000")
    return errors


def validate_command(command: Mapping[str, Any]) -> None:
    """Check one entry of the command list that ``tree.sync()`` sends."""
    errors = schema_errors(command, "ApplicationCommandUpdateRequest")
    _raise(errors + _safely(command_limit_errors, command), f"command /{command.get('name')}")


# --- embeds ---------------------------------------------------------------------------------


def embed_total(embed: Mapping[str, Any]) -> int:
    """Characters Discord counts towards the 6000 limit of an embed."""
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def embed_limit_errors(embed: Mapping[str, Any]) -> list[str]:
    errors: list[str] = []
    parts: list[tuple[str, Any]] = [
        ("title", embed.get("title")),
        ("description", embed.get("description")),
        ("footer.text", (embed.get("footer") or {}).get("text")),
        ("author.name", (embed.get("author") or {}).get("name")),
    ]
    fields = embed.get("fields") or []
    for field in fields:
        parts += [("field.name", field.get("name")), ("field.value", field.get("value"))]
        if not (field.get("name") or "").strip() or not (field.get("value") or "").strip():
            errors.append(f"field {field.get('name')!r}: name and value must not be empty")
    for key, text in parts:
        if text is not None and len(text) > EMBED_FIELD_LIMITS[key]:
            errors.append(f"{key} is {len(text)} characters, at most {EMBED_FIELD_LIMITS[key]}")
    if len(fields) > MAX_FIELDS:
        errors.append(f"{len(fields)} fields, at most {MAX_FIELDS}")
    if embed_total(embed) > MAX_EMBED_TOTAL:
        errors.append(f"{embed_total(embed)} characters in total, at most {MAX_EMBED_TOTAL}")
    return errors


def validate_embed(embed: Mapping[str, Any]) -> None:
    """Check an embed dict (``discord.Embed.to_dict()``) against ``RichEmbed`` and limits."""
    _raise(schema_errors(embed, "RichEmbed") + _safely(embed_limit_errors, embed), "embed")


# --- messages -------------------------------------------------------------------------------


def _walk_components(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components") or [])


def message_limit_errors(data: Mapping[str, Any]) -> list[str]:
    """Limits on message content, embeds and components that the schema can't express."""
    errors: list[str] = []
    content = data.get("content")
    if content is not None and len(content) > MAX_CONTENT:
        errors.append(f"content is {len(content)} characters, at most {MAX_CONTENT}")
    embeds = data.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"{len(embeds)} embeds, at most {MAX_EMBEDS}")
    for index, embed in enumerate(embeds):
        errors += [f"embed {index}: {e}" for e in embed_limit_errors(embed)]
    total = sum(embed_total(embed) for embed in embeds)
    if total > MAX_EMBED_TOTAL:
        errors.append(f"embeds hold {total} characters together, at most {MAX_EMBED_TOTAL}")
    rows = data.get("components") or []
    action_rows = [row for row in rows if row.get("type") == 1]
    if len(action_rows) > MAX_ACTION_ROWS:
        errors.append(f"{len(action_rows)} action rows, at most {MAX_ACTION_ROWS}")
    for row in action_rows:
        if len(row.get("components") or []) > MAX_ROW_ITEMS:
            errors.append(f"an action row holds {len(row['components'])} items, at most 5")
    custom_ids = []
    for component in _walk_components(rows):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            custom_ids.append(custom_id)
            if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                errors.append(f"custom_id {custom_id[:40]!r}… is {len(custom_id)} characters")
    duplicates = {c for c in custom_ids if custom_ids.count(c) > 1}
    if duplicates:
        errors.append(f"custom_ids must be unique in a message: {sorted(duplicates)}")
    return errors


def _attachment_ids_as_strings(payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """discord.py numbers a message's uploads ``"id": 0, 1, …`` (integers), as Discord's own
    upload examples do, and Discord accepts them; the OpenAPI spec types every id as a
    string, so the integer form is normalised before validation, nothing else."""
    attachments = payload.get("attachments")
    if not isinstance(attachments, list):
        return payload
    fixed = [
        {**a, "id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
        for a in attachments
    ]
    return {**payload, "attachments": fixed}


def validate_interaction_message(payload: Mapping[str, Any]) -> None:
    """Check an interaction callback ``{"type": 4, "data": {...}}`` sending a message."""
    data = payload.get("data")
    if isinstance(data, Mapping):
        payload = {**payload, "data": _attachment_ids_as_strings(data)}
    errors = schema_errors(payload, "CreateMessageInteractionCallbackRequest")
    errors += _safely(message_limit_errors, payload.get("data") or {})
    _raise(errors, "interaction response")


def validate_interaction_callback(payload: Mapping[str, Any]) -> None:
    """Check any interaction callback body by its type (message, update, autocomplete…)."""
    schema = CALLBACK_SCHEMAS.get(payload.get("type"))  # type: ignore[arg-type]
    if schema is None:
        raise DiscordPayloadError(f"unknown interaction callback type {payload.get('type')!r}")
    if isinstance(payload.get("data"), Mapping):
        payload = {**payload, "data": _attachment_ids_as_strings(payload["data"])}
    errors = schema_errors(payload, schema)
    data = payload.get("data") or {}
    if payload.get("type") == 8:
        if len(data.get("choices") or []) > MAX_CHOICES:
            errors.append(f"{len(data['choices'])} autocomplete choices, at most 25")
    elif payload.get("type") != 9:
        errors += _safely(message_limit_errors, data)
    _raise(errors, f"interaction callback type {payload.get('type')}")


def validate_webhook_message(payload: Mapping[str, Any], *, edit: bool = False) -> None:
    """Check a follow-up (``execute webhook``) or an edit of an interaction message."""
    schema = WEBHOOK_EDIT_SCHEMA if edit else WEBHOOK_EXECUTE_SCHEMA
    payload = _attachment_ids_as_strings(payload)
    _raise(schema_errors(payload, schema) + _safely(message_limit_errors, payload), schema)
