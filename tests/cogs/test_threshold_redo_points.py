"""Points spent on a threshold test after its roll, when the attack is decided again
(THRESHOLD_REDO_RULING): the old test is undone with the old damage, so every point
spent on it after the roll comes back to the target once, in the same step; a
determination point pledged before it goes into the new test instead.

Scripted dice throughout. The attack every test starts from: Bram 5 2 vs the target's
3 1, a hit by 1; d12 4, d10 2, d8 1: 1 HP → −3, a threshold test vs 4: physique 1 1,
0 successes, dying.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.conditions import Condition
from bot.storage.hocs.combat import CombatRepository
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_combat_helpers import combat_state, gm, pc, player, refused, script, text
from tests.cogs.test_roll_buttons import custom_id, grant, labels, restarted, set_points
from tests.cogs.test_threshold_points import character, determination
from tests.support.slash import SlashHarness, SlashResult

FIRST_HIT = (5, 2, 3, 1, 4, 2, 1, 1, 1)
DYING = "[1, 1] 0 successes → **unconscious and dying**."
# The target's determination on its defense roll: 6 exploding into 5, 2 successes vs 1.
MISS = (6, 5)


async def aria_hit(
    bot: TableBot, slash: SlashHarness, *, hero: int = 0, fortune: tuple[str, ...] = ()
) -> SlashResult:
    """Aria (player 2's, 1 HP, ``hero`` hero points and ``fortune``) hit by Bram
    (player 1's, 1 hero point): dying."""
    await setup_duel(slash)
    await pc(slash, "Aria", number=2, strength=2, agility=2)
    aria = await character(bot, "Aria")
    await set_points(bot, aria, hp=1, hero_points=hero)
    await set_points(bot, await character(bot, "Bram"), hero_points=1)
    if fortune:
        await grant(bot, aria, *fortune)
    dice = script(bot, *FIRST_HIT)
    result = await slash.run("attack", target="Aria", **player(slash))
    assert dice.remaining == 0
    assert DYING in text(result)
    return result


async def stored_spends(bot: TableBot) -> list[object] | None:
    """The newest damage choice's record of points spent on its test after the roll."""
    async with bot.db.read() as conn:
        async with conn.execute("SELECT MAX(id) FROM damage_choices") as cursor:
            row = await cursor.fetchone()
        if row[0] is None:
            return None
        choice = await CombatRepository(conn).get_choice(int(row[0]))
    assert choice is not None
    return [spend.to_dict() for spend in choice.rolls.threshold_spends]


async def fortunes(bot: TableBot, name: str) -> tuple[str, ...]:
    return (await character(bot, name)).fortune_sources


async def miss_by_defense(
    bot: TableBot, slash: SlashHarness, on: SlashResult, **who: object
) -> SlashResult:
    """The target's determination on its defense roll turns the hit into a miss."""
    dice = script(bot, *MISS)
    missed = await slash.click(on, label="Aria: Spend determination", **who)
    assert dice.remaining == 0
    assert "**The attack now misses**: its damage is undone (Aria is back to 1 HP)." in text(missed)
    return missed


async def test_determination_after_the_test_comes_back_once_when_the_attack_misses(
    bot: TableBot, slash: SlashHarness
) -> None:
    hit = await aria_hit(bot, slash)
    points = await determination(bot, "Aria")
    # Aria's player spends determination on the test: the die 6 exploding into 6, 4.
    script(bot, 6, 6, 4)
    tested = await slash.click(
        hit, label="Aria (threshold): Spend determination", **player(slash, 2)
    )
    assert "[1, 1, **6 6 4**] 3 successes" in text(tested)
    assert await determination(bot, "Aria") == points - 1
    assert await stored_spends(bot) == [{"point": "determination"}]
    # Then on her defense roll: a miss. The test is undone, its point comes back.
    missed = await miss_by_defense(bot, slash, tested, **player(slash, 2))
    assert (
        "The old threshold test is undone, so the point Aria spent after its roll is given"
        f" back: 1 determination point ({points - 1} now)." in text(missed)
    )
    assert await determination(bot, "Aria") == points - 1  # the defense point alone
    state = await combat_state(bot, "Aria")
    assert state.vitals.hp == 1 and not state.vitals.conditions
    assert await stored_spends(bot) is None  # the choice went with the hit
    await dpytest.empty_queue()


async def test_a_hero_reroll_on_the_test_comes_back_when_the_attack_is_redone(
    bot: TableBot, slash: SlashHarness
) -> None:
    hit = await aria_hit(bot, slash, hero=1)
    points = await determination(bot, "Aria")
    # Aria rerolls both failures with her hero point: 5 4, 2 successes.
    script(bot, 5, 4)
    tested = await slash.click(hit, label="Aria (threshold): Hero reroll", **player(slash, 2))
    assert "Aria spent a hero point: rerolled 2 dice (#1 1→**5**, #2 1→**4**); 0 left." in text(
        tested
    )
    assert (await character(bot, "Aria")).state.hero_points == 0
    assert await stored_spends(bot) == [{"point": "hero"}]
    # Bram's hero point rerolls his 2 into a 6: a hit by 2, impact d8: new damage d12 4,
    # d10 2, d8 1, d8 1: 1 → −3 again, and a new test vs 4: 1 1, dying.
    dice = script(bot, 6, 4, 2, 1, 1, 1, 1)
    redone = await slash.click(tested, label="Bram: Hero reroll", **player(slash))
    body = text(redone)
    assert dice.remaining == 0
    assert "**The combat advantage changes** (now: impact" in body
    assert DYING in body
    assert (
        "The old threshold test is undone, so the point Aria spent after its roll is given"
        " back: 1 hero point (1 now)." in body
    )
    assert (await character(bot, "Aria")).state.hero_points == 1
    assert await determination(bot, "Aria") == points
    assert Condition.DYING in (await combat_state(bot, "Aria")).vitals.conditions
    # The new test is a fresh one: nothing recorded on it, and its own row offers the
    # hero point again.
    assert await stored_spends(bot) == []
    assert "Aria (threshold): Hero reroll" in labels(redone)
    await dpytest.empty_queue()


async def test_a_fortune_reroll_on_the_test_goes_back_to_its_source(
    bot: TableBot, slash: SlashHarness
) -> None:
    hit = await aria_hit(bot, slash, fortune=("luck", "minstrel"))
    # The button spends the first source in alphabetical order: luck. It rerolls the
    # first 1 into a 5: 1 success.
    script(bot, 5)
    tested = await slash.click(hit, label="Aria (threshold): Fortune reroll", **player(slash, 2))
    assert "Aria spent a fortune point (luck): rerolled 1 die (#1 1→**5**)." in text(tested)
    assert await fortunes(bot, "Aria") == ("minstrel",)
    assert await stored_spends(bot) == [{"point": "fortune", "source": "luck"}]
    missed = await miss_by_defense(bot, slash, tested, **gm(slash))
    assert (
        "The old threshold test is undone, so the point Aria spent after its roll is given"
        " back: the fortune point (luck)." in text(missed)
    )
    assert sorted(await fortunes(bot, "Aria")) == ["luck", "minstrel"]
    await dpytest.empty_queue()


async def test_a_fortune_point_held_again_from_its_source_is_not_doubled(
    bot: TableBot, slash: SlashHarness
) -> None:
    hit = await aria_hit(bot, slash, fortune=("luck",))
    script(bot, 5)
    tested = await slash.click(hit, label="Aria (threshold): Fortune reroll", **player(slash, 2))
    await grant(
        bot, await character(bot, "Aria"), "luck"
    )  # the GM awards it again before the attack is redone
    missed = await miss_by_defense(bot, slash, tested, **gm(slash))
    assert (
        "given back: not the fortune point (luck): Aria holds one from that source again,"
        " and a character holds at most one per source." in text(missed)
    )
    assert await fortunes(bot, "Aria") == ("luck",)
    await dpytest.empty_queue()


async def test_a_pledge_goes_into_the_new_test_and_a_later_reroll_comes_back(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    await pc(slash, "Aria", number=2, strength=2, agility=2)
    aria = await character(bot, "Aria")
    await set_points(bot, aria, hp=1, hero_points=1)
    await set_points(bot, await character(bot, "Bram"), hero_points=1)
    points = await determination(bot, "Aria")
    # Aria's player pledges determination (the target's owner may): her test vs 4 is
    # physique 1 1 and the determination die 3: 0 successes, dying.
    script(bot, *FIRST_HIT, 3)
    hit = await slash.run(
        "attack", target="Aria", character="Bram", threshold_determination=True, **gm(slash)
    )
    assert "with determination vs 4: [1, 1, 3] 0 successes" in text(hit)
    # A hero reroll of the three failures after the roll: 5 4 1, 2 successes.
    script(bot, 5, 4, 1)
    tested = await slash.click(hit, label="Aria (threshold): Hero reroll", **player(slash, 2))
    assert "with determination vs 4: [**5**, **4**, 1] 2 successes" in text(tested)
    assert await determination(bot, "Aria") == points - 1
    assert (await character(bot, "Aria")).state.hero_points == 0
    # Bram's hero reroll changes the advantage: the new test holds the pledged point
    # (physique 1 1, determination die 6 exploding into 2: 1 success, dying) and the
    # hero point spent after the old roll comes back.
    script(bot, 6, 4, 2, 1, 1, 1, 1, 6, 2)
    redone = await slash.click(tested, label="Bram: Hero reroll", **player(slash))
    body = text(redone)
    assert "with determination vs 4: [1, 1, **6 2**] 1 success → **unconscious and dying**." in body
    assert "given back: 1 hero point (1 now)." in body
    assert "determination point Aria spent before it is given back" not in body
    assert await determination(bot, "Aria") == points - 1  # the pledge, paid once
    assert (await character(bot, "Aria")).state.hero_points == 1
    await dpytest.empty_queue()


async def test_a_double_press_of_the_redo_gives_back_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    hit = await aria_hit(bot, slash)
    points = await determination(bot, "Aria")
    script(bot, 6, 6, 4)
    tested = await slash.click(hit, label="Aria (threshold): Spend determination", **gm(slash))
    button = custom_id(tested, "Aria: Spend determination")
    assert await determination(bot, "Aria") == points - 1
    bot.dice = ScriptedDice(list(MISS) * 10)
    first = len(slash.responses)
    await asyncio.gather(*(slash.click(custom_id=button, **gm(slash)) for _ in range(10)))
    answers = slash.responses[first:]
    edits = [r for r in answers if r.kind == "callback" and r.type == 7]
    refusals = [r for r in answers if r.carries_message and r.ephemeral]
    assert len(edits) == 1 and len(refusals) == 9
    # One defense point spent, one test point given back: where it was after the test.
    assert await determination(bot, "Aria") == points - 1
    refused(await slash.click(custom_id=button, **gm(slash)), "already used")
    assert await determination(bot, "Aria") == points - 1
    await dpytest.empty_queue()


async def test_the_record_and_the_give_back_survive_a_restart(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    hit = await aria_hit(bot, slash, hero=1)
    points = await determination(bot, "Aria")
    script(bot, 5, 4)
    tested = await slash.click(hit, label="Aria (threshold): Hero reroll", **player(slash, 2))
    button = custom_id(tested, "Aria: Spend determination")
    second = await restarted(bot, settings, ScriptedDice(list(MISS)))
    try:
        harness = SlashHarness(second)
        missed = await harness.click(custom_id=button, user=slash.members[2], manage_guild=False)
        assert "given back: 1 hero point (1 now)." in text(missed)
        again = await harness.click(custom_id=button, user=slash.members[2], manage_guild=False)
        assert again.ephemeral and "already used" in (again.content or "")
        found = await character(second, "Aria")
        assert found.state.hero_points == 1 and found.state.determination == points - 1
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_a_choice_stored_before_the_record_existed_gives_nothing_back(
    bot: TableBot, slash: SlashHarness
) -> None:
    hit = await aria_hit(bot, slash)
    points = await determination(bot, "Aria")
    script(bot, 6, 6, 4)
    tested = await slash.click(hit, label="Aria (threshold): Spend determination", **gm(slash))
    # An older row: its rolls JSON has no threshold_spends key at all.
    async with bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE damage_choices SET rolls = json_remove(rolls, '$.threshold_spends')"
        )
    assert await stored_spends(bot) == []
    missed = await miss_by_defense(bot, slash, tested, **gm(slash))
    assert "spent after its roll" not in text(missed)
    assert await determination(bot, "Aria") == points - 2
    await dpytest.empty_queue()


def hocs_docs() -> str:
    """docs/hocs.md on one line (its paragraphs wrap anywhere)."""
    return " ".join((Path(__file__).parents[2] / "docs" / "hocs.md").read_text("utf-8").split())


async def test_help_and_docs_give_the_ruling(bot: TableBot, slash: SlashHarness) -> None:
    ruling = (
        "Points spent after the old test's roll (determination, hero, fortune) are given back once"
    )
    result = await slash.run("help", command="attack")
    body = " ".join(
        f["name"] + " " + f["value"] for e in result.embeds for f in e.get("fields", [])
    ).replace("\n", " ")
    assert ruling in body
    docs = hocs_docs()
    assert "Points spent after the old test's roll (by its buttons" in docs
    assert "given back once, in the same step that undoes the test" in docs
    await dpytest.empty_queue()
