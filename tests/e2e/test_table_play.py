"""End to end on the emulator, as a table plays it (issue 10): points on both sides of a
clash and an attack through buttons and options, exactly once under concurrent presses;
the dying clock's prompt on schedule; look-alike and bidi names; hidden NPC state; side
buttons that survive a restart. The dice are real and random, so these check invariants
(a point spent once, a refused second press, a test applied) rather than faces; where a
button only appears when it could change the result, the roll is made again, a bounded
number of times. Several checks per bot start: a start costs a second or two."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.component_guard import GONE_BUTTON
from tests.e2e.test_platform import answer, no_tracebacks, tracker_id

TRIES = 12  # rolls made again until a button that needs a failed die shows up


def buttons(emu: Any, message_id: str) -> dict[str, str]:
    """label → custom_id of every button on the message as Discord stores it now."""
    out: dict[str, str] = {}
    for row in emu.messages[message_id].get("components") or []:
        for item in row.get("components") or []:
            if item.get("custom_id"):
                out[item["label"]] = item["custom_id"]
    return out


def reply_id(rec: dict[str, Any]) -> str:
    """The message a command's answer is (its original response, else its first follow-up)."""
    return rec.get("message_id") or rec["followup_ids"][0]


def sheet(emu: Any, rec: dict[str, Any]) -> dict[str, str]:
    """The fields of the sheet embed /character show answered with."""
    data = rec["callback"]["data"]
    embeds = data.get("embeds") or [e for f in rec["followups"] for e in f.get("embeds") or []]
    edits = [e for b in rec["edits"] for e in b.get("embeds") or []]
    fields = (embeds or edits)[0].get("fields") or []
    return {f["name"]: f["value"] for f in fields}


async def create(emu: Any, who: str, name: str, **extra: Any) -> dict[str, Any]:
    values = {"strength": 3, "agility": 2, "mind": 2, "presence": 1} | extra
    return await emu.slash("character create", who=who, name=name, **values)


async def press_twice(emu: Any, message_id: str, custom_id: str, who: str) -> list[dict[str, Any]]:
    """Two presses of one button at the same moment, as a double click or two devices send."""
    stale = dict(emu.messages[message_id])
    return list(
        await asyncio.gather(
            emu.click(message_id, custom_id, who=who, message=stale),
            emu.click(message_id, custom_id, who=who, message=stale),
        )
    )


def points(emu: Any, rec: dict[str, Any], field: str) -> int:
    return int(sheet(emu, rec)[field].split("/")[0])


async def read_points(emu: Any, who: str, name: str, field: str) -> int:
    return points(emu, await emu.slash("character show", who=who, name=name), field)


def one_sentence(text: str) -> bool:
    body = text.strip().rstrip(".")
    return bool(body) and ". " not in body and "\n" not in body


