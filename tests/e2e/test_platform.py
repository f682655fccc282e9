"""End to end on the emulator: secret rolls by DM with production intents, stale commands
and buttons, and Discord's faults (503 and 403 on pins, 503 on the GM channel, expired
interactions). Several checks per bot start: a start costs a second or two."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from bot.interactions.component_guard import FORGED_BUTTON, STALE_BUTTON
from bot.interactions.error_handler import STALE_COMMAND
from bot.tracker.pinning import MISSING_PIN_PERMISSION

# The bot pauses 0.25 s, then 0.5 s between tries of a 5xx: longer than emu.settle's
# default quiet time, so scenarios with retries wait for a longer quiet.
RETRY_QUIET = 1.2

PIN = r"/channels/\d+/(messages/)?pins/\d+"
CALLBACK = r"/interactions/\d+/[^/]+/callback"


def no_tracebacks(bot: Any) -> None:
    text = Path(bot.log.name).read_text(errors="replace")
    assert "Traceback" not in text and " ERROR " not in text, text[-3000:]


def channel_texts(emu: Any, channel_id: str) -> list[str]:
    return [emu.messages[i].get("content") or "" for i in emu.channel_log.get(channel_id, [])]


def dms_to(emu: Any, key: str) -> list[str]:
    """The contents of every direct message sent to user ``key``."""
    user_id = emu.users[key]["id"]
    out: list[str] = []
    for channel_id, recipient in emu.dm_channels.items():
        if str(recipient) == user_id:
            out += channel_texts(emu, channel_id)
    return out


def answer(rec: dict[str, Any]) -> str:
    data = (rec.get("callback") or {}).get("data") or {}
    followups = rec.get("followups") or []
    return (data.get("content") or "") + "".join(f.get("content") or "" for f in followups)


def tracker_id(emu: Any, channel_id: str) -> str:
    """The newest message in the channel that carries the initiative tracker embed."""
    for message_id in reversed(emu.channel_log[channel_id]):
        embeds = emu.messages[message_id].get("embeds") or []
        if embeds and (embeds[0].get("title") or "").startswith("Initiative"):
            return message_id
    raise AssertionError("no tracker in the channel")


async def test_secret_rolls_stale_commands_and_unknown_buttons(table: Any) -> None:
    emu, bot = table
    # A player's secret roll with no GM channel and no GM seen yet: the owner, fetched
    # over REST (the member cache is empty with production intents), gets it by DM.
    rec = await emu.slash("roll", who="p1", expression="1d20 stealth", secret=True)
    assert emu.ephemeral(rec) and "sent to the GM by direct message" in answer(rec)
    (dm,) = dms_to(emu, "gm")
    assert "Secret roll" in dm and "stealth" in dm
    owner = emu.users["gm"]["id"]
    assert any(m == "GET" and p.endswith(f"/members/{owner}") for m, p, _ in emu.requests)
    # The GM uses a command: remembered, and the next secret roll reaches them that way.
    await emu.slash("campaign show", who="gm")
    rec = await emu.slash("roll", who="p2", expression="1d6", secret=True)
    assert "sent to the GM by direct message" in answer(rec)
    assert len(dms_to(emu, "gm")) == 2 and dms_to(emu, "p1") == []
    assert not [t for t in channel_texts(emu, emu.channels[0]) if "Secret roll" in t]

    # What a client with a stale menu sends.
    for path, options in (("grimoire", {}), ("character summon", {}), ("roll", {})):
        rec = await emu.slash(path, who="p1", **options)
        assert emu.ephemeral(rec) and answer(rec) == STALE_COMMAND, path

    # Buttons the bot doesn't know: an old one, and a forged oversized id.
    await emu.slash("roll", who="p1", expression="1d4")
    message_id = emu.channel_log[emu.channels[0]][-1]
    rec = await emu.click(message_id, "tracker:v0:next", who="p1")
    assert emu.ephemeral(rec) and answer(rec) == STALE_BUTTON
    rec = await emu.click(message_id, "roll:det:" + "9" * 300 + ":0", who="p1")
    assert emu.ephemeral(rec) and answer(rec) == FORGED_BUTTON
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)


async def test_pin_faults_are_retried_made_up_and_told(table: Any) -> None:
    emu, bot = table
    first, second = emu.channels[0], emu.channels[1]
    # One 503 on the pin: retried at once, the tracker ends pinned.
    fault = emu.inject("PUT", PIN, 503)
    await emu.slash("init begin", who="gm", channel=0)
    await emu.settle(quiet=RETRY_QUIET)
    assert fault.hits == 1
    assert tracker_id(emu, first) in emu.pins

    # 503 on every try: the next change pins it, and the tracker is current.
    fault = emu.inject("PUT", PIN, 503, times=3)
    await emu.slash("init begin", who="gm", channel=1)
    await emu.settle(quiet=RETRY_QUIET)
    tracker = tracker_id(emu, second)
    assert fault.hits == 3 and tracker not in emu.pins
    await emu.slash("init add", who="gm", channel=1, name="Goblin", hp=7)
    assert tracker in emu.pins
    assert "Goblin" in str(emu.messages[tracker]["embeds"])

    # 403 Missing Permissions: the channel is told once for the encounter.
    await emu.slash("init end", who="gm", channel=0)
    fault = emu.inject("PUT", PIN, 403, times=None, seconds=30,
                       body={"message": "Missing Permissions", "code": 50013})  # fmt: skip
    await emu.slash("init begin", who="gm", channel=0)
    await emu.slash("init add", who="gm", channel=0, name="Orc", hp=9)
    told = [t for t in channel_texts(emu, first) if t == MISSING_PIN_PERMISSION]
    assert len(told) == 1 and fault.hits >= 2  # tried again on the change, told once
    fault.cancel()
    await emu.slash("init add", who="gm", channel=0, name="Troll", hp=12)
    tracker = tracker_id(emu, first)
    assert tracker in emu.pins and "Troll" in str(emu.messages[tracker]["embeds"])
    assert emu.problems == []
    no_tracebacks(bot)


async def test_gm_channel_faults_and_expired_interactions(table: Any) -> None:
    emu, bot = table
    gm_channel = emu.channels[1]
    await emu.slash("campaign set", who="gm", gm_channel={"channel": 1})
    posts = rf"/channels/{gm_channel}/messages"
    # One 503 on the GM channel: the retry delivers it there.
    emu.inject("POST", posts, 503)
    rec = await emu.slash("roll", who="p1", expression="1d20 listen", secret=True)
    await emu.settle(quiet=RETRY_QUIET)
    assert f"shown to the GM in <#{gm_channel}>" in answer(rec)
    assert [t for t in channel_texts(emu, gm_channel) if "listen" in t]
    # The GM channel keeps failing: the GM gets it by direct message instead.
    emu.inject("POST", posts, 503, times=3)
    rec = await emu.slash("roll", who="p1", expression="1d20 search", secret=True)
    await emu.settle(quiet=RETRY_QUIET)
    assert "sent to the GM by direct message" in answer(rec)
    assert [t for t in dms_to(emu, "gm") if "search" in t]

    # The answer to a public command comes after Discord's 3 seconds (404, 10062): the
    # result is posted in the channel instead.
    emu.inject("POST", CALLBACK, 404, body={"message": "Unknown interaction", "code": 10062})
    before = len(emu.channel_log.get(emu.channels[0], []))
    pending = asyncio.create_task(emu.slash("roll", who="p2", expression="1d20 initiative"))
    for _ in range(100):  # emu.slash waits 5 s for an answer that will never come
        if len(emu.channel_log.get(emu.channels[0], [])) > before:
            break
        await asyncio.sleep(0.05)
    pending.cancel()
    await emu.settle()
    (posted,) = channel_texts(emu, emu.channels[0])[before:]
    assert "initiative" in posted and re.search(r"= \*\*\d+\*\*", posted)
    assert "came too late" in posted
    assert emu.problems == []
    no_tracebacks(bot)
