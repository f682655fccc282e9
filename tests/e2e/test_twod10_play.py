"""End to end on the emulator, a 2d10 table (issue 13): a dying character is prompted on
its side's turn with a button that survives a restart and rolls once under a double
press; the NPCs' morale is rolled by the tracker when the first of them falls. The dice
are real, so these check invariants (one roll, one HP step, a refused second press)."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_platform import answer, no_tracebacks
from tests.e2e.test_table_play import buttons, one_sentence, press_twice, split_presses

BUILD: dict[str, Any] = {
    "background": "Blacksmith", "finesse": 1, "strength": 2, "toughness": 1, "mind": 0,
    "social": 0, "background_skills": "melee 2, machinery 2, athletics 1",
    "extra_skills": "defense (finesse) 2, knowledge (metallurgy) 2, athletics 1",
    "feat1": "Strong grip", "feat2": "Iron lungs",
}  # fmt: skip


async def next_until_dying_prompt(emu: Any, limit: int) -> dict[str, Any]:
    channel = emu.channels[0]
    for _ in range(limit):
        before = len(emu.channel_log[channel])
        await emu.slash("init next", who="gm")
        posted = [emu.messages[i] for i in emu.channel_log[channel][before:]]
        prompts = [m for m in posted if "must make a dying roll" in (m.get("content") or "")]
        if prompts:
            return prompts[0]
    raise AssertionError(f"no dying roll prompt in {limit} steps")


async def test_a_dying_2d10_character_rolls_once_from_its_prompt_and_morale_breaks(
    table: Any,
) -> None:
    emu, bot = table
    rec = await emu.slash("campaign set", who="gm", ruleset="2d10")
    assert answer(rec) == "Campaign updated.", answer(rec)
    rec = await emu.slash("character create", who="p1", name="Mira", **BUILD)
    assert not emu.ephemeral(rec), answer(rec)
    rec = await emu.slash("character edit", who="gm", name="Mira", hp=-1)
    assert not emu.ephemeral(rec), answer(rec)
    await emu.slash("init begin", who="gm")
    await emu.slash("init join", who="p1")
    await emu.slash("init add", who="gm", name="Goblin", count=2)
    # A round: declarations, the d6 and a turn, its end, the other turn: the players'
    # turn (and its prompt) comes within four steps.
    prompt = await next_until_dying_prompt(emu, limit=4)
    mira = emu.users["p1"]["id"]
    assert prompt["content"] == f"<@{mira}> **Mira** must make a dying roll."
    shown = buttons(emu, prompt["id"])
    assert list(shown) == ["Roll the dying roll"] and len(shown["Roll the dying roll"]) <= 100

    await bot.restart()  # the prompt's button is found again by its custom_id alone
    other = await emu.click(prompt["id"], shown["Roll the dying roll"], who="p2")
    assert emu.ephemeral(other) and "Mira isn't yours" in answer(other)
    changed, refused = split_presses(
        await press_twice(emu, prompt["id"], shown["Roll the dying roll"], "p1")
    )
    rolled = emu.texts(changed)
    assert "dying roll" in rolled
    assert "Mira: HP -1 → **-2** / 20" in rolled or "Mira: HP -1 → **0** / 20" in rolled
    assert emu.ephemeral(refused) and one_sentence(answer(refused)), answer(refused)
    assert "already been made" in answer(refused)
    assert buttons(emu, prompt["id"]) == {}
    shown_sheet = emu.texts(await emu.slash("character show", who="p1", name="Mira"))
    assert ("-2/20" in shown_sheet) != ("0/20" in shown_sheet), shown_sheet  # one step

    rec = await emu.slash("morale set", who="gm", score=-5)
    assert "NPC morale score -5" in answer(rec)
    rec = await emu.slash("init down", who="gm", name="Goblin 1")
    said = answer(rec)
    assert "🚩 NPC morale, the first ally fell and half of the allies are down: 2d10" in said
    assert ("the NPCs flee" in said) != ("they hold" in said), said
    assert emu.double_answers == []
    assert emu.problems == []
    no_tracebacks(bot)
