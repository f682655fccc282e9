"""/init react and disengage in a 2d10 guild; combatants following their sheets' HP; /help."""

from __future__ import annotations

import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from tests.cogs.twod10.rounds_support import gm, make_sheet, make_twod10, player, stored, text
from tests.cogs.twod10.test_rounds_initiative import next_, setup_fight
from tests.support.slash import SlashHarness


async def test_a_declared_reaction_rolls_an_interrupt_and_is_the_rounds_only_reaction(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await next_(slash)
    declared = await slash.run(
        "init react", kind="declare", trigger="a goblin attacks me", **player(slash)
    )
    assert text(declared) == "Mira declares a reaction to “a goblin attacks me”."
    bot.dice = ScriptedDice([5])
    await next_(slash)  # the NPCs' turn
    # Mira (finesse 2) rolls 3, the goblin (finesse 0) rolls 6: 5 against 6, she acts after.
    bot.dice = ScriptedDice([3, 6])
    rolled = await slash.run("init react", kind="interrupt", opponent="Goblin 1", **player(slash))
    assert text(rolled) == (
        "Interrupt: Mira 1d8 [3] +2 = 5 vs Goblin 1 1d8 [6] +0 = 6:"
        " Mira reacts after Goblin 1's action."
    )
    again = await slash.run("init react", kind="interrupt", opponent="Goblin 2", **player(slash))
    assert text(again) == "Mira has already used their reaction this round."
    await next_(slash)  # end of the NPCs' turn: Mira declared, so no undeclared reaction
    late = await slash.run("init react", kind="undeclared", **player(slash))
    assert text(late) == "Mira has already used their reaction this round."
    assert bot.dice.remaining == 0
    await dpytest.empty_queue()


async def test_an_interrupt_won_on_a_tie_breaker_and_a_reach_weapons_advantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=2, polearm=True)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Wolf", finesse=3, **gm(slash))
    await slash.run("init add", name="Boar", finesse=0, **gm(slash))
    bot.dice = ScriptedDice([])
    await next_(slash)
    await slash.run("init react", kind="declare", trigger="the wolf closes in", **player(slash))
    bot.dice = ScriptedDice([6])
    await next_(slash)
    # A tie acts after: 5 + 2 = 7 against 4 + 3 = 7 would lose; the reach weapon's
    # advantage keeps the higher of two d8s: 7 + 2 = 9 beats 7.
    bot.dice = ScriptedDice([5, 7, 4])
    rolled = await slash.run(
        "init react", kind="interrupt", opponent="Wolf", reach_entry=True, **player(slash)
    )
    assert text(rolled) == (
        "Interrupt: Mira 1d8 [5/7] (reach: higher of two) +2 = 9 vs Wolf 1d8 [4] +3 = 7:"
        " Mira reacts first."
    )
    await dpytest.empty_queue()


async def test_a_tie_on_the_interrupt_roll_acts_after(bot: TableBot, slash: SlashHarness) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    await next_(slash)
    await slash.run("init react", kind="declare", trigger="goblin 2 moves", **player(slash))
    bot.dice = ScriptedDice([4])
    await next_(slash)
    bot.dice = ScriptedDice([4, 6])  # 4 + 2 = 6 against 6 + 0 = 6
    rolled = await slash.run("init react", kind="interrupt", opponent="Goblin 2", **player(slash))
    assert text(rolled).endswith(
        "= 6 vs Goblin 2 1d8 [6] +0 = 6: Mira reacts after Goblin 2's action."
    )
    refused = await slash.run(
        "init react", kind="interrupt", opponent="Mira", name="Goblin 1", **gm(slash)
    )
    assert text(refused) == "A declared reaction answers an opponent's action on their side's turn."
    await dpytest.empty_queue()


