"""Points on both sides of /clash and /attack: options before the roll, buttons after it.

Scripted dice throughout: each test says which face goes where.
"""

from __future__ import annotations

import asyncio
import random

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.config import Settings
from bot.rules.dice_source import RandomDice, ScriptedDice
from bot.storage.hocs.characters import Character, CharacterKind, CharacterRepository
from tests.cogs.test_attack_cmd import setup_duel
from tests.cogs.test_check import make_character
from tests.cogs.test_combat_helpers import (
    choice_count,
    combat_state,
    gm,
    player,
    refused,
    script,
    text,
)
from tests.cogs.test_roll_buttons import custom_id, fresh, labels, restarted, set_points
from tests.support.slash import SlashHarness


async def character(bot: TableBot, name: str) -> Character:
    async with bot.db.read() as conn:
        found = await CharacterRepository(conn).find(bot.guilds[0].id, name)
    assert found is not None
    return found


async def test_a_hero_reroll_turns_a_miss_into_a_hit_and_determination_undoes_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    bram = await character(bot, "Bram")
    await set_points(bot, bram, hero_points=1)
    gob_points = (await character(bot, "Gob")).state.determination
    # Bram 1 2 (0) vs Gob 5 1 (1): a miss by 1.
    script(bot, 1, 2, 5, 1)
    result = await slash.run("attack", target="Gob", **player(slash))
    assert "→ **Miss**: Gob defends by 1." in text(result)
    assert "Bram: Hero reroll" in labels(result) and "Gob: Spend determination" in labels(result)
    # Bram's hero point rerolls both failures: 5 4 → 2 vs 1, a hit by 1; then the damage
    # pool rolls d12 4, d10 2, d8 1: 4 kept, 10 → 6 HP.
    script(bot, 5, 4, 4, 2, 1)
    hit = await slash.click(result, label="Bram: Hero reroll", **player(slash))
    body = text(hit)
    assert "Bram spent a hero point: rerolled 2 dice (#1 1→**5**, #2 2→**4**); 0 left." in body
    assert "→ **Hit** by 1." in body
    assert "**The attack now hits**: its damage is rolled and applied below." in body
    assert "HP 10 → **6**" in body
    assert (await combat_state(bot, "Gob")).vitals.hp == 6
    assert (await fresh(bot, bram)).state.hero_points == 0
    assert await choice_count(bot) == 1
    assert "Keep this die" not in labels(hit)  # die buttons are named by their faces
    assert any(label.startswith("d12 source") for label in labels(hit))
    # The GM spends Gob's determination: a determination die 6 that explodes into a 5
    # gives Gob 3 successes to 2, a miss: the damage is undone, exactly once.
    script(bot, 6, 5)
    missed = await slash.click(hit, label="Gob: Spend determination", **gm(slash))
    body = text(missed)
    assert f"Gob spent a determination point after the roll ({gob_points - 1} left)." in body
    assert "→ **Miss**: Gob defends by 1." in body
    assert "**The attack now misses**: its damage is undone (Gob is back to 10 HP)." in body
    assert (await combat_state(bot, "Gob")).vitals.hp == 10
    assert (await character(bot, "Gob")).state.determination == gob_points - 1
    assert await choice_count(bot) == 0
    assert not any(label.startswith("d12") for label in labels(missed))
    missed.assert_no_pings()
    await dpytest.empty_queue()


