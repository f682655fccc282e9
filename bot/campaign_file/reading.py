"""Read a campaign file someone hands the bot: bytes in, a validated ``CampaignFile``
out, or one sentence saying what is wrong and where.

The file comes from elsewhere, so it is read as hostile: its size is checked before
anything else, JSON's oddities (NaN, 5,000-digit numbers, nesting deep enough to
exhaust the stack) are refused, every string in it is checked for control and
text-direction characters, an older version is upgraded step by step and a newer one
refused, and the models (strict, bounded, cross-checked) decide the rest. Nothing here
touches the database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from bot.campaign_file.format import FORMAT, VERSION, CampaignFile
from bot.errors import UserError
from bot.interactions.user_text import (
    DIRECTION_CONTROLS,
    control_characters,
    direction_controls,
)

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_DEPTH = 64  # the deepest a file this bot writes nests is about 12
MAX_CHARACTERS = 10_000  # both rulesets together

# Version n → n + 1, applied in order to a file older than VERSION. Version 1 is the
# first this bot ever wrote, so there is no step yet; a later format adds its step
# here and every older file keeps importing.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


class CampaignFileRefused(UserError):
    """The file can't be imported; the message is one sentence for the GM."""


def read_campaign_file(raw: bytes) -> CampaignFile:
    """The validated file, or CampaignFileRefused naming the first problem."""
    if len(raw) > MAX_FILE_BYTES:
        raise too_big(len(raw))
    text, data = _parse(raw)
    _check_depth(data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CampaignFileRefused(
            f'This is not a campaign file (its "format" must be "{FORMAT}"): export one'
            " with /campaign export."
        )
    data = _upgraded(data)
    if _SUSPECT_LITERAL.search(text) or _SUSPECT_ESCAPE.search(text):
        _check_strings(data)  # (the slow walk, only to name the path of what was found)
    try:
        found = CampaignFile.model_validate(data, context={"incoming": True})
    except ValidationError as exc:
        raise CampaignFileRefused(_first_problem(exc)) from None
    total = len(found.hocs.characters) + len(found.twod10.characters)
    if total > MAX_CHARACTERS:
        raise CampaignFileRefused(
            f"The file holds {total:,} characters, more than the {MAX_CHARACTERS:,} a"
            " campaign may have: nothing was imported."
        )
    return found


def too_big(size: int) -> CampaignFileRefused:
    """The refusal of a file of ``size`` bytes, over MAX_FILE_BYTES (also told from the
    size Discord reports, before the file is downloaded)."""
    return CampaignFileRefused(
        f"The file is {size / 2**20:.1f} MiB, over the 10 MiB a campaign file may be:"
        " export it again with log:False."
    )


def _parse(raw: bytes) -> tuple[str, Any]:
    def refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        text = raw.decode("utf-8")
        return text, json.loads(text, parse_constant=refuse_constant)
    except UnicodeDecodeError:
        raise CampaignFileRefused(
            "The file is not UTF-8 text, so not a campaign file: export one with /campaign export."
        ) from None
    except RecursionError:
        raise CampaignFileRefused(_TOO_DEEP) from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, a number of 4,300+ digits
        where = f" (line {exc.lineno}, column {exc.colno})" if hasattr(exc, "lineno") else ""
        raise CampaignFileRefused(
            f"The file is not valid JSON{where}: it may be cut short; export it again."
        ) from None


_TOO_DEEP = f"The file nests deeper than {MAX_DEPTH} levels, which no campaign file does."


def _upgraded(data: dict[str, Any]) -> dict[str, Any]:
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise CampaignFileRefused(
            f'The file\'s "version" must be a whole number from 1 to {VERSION}: export it again.'
        )
    if version > VERSION:
        raise CampaignFileRefused(
            f"The file is format version {version}, newer than the {VERSION} this bot reads:"
            " update the bot, then import it."
        )
    while version < VERSION:
        data = dict(UPGRADES[version](data), version=version + 1)
        version += 1
    return data


# What a control or direction character can look like in the file's text: itself (JSON
# lets DEL, the C1 controls and every format character through unescaped), or a \u
# escape that isn't itself escaped (C0 controls other than tab and line breaks must
# be escaped). A file with neither, nearly every one, skips the walk over its strings.
_SUSPECT_LITERAL = re.compile("[\x7f-\x9f" + "".join(sorted(DIRECTION_CONTROLS)) + "]")
_SUSPECT_ESCAPE = re.compile(
    r"(?<!\\)(?:\\\\)*\\u(?:00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])"
    r"|202[a-eA-E]|206[6-9]|200[eEfF]|061[cC])"
)


def _check_depth(data: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH, without recursion (a hostile depth can't
    exhaust the stack here)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise CampaignFileRefused(_TOO_DEEP)
        if isinstance(value, dict):
            stack.extend(
                (item, depth + 1) for item in value.values() if isinstance(item, dict | list)
            )
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value if isinstance(item, dict | list))


def _check_strings(data: Any) -> None:
    """Every key and string, depth first (the depth is checked already): control and
    direction characters refused with the path."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            _check_text(value, path)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_text(key, (*path, key))
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, n)) for n, item in enumerate(value))


def _check_text(text: str, path: tuple[Any, ...]) -> None:
    if direction_controls(text):
        problem = "holds a text-direction control character, which could make text read backwards"
    elif control_characters(text):
        problem = "holds a control character"
    else:
        return
    raise CampaignFileRefused(f"The file was not imported: {field_path(path)}: {problem}.")


def field_path(loc: tuple[Any, ...]) -> str:
    """A pydantic location as a path: ``("hocs", "characters", 3, "sheet", "strength")``
    → ``hocs.characters[3].sheet.strength``."""
    spelled = ""
    for part in loc:
        if isinstance(part, int):
            spelled += f"[{part}]"
        else:
            spelled += f".{part}" if spelled else str(part)
    return spelled or "the file"


_WORDING: dict[str, Callable[[dict[str, Any]], str]] = {
    "missing": lambda c: "is missing",
    "extra_forbidden": lambda c: "is not a field of the campaign file",
    "int_type": lambda c: "must be a whole number",
    "int_from_float": lambda c: "must be a whole number",
    "string_type": lambda c: "must be text",
    "bool_type": lambda c: "must be true or false",
    "dict_type": lambda c: "must be an object",
    "list_type": lambda c: "must be a list",
    "model_type": lambda c: "must be an object",
    "none_required": lambda c: "must be null",
    "greater_than_equal": lambda c: f"must be at least {c['ge']}",
    "less_than_equal": lambda c: f"must be at most {c['le']}",
    "string_too_short": lambda c: f"must be at least {c['min_length']} characters",
    "string_too_long": lambda c: f"must be at most {c['max_length']} characters",
    "string_pattern_mismatch": lambda c: "is not spelled as this format writes it",
    "too_short": lambda c: f"must hold at least {c['min_length']} items",
    "too_long": lambda c: f"must hold at most {c['max_length']:,} items",
    "literal_error": lambda c: f"must be {c['expected']}",
}


_TAG = re.compile(r"^(int|str|bool|none|dict\[.*|list\[.*|tuple\[.*|function-.*|constrained-.*)$")


def _first_problem(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False)
    first = errors[0]
    kind, context = first["type"], first.get("ctx") or {}
    if kind in _WORDING:
        problem = _WORDING[kind](context)
    elif kind == "value_error":
        problem = str(context.get("error", first["msg"]))
    else:
        problem = first["msg"].replace("Input should be", "must be")
    # A union's members each report under their type's tag: the path is the field's.
    loc = tuple(p for p in first["loc"] if isinstance(p, int) or not _TAG.match(p))
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    where = f"{field_path(loc)}: " if loc else ""  # (a check of the whole file has no path)
    return f"The file was not imported: {where}{problem}{more}."
