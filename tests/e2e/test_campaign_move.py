"""End to end on the emulator (issue 29): a campaign played over the real network path
is exported with /campaign export, imported into another server with /campaign import
and into a third with the CLI while the bot runs, and exported again: the files are
equal apart from when they were written and the old server's ids, and the sheets and
trackers answer the same. A 2d10 campaign then replaces the HOCS one through the
confirm button, and the menu follows. Hostile files change nothing, by either path."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.campaign_files import (
    cdn,
    cli,
    emulator_class,
    export_file,
    import_file,
    tables,
    without_moves,
)
from tests.e2e.conftest import EMU_DIR, ROOT, SPEC
from tests.e2e.test_platform import no_tracebacks
from tests.e2e.test_table_play import create, one_sentence, sheet
from tests.e2e.test_twod10_play import BUILD

BRANN = {"character": "Brann"}
SURVIVAL = [  # what Brann carries, set in the old server
    ("ammo set", "gm", {"quivers": 2, "points": 3, **BRANN}),
    ("light add", "p1", {"kind": "torch", **BRANN}),
    ("light oil", "gm", {"units": 3, **BRANN}),
    ("rations add", "p1", {"rations": 4, **BRANN}),
    ("inventory add", "p1", {"item": "Rope", "weight": 1, **BRANN}),
    ("medicine supplies", "gm", {"units": 2, **BRANN}),
]
SURVIVAL_SHOWN = [
    ("ammo show", BRANN), ("light list", {}), ("light oil", BRANN), ("rations show", BRANN),
    ("inventory list", BRANN), ("medicine supplies", BRANN),
]  # fmt: skip


@pytest.fixture
async def servers(tmp_path: Path) -> AsyncIterator[tuple[Any, Any, list[Any], Any]]:
    """The bot with four servers: the emulator's own and three more, and the CDN."""
    if not (EMU_DIR / "discord_emu.py").is_file() or not SPEC.is_file():
        pytest.skip("../shared/discord-emulator or ../shared/discord-api-spec is absent")
    emu = emulator_class()()
    guilds = [emu.guild(), *(emu.add_guild(name=f"Table {n}") for n in (2, 3, 4))]
    port = await emu.start()
    from emu_run import BotProcess, bot_env  # type: ignore[import-not-found]

    env = bot_env(port, str(tmp_path))
    bot = BotProcess(emu, env, log_path=str(tmp_path / "bot.log"), cwd=str(ROOT))
    try:
        await bot.start()
        async with cdn() as host:
            yield emu, bot, guilds, host
    finally:
        await bot.kill()
        bot.log.close()
        await emu.stop()


def said(emu: Any, rec: dict[str, Any]) -> str:
    """What the answer says, wherever it went: a deferred command edits its original
    response (the "thinking…" message) rather than following up."""
    return emu.texts(rec).strip()


def private(emu: Any, rec: dict[str, Any]) -> bool:
    """Answered privately: an ephemeral answer, or a deferred press's private follow-up."""
    followups = rec.get("followups") or []
    hidden = bool(followups) and all(f.get("flags", 0) & 64 for f in followups)
    return emu.ephemeral(rec) or hidden


def tracker_text(emu: Any, rec: dict[str, Any]) -> str:
    """The private /init list answer's embed, as text."""
    embeds = (rec["callback"]["data"] or {}).get("embeds") or [
        e for f in rec["followups"] for e in f.get("embeds") or []
    ]
    return json.dumps(embeds[0], sort_keys=True)


async def test_campaigns_move_between_servers(servers: Any, tmp_path: Path) -> None:
    """One bot, four servers (a start costs seconds): a HOCS campaign moves by command and
    by the CLI, hostile files change nothing, a 2d10 campaign replaces the moved one."""
    emu, bot, guilds, host = servers
    raw = await hocs_moves_by_command_and_by_cli(emu, guilds, host, tmp_path)
    await hostile_files_change_nothing(emu, guilds, host, tmp_path, raw)
    await a_2d10_campaign_replaces_one_through_the_button(emu, bot, guilds, host)
    assert emu.problems == []
    no_tracebacks(bot)