async def test_a_changed_target_refuses_the_spend_and_keeps_the_point(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    gob_points = (await character(bot, "Gob")).state.determination
    # Bram 5 2 (1) vs Gob 3 1 (0): a hit by 1; d12 4, d10 2, d8 1: 10 → 6.
    script(bot, 5, 2, 3, 1, 4, 2, 1)
    result = await slash.run("attack", target="Gob", **player(slash))
    assert (await combat_state(bot, "Gob")).vitals.hp == 6
    await slash.run("hp", target="Gob", change="-1", **gm(slash))
    dice = script(bot, 6, 6)  # would flip the clash, but may not be used
    answer = await slash.click(result, label="Gob: Spend determination", **gm(slash))
    refused(answer, "has changed since this hit")
    assert dice.remaining == 2
    assert (await combat_state(bot, "Gob")).vitals.hp == 5
    assert (await character(bot, "Gob")).state.determination == gob_points
    await dpytest.empty_queue()


async def test_a_spend_that_keeps_the_hit_keeps_the_damage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    bram = await character(bot, "Bram")
    await set_points(bot, bram, hero_points=1)
    script(bot, 5, 2, 3, 1, 4, 2, 1)  # a hit by 1, 10 → 6 as above
    result = await slash.run("attack", target="Gob", **player(slash))
    script(bot, 1)  # Bram's failed die 2 → 1: still a hit by 1
    again = await slash.click(result, label="Bram: Hero reroll", **player(slash))
    body = text(again)
    assert "→ **Hit** by 1." in body and "now hits" not in body and "now misses" not in body
    assert "HP 10 → **6**" in body
    assert (await combat_state(bot, "Gob")).vitals.hp == 6
    assert await choice_count(bot) == 1
    await dpytest.empty_queue()


async def test_both_sides_take_modifiers_and_determination_before_the_roll(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    bram = await character(bot, "Bram")
    gob = await character(bot, "Gob")
    # Bram 2 dice + determination die: 3 2 | 6 → chain 1; focus makes the 3 a 4: 2.
    # Gob 2 dice + determination die 1 2 | 5, 1 reroll (the 1 → 6), 1 guaranteed (the 2): 3.
    dice = script(bot, 3, 2, 6, 1, 1, 2, 5, 6)
    result = await slash.run(
        "attack", target="Gob", focus=1, determination=True, defender_rerolls=1,
        defender_guaranteed=1, defender_determination=True, character="Bram", **gm(slash),
    )  # fmt: skip
    body = text(result)
    assert "Melee Combat (AGI 2) with 1 focus (given), determination vs Gob:" in body
    assert "Defense (AGI 2) with 1 reroll (given), 1 guaranteed, determination" in body
    assert "→ **Miss**: Gob defends by 1." in body and dice.remaining == 0
    assert "Bram spent a determination point on the roll" in body
    assert (await fresh(bot, bram)).state.determination == bram.state.determination - 1
    assert (await fresh(bot, gob)).state.determination == gob.state.determination - 1
    # Each roll holds a determination point already: neither side is offered another.
    assert not [label for label in labels(result) if "determination" in label]
    await dpytest.empty_queue()


async def test_a_player_cannot_spend_the_defenders_determination(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    gob = await character(bot, "Gob")
    script(bot, 1, 2, 5, 1)
    answer = await slash.run("attack", target="Gob", defender_determination=True, **player(slash))
    refused(answer, "Only Gob's owner or the GM can spend its determination")
    assert (await fresh(bot, gob)).state.determination == gob.state.determination
    clash = await slash.run(
        "clash", skill="strength", opponent="Gob", opponent_determination=True, **player(slash)
    )
    refused(clash, "Only Gob's owner or the GM can spend its determination")
    await dpytest.empty_queue()


async def test_threshold_test_uses_the_chosen_skill(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    # Bram 5 2 vs Gob 3 1: hit; d12 4, d10 2, d8 1: 1 → −3, a threshold test vs 4.
    # Willpower chosen: its dice all show 1 (a failure by 2+), and no physique is rolled.
    script(bot, 5, 2, 3, 1, 4, 2, 1, 1, 1, 1, 1, 1, 1)
    result = await slash.run("attack", target="Gob", threshold="willpower", **player(slash))
    assert "**Threshold test** (0 HP or below, inside" in text(result)
    assert "Willpower" in text(result) and "Physique" not in text(result)
    await dpytest.empty_queue()


# --- clashes ---------------------------------------------------------------------------


async def test_the_opponents_button_flips_a_clash(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], "Mira")
    goblin = await make_character(
        bot, slash.members[1], "Goblin", kind=CharacterKind.ANTAGONIST, active=False, agility=2
    )
    await set_points(bot, goblin, hero_points=0)
    # Mira athletics 3 dice: 4 1 1 (1) vs Goblin athletics (STR 3): 1 2 3 (0): Mira wins.
    bot.dice = ScriptedDice([4, 1, 1, 1, 2, 3])
    result = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="goblin")
    assert "**Mira wins**" in result.embeds[0]["description"]
    roll_id = custom_id(result, "Goblin: Spend determination").split(":")[2]
    assert custom_id(result, "Goblin: Spend determination") == f"roll:det:{roll_id}:0:b"
    # Goblin's owner spends determination: the boon die shows 6 and explodes into 4: 2 vs 1.
    bot.dice = ScriptedDice([6, 4])
    clicked = await slash.click(
        result, label="Goblin: Spend determination", user=slash.members[1], manage_guild=False
    )
    description = clicked.embeds[0]["description"]
    assert "**Goblin wins** — more successes (1 vs 2); margin 1." in description
    assert "**The clash changes**: Mira → Goblin." in description
    assert (await fresh(bot, goblin)).state.determination == goblin.state.determination - 1
    assert (await fresh(bot, mira)).state.determination == mira.state.determination
    # Mira may not press Goblin's buttons; the next revision's ids end in :1:b.
    assert custom_id(clicked, "Mira: Spend determination") == f"roll:det:{roll_id}:1:a"
    await dpytest.empty_queue()


async def test_many_presses_on_one_side_spend_once(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], "Mira")
    await make_character(
        bot, slash.members[1], "Goblin", kind=CharacterKind.ANTAGONIST, active=False
    )
    await set_points(bot, mira, hero_points=3)
    bot.dice = ScriptedDice([1, 1, 1, 4, 5, 6])
    result = await slash.run("clash", user=slash.members[0], skill="athletics", opponent="goblin")
    bot.dice = RandomDice(random.Random(3))
    first = len(slash.responses)
    await asyncio.gather(
        *(slash.click(result, label="Mira: Hero reroll", user=slash.members[0]) for _ in range(40))
    )
    answers = slash.responses[first:]
    edits = [r for r in answers if r.kind == "callback" and r.type == 7]
    refusals = [r for r in answers if r.carries_message and r.ephemeral]
    assert len(edits) == 1 and len(refusals) == 39
    assert (await fresh(bot, mira)).state.hero_points == 2
    await dpytest.empty_queue()


async def test_side_buttons_work_after_a_restart(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    await setup_duel(slash)
    bram = await character(bot, "Bram")
    await set_points(bot, bram, hero_points=1)
    script(bot, 1, 2, 5, 1)  # a miss by 1
    result = await slash.run("attack", target="Gob", **player(slash))
    button = custom_id(result, "Bram: Hero reroll")
    second = await restarted(bot, settings, ScriptedDice([5, 4, 4, 2, 1]))
    try:
        harness = SlashHarness(second)
        clicked = await harness.click(custom_id=button, user=slash.members[1])
        assert "**The attack now hits**" in text(clicked)
        assert (await combat_state(second, "Gob")).vitals.hp == 6
        again = await harness.click(custom_id=button, user=slash.members[1])
        assert again.ephemeral and "already used" in (again.content or "")
        assert (await combat_state(second, "Gob")).vitals.hp == 6
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_help_shows_the_new_options_rulings(bot: TableBot, slash: SlashHarness) -> None:
    attack = await slash.run("help", command="attack")
    body = str(attack.embeds[0])
    assert "defender's determination only by its owner or the GM" in body
    assert "threshold: the target's choice of physique or willpower" in body
    clash = await slash.run("help", command="clash")
    assert "own Spend determination, Hero reroll and Fortune reroll buttons" in str(clash.embeds[0])
    await dpytest.empty_queue()


# --- a hero point on the damage roll ------------------------------------------------------


async def test_hero_reroll_damage_rerolls_the_low_dice_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    bram = await character(bot, "Bram")
    await set_points(bot, bram, hero_points=2)
    # A hit by 1; d12 4, d10 2, d8 (STR 3) 1: 10 → 6. All three are below their average.
    script(bot, 5, 2, 3, 1, 4, 2, 1)
    result = await slash.run("attack", target="Gob", **player(slash))
    assert "Hero reroll damage" in labels(result)
    button = custom_id(result, "Hero reroll damage")
    # Rerolled: d12 8, d10 3, d8 2: the 8 is kept, 10 → 2.
    dice = script(bot, 8, 3, 2)
    clicked = await slash.click(result, label="Hero reroll damage", **player(slash))
    body = text(clicked)
    assert dice.remaining == 0
    assert (
        "Bram spent a hero point: rerolled the damage dice below their average (d12, d10, d8);"
        " 1 left." in body
    )
    assert "HP 10 → **2**" in body
    assert (await combat_state(bot, "Gob")).vitals.hp == 2
    assert (await fresh(bot, bram)).state.hero_points == 1
    # The same button again (a double click) spends nothing and changes nothing.
    script(bot, 1, 1, 1)
    again = await slash.click(custom_id=button, **player(slash))
    refused(again)
    assert again.content == (  # one sentence, as every refusal
        "That button was already used (the damage has changed since), so nothing was spent:"
        " use the buttons on the roll's latest message."
    )
    assert (await fresh(bot, bram)).state.hero_points == 1
    assert (await combat_state(bot, "Gob")).vitals.hp == 2
    # The spend buttons of both sides are still on the edited reply.
    assert "Gob: Spend determination" in labels(clicked)
    await dpytest.empty_queue()


async def test_a_plain_damage_roll_has_no_hero_reroll(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    script(bot, 2, 3)
    result = await slash.run("damage", dice="1d8 1d6", target="Gob", **player(slash))
    assert "Hero reroll damage" not in labels(result)
    await dpytest.empty_queue()


async def test_many_presses_on_an_attack_side_undo_the_damage_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_duel(slash)
    gob_points = (await character(bot, "Gob")).state.determination
    script(bot, 5, 2, 3, 1, 4, 2, 1)  # a hit by 1: 10 → 6
    result = await slash.run("attack", target="Gob", **player(slash))
    bot.dice = ScriptedDice([6, 5] * 30)  # every press would flip it to a miss
    first = len(slash.responses)
    await asyncio.gather(
        *(slash.click(result, label="Gob: Spend determination", **gm(slash)) for _ in range(30))
    )
    answers = slash.responses[first:]
    edits = [r for r in answers if r.kind == "callback" and r.type == 7]
    refusals = [r for r in answers if r.carries_message and r.ephemeral]
    assert len(edits) == 1 and len(refusals) == 29
    assert (await character(bot, "Gob")).state.determination == gob_points - 1
    assert (await combat_state(bot, "Gob")).vitals.hp == 10
    assert await choice_count(bot) == 0
    await dpytest.empty_queue()


async def test_the_defender_spends_by_command_on_its_side_of_the_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    from tests.cogs.test_combat_helpers import arm, npc, pc

    await pc(slash, "Aria", strength=3, agility=2)  # 12 HP
    await npc(slash, "Gob", strength=2, agility=2)
    await arm(slash, gm(slash), "Gob", "Club", "1d8")
    await slash.run("fortune grant", character="Aria", source="character", **gm(slash))
    # Gob 5 1 (1) vs Aria 1 4 (1): the attacker wins ties; damage d8 4, d10 2, d6 1.
    script(bot, 5, 1, 1, 4, 4, 2, 1)
    hit = await slash.run("attack", target="Aria", character="Gob", **gm(slash))
    assert "→ **Hit** by 0" in text(hit)
    assert (await combat_state(bot, "Aria")).vitals.hp == 8
    # Aria's player rerolls her failed 1 with the fortune point: 6 → 2 vs 1, a miss.
    script(bot, 6)
    result = await slash.run("fortune spend", source="character", **player(slash))
    body = text(result)
    assert "Aria spent a fortune point (character): rerolled 1 die (#1 1→**6**)." in body
    assert "**The attack now misses**: its damage is undone (Aria is back to 12 HP)." in body
    assert (await combat_state(bot, "Aria")).vitals.hp == 12
    assert (await character(bot, "Aria")).fortune_sources == ()
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_damage_takes_the_threshold_choice(bot: TableBot, slash: SlashHarness) -> None:
    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    # 1d4 → 3: 1 → −2, a threshold test vs 3. Physique and willpower both have 2 dice
    # (the default would be physique): willpower is rolled, as chosen.
    dice = script(bot, 3, 4, 4)
    result = await slash.run(
        "damage", dice="1d4", target="Gob", threshold="willpower", **player(slash)
    )
    body = text(result)
    assert "Willpower" in body and "Physique" not in body and dice.remaining == 0
    await dpytest.empty_queue()


async def test_hero_reroll_damage_works_after_a_restart(
    bot: TableBot, slash: SlashHarness, settings: Settings
) -> None:
    await setup_duel(slash)
    await set_points(bot, await character(bot, "Bram"), hero_points=1)
    script(bot, 5, 2, 3, 1, 4, 2, 1)  # a hit by 1: 10 → 6
    result = await slash.run("attack", target="Gob", **player(slash))
    button = custom_id(result, "Hero reroll damage")
    second = await restarted(bot, settings, ScriptedDice([8, 3, 2]))
    try:
        clicked = await SlashHarness(second).click(custom_id=button, user=slash.members[1])
        assert "HP 10 → **2**" in text(clicked)
        assert (await combat_state(second, "Gob")).vitals.hp == 2
    finally:
        await second.db.close()
    await dpytest.empty_queue()


async def test_the_target_spends_on_its_threshold_test(bot: TableBot, slash: SlashHarness) -> None:
    from bot.rules.hocs.conditions import Condition

    await setup_duel(slash)
    await slash.run("hp", target="Gob", change="set 1", **gm(slash))
    # A hit by 1; d12 4, d10 2, d8 1: 1 → −3, a threshold test vs 4: physique 1 1 (0),
    # failed by 2 or more: unconscious and dying.
    script(bot, 5, 2, 3, 1, 4, 2, 1, 1, 1)
    result = await slash.run("attack", target="Gob", **player(slash))
    state = await combat_state(bot, "Gob")
    assert Condition.DYING in state.vitals.conditions
    assert "Gob (threshold): Spend determination" in labels(result)
    # The GM spends Gob's determination on the test: 6 exploding into 6, 6, 4: 4 successes.
    dice = script(bot, 6, 6, 6, 4)
    clicked = await slash.click(result, label="Gob (threshold): Spend determination", **gm(slash))
    body = text(clicked)
    assert dice.remaining == 0
    assert "Gob spent a determination point after the roll" in body
    state = await combat_state(bot, "Gob")
    assert Condition.STAGGERED in state.vitals.conditions
    assert Condition.DYING not in state.vitals.conditions
    assert Condition.UNCONSCIOUS not in state.vitals.conditions
    assert state.vitals.hp == -3
    await dpytest.empty_queue()
