"""/init in a 2d10 guild: the surprise round, the GM's d6, momentum, turns and the tracker."""

from __future__ import annotations

import discord
import discord.ext.test as dpytest

from bot.client import TableBot
from bot.rules.dice_source import ScriptedDice
from bot.rules.twod10.initiative.model import Action, Phase, Side
from tests.cogs.twod10.rounds_support import (
    gm,
    make_sheet,
    make_twod10,
    player,
    stored,
    text,
)
from tests.support.slash import SlashHarness


async def setup_fight(
    bot: TableBot, slash: SlashHarness, *, goblins: int = 2, surprised: str | None = None
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    await slash.run("init begin", **gm(slash), **({"surprised": surprised} if surprised else {}))
    await slash.run("init join", **player(slash))
    await slash.run("init add", name="Goblin", count=goblins, **gm(slash))


async def next_(slash: SlashHarness) -> str:
    return text(await slash.run("init next", **gm(slash)))


async def test_the_gms_d6_picks_the_first_side_and_is_rolled_again_every_round(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([])
    assert "Round 1: declare spells and declared reactions" in await next_(slash)
    bot.dice = ScriptedDice([4])  # the lowest face the NPCs win with
    said = await next_(slash)
    assert "The GM's d6: [4] → 4 (NPCs 4–6, players 1–3): the NPCs go first." in said
    assert "The NPCs' turn: Goblin 1 and Goblin 2 may each move" in said
    assert "<@" not in said  # nobody is pinged for the NPCs' turn
    record = await stored(bot, slash.channel.id)
    assert (record.encounter.phase, record.encounter.acting) == (Phase.TURN, Side.NPCS)
    said = await next_(slash)
    assert "End of the NPCs' turn: undeclared reactions for Mira" in said
    said = await next_(slash)
    assert said.startswith(f"<@{slash.members[0].id}>\n▶️ The Players' turn: Mira")
    assert "End of the Players' turn: undeclared reactions for Goblin 1 and Goblin 2" in (
        await next_(slash)
    )
    said = await next_(slash)
    assert "Round 1 ends." in said and "Round 2: declare spells" in said
    bot.dice = ScriptedDice([3])  # the highest face the players win with
    assert "[3] → 3 (NPCs 4–6, players 1–3): the Players go first." in await next_(slash)
    assert bot.dice.remaining == 0
    await dpytest.empty_queue()


async def test_the_tracker_is_pinned_and_shows_the_stored_state(
    bot: TableBot, slash: SlashHarness
) -> None:
    role = slash.make_role("Bot", permissions=discord.Permissions(manage_messages=True))
    await dpytest.add_role(slash.guild.me, role)
    pinned: list[int] = []
    original = bot.http.pin_message

    async def pin_message(channel_id: int, message_id: int, reason: str | None = None) -> None:
        pinned.append(message_id)
        await original(channel_id, message_id, reason=reason)

    bot.http.pin_message = pin_message  # type: ignore[method-assign]
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([1])
    await next_(slash)
    await next_(slash)
    await slash.run("init act", action="movement", feet=10, **player(slash))
    record = await stored(bot, slash.channel.id)
    assert record.tracker_message_id is not None and pinned == [record.tracker_message_id]
    message = await slash.channel.fetch_message(record.tracker_message_id)
    service = bot.get_cog("2d10 initiative").service  # type: ignore[union-attr]
    loaded = await service.load(slash.channel.id)
    assert loaded is not None
    shown = message.embeds[0].to_dict()
    assert shown == loaded[1].to_dict()  # the embed built from the stored state
    assert shown["title"] == "2d10 encounter · round 1"
    assert shown["description"] == "The Players' turn."
    values = [f["value"] for f in shown["fields"]]
    # Mira: toughness 1, so 1 x 5 + 15 = 20 HP, read from her sheet.
    assert "**Mira** (finesse +2) · HP 20/20 · 🏃 10/30 ft" in values
    assert "**Goblin 1** (finesse +0)\n**Goblin 2** (finesse +0)" in values
    await dpytest.empty_queue()


async def test_a_surprise_round_gives_the_attackers_one_turn_and_the_unaware_no_reaction(
    bot: TableBot, slash: SlashHarness
) -> None:
    await make_twod10(slash)
    await make_sheet(bot, slash.members[0], "Mira", finesse=2)
    await make_sheet(bot, slash.members[1], "Tom", finesse=0)
    await slash.run("init begin", surprised="players", **gm(slash))
    await slash.run("init join", unaware=True, **player(slash))
    await slash.run("init join", **player(slash, 1))
    await slash.run("init add", name="Ogre", finesse=1, **gm(slash))
    bot.dice = ScriptedDice([])  # nothing is rolled for the surprise round
    said = await next_(slash)
    assert "Surprise round: only the NPCs act; Mira can't react at its end." in said
    assert "The NPCs' turn: Ogre" in said
    refused = await slash.run("init act", action="attack", **player(slash, 1))
    assert refused.ephemeral and text(refused) == "It isn't Tom's side's turn; wait for it."
    ended = await slash.run("init next", **gm(slash))
    assert "End of the NPCs' turn: undeclared reactions for Tom;" in text(ended)
    refused = await slash.run("init react", kind="undeclared", **player(slash))
    assert text(refused) == "Mira was unaware of the enemy and can't react this round."
    reacted = await slash.click(ended, label="Undeclared reaction", **player(slash, 1))
    assert reacted.ephemeral and text(reacted) == "Tom uses their undeclared reaction."
    again = await slash.click(ended, label="Undeclared reaction", **player(slash, 1))
    assert text(again) == "Tom has already used their reaction this round."
    # No players' turn in the surprise round: round 1 starts, and its d6 is rolled.
    assert "Round 0 ends." in (said := await next_(slash)) and "Round 1: declare" in said
    bot.dice = ScriptedDice([6])
    assert "the NPCs go first" in await next_(slash)
    record = await stored(bot, slash.channel.id)
    assert all(c.aware for c in record.encounter.combatants)  # everyone is aware now
    await dpytest.empty_queue()


async def test_losing_more_than_half_a_side_in_a_round_narrows_its_range(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash, goblins=4)
    bot.dice = ScriptedDice([2])
    await next_(slash)
    await next_(slash)  # the players' turn
    for n in (1, 2, 3):
        said = text(await slash.run("init down", name=f"goblin {n}", **gm(slash)))
        assert f"Goblin {n} is down ({n} of the 4 NPCs standing at the round's start)." in said
    for _ in range(4):  # end of their turn, the NPCs' turn, its end, the round's end
        said = await next_(slash)
    assert "NPCs lost over half their side: their range narrows by one next roll." in said
    bot.dice = ScriptedDice([4])
    said = await next_(slash)
    assert "[4] → 4 (NPCs 5–6, players 1–4; momentum lost by NPCs): the Players go first." in said
    # The narrowing lasts for that one roll: round 3 is back to 4–6.
    for _ in range(4):
        said = await next_(slash)
    assert "lost" not in said
    bot.dice = ScriptedDice([4])
    assert "[4] → 4 (NPCs 4–6, players 1–3): the NPCs go first." in await next_(slash)
    await dpytest.empty_queue()


async def test_exactly_half_a_side_down_keeps_its_momentum(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash, goblins=4)
    bot.dice = ScriptedDice([2])
    await next_(slash)
    await next_(slash)
    for n in (1, 2):
        await slash.run("init down", name=f"Goblin {n}", **gm(slash))
    for _ in range(4):
        said = await next_(slash)
    assert "Round 1 ends." in said and "lost" not in said
    bot.dice = ScriptedDice([4])
    assert "[4] → 4 (NPCs 4–6, players 1–3): the NPCs go first." in await next_(slash)
    await dpytest.empty_queue()


async def test_turn_buttons_mark_the_pressers_combatant_once(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([1])
    await next_(slash)
    turn = await slash.run("init next", **gm(slash))
    ids = turn.custom_ids
    assert all(len(i) <= 100 for i in ids) and "d10init:act:1:1:players:attack" in ids
    marked = await slash.click(turn, label="Attack", **player(slash))
    assert marked.ephemeral and text(marked) == "Mira: attack."
    twice = await slash.click(turn, label="Attack", **player(slash))
    assert text(twice) == "Mira has already used their attack this turn."
    stranger = await slash.click(turn, label="Movement", **player(slash, 1))
    assert text(stranger) == ("You have no combatant standing here for that: name one with `name`.")
    gm_press = await slash.click(turn, label="Interact", **gm(slash))
    assert text(gm_press) == "None of your combatants is on the side that can do that now."
    record = await stored(bot, slash.channel.id)
    assert record.encounter.state(1).actions == frozenset({Action.ATTACK})
    # The old turn's buttons are refused once the turn is over.
    for _ in range(4):
        await next_(slash)
    stale = await slash.click(turn, label="Movement", **player(slash))
    assert text(stale) == "That turn is over: use the buttons on the current turn's message."
    await dpytest.empty_queue()


async def test_movement_dash_and_the_action_economy(bot: TableBot, slash: SlashHarness) -> None:
    await setup_fight(bot, slash)
    bot.dice = ScriptedDice([1])
    await next_(slash)
    await next_(slash)
    said = await slash.run("init act", action="movement", feet=20, **player(slash))
    assert text(said) == "Mira moves 20 ft (10 ft left)."
    refused = await slash.run("init act", action="movement", feet=15, **player(slash))
    assert text(refused) == "Mira has 10 feet of movement left this turn."
    dashed = await slash.run("init act", action="dash", **player(slash))
    assert text(dashed) == "Mira: attack given up to dash."
    assert text(await slash.run("init act", action="movement", feet=40, **player(slash))) == (
        "Mira moves 40 ft (0 ft left)."
    )
    refused = await slash.run("init act", action="attack", **player(slash))
    assert text(refused) == "Mira has already used their attack this turn."
    refused = await slash.run("init act", action="parry", **player(slash))
    assert "Give `parry`" in text(refused)
    await dpytest.empty_queue()


async def test_only_the_gm_runs_the_round_and_players_act_only_for_their_own(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    refused = await slash.run("init next", **player(slash))
    assert refused.ephemeral and text(refused).startswith("Only the GM can move the encounter on:")
    refused = await slash.run("init add", name="Wolf", **player(slash))
    assert text(refused).startswith("Only the GM can add combatants:")
    bot.dice = ScriptedDice([5])
    await next_(slash)
    await next_(slash)
    refused = await slash.run("init act", action="attack", name="Goblin 1", **player(slash))
    assert text(refused) == "Goblin 1 isn't yours: only its player or the GM acts for it."
    several = await slash.run("init act", action="attack", **gm(slash))
    assert text(several) == "You play several combatants here: say which one with `name`."
    done = await slash.run("init act", action="attack", name="goblin 2", **gm(slash))
    assert text(done) == "Goblin 2: attack."
    unknown = await slash.run("init act", action="attack", name="Troll", **gm(slash))
    assert text(unknown) == "No combatant called Troll here: /init list shows who is in it."
    twice = await slash.run("init join", **player(slash))
    assert text(twice) == "Mira is already in this encounter."
    nobody = await slash.run("init join", **player(slash, 1))
    assert "You have no active 2d10 character" in text(nobody)
    await dpytest.empty_queue()


async def test_end_closes_the_encounter_and_the_channel_can_begin_again(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    twice = await slash.run("init begin", **gm(slash))
    assert "already running" in text(twice)
    ended = await slash.run("init end", **gm(slash))
    assert ended.embeds[0]["title"] == "2d10 encounter over"
    missing = await slash.run("init next", **gm(slash))
    assert text(missing) == (
        "No 2d10 encounter is running in this channel: the GM starts one with /init begin."
    )
    assert "Combat begins" in text(await slash.run("init begin", **gm(slash)))
    await dpytest.empty_queue()


async def test_the_ruleset_cant_be_switched_while_a_2d10_encounter_runs(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    refused = await slash.run("campaign set", ruleset="hocs", **gm(slash))
    assert refused.ephemeral and "An encounter is running in" in text(refused)
    await slash.run("init end", **gm(slash))
    switched = await slash.run("campaign set", ruleset="hocs", **gm(slash))
    assert "An encounter is running" not in text(switched)
    await dpytest.empty_queue()


async def test_a_spell_declared_at_the_rounds_start_is_cast_on_the_turn_instead_of_the_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    await setup_fight(bot, slash)
    early = await slash.run("init act", action="declare spell", **player(slash))
    assert text(early) == "Spells are declared at the start of the round, before initiative."
    await next_(slash)
    declared = await slash.run("init act", action="declare spell", **player(slash))
    assert text(declared) == "Mira declares a spell."
    bot.dice = ScriptedDice([1])
    said = await next_(slash)
    assert "The Players' turn: Mira may move" in said and "Spells cast now: Mira." in said
    refused = await slash.run("init act", action="attack", **player(slash))
    assert text(refused) == "Mira has already used their attack this turn."
    await dpytest.empty_queue()
