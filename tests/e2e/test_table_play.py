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

from bot.interactions.component_guard import GONE_BUTTON
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
    for _ in range(TRIES):
        message_id = await clash_with_both_hero_buttons(emu)
        borin_hero = buttons(emu, message_id)["Borin: Hero reroll"]
        assert borin_hero.endswith(":b") and len(borin_hero) <= 100
        changed, refused = split_presses(await press_twice(emu, message_id, borin_hero, "p2"))
        assert "Borin spent a hero point" in emu.texts(changed)
        assert emu.ephemeral(refused) and one_sentence(answer(refused)), answer(refused)
        assert await read_points(emu, "p2", "Borin", "Hero points") == 0
        body = str(emu.messages[message_id]["embeds"])
        assert "Borin spent a hero point" in body and "Clash: Aria" in body
        shown = buttons(emu, message_id)
        assert "Borin: Hero reroll" not in shown  # no hero point left
        if "Aria: Hero reroll" in shown:
            break
        # Real dice: Borin's reroll left Aria's side nothing a reroll would change (the
        # button shows only then); the GM gives the point back and the table clashes again.
        await emu.slash("hero give", who="gm", character="Borin")
    else:
        raise AssertionError(f"no clash in {TRIES} left Aria a reroll after Borin's")
    # Borin's player may not press Aria's side; Aria's owner spends on it.
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
    # The option before the roll, on a fresh target: the attack above may have left Borin
    # unable to defend (real dice), and a side that rolls nothing keeps its point.
    await create(emu, "p3", "Cato")
    cato = await read_points(emu, "p3", "Cato", "Determination")
    rec = await emu.slash("attack", who="p1", target="Cato", defender_determination=True)
    assert emu.ephemeral(rec) and "owner or the GM" in answer(rec)
    assert await read_points(emu, "p3", "Cato", "Determination") == cato
    rec = await emu.slash(
        "attack", who="gm", character="Aria", target="Cato", defender_determination=True
    )
    assert not emu.ephemeral(rec), answer(rec)
    assert "Cato spent a determination point" in emu.texts(rec)
    assert await read_points(emu, "p3", "Cato", "Determination") == cato - 1

    # 5. A restart: a side button on the clash still works, once.
    survivor = buttons(emu, message_id)["Borin: Spend determination"]
    shown_before = dict(emu.messages[message_id])  # as a second device still shows it
    await bot.restart()
    before = emu.message_edits.get(message_id, 0)
    rec = await emu.click(message_id, survivor, who="p2")
    assert rec["callback"]["type"] == 7, answer(rec)
    assert "Borin spent a determination point" in str(emu.messages[message_id]["embeds"])
    assert emu.message_edits[message_id] == before + 1
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 2
    # Pressed again from the copy a second device shows, and on the message as it is now
    # (the button is gone from it): each is answered privately, nothing is spent.
    again = await emu.click(message_id, survivor, who="p2", message=shown_before)
    assert emu.ephemeral(again) and "already used" in answer(again)
    assert one_sentence(answer(again)), answer(again)
    gone = await emu.click(message_id, survivor, who="p2")
    assert emu.ephemeral(gone) and answer(gone) == GONE_BUTTON
    assert await read_points(emu, "p2", "Borin", "Determination") == determination - 2
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)


async def next_until_prompt(emu: Any, limit: int) -> dict[str, Any]:
    """/init next until the dying test's prompt is posted; the prompt message."""
    channel = emu.channels[0]
    for turn in range(limit):
        before = len(emu.channel_log[channel])
        await emu.slash("init next", who="gm")
        posted = [emu.messages[i] for i in emu.channel_log[channel][before:]]
        prompts = [m for m in posted if "must make a dying test" in (m.get("content") or "")]
        if prompts:
            return {"turn": turn + 1, "message": prompts[0]}
    raise AssertionError(f"no dying test prompt in {limit} turns")


