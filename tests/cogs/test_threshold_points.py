"""Points on a threshold test, under /attack and /damage alike: a determination point
before it (``threshold_determination``), determination, hero and fortune after it (the
test's own row of buttons), by the target's owner or the GM only.

Scripted dice throughout: each test says which face goes where.
"""

from __future__ import annotations

import asyncio

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.conditions import Condition
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.combat import CombatRepository
from bot.storage.roll_log import RollLogRepository
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_combat_helpers import combat_state, gm, pc, player, refused, script, text
from tests.cogs.test_roll_buttons import custom_id, grant, labels, restarted, set_points
from tests.support.slash import SlashHarness

THRESHOLD_DET = "Gob (threshold): Spend determination"


async def character(bot: TableBot, name: str) -> Character:
    async with bot.db.read() as conn:
        found = await CharacterRepository(conn).find(bot.guilds[0].id, name)
    assert found is not None
    return found


async def determination(bot: TableBot, name: str) -> int:
    return (await character(bot, name)).state.determination


async def stored_inputs(bot: TableBot) -> dict[str, object]:
    """The newest damage choice's stored inputs (the pledge is kept there while spent)."""
    async with bot.db.read() as conn:
        async with conn.execute("SELECT MAX(id) FROM damage_choices") as cursor:
            row = await cursor.fetchone()
        choice = await CombatRepository(conn).get_choice(int(row[0]))
    assert choice is not None
    return choice.inputs.to_dict()


async def last_damage_log(bot: TableBot) -> dict[str, object]:
    async with bot.db.read() as conn:
        [latest] = await RollLogRepository(conn).recent(bot.guilds[0].id, limit=1)
    assert latest.kind == "damage"
    return latest.result


# --- before the roll: threshold_determination ------------------------------------------------


