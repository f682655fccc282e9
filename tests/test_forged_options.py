"""Reference options only a forged interaction carries (bot.interactions.forged_options):
no snowflake, past 64 bits, or nothing resolved for it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.interactions.forged_options import forged_reference, is_snowflake

USER = "123456789012345678"


def command(value: Any, *, kind: int = 6, resolved: dict[str, Any] | None = None) -> dict[str, Any]:
    """/character list player:<value>, nested one subcommand down as Discord sends it."""
    leaf = {"name": "player", "type": kind, "value": value}
    data: dict[str, Any] = {"name": "character", "options": [
        {"type": 1, "name": "list", "options": [leaf]}]}  # fmt: skip
    if resolved is not None:
        data["resolved"] = resolved
    return data


@pytest.mark.parametrize(
    ("value", "resolved"),
    [
        ("not-a-snowflake", {"users": {"not-a-snowflake": {"id": USER}}}),
        ("", {"users": {"": {"id": USER}}}),
        ("-5", {"users": {"-5": {"id": USER}}}),
        ("99999999999999999999", {"users": {"99999999999999999999": {"id": USER}}}),
        (str(2**63), {"users": {str(2**63): {"id": USER}}}),
        ("0", {"users": {"0": {"id": USER}}}),
        ("0123", {"users": {"0123": {"id": USER}}}),
        ("١٢٣", {"users": {"١٢٣": {"id": USER}}}),  # Arabic-Indic digits: isdigit, not ASCII
        (True, {"users": {"True": {"id": USER}}}),
        (12.0, {"users": {"12.0": {"id": USER}}}),
        (USER, None),  # a snowflake, nothing resolved
        (USER, {"roles": {USER: {"id": USER}}}),  # resolved as the wrong kind
    ],
)
def test_forged_user_values_are_named(value: Any, resolved: dict[str, Any] | None) -> None:
    assert forged_reference(command(value, resolved=resolved), resolved_needed=True) == "player"


def test_what_discord_sends_passes() -> None:
    assert (
        forged_reference(command(USER, resolved={"users": {USER: {}}}), resolved_needed=True)
        is None
    )
    assert forged_reference(command(int(USER), resolved={"users": {USER: {}}}),
                            resolved_needed=True) is None  # fmt: skip
    mentionable = command(USER, kind=9, resolved={"roles": {USER: {}}})
    assert forged_reference(mentionable, resolved_needed=True) is None
    # Autocomplete comes unresolved: only the spelling is checked.
    assert forged_reference(command(USER), resolved_needed=False) is None
    assert forged_reference(command("abc"), resolved_needed=False) == "player"
    # Strings, numbers and options of other types aren't references.
    assert forged_reference(command("abc", kind=3), resolved_needed=True) is None
    assert forged_reference({"name": "roll"}, resolved_needed=True) is None
    assert forged_reference(None, resolved_needed=True) is None


@given(st.integers(min_value=1, max_value=2**63 - 1))
def test_every_snowflake_is_one(n: int) -> None:
    assert is_snowflake(n) and is_snowflake(str(n))


@given(st.text())
def test_a_snowflake_string_is_ascii_digits_in_range_with_no_leading_zero(text: str) -> None:
    expected = text.isascii() and text.isdigit() and not text.startswith("0") and int(text) < 2**63
    assert is_snowflake(text) == expected
