"""/hero spend (reroll, determination, action), give and take."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.hocs.characters import CharacterKind
from tests.cogs.test_check import dice_field, make_character
from tests.cogs.test_roll_buttons import custom_id, fresh, labels, last_roll, set_points
from tests.support.slash import SlashHarness


async def test_reroll_chosen_dice_of_the_last_roll(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    await set_points(bot, mira, hero_points=1)
    bot.dice = ScriptedDice([1, 4, 2, 6])
    first = await slash.run("check", skill="athletics", difficulty="3")
    bot.dice = ScriptedDice([6, 1])  # the player picks dice 2 and 3 (a success too)
    result = await slash.run("hero spend", option="reroll", dice="2, 3")
    assert not result.ephemeral
    [embed] = result.embeds
    assert dice_field(embed) == "1 · ~~4~~ **6** · ~~2~~ 1 · **6**"
    assert (
        "Mira spent a hero point: rerolled 2 dice (#2 4→**6**, #3 2→1); 0 left."
        in (embed["description"])
    )
    roll = await last_roll(bot, mira)
    assert roll.message_id == result.message.message_id  # buttons now live on this reply
    assert roll.result["revision"] == 1
    # The old reply's buttons are for revision 0: refused, nothing spent.
    bot.dice = ScriptedDice([6])
    stale = await slash.click(first, label="Spend determination")
    assert stale.ephemeral and stale.content == (  # one sentence, as every refusal
        "That button was already used (the roll has changed since), so nothing was spent:"
        " use the buttons on the roll's latest message."
    )
    assert (await fresh(bot, mira)).state.determination == 3
    assert custom_id(result, "Spend determination") == f"roll:det:{roll.id}:1"
    result.assert_no_pings()
    await dpytest.empty_queue()


async def test_reroll_defaults_to_every_failure(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=2)
    bot.dice = ScriptedDice([5, 1, 3])
    await slash.run("pool", dice=3)
    bot.dice = ScriptedDice([4, 4])
    result = await slash.run("hero spend", option="reroll")
    assert dice_field(result.embeds[0]) == "**5** · ~~1~~ **4** · ~~3~~ **4**"
    assert (await fresh(bot, mira)).state.hero_points == 1
    # Nothing failed now: the default has nothing to reroll, and nothing is spent.
    bot.dice = ScriptedDice([])
    refused = await slash.run("hero spend", option="reroll")
    assert refused.ephemeral and refused.content.startswith("No die of that roll failed")
    assert (await fresh(bot, mira)).state.hero_points == 1
    await dpytest.empty_queue()


async def test_reroll_refusals_write_nothing(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    no_roll = await slash.run("hero spend", option="reroll")
    assert no_roll.ephemeral and no_roll.content == (
        "Mira has no roll to change (/pool, /check, /clash or /attack): roll first, then"
        " spend the point."
    )
    bot.dice = ScriptedDice([1, 1, 1])
    await slash.run("check", skill="strength")
    none_left = await slash.run("hero spend", option="reroll")
    assert none_left.ephemeral and none_left.content == "Mira has no hero points left."
    await set_points(bot, mira, hero_points=1)
    for bad in ("4", "0", "x", "1,1"):
        refused = await slash.run("hero spend", option="reroll", dice=bad)
        assert refused.ephemeral, bad
    assert (await fresh(bot, mira)).state.hero_points == 1
    assert (await last_roll(bot, mira)).result["revision"] == 0
    await dpytest.empty_queue()


async def test_regain_determination(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    full = await slash.run("hero spend", option="determination")
    assert full.ephemeral and full.content == (
        "Mira already has all 3 determination points: keep the hero point."
    )
    await set_points(bot, mira, determination=1)
    result = await slash.run("hero spend", option="determination")
    assert not result.ephemeral
    assert result.content == (
        "Mira spent a hero point to regain 1 determination point (2/3). Hero points left: 0."
    )
    state = (await fresh(bot, mira)).state
    assert (state.hero_points, state.determination) == (0, 2)
    await dpytest.empty_queue()


async def test_extra_action(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=2)
    result = await slash.run("hero spend", option="action")
    assert result.content == (
        "Mira spent a hero point: 1 extra action until the end of their turn. Hero points left: 1."
        "\n-# No initiative encounter runs in this channel: the table keeps track of the extra"
        " action."
    )
    assert (await fresh(bot, mira)).state.hero_points == 1
    dice = await slash.run("hero spend", option="action", dice="1")
    assert dice.ephemeral and "only goes with reroll" in dice.content
    await dpytest.empty_queue()


async def test_npcs_have_no_hero_points(bot: TableBot, slash: SlashHarness) -> None:
    await make_character(bot, slash.members[0], "Ogre", kind=CharacterKind.ANTAGONIST)
    gm = slash.members[0]
    spend = await slash.run("hero spend", option="action", user=gm)
    assert spend.ephemeral and "only for player characters" in spend.content
    give = await slash.run("hero give", user=gm, manage_guild=True, character="Ogre")
    assert give.ephemeral and "only for player characters" in give.content
    await dpytest.empty_queue()


async def test_gm_gives_and_takes(bot: TableBot, slash: SlashHarness) -> None:
    mira = await make_character(bot, slash.members[0])
    gm = slash.members[2]
    player = await slash.run("hero give", user=slash.members[0], manage_guild=False,
                             character="Mira")  # fmt: skip
    assert player.ephemeral and player.content.startswith("Only the GM can give hero points")
    given = await slash.run("hero give", user=gm, manage_guild=True, character="mira", amount=2)
    assert given.content == "The GM gave Mira 2 hero points: 2 now."
    taken = await slash.run("hero take", user=gm, manage_guild=True, character="Mira", amount=5)
    assert taken.content == "The GM took 2 hero points from Mira: 0 left."
    empty = await slash.run("hero take", user=gm, manage_guild=True, character="Mira")
    assert empty.ephemeral and empty.content == "Mira has no hero points to take."
    assert (await fresh(bot, mira)).state.hero_points == 0
    await dpytest.empty_queue()


async def test_session_of_play(bot: TableBot, slash: SlashHarness) -> None:
    """A new user's evening: session start, a roll, every spend, session end."""
    mira = await make_character(bot, slash.members[0], training={"athletics": 1})
    gm, player = slash.members[2], slash.members[0]
    await set_points(bot, mira, hero_points=3)
    await slash.run("session start", user=gm, manage_guild=True)
    assert (await fresh(bot, mira)).state.hero_points == 1
    await slash.run("fortune grant", user=gm, manage_guild=True, character="Mira",
                    source="Character")  # fmt: skip
    bot.dice = ScriptedDice([1, 2, 2, 3])
    roll = await slash.run("check", user=player, skill="athletics", difficulty="3")
    assert labels(roll) == ["Spend determination", "Hero reroll", "Fortune reroll"]
    bot.dice = ScriptedDice([6, 2])  # determination die explodes: 6 then 2
    roll = await slash.click(roll, label="Spend determination", user=player)
    bot.dice = ScriptedDice([5])  # fortune: the lowest failure (die 1)
    roll = await slash.click(roll, label="Fortune reroll", user=player)
    bot.dice = ScriptedDice([4, 4, 1])  # hero: every failure left
    roll = await slash.click(roll, label="Hero reroll", user=player)
    [embed] = roll.embeds
    assert "Success" in embed["description"]
    assert labels(roll) == []  # no points left that could change it
    state = await fresh(bot, mira)
    assert (state.state.hero_points, state.state.determination, state.fortune_sources) == (
        0, 2, (),
    )  # fmt: skip
    await slash.run("session end", user=gm, manage_guild=True)
    assert (await fresh(bot, mira)).state.hero_points == 0
    await dpytest.empty_queue()


