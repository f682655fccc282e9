"""End to end on the emulator, what a forged or stale client sends a 2d10 table (issue 26):
button custom ids carrying numbers past 2^63-1 (short ones, under Discord's 100
characters), buttons naming encounters and rounds that aren't there, option values no
Discord client sends (a user option that is no snowflake, a choice not offered, numbers
out of range), and a tracker button whose answer came after Discord's 3 seconds. Every
forged press or command gets a private one-sentence answer and writes nothing; the late
press applies its change once, edits the tracker, and says so in the channel without
pinging the presser (the project's ruling, bot.delivery.replies.tell_presser)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.interactions.component_guard import FORGED_BUTTON
from tests.e2e.forged_payloads import forged_slash, with_button
from tests.e2e.test_platform import CALLBACK, answer, channel_texts, no_tracebacks
from tests.e2e.test_table_play import buttons, one_sentence
from tests.e2e.twod10_evening_table import MIRA, snapshot, step, tracker_id, turn_side

FORGED_OPTION = (
    "That command came with an option value Discord never sends, so it did nothing:"
    " pick the option from the menu and try again."
)
OVERFLOWING = (  # each under 100 characters, each number above 2^63 - 1
    "roll:det:9999999999999999999:0",
    "dmg:pick:9999999999999999999:0",
    "dmg:hero:9999999999999999999:1",
    "d10init:act:99999999999999999999:1:players:movement",
    "d10init:react:18446744073709551616:1:npcs",
    "d10dying:99999999999999999999:1:1",
)


async def players_turn(emu: Any) -> str:
    """A 2d10 encounter with Mira and a wolf, stepped to the players' turn: its message."""
    assert "Campaign updated." in answer(await emu.slash("campaign set", who="gm",
                                                         ruleset="2d10"))  # fmt: skip
    await emu.slash("character create", who="p1", name="Mira", **MIRA)
    await emu.slash("init begin", who="gm")
    await emu.slash("init join", who="p1")
    await emu.slash("init add", who="gm", name="Wolf")
    for _ in range(4):
        rec = await step(emu)
        if turn_side(rec) == "players":
            return str(rec["message_id"])
    raise AssertionError("no players' turn in 4 steps")


def check_private(emu: Any, rec: dict[str, Any]) -> str:
    said = answer(rec)
    assert rec["callback"] is not None and emu.ephemeral(rec), said
    assert one_sentence(said), said
    return said


Forge = Callable[[list[dict[str, Any]], dict[str, Any]], None]


def user_value(value: Any) -> Forge:
    """A user option's value replaced, with no resolved user or member for it."""

    def forge(leaf: list[dict[str, Any]], resolved: dict[str, Any]) -> None:
        leaf[0]["value"] = value
        resolved.clear()

    return forge


def user_keyed(value: Any) -> Forge:
    """A user option's value replaced, the resolved user and member keyed under it: a
    forger's way to pick a user with a value that is no snowflake."""

    def forge(leaf: list[dict[str, Any]], resolved: dict[str, Any]) -> None:
        old = leaf[0]["value"]
        leaf[0]["value"] = value
        for part in ("users", "members"):
            resolved[part] = {str(value): resolved[part][old]}

    return forge


def option_value(value: Any) -> Forge:
    def forge(leaf: list[dict[str, Any]], resolved: dict[str, Any]) -> None:
        leaf[0]["value"] = value

    return forge