async def test_disengaging_denies_the_opportunity_attack_and_gives_initiative_advantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    await make_sheet(bot, slash.members[1], "Tom", finesse=0)
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init join", **player(slash, 1))
    await slash.run("init add", name="Goblin", count=2, **gm(slash))
    bot.dice = ScriptedDice([2])
    await next_(slash)
    turn = await slash.run("init next", **gm(slash))  # the players' turn
    disengaged = await slash.click(turn, label="Disengage", **player(slash))
    assert text(disengaged) == "Mira: attack given up to disengage."
    denied = await slash.run(
        "init react", kind="opportunity attack", name="Goblin 1", opponent="Mira", **gm(slash)
    )
    assert text(denied) == "Mira disengaged and leaves without an opening."
    taken = await slash.run(
        "init react", kind="opportunity attack", name="Goblin 1", opponent="Tom", **gm(slash)
    )
    assert text(taken) == "Goblin 1 attacks Tom as they leave (reaction)."
    for _ in range(4):
        said = await next_(slash)
    assert "Round 2: declare" in said
    # Advantage for the players on the GM's d6: two dice, the lower kept.
    bot.dice = ScriptedDice([5, 2])
    said = await next_(slash)
    assert (
        "The GM's d6: [5, 2] → 2 (NPCs 4–6, players 1–3; Players disengaged: advantage,"
        " 2 kept): the Players go first."
    ) in said
    assert bot.dice.remaining == 0
    await dpytest.empty_queue()


async def test_a_linked_sheet_at_zero_hp_puts_its_combatant_down_and_healing_brings_it_back(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await slash.run("campaign set", show_npc_hp=True, **gm(slash))  # the tracker shows NPC HP
    await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    ogre = await make_sheet(
        bot, slash.members[2], "Ogre", finesse=0, kind=TwoD10Kind.ANTAGONIST, active=False
    )
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    added = await slash.run("init add", name="ogre", **gm(slash))
    assert text(added) == "Ogre joins the NPCs."  # an antagonist's sheet: the NPCs' side
    bot.dice = ScriptedDice([2])
    await next_(slash)
    await next_(slash)
    guild_id = slash.guild.id
    cog = bot.get_cog("2d10 initiative")

    async def hp_change(delta: int) -> None:
        async with bot.db.transaction() as conn:
            await TwoD10CharacterRepository(conn).change_hp(guild_id, ogre.id, delta)
        await cog.on_characters_changed(guild_id, (ogre.id,))  # type: ignore[union-attr]
        await bot.followups.drain()  # the listener left it for after the reply

    await hp_change(-30)  # 30 HP (toughness 3) to 0
    record = await stored(bot, slash.channel.id)
    ogre_id = next(c.id for c in record.encounter.combatants if c.name == "Ogre")
    assert record.encounter.combatant(ogre_id).down
    assert record.encounter.downed_this_round == ((record.encounter.combatant(ogre_id).side, 1),)
    message = await slash.channel.fetch_message(record.tracker_message_id)
    assert "**Ogre** (finesse +0) · HP 0/30 · 💀 down" in str(message.embeds[0].fields)
    await hp_change(+5)
    record = await stored(bot, slash.channel.id)
    assert not record.encounter.combatant(ogre_id).down
    message = await slash.channel.fetch_message(record.tracker_message_id)
    assert "**Ogre** (finesse +0) · HP 5/30" in str(message.embeds[0].fields)
    # By hand: the GM puts it down; a sheet that didn't change leaves it so.
    await slash.run("init down", name="Ogre", **gm(slash))
    await slash.run("init act", action="interact", **player(slash))
    assert (await stored(bot, slash.channel.id)).encounter.combatant(ogre_id).down
    await dpytest.empty_queue()


async def test_the_tracker_hides_npc_hp_unless_the_campaign_shows_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    await make_sheet(
        bot, slash.members[2], "Ogre", finesse=0, kind=TwoD10Kind.ANTAGONIST, active=False
    )
    await slash.run("init begin", **gm(slash))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="ogre", **gm(slash))
    record = await stored(bot, slash.channel.id)
    message = await slash.channel.fetch_message(record.tracker_message_id)
    fields = str(message.embeds[0].fields)
    # The public tracker follows /character show: a PC's HP, never a hidden NPC's.
    assert "**Mira** (finesse +2) · HP " in fields
    assert "**Ogre** (finesse +0)" in fields and "HP 30/30" not in fields
    await slash.run("campaign set", show_npc_hp=True, **gm(slash))
    shown = await slash.run("init list", **gm(slash))
    assert "HP 30/30" in str(shown.embeds)
    await dpytest.empty_queue()


async def test_help_shows_the_trackers_rulings(bot: TableBot, slash: SlashHarness) -> None:
    await make_twod10(slash)
    shown = await slash.run("help", command="init next")
    body = str(shown.embeds)
    assert "Momentum: " in body and "Disengage: " in body and "Surprise: " in body
    shown = await slash.run("help", command="init react")
    assert "Reactions: " in str(shown.embeds)
    await dpytest.empty_queue()