async def hocs_moves_by_command_and_by_cli(
    emu: Any, guilds: list[Any], host: Any, tmp_path: Path
) -> bytes:
    home, new, third, _ = guilds
    await create(emu, "p1", "Mira")
    await create(emu, "p2", "Borin", strength=2, agility=3)
    await emu.slash("session start", who="gm")
    for who in ("p1", "p2", "p1"):
        await emu.slash("roll", who=who, expression="2d6+1")
    await emu.slash("init begin", who="gm")
    await emu.slash("init join", who="p1")
    await emu.slash("init add", who="gm", name="Goblin", hp=7, count=2)
    await emu.slash("init next", who="gm")
    rec, raw = await export_file(emu, home)
    assert "characters" in said(emu, rec)
    exported = json.loads(raw)
    assert (exported["ruleset"], len(exported["hocs"]["characters"])) == ("hocs", 2)
    assert len(exported["log"]) >= 3 and len(exported["hocs"]["encounters"]) == 1

    # By command, into a server with nothing yet: at once, no button.
    rec = await import_file(emu, new, host, raw)
    assert emu.ephemeral(rec), rec.get("callback")
    assert said(emu, rec).startswith("Imported the campaign (Heroes of Countless Stories):")
    assert f"<#{new.channels[0]}>" in said(emu, rec)
    _, again = await export_file(emu, new)
    assert without_moves(json.loads(again)) == without_moves(exported)
    assert json.loads(again)["campaign"]["gm_role_id"] is None  # the old server's role

    # The CLI, into the third server, while the bot runs on the same database.
    (tmp_path / "table.json").write_bytes(raw)
    done = cli(tmp_path, "import-campaign", str(tmp_path / "table.json"), third.id,
               "--channel", third.channels[0])  # fmt: skip
    assert done.returncode == 0, done.stderr
    _, thrice = await export_file(emu, third)
    assert without_moves(json.loads(thrice)) == without_moves(exported)

    # Every sheet and the tracker answer the same in the three servers.
    for name, who in (("Mira", "p1"), ("Borin", "p2")):
        shown = [
            sheet(emu, await emu.slash("character show", who=who, guild=g, name=name))
            for g in (home, new, third)
        ]
        assert shown[0] == shown[1] == shown[2] and shown[0], name
    trackers = [tracker_text(emu, await emu.slash("init list", who="p1", guild=g))
                for g in (home, new, third)]  # fmt: skip
    assert trackers[0] == trackers[1] == trackers[2]
    assert "Goblin 1" in trackers[0]
    await emu.slash("init next", who="gm", guild=new)  # and the moved fight plays on
    assert tracker_text(emu, await emu.slash("init list", who="p1", guild=new)) != trackers[1]
    return raw