async def test_prefix_path(bot: TableBot) -> None:
    await dpytest.message("!character create Mira 3 2 2 1")
    dpytest.get_message()
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE characters SET hero_points = 1, determination = 1")
    await dpytest.message("!hero spend determination")
    assert dpytest.get_message().content == (
        "Mira spent a hero point to regain 1 determination point (2/3). Hero points left: 0."
    )
    bot.dice = ScriptedDice([1, 2, 4])
    await dpytest.message("!check strength")
    dpytest.get_message()
    bot.dice = ScriptedDice([6])
    await dpytest.message("!respite hp")
    assert "Mira is already at full hit points" in dpytest.get_message().content
    await dpytest.empty_queue()


async def test_a_clash_side_is_rerolled_and_a_plain_roll_is_skipped(
    bot: TableBot, slash: SlashHarness
) -> None:
    mira = await make_character(bot, slash.members[0])
    await set_points(bot, mira, hero_points=1)
    # Mira STR 3: 1 2 3 (0) vs a pool of 3: 4 5 6 (3): the pool wins.
    bot.dice = ScriptedDice([1, 2, 3, 4, 5, 6])
    await slash.run("clash", skill="strength", opponent="3")
    bot.dice = ScriptedDice([1])
    await slash.run("roll", expression="1d20")  # /roll can't take points: skipped
    bot.dice = ScriptedDice([6, 6, 6])  # the three failures rerolled: 3 successes, three 6s
    result = await slash.run("hero spend", option="reroll")
    [embed] = result.embeds
    description = embed["description"]
    assert "Mira spent a hero point: rerolled 3 dice" in description
    assert "**Mira wins** — tied 3 vs 3, more 6s (3 vs 1); margin 0." in description
    assert "**The clash changes**: Opponent → Mira." in description
    assert (await fresh(bot, mira)).state.hero_points == 0
    await dpytest.empty_queue()