async def test_a_dying_pc_is_prompted_on_schedule_and_rolls_once(table: Any) -> None:
    emu, bot = table
    await create(emu, "p3", "Cato", strength=1)  # a dying test after STR 1 × 10 rounds
    await emu.slash("init begin", who="gm")
    await emu.slash("init join", who="p3")
    await emu.slash("init add", who="gm", name="Goblin", hp=7)
    rec = await emu.slash("condition add", who="gm", target="Cato", condition="dying")
    assert not emu.ephemeral(rec) and "dying added" in answer(rec)
    # Two participants, so two turns a round: round 1 to round 11 is at most 22 turns,
    # and the prompt comes at the start of Cato's turn in round 11, not before.
    found = await next_until_prompt(emu, limit=22)
    assert found["turn"] >= 21
    tracker = tracker_id(emu, emu.channels[0])
    assert "round 11" in emu.messages[tracker]["embeds"][0]["title"]
    prompt = found["message"]
    cato = emu.users["p3"]["id"]
    assert prompt["content"] == f"<@{cato}> **Cato** must make a dying test."
    shown = buttons(emu, prompt["id"])
    assert list(shown) == ["Roll with physique", "Roll with willpower"]
    assert all(len(c) <= 100 for c in shown.values())
    # Someone else's player can't roll it; the owner presses twice at the same moment.
    other = await emu.click(prompt["id"], shown["Roll with physique"], who="p1")
    assert emu.ephemeral(other) and "Cato" in answer(other)
    edits = emu.message_edits.get(tracker, 0)
    changed, refused = split_presses(
        await press_twice(emu, prompt["id"], shown["Roll with physique"], "p3")
    )
    rolled = emu.texts(changed)
    # Physique with STR 1 is one die: it can't make 3 successes, so Cato dies, once.
    assert "Cato's dying test (Physique (STR 1): " in rolled and "vs 3 — dies." in rolled
    assert emu.ephemeral(refused) and "already been rolled" in answer(refused)
    assert one_sentence(answer(refused)), answer(refused)
    assert buttons(emu, prompt["id"]) == {}  # the prompt's buttons are gone
    # Applied to the sheet and to the tracker, which was edited in place.
    listed = emu.texts(await emu.slash("condition list", who="p3", target="Cato"))
    assert "**dying**" not in listed and "**dead**" in listed, listed
    assert emu.message_edits.get(tracker, 0) > edits
    assert tracker_id(emu, emu.channels[0]) == tracker
    row = next(
        line
        for line in emu.messages[tracker]["embeds"][0]["description"].splitlines()
        if "Cato" in line
    )
    assert "roll it" not in row and "dying" not in row.replace("dying test", ""), row
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)


async def test_look_alike_and_bidi_names_and_hidden_npc_state(table: Any) -> None:
    emu, bot = table
    made = await create(emu, "p1", "Aria")
    assert not emu.ephemeral(made), answer(made)
    # A look-alike name (a zero-width space) beside "Aria" is refused, in one sentence.
    rec = await create(emu, "p2", "Aria\u200b")
    assert emu.ephemeral(rec) and "already a character called Aria" in answer(rec)
    assert one_sentence(answer(rec)), answer(rec)
    rec = await create(emu, "p2", "Cafe\u0301")
    assert not emu.ephemeral(rec), answer(rec)
    rec = await create(emu, "p3", "Caf\u00e9")
    assert emu.ephemeral(rec) and "already a character called Café" in answer(rec)
    # A right-to-left override is refused in a name and in a roll's label.
    rec = await create(emu, "p3", "\u202eCato")
    assert emu.ephemeral(rec) and "direction" in answer(rec), answer(rec)
    rec = await emu.slash("roll", who="p1", expression="1d20 total \u202e12")
    assert emu.ephemeral(rec) and "direction" in answer(rec), answer(rec)
    assert one_sentence(answer(rec)), answer(rec)
    for name in ("Cato", "\u202eCato"):  # nothing was stored under either
        rec = await emu.slash("character show", who="p3", name=name)
        assert emu.ephemeral(rec), answer(rec)

    # A hidden NPC's state: the players read a status word, the GM reads everything.
    npc = await create(emu, "gm", "Gob", kind="antagonist")
    assert not emu.ephemeral(npc), answer(npc)
    await emu.slash("hp", who="gm", target="Gob", change="-5")
    await emu.slash("condition add", who="gm", target="Gob", condition="bleeding", value=2)
    shown = emu.texts(await emu.slash("character show", who="p1", name="Gob"))
    listed = emu.texts(await emu.slash("condition list", who="p1", target="Gob"))
    for text in (shown, listed):
        assert "hidden" in text and "7/12" not in text and "bleeding" not in text, text
    shown = emu.texts(await emu.slash("character show", who="gm", name="Gob"))
    listed = emu.texts(await emu.slash("condition list", who="gm", target="Gob"))
    assert "7/12" in shown and "bleeding" in shown and "bleeding" in listed
    assert emu.problems == []
    no_tracebacks(bot)