async def a_2d10_campaign_replaces_one_through_the_button(
    emu: Any, bot: Any, guilds: list[Any], host: Any
) -> None:
    _, new, _, other = guilds
    rec = await emu.slash("campaign set", who="gm", guild=other, ruleset="2d10")
    await emu.slash("character create", who="p1", guild=other, name="Brann", **BUILD)
    for command, who, options in SURVIVAL:
        rec = await emu.slash(command, who=who, guild=other, **options)
        assert not said(emu, rec).startswith(("You ", "Only ")), (command, said(emu, rec))
    await emu.slash("init begin", who="gm", guild=other)
    await emu.slash("init join", who="p1", guild=other)
    await emu.slash("init add", who="gm", guild=other, name="Wolf")
    _, raw = await export_file(emu, other)
    # The server it goes to has data: the HOCS campaign moved there, Borin in it.

    rec = await import_file(emu, new, host, raw)
    assert emu.ephemeral(rec) and "confirm" in said(emu, rec).lower(), said(emu, rec)
    confirm = [f for f in rec["followups"] + rec["edits"] + [rec["callback"]["data"] or {}]
               if f.get("components")]  # fmt: skip
    button = confirm[0]["components"][0]["components"][0]
    message_id = rec.get("message_id") or rec["followup_ids"][0]
    assert sheet(emu, await emu.slash("character show", who="p2", guild=new, name="Borin"))

    player = await emu.click(message_id, button["custom_id"], who="p1", guild=new)
    assert emu.ephemeral(player) and one_sentence(said(emu, player))  # not the GM
    await bot.restart()  # the held file and its button outlive a restart
    stale = json.loads(json.dumps(emu.messages[message_id]))  # as a second device shows it
    pressed = await emu.click(message_id, button["custom_id"], who="gm", guild=new)
    assert pressed["callback"]["type"] == 6  # deferred; then the message itself is edited
    assert emu.messages[message_id]["content"].startswith("Imported the campaign (the 2d10")
    assert not emu.messages[message_id].get("components")
    gone = await emu.click(message_id, button["custom_id"], who="gm", guild=new)
    assert emu.ephemeral(gone) and "no longer on its message" in said(emu, gone)
    second = await emu.click(message_id, button["custom_id"], who="gm", guild=new, message=stale)
    assert private(emu, second) and "already made" in said(emu, second)

    names = {c["name"] for c in emu.menu(new.id)}
    assert {"cast", "medicine"} <= names  # the menu follows the new ruleset
    _, again = await export_file(emu, new)
    assert without_moves(json.loads(again)) == without_moves(json.loads(raw))
    brann = [sheet(emu, await emu.slash("character show", who="p1", guild=g, name="Brann"))
             for g in (other, new)]  # fmt: skip
    assert brann[0] == brann[1] and brann[0]
    for command, options in SURVIVAL_SHOWN:  # every survival figure answers the same
        shown = []
        for g in (other, new):
            text = said(emu, await emu.slash(command, who="gm", guild=g, **options))
            shown.append(re.sub(r"\(#\d+\)", "(#)", text))  # a light's "#N" is its row id
        assert shown[0] == shown[1] and shown[0], command
    borin = await emu.slash("character show", who="p2", guild=new, name="Borin")
    assert emu.ephemeral(borin)  # replaced: the HOCS sheet is gone


async def hostile_files_change_nothing(
    emu: Any, guilds: list[Any], host: Any, tmp_path: Path, raw: bytes
) -> None:
    """Each hostile file by command into a server with data and one without; a few by
    the CLI too (tests/campaign_file has every refusal of both paths)."""
    _, new, _, empty = guilds
    data = json.loads(raw)
    data["hocs"]["characters"][0]["sheet"]["name"] = "@everyone"
    mention = json.dumps(data).encode()
    data["hocs"]["characters"][0]["sheet"]["name"] = "Mira\u202e"
    backwards = json.dumps(data).encode()
    hostile = {
        "truncated": raw[: len(raw) // 2],
        "not json": b"\x89PNG\r\n\x1a\n",
        "newer": json.dumps(dict(json.loads(raw), version=9)).encode(),
        "mention": mention,
        "backwards": backwards,
        "unknown ruleset": json.dumps(dict(json.loads(raw), ruleset="dnd")).encode(),
    }
    before = tables(tmp_path)
    for what, body in hostile.items():
        for guild in (new, empty) if what in ("truncated", "mention") else (new,):
            rec = await import_file(emu, guild, host, body)
            assert emu.ephemeral(rec) and one_sentence(said(emu, rec)), (what, said(emu, rec))
            assert "@" not in said(emu, rec)  # nothing from the file is echoed to ping
    for what in ("truncated", "mention"):
        (tmp_path / "hostile.json").write_bytes(hostile[what])
        done = cli(tmp_path, "import-campaign", str(tmp_path / "hostile.json"), new.id)
        assert done.returncode == 1 and done.stderr.count("\n") == 1, (what, done.stderr)
    big = await import_file(emu, new, host, b"{}", size=10 * 2**20 + 1)  # refused unread
    assert emu.ephemeral(big) and "10 MiB" in said(emu, big)
    player = await import_file(emu, new, host, raw, who="p1")
    assert emu.ephemeral(player) and one_sentence(said(emu, player))
    assert tables(tmp_path) == before
