"""The exact bytes of /init next when it begins a round, and what it stores.

A new round is tuned for speed (the rolls, the new participants, the announcement):
these pin, for two new rounds with scripted dice, the reply as discord.py hands it to
the webhook adapter (JSON, key order included), the tracker message's embed and every
stored row of the encounter, so such work can't change a byte of any of them. The
field has a preset, banes (a condition), bonus dice with a boon die, group initiative,
an effect that runs out at the new round and names that need escaping.
Recorded on 27ec5b1, before the tuning.
"""

from __future__ import annotations

import json
from pathlib import Path

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from tests.cogs.test_init_commands import gm, make_character, stored
from tests.support.slash import SlashHarness, SlashResult

# One pin a line: its name, a space, its JSON.
PINNED = dict(
    line.split(" ", 1)
    for line in (Path(__file__).parent / "newround_bytes.txt").read_text("utf-8").splitlines()
)
# Enough faces for both rounds (what is left over is pinned too).
FACES = [6, 4, 1, 5, 2, 3, 6, 5, 4, 1, 4, 6, 2, 3, 1, 5, 4, 6, 1, 4, 5, 6, 2, 2, 3, 4, 6, 1]


def wire(result: SlashResult) -> str:
    assert len(result.responses) == 1
    return json.dumps(result.responses[0].payload, ensure_ascii=False)


async def tracker(bot: TableBot, slash: SlashHarness) -> str:
    record = await stored(bot, slash.channel.id)
    assert record.tracker_message_id is not None
    message = await slash.channel.fetch_message(record.tracker_message_id)
    return json.dumps(message.embeds[0].to_dict(), ensure_ascii=False, sort_keys=True)


async def rows(bot: TableBot, slash: SlashHarness) -> str:
    """Every stored row of the encounter (but its timestamps), in key order; Discord ids
    (new in every run) are named."""
    record = await stored(bot, slash.channel.id)
    names = {slash.guild.id: "guild", slash.channel.id: "channel"}
    names.update((m.id, f"member {i}") for i, m in enumerate(slash.members))
    names[record.tracker_message_id] = "tracker"
    async with bot.db.read() as conn:
        found = {}
        for table, query in (
            ("encounters", "SELECT * FROM encounters ORDER BY id"),
            ("participants", "SELECT * FROM encounter_participants"
             " ORDER BY encounter_id, participant_id"),
            ("effects", "SELECT * FROM encounter_effects ORDER BY encounter_id, effect_id"),
        ):  # fmt: skip
            cursor = await conn.execute(query)
            found[table] = [
                {k: names.get(row[k], row[k]) for k in row.keys() if not k.endswith("_at")}
                for row in await cursor.fetchall()
            ]
    return json.dumps(found, ensure_ascii=False)


async def new_rounds(bot: TableBot, slash: SlashHarness) -> dict[str, str]:
    """Two new rounds and what each leaves, in the order the pins were recorded."""
    await make_character(bot, slash.members[0], "Aria_the *Bold*", training=1)
    await make_character(bot, slash.members[1], "Bram")
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", user=slash.members[0])
    await slash.run("init join", user=slash.members[1])
    await slash.run("init add", name="Gob @here", hp=7, **gm(slash))
    await slash.run(
        "init add", name="Wolf", count=2, group=True, group_initiative=True, side="ally",
        agility=3, **gm(slash),
    )  # fmt: skip
    await slash.run("init add", name="Scout", bonus=1, boons=1, **gm(slash))
    await slash.run("init add", name="Brute", hp=12, **gm(slash))
    await slash.run("init set", name="Brute", successes=3, **gm(slash))
    await slash.run("init effect", name="Bram", condition="fatigued", value=2, **gm(slash))
    await slash.run("init effect", name="Scout", condition="staggered", rounds=1, **gm(slash))
    dice = ScriptedDice(FACES)
    bot.dice = dice
    pins = {}
    for label in ("ROUND1", "ROUND2"):
        result = await slash.run("init next", **gm(slash))
        pins[f"{label}_REPLY"] = wire(result)
        pins[f"{label}_TRACKER"] = await tracker(bot, slash)
        pins[f"{label}_ROWS"] = await rows(bot, slash)
        if label == "ROUND1":  # the rest of round 1: plain turns
            state = (await stored(bot, slash.channel.id)).state
            for _ in range(len(state.order) - 1):
                await slash.run("init next", **gm(slash))
    pins["DICE"] = json.dumps([dice.requests, dice.remaining])
    return pins


async def test_new_rounds_keep_their_bytes(bot: TableBot, slash: SlashHarness) -> None:
    pins = await new_rounds(bot, slash)
    assert pins.keys() == PINNED.keys()
    for name, value in pins.items():
        assert value == PINNED[name], name
    await dpytest.empty_queue()
