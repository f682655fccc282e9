"""A damage choice and its roll-log row as /attack stores them since migration 0016 (the
parts both hold encoded once), and choices stored earlier in the sorted form: a hero
reroll of one of those compares the text it read, so it still works."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import discord.ext.test as dpytest

from bot.client import TableBot
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_combat_helpers import combat_state, player, script, text
from tests.cogs.test_roll_buttons import custom_id, fresh, set_points
from tests.cogs.test_side_spends import character
from tests.support.slash import SlashHarness

COLUMNS = ("intro", "inputs", "rolls", "before_state", "after_state")


def _stored(bot: TableBot) -> tuple[dict[str, str], str]:
    """The one damage choice's JSON columns, and the text of the newest logged roll."""
    conn = sqlite3.connect(Path(str(bot.db.path)), timeout=10)
    try:
        (choice,) = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM damage_choices").fetchall()
        (result,) = conn.execute("SELECT result FROM roll_log ORDER BY id DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    return dict(zip(COLUMNS, choice, strict=True)), result


def _store_sorted(bot: TableBot) -> dict[str, str]:
    """Rewrite the choice as the bot stored choices before 0016 (keys sorted)."""
    columns, _ = _stored(bot)
    old = {
        name: json.dumps(json.loads(value), separators=(",", ":"), sort_keys=True)
        for name, value in columns.items()
    }
    conn = sqlite3.connect(Path(str(bot.db.path)), timeout=10)
    try:
        conn.execute(
            f"UPDATE damage_choices SET {', '.join(f'{c} = ?' for c in COLUMNS)}",
            tuple(old[c] for c in COLUMNS),
        )
        conn.commit()
    finally:
        conn.close()
    return old


async def test_an_attack_stores_the_shared_parts_once_in_the_same_text(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    script(bot, 5, 2, 3, 1, 4, 2, 1)  # a hit by 1; d12 4, d10 2, d8 1: 10 → 6
    await slash.run("attack", target="Gob", **player(slash))
    columns, result = _stored(bot)
    logged = json.loads(result)
    # The roll log's text is its document encoded compactly, keys in their order...
    assert result == json.dumps(logged, separators=(",", ":"))
    # ...and the choice's columns are the same parts' text, character for character.
    assert columns["inputs"] == json.dumps(logged["damage"]["inputs"], separators=(",", ":"))
    for column, part in (("rolls", "rolls"), ("before_state", "before"), ("after_state", "after")):
        assert columns[column] == json.dumps(logged["hit"][part], separators=(",", ":"))
        assert columns[column] in result
    assert logged["hit"]["before"]["hp"] == 10 and logged["hit"]["after"]["hp"] == 6
    await dpytest.empty_queue()


async def test_a_choice_stored_sorted_before_still_takes_a_hero_reroll(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    bram = await character(bot, "Bram")
    await set_points(bot, bram, hero_points=2)
    script(bot, 5, 2, 3, 1, 4, 2, 1)  # a hit by 1; d12 4, d10 2, d8 1: 10 → 6
    result = await slash.run("attack", target="Gob", **player(slash))
    button = custom_id(result, "Hero reroll damage")
    new, _ = _stored(bot)
    old = _store_sorted(bot)
    assert old["inputs"] != new["inputs"]  # (the form differs: the test can fail)
    # Rerolled: d12 8, d10 3, d8 2: the 8 is kept, 10 → 2.
    dice = script(bot, 8, 3, 2)
    clicked = await slash.click(custom_id=button, **player(slash))
    assert dice.remaining == 0
    assert (
        "Bram spent a hero point: rerolled the damage dice below their average (d12, d10, d8);"
        " 1 left." in text(clicked)
    )
    assert (await combat_state(bot, "Gob")).vitals.hp == 2
    assert (await fresh(bot, bram)).state.hero_points == 1
    # The choice now holds the new faces, in the current form.
    rerolled, _ = _stored(bot)
    assert rerolled["inputs"] != old["inputs"]
    assert json.loads(rerolled["inputs"])["rolled"] != json.loads(old["inputs"])["rolled"]
    await dpytest.empty_queue()