async def test_attack_puts_the_pledged_point_in_the_threshold_tests_pool(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    # Bram 5 2 (1) vs Gob 3 1 (0): a hit by 1; d12 4, d10 2, d8 1: 1 → −3, a test vs 4.
    # Physique 5 4 and the determination die 6 exploding into 5: 4 successes, staggered.
    dice = script(bot, 5, 2, 3, 1, 4, 2, 1, 5, 4, 6, 5)
    result = await slash.run(
        "attack", target="Gob", character="Bram", threshold_determination=True, **gm(slash)
    )
    body = text(result)
    assert dice.remaining == 0
    assert (
        "**Threshold test** (0 HP or below, inside −5): Physique (STR 2) with determination"
        " vs 4: [**5**, **4**, **6 5**] 4 successes → **staggered**." in body
    )
    assert f"-# Gob spent a determination point on the threshold test ({points - 1} left)." in body
    assert await determination(bot, "Gob") == points - 1
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == -3 and Condition.STAGGERED in state.vitals.conditions
    assert Condition.UNCONSCIOUS not in state.vitals.conditions
    # The point is already on the test (boons don't stack): no determination button for
    # it; Gob's defense roll still offers one (Gob read again after paying).
    assert THRESHOLD_DET not in labels(result)
    assert "Gob: Spend determination" in labels(result)
    assert (await stored_inputs(bot))["threshold_determination"] is True
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_no_test_due_keeps_the_pledged_point(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    points = await determination(bot, "Gob")
    # A hit: d12 4 → 10 − 4 = 6 HP, no test. Then a miss: nothing to test either.
    script(bot, 5, 2, 3, 1, 4, 2, 1)
    hit = await slash.run(
        "attack", target="Gob", character="Bram", threshold_determination=True, **gm(slash)
    )
    assert "-# No threshold test was due, so Gob's determination point was kept." in text(hit)
    assert "threshold_determination" not in await stored_inputs(bot)
    script(bot, 1, 2, 5, 1)
    miss = await slash.run(
        "attack", target="Gob", character="Bram", threshold_determination=True, **gm(slash)
    )
    assert "No threshold test was due, so Gob's determination point was kept." in text(miss)
    script(bot, 3)
    damage = await slash.run(
        "damage", dice="1d4", target="Gob", threshold_determination=True, **gm(slash)
    )
    assert "No threshold test was due, so Gob's determination point was kept." in text(damage)
    assert await determination(bot, "Gob") == points
    await dpytest.empty_queue()


async def test_damage_puts_the_pledged_point_in_the_threshold_tests_pool(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    # d4 3: 1 → −2, a test vs 3; physique 1 1 and the determination die 6, 6, 4: 3
    # successes, staggered (the same two 1s alone: dying).
    dice = script(bot, 3, 1, 1, 6, 6, 4)
    result = await slash.run(
        "damage", dice="1d4", target="Gob", threshold_determination=True, **gm(slash)
    )
    body = text(result)
    assert dice.remaining == 0
    assert (
        "Physique (STR 2) with determination vs 3: [1, 1, **6 6 4**] 3 successes"
        " → **staggered**." in body
    )
    assert f"-# Gob spent a determination point on the threshold test ({points - 1} left)." in body
    assert await determination(bot, "Gob") == points - 1
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == -2
    assert set(state.vitals.conditions) == {Condition.STAGGERED}
    assert THRESHOLD_DET not in labels(result)
    logged = await last_damage_log(bot)
    assert logged["revision"] == 0 and logged["target_id"] == (await character(bot, "Gob")).id
    await dpytest.empty_queue()


async def test_only_the_targets_owner_or_the_gm_pledges_its_point(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)  # Bram is player 1's
    await pc(slash, "Aria", number=2, strength=2, agility=2)  # player 2's, 10 HP
    await slash.run("hp", target="Aria", change="set 1", **gm(slash))
    aria = await determination(bot, "Aria")
    dice = script(bot)  # nothing may be rolled
    for command, options in (
        ("attack", {"target": "Aria"}),
        ("damage", {"dice": "1d4", "target": "Aria"}),
    ):
        answer = await slash.run(command, threshold_determination=True, **options, **player(slash))
        refused(
            answer,
            f"Only Aria's owner or the GM can spend its determination: {command} again"
            " without threshold_determination.",
        )
    assert dice.remaining == 0
    assert await determination(bot, "Aria") == aria
    assert (await combat_state(bot, "Aria")).vitals.hp == 1
    refused(
        await slash.run("damage", dice="1d4", threshold_determination=True, **player(slash)),
        "give a target",
    )
    # Aria's own player may apply damage to her and spend her point on the test:
    # d4 1: 1 → 0, vs 1; physique 2 4 and the determination die 3: 1 success, staggered.
    dice = script(bot, 1, 2, 4, 3)
    own = await slash.run(
        "damage", dice="1d4", target="Aria", threshold_determination=True, **player(slash, 2)
    )
    assert "with determination vs 1: [2, **4**, 3] 1 success → **staggered**." in text(own)
    assert dice.remaining == 0 and await determination(bot, "Aria") == aria - 1
    # With no point left the option is refused before anything is rolled.
    await set_points(bot, await character(bot, "Aria"), determination=0)
    script(bot)
    refused(
        await slash.run(
            "damage", dice="1d4", target="Aria", threshold_determination=True, **gm(slash)
        ),
        "Aria has no determination points left, so nothing was rolled",
    )
    await dpytest.empty_queue()


# --- after the roll: the threshold row under /damage -----------------------------------------


async def test_damage_offers_the_threshold_row_and_the_target_spends_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    # Bram's player applies d4 3: 1 → −2, a test vs 3: physique 1 1, dying.
    script(bot, 3, 1, 1)
    result = await slash.run("damage", dice="1d4", target="Gob", **player(slash))
    assert "[1, 1] 0 successes → **unconscious and dying**." in text(result)
    assert labels(result) == [THRESHOLD_DET]
    button = custom_id(result, THRESHOLD_DET)
    roll_id = button.split(":")[2]
    assert button == f"roll:det:{roll_id}:0:t"
    # The attacker's player may not spend Gob's point: nothing rolled, nothing spent.
    dice = script(bot)
    answer = await slash.click(result, label=THRESHOLD_DET, **player(slash))
    refused(answer, "This is Gob's roll: only its owner or the GM can spend points on it.")
    assert dice.remaining == 0 and await determination(bot, "Gob") == points
    # The GM spends it: the determination die 6 exploding into 6 and 4: 3 successes.
    dice = script(bot, 6, 6, 4)
    clicked = await slash.click(result, label=THRESHOLD_DET, **gm(slash))
    body = text(clicked)
    assert dice.remaining == 0
    assert f"Gob spent a determination point after the roll ({points - 1} left)." in body
    assert "[1, 1, **6 6 4**] 3 successes → **staggered**." in body
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == -2 and set(state.vitals.conditions) == {Condition.STAGGERED}
    assert await determination(bot, "Gob") == points - 1
    logged = await last_damage_log(bot)
    assert logged["revision"] == 1
    assert logged["hit"]["threshold_test"]["result"] == "STAGGERED"  # type: ignore[index]
    # The same button again (a double click) spends nothing; no determination button now.
    script(bot, 6, 6)
    again = await slash.click(custom_id=button, **gm(slash))
    refused(again, "already used")
    assert await determination(bot, "Gob") == points - 1
    assert THRESHOLD_DET not in labels(clicked)
    clicked.assert_no_pings()
    await dpytest.empty_queue()


async def test_a_player_characters_threshold_test_takes_hero_and_fortune_rerolls(
    bot: TableBot, slash: SlashHarness
) -> None:
    await pc(slash, "Aria", number=2, strength=2, agility=2)  # player 2's, 10 HP
    aria = await character(bot, "Aria")
    await set_points(bot, aria, hero_points=1, hp=1)
    await grant(bot, aria, "luck")
    script(bot, 3, 1, 2)  # d4 3: 1 → −2, vs 3: physique 1 2, dying
    result = await slash.run("damage", dice="1d4", target="Aria", **gm(slash))
    assert labels(result) == [
        "Aria (threshold): Spend determination",
        "Aria (threshold): Hero reroll",
        "Aria (threshold): Fortune reroll",
    ]
    # Aria's player rerolls both failures with the hero point: 5 4, 2 successes, stable.
    dice = script(bot, 5, 4)
    hero = await slash.click(result, label="Aria (threshold): Hero reroll", **player(slash, 2))
    body = text(hero)
    assert dice.remaining == 0
    assert "Aria spent a hero point: rerolled 2 dice (#1 1→**5**, #2 2→**4**); 0 left." in body
    assert "[**5**, **4**] 2 successes → **unconscious and stable**." in body
    assert {Condition.UNCONSCIOUS, Condition.STABLE} <= set(
        (await combat_state(bot, "Aria")).vitals.conditions
    )
    # No die failed any more: neither reroll is offered now.
    assert "Aria (threshold): Fortune reroll" not in labels(hero)
    assert "Aria (threshold): Spend determination" in labels(hero)
    assert (await character(bot, "Aria")).state.hero_points == 0
    await dpytest.empty_queue()


async def test_the_damage_threshold_row_works_after_a_restart(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    script(bot, 3, 1, 1)  # −2, dying
    result = await slash.run("damage", dice="1d4", target="Gob", **player(slash))
    button = custom_id(result, THRESHOLD_DET)
    second = await restarted(bot, settings, ScriptedDice([6, 6, 4]))
    try:
        harness = SlashHarness(second)
        clicked = await harness.click(custom_id=button, user=slash.members[0], manage_guild=True)
        assert "3 successes → **staggered**." in text(clicked)
        assert Condition.STAGGERED in (await combat_state(second, "Gob")).vitals.conditions
        again = await harness.click(custom_id=button, user=slash.members[0], manage_guild=True)
        assert again.ephemeral and "already used" in (again.content or "")
        assert await determination(second, "Gob") == points - 1
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_many_presses_on_the_damage_threshold_row_spend_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    script(bot, 3, 1, 1)
    result = await slash.run("damage", dice="1d4", target="Gob", **player(slash))
    bot.dice = ScriptedDice([6, 6, 4] * 20)
    first = len(slash.responses)
    await asyncio.gather(
        *(slash.click(result, label=THRESHOLD_DET, **gm(slash)) for _ in range(20))
    )
    answers = slash.responses[first:]
    edits = [r for r in answers if r.kind == "callback" and r.type == 7]
    refusals = [r for r in answers if r.carries_message and r.ephemeral]
    assert len(edits) == 1 and len(refusals) == 19
    assert await determination(bot, "Gob") == points - 1
    assert (await last_damage_log(bot))["revision"] == 1
    await dpytest.empty_queue()


async def test_the_threshold_row_closes_with_the_damage_choice(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    script(bot, 3, 1, 1)  # −2, dying
    result = await slash.run("damage", dice="1d4", target="Gob", **player(slash))
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE damage_choices SET expires_at = '2000-01-01T00:00:00.000000Z'")
    dice = script(bot)
    refused(
        await slash.click(result, label=THRESHOLD_DET, **gm(slash)),
        "The 15 minutes to change that hit are over",
    )
    assert dice.remaining == 0 and await determination(bot, "Gob") == points
    assert Condition.DYING in (await combat_state(bot, "Gob")).vitals.conditions
    await dpytest.empty_queue()


async def test_keeping_another_die_keeps_the_threshold_row(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    # d4 3 kept, d6 1: 1 → −2, a test vs 3: physique 1 1, dying.
    script(bot, 3, 1, 1, 1)
    result = await slash.run("damage", dice="1d4 1d6", target="Gob", **player(slash))
    assert labels(result) == [THRESHOLD_DET, "d4 source: 3", "d6 source: 1"]
    assert [b["custom_id"].split(":")[:2] for b in result.components[0]["components"]] == [
        ["roll", "det"]
    ]
    # The d6 kept instead: 1 damage, 1 → 0; the test already rolled stays (rolled dice
    # stay rolled), now vs 1, and so does the threshold row above the die choices.
    dice = script(bot)
    switched = await slash.click(result, label="d6 source: 1", **player(slash))
    assert dice.remaining == 0
    assert "HP 1 → **0**" in text(switched)
    assert THRESHOLD_DET in labels(switched)
    await dpytest.empty_queue()


# --- after the roll under /attack, and an attack decided again ----------------------------


async def test_the_attackers_player_cannot_press_the_targets_threshold_row(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)  # Bram is player 1's
    await pc(slash, "Aria", number=2, strength=2, agility=2)
    await set_points(bot, await character(bot, "Aria"), hp=1)
    aria = await determination(bot, "Aria")
    # Bram 5 2 vs Aria 3 1: a hit by 1; d12 4, d10 2, d8 1: 1 → −3, vs 4: 1 1, dying.
    script(bot, 5, 2, 3, 1, 4, 2, 1, 1, 1)
    result = await slash.run("attack", target="Aria", **player(slash))
    label = "Aria (threshold): Spend determination"
    refused(await slash.click(result, label=label, **player(slash)), "only its owner or the GM")
    assert await determination(bot, "Aria") == aria
    script(bot, 6, 6, 6, 4)  # 4 successes: staggered
    clicked = await slash.click(result, label=label, **player(slash, 2))
    assert "→ **staggered**." in text(clicked)
    assert await determination(bot, "Aria") == aria - 1
    await dpytest.empty_queue()


async def test_an_attack_decided_again_gives_back_a_pledge_no_test_needs(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    # As above: a hit by 1, −3, the pledged test 5 4 | 6 5: staggered; Gob pays 1.
    script(bot, 5, 2, 3, 1, 4, 2, 1, 5, 4, 6, 5)
    result = await slash.run(
        "attack", target="Gob", character="Bram", threshold_determination=True, **gm(slash)
    )
    assert await determination(bot, "Gob") == points - 1
    # Gob's determination on its defense roll: 6 exploding into 5, 2 successes vs 1: a
    # miss. The damage is undone and no test is due: the pledged point comes back.
    dice = script(bot, 6, 5)
    missed = await slash.click(result, label="Gob: Spend determination", **gm(slash))
    body = text(missed)
    assert dice.remaining == 0
    assert "**The attack now misses**: its damage is undone (Gob is back to 1 HP)." in body
    assert (
        "No threshold test is due now, so the determination point Gob spent before it is"
        f" given back ({points - 1} determination)." in body
    )
    assert await determination(bot, "Gob") == points - 1  # the defense point alone
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == 1 and Condition.STAGGERED not in state.vitals.conditions
    await dpytest.empty_queue()


async def test_an_attack_decided_again_takes_the_pledge_into_its_new_test(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await set_points(bot, await character(bot, "Bram"), hero_points=1)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    points = await determination(bot, "Gob")
    script(bot, 5, 2, 3, 1, 4, 2, 1, 5, 4, 6, 5)  # a hit by 1; the pledged test: staggered
    result = await slash.run(
        "attack", target="Gob", character="Bram", threshold_determination=True, **gm(slash)
    )
    # Bram's hero point rerolls his 2 into a 6: a hit by 2, impact d8: new damage d12 4,
    # d10 2, d8 1, d8 1: 1 → −3 again, and a new test vs 4 that holds the point already
    # paid: physique 1 1 and the determination die 3: 0 successes, dying.
    dice = script(bot, 6, 4, 2, 1, 1, 1, 1, 3)
    redone = await slash.click(result, label="Bram: Hero reroll", **player(slash))
    body = text(redone)
    assert dice.remaining == 0
    assert "**The combat advantage changes** (now: impact" in body
    assert "Physique (STR 2) with determination vs 4: [1, 1, 3] 0 successes" in body
    assert await determination(bot, "Gob") == points - 1  # paid once, before the first test
    state = await combat_state(bot, "Gob")
    assert state.vitals.hp == -3 and Condition.DYING in state.vitals.conditions
    assert Condition.STAGGERED not in state.vitals.conditions
    assert (await stored_inputs(bot))["threshold_determination"] is True
    await dpytest.empty_queue()


# --- the rulings ---------------------------------------------------------------------------


async def test_help_tells_which_points_a_threshold_test_takes(
    bot: TableBot, slash: SlashHarness
) -> None:
    for command in ("attack", "damage"):
        result = await slash.run("help", command=command)
        body = " ".join(
            f["name"] + " " + f["value"] for e in result.embeds for f in e.get("fields", [])
        ).replace("\n", " ")
        assert "determination before it (threshold_determination:" in body, command
        assert "Only the target's owner or the GM spends them" in body, command
        assert "never reach a threshold test: use its buttons" in body, command
        assert "threshold_determination" in body, command  # the option itself
    await dpytest.empty_queue()