async def test_forged_buttons_and_option_values_are_refused_privately_writing_nothing(
    table: Any, tmp_path: Path
) -> None:
    emu, bot = table
    database = tmp_path / "bot.sqlite3"
    turn = await players_turn(emu)
    message = emu.messages[turn]
    before = snapshot(database)
    for n, custom_id in enumerate(OVERFLOWING):
        assert len(custom_id) < 100
        # Pressed on a forged copy of the turn message that carries it (and, once, on the
        # message as it is, where the id isn't).
        for shown in (
            (None, with_button(message, custom_id))
            if n == 0
            else (with_button(message, custom_id),)
        ):
            rec = await emu.click(turn, custom_id, who="p1", message=shown)
            assert check_private(emu, rec) == FORGED_BUTTON, custom_id
    # In range, but naming an encounter, a combatant or a turn that isn't there.
    for custom_id, refusal in (
        ("d10init:act:4242:1:players:movement", "That encounter has ended"),
        ("d10dying:1:999999999:1", "That dying roll has already been made"),
        ("d10init:react:1:1:npcs", "That turn is over"),
        ("d10init:act:1:7:players:attack", "That turn is over"),
    ):  # fmt: skip
        rec = await emu.click(turn, custom_id, who="p1", message=with_button(message, custom_id))
        assert check_private(emu, rec).startswith(refusal), (custom_id, answer(rec))
    assert snapshot(database) == before

    # A user option that is no snowflake (Discord sends only snowflakes, with the user).
    for value in ("not-a-snowflake", ""):
        rec = await forged_slash(emu, "character list", "p1", user_value(value),
                                 player={"user": "p2"})  # fmt: skip
        assert check_private(emu, rec) == FORGED_OPTION, value
    # A snowflake with no user resolved for it, one past 64 bits, and values that are no
    # snowflake with the user keyed under them: each refused the same way.
    for value in ("99999999999999999999", "12345", 12345, "-5"):
        rec = await forged_slash(emu, "character list", "p1", user_value(value),
                                 player={"user": "p2"})  # fmt: skip
        assert check_private(emu, rec) == FORGED_OPTION, value
    for value in ("not-a-snowflake", "99999999999999999999", "-5", ""):
        rec = await forged_slash(emu, "character list", "p1", user_keyed(value),
                                 player={"user": "p2"})  # fmt: skip
        assert check_private(emu, rec) == FORGED_OPTION, value
    # A choice not offered, numbers out of range or of the wrong type, an overlong name.
    for path, options, value, refusal in (
        ("init react", {"kind": "declare"}, "teleport", "`teleport` isn't one of the offered"),
        ("init add", {"count": 2, "name": "Rat"}, 500, "`count` must be from 1 to 20"),
        ("init add", {"count": 2, "name": "Rat"}, "many", "`count` must be a whole number"),
        ("attack", {"target": "Mira"}, "x" * 500, "`target` must be at most 64 characters"),
    ):  # fmt: skip
        rec = await forged_slash(emu, path, "gm", option_value(value), **options)
        assert check_private(emu, rec).startswith(refusal), (path, answer(rec))
    assert snapshot(database) == before
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)


async def test_a_tracker_press_after_discords_three_seconds_applies_once_and_is_told(
    table: Any, tmp_path: Path
) -> None:
    emu, bot = table
    database = tmp_path / "bot.sqlite3"
    turn = await players_turn(emu)
    movement = buttons(emu, turn)["Movement"]
    tracker = tracker_id(emu)
    edits = emu.message_edits.get(tracker, 0)
    channel = emu.channels[0]
    said_before = len(channel_texts(emu, channel))
    before = snapshot(database)
    emu.inject("POST", CALLBACK, 404, body={"message": "Unknown interaction", "code": 10062})
    pending = asyncio.create_task(emu.click(turn, movement, who="p1"))
    for _ in range(100):  # emu.click waits 5 s for an answer that will never come
        if len(channel_texts(emu, channel)) > said_before:
            break
        await asyncio.sleep(0.05)
    pending.cancel()
    await emu.settle(quiet=0.5)
    mira = emu.users["p1"]["id"]
    (told,) = channel_texts(emu, channel)[said_before:]
    assert told == (
        f"-# For <@{mira}>: Discord no longer took this button's answer (it came too late).\n"
        "Mira: movement."
    ), told
    posted = [b for m, p, b in emu.requests
              if m == "POST" and p.endswith(f"/channels/{channel}/messages")
              and (b or {}).get("content") == told]  # fmt: skip
    assert posted and posted[0]["allowed_mentions"].get("parse") == [], posted  # no ping
    assert not posted[0]["allowed_mentions"].get("users"), posted
    # Applied once: the encounter alone changed, the tracker was edited to show it.
    after = snapshot(database)
    assert {k for k in after if after[k] != before[k]} == {"twod10_encounters"}
    assert emu.message_edits.get(tracker, 0) > edits
    assert "🏃 movement" in str(emu.messages[tracker]["embeds"]), emu.messages[tracker]
    again = await emu.click(turn, movement, who="p1")
    assert check_private(emu, again) == "Mira has already used their movement this turn."
    assert snapshot(database) == after
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)