def split_presses(recs: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the press that changed the message, the press refused privately)."""
    changed = [r for r in recs if (r.get("callback") or {}).get("type") == 7]
    refused = [r for r in recs if r is not changed[0]] if len(changed) == 1 else []
    assert len(changed) == 1 and len(refused) == 1, [r.get("callback") for r in recs]
    return changed[0], refused[0]


async def clash_with_both_hero_buttons(emu: Any) -> str:
    """Aria (p1) clashes with Borin (p2) until each side has a failed die to reroll."""
    for _ in range(TRIES):
        rec = await emu.slash("clash", who="p1", skill="strength", opponent="Borin")
        assert not emu.ephemeral(rec), answer(rec)
        message_id = reply_id(rec)
        shown = buttons(emu, message_id)
        if "Aria: Hero reroll" in shown and "Borin: Hero reroll" in shown:
            return message_id
    raise AssertionError(f"no clash in {TRIES} left both sides a failed die")


async def test_both_sides_spend_once_under_concurrent_presses_and_after_a_restart(
    table: Any,
) -> None:
    emu, bot = table
    await create(emu, "p1", "Aria")
    await emu.slash("session start", who="gm")  # every PC gets its hero point
    made = await create(emu, "p2", "Borin")  # made during the session: it gets one too
    assert "it gets its hero point" in answer(made)
    assert await read_points(emu, "p1", "Aria", "Hero points") == 1
    assert await read_points(emu, "p2", "Borin", "Hero points") == 1

    # 1. A clash: the target's owner presses its side's Hero reroll twice at once.
    message_id = await clash_with_both_hero_buttons(emu)
    borin_hero = buttons(emu, message_id)["Borin: Hero reroll"]
    assert borin_hero.endswith(":b") and len(borin_hero) <= 100
    changed, refused = split_presses(await press_twice(emu, message_id, borin_hero, "p2"))
    assert "Borin spent a hero point" in emu.texts(changed)
    assert emu.ephemeral(refused) and one_sentence(answer(refused)), answer(refused)
    assert await read_points(emu, "p2", "Borin", "Hero points") == 0
    body = str(emu.messages[message_id]["embeds"])
    assert "Borin spent a hero point" in body and "Clash: Aria" in body
    # Borin's player may not press Aria's side; Aria's owner spends on it.
    shown = buttons(emu, message_id)
    assert "Borin: Hero reroll" not in shown  # no hero point left
    aria_hero = shown["Aria: Hero reroll"]
    assert aria_hero.endswith(":1:a")  # the next revision
    other = await emu.click(message_id, aria_hero, who="p2")
    assert emu.ephemeral(other) and "Aria" in answer(other)
    assert await read_points(emu, "p1", "Aria", "Hero points") == 1
    spent = await emu.click(message_id, aria_hero, who="p1")
    assert spent["callback"]["type"] == 7 and "Aria spent a hero point" in emu.texts(spent)
    assert await read_points(emu, "p1", "Aria", "Hero points") == 0
    body = str(emu.messages[message_id]["embeds"])
    assert "Aria spent a hero point" in body and "Borin spent a hero point" in body

    # 2. An attack on Borin: its owner presses its side's Spend determination twice at
    # once, then the GM spends it before the roll with the defender_determination option.
    await emu.slash("character weapon add", who="p1", name="Aria", weapon="Sword", dice="1d8")
    determination = await read_points(emu, "p2", "Borin", "Determination")
    rec = await emu.slash("attack", who="p1", target="Borin")
    assert not emu.ephemeral(rec), answer(rec)
    attack_id = reply_id(rec)
    defend = buttons(emu, attack_id)["Borin: Spend determination"]
    changed, refused = split_presses(await press_twice(emu, attack_id, defend, "p2"))
    assert "Borin spent a determination point" in emu.texts(changed)
    assert emu.ephemeral(refused) and one_sentence(answer(refused)), answer(refused)
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 1
    rec = await emu.slash("attack", who="p1", target="Borin", defender_determination=True)
    assert emu.ephemeral(rec) and "owner or the GM" in answer(rec)
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 1
    rec = await emu.slash(
        "attack", who="gm", character="Aria", target="Borin", defender_determination=True
    )
    assert not emu.ephemeral(rec), answer(rec)
    assert "Borin spent a determination point" in emu.texts(rec)
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 2

    # 5. A restart: a side button on the clash still works, once.
    survivor = buttons(emu, message_id)["Borin: Spend determination"]
    shown_before = dict(emu.messages[message_id])  # as a second device still shows it
    await bot.restart()
    before = emu.message_edits.get(message_id, 0)
    rec = await emu.click(message_id, survivor, who="p2")
    assert rec["callback"]["type"] == 7, answer(rec)
    assert "Borin spent a determination point" in str(emu.messages[message_id]["embeds"])
    assert emu.message_edits[message_id] == before + 1
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 3
    # Pressed again from the copy a second device shows, and on the message as it is now
    # (the button is gone from it): each is answered privately, nothing is spent.
    again = await emu.click(message_id, survivor, who="p2", message=shown_before)
    assert emu.ephemeral(again) and "already used" in answer(again)
    assert one_sentence(answer(again)), answer(again)
    gone = await emu.click(message_id, survivor, who="p2")
    assert emu.ephemeral(gone) and answer(gone) == GONE_BUTTON
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 3
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)
