"""/odds task, /odds attack and /task odds:True in a 2d10 guild: exact figures counted by
hand, the chart attached, nothing rolled, refusals in one sentence."""

from __future__ import annotations

from fractions import Fraction

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.render.twod10.odds import two_places
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Kind
from tests.cogs.twod10.combat_helpers import gm, make, player, script, store, twod10
from tests.cogs.twod10.helpers import refused, text
from tests.support.slash import SlashHarness

# 2d10 + 2 + 2 − 5 = natural − 1: naturals 2…20 come 1, 2, …, 10, …, 1 times in 100.
HAND_ROWS = [
    "Natural 2 (always fails): 1.00%",
    "Failure with extreme complication: 14.00%",
    "Failure: 30.00%",
    "Success with complication: 40.00%",
    "Success with no complication: 15.00%",
    "Success with an additional bonus: 0.00%",
    "Ridiculously good success: an additional action: 0.00%",
]


@pytest.fixture(autouse=True)
async def table(bot: TableBot, slash: SlashHarness) -> None:
    await twod10(slash)
    # Brann swings a concealable blunt (1d4) with nothing added; Wall's finesse defense is
    # 5 + 5 = 10 and Tin's 0 with armor; Tin carries a shield.
    await store(bot, make("Brann", strength=0, weapons=("Concealable blunt",)),
                slash.members[1].id)  # fmt: skip
    await store(bot, make("Wall", finesse=5, finesse_defense=5), slash.members[2].id)
    await store(bot, make("Ogre", strength=2, melee=2), slash.members[0].id, TwoD10Kind.ANTAGONIST)


async def test_odds_task_with_raw_numbers_counts_every_band(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot)  # nothing may be rolled
    result = await slash.run("odds task", score=2, rank=2, difficulty="difficult", **player(slash))
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    assert "Success: **55.00%**" in embed["description"]
    assert "2d10 -1 against difficulty Difficult (-5)" in embed["description"]
    assert embed["fields"][0]["value"].splitlines() == HAND_ROWS
    assert embed["fields"][1]["value"] == "1.00%"  # natural 20
    assert embed["fields"][2]["value"] == "10.00"  # expected total 11 − 1
    assert embed["image"]["url"] == "attachment://odds.png"
    assert result.message.files == ["odds.png"]
    result.assert_no_pings()
    async with bot.db.read() as conn:
        assert await RollLogRepository(conn).recent(bot.guilds[0].id, limit=5) == []
    await dpytest.empty_queue()


async def test_odds_task_against_a_target_with_advantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    # The Ogre (strength 2 + melee 2) against Wall's defense 10 with advantage: a success
    # needs a natural of 16+ on 3d10 keep the highest two (2 + 2 − 10 = −6).
    import icepool

    result = await slash.run(
        "odds task", attribute="strength", skill="melee", target="Wall", advantage=1,
        character="Ogre", **gm(slash),
    )  # fmt: skip
    [embed] = result.embeds
    best = icepool.d10.highest(3, 2)
    success = Fraction(best.probability(">=", 16))
    from bot.render.text import percent

    assert f"Success: **{percent(success)}**" in embed["description"]
    assert (
        "3d10, lowest dropped (advantage) -6 against Wall's finesse defense 10"
        in (embed["description"])
    )
    await dpytest.empty_queue()


async def test_task_odds_option_shows_the_chance_above_the_dice(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 6, 5)
    result = await slash.run(
        "task", score=2, rank=2, difficulty="difficult", odds=True, **player(slash)
    )
    assert result.content == "-# Odds before the roll: success 55.00% · natural 2 1.00%"
    assert "**10** = 11" in text(result)  # the roll itself still happens
    await dpytest.empty_queue()


async def test_odds_attack_by_hand(bot: TableBot, slash: SlashHarness) -> None:
    # Brann's 1d4 against defense 10 hits only on a natural 20: 1d4 + 2 dice = 3d4.
    script(bot)
    result = await slash.run("odds attack", target="Wall", **player(slash))
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    assert embed["title"] == "Odds: Brann attacks with Concealable blunt"
    assert "Hit: **1.00%**" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    damage = fields["Damage"].splitlines()
    # 3d4: 3 and 12 come once in 64; 1/6400 = 0.015625% rounds to 0.02%.
    assert damage[0] == "0: 99.00%"
    assert damage[1] == "3: 0.02%" and damage[-1] == "12: 0.02%"
    assert damage[5] == "7: 0.19%"  # 12 / 6400
    summary = fields["Damage to the target"].splitlines()
    assert summary[0] == "Expected: 0.08"  # 7.5 / 100 = 0.075 exactly, rounded half up
    assert summary[1] == "Any damage: 1.00%"
    assert summary[2].startswith(f"{(await _hp(bot, 'Wall'))}+ (to 0 HP or below): ")
    assert result.message.files == ["odds.png"]
    await dpytest.empty_queue()


async def _hp(bot: TableBot, name: str) -> int:
    from tests.cogs.twod10.helpers import stored

    return (await stored(bot, name)).hp


async def test_odds_attack_with_raw_numbers_and_a_block(bot: TableBot, slash: SlashHarness) -> None:
    # Unarmed (brawl 0: 1 point) against defense 9 hits on naturals 19 and 20 for 1 and 3;
    # a block halves them, reduction 5 takes the rest, and a hit still deals 1.
    result = await slash.run(
        "odds attack", weapon="Unarmed", target_defense=9, reduction=5, armored=True,
        block=True, **player(slash),
    )  # fmt: skip
    [embed] = result.embeds
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Damage"] == "0: 97.00%\n1: 3.00%"
    assert "Against finesse defense 9" in embed["description"]
    await dpytest.empty_queue()


async def test_odds_attack_into_melee_shows_the_stray(bot: TableBot, slash: SlashHarness) -> None:
    result = await slash.run(
        "odds attack", target="Wall", situation="into melee", melee_others=2, **player(slash)
    )
    # A concealable blunt is a melee weapon: firing into melee is a ranged matter only.
    assert "Strays" not in result.embeds[0]["description"]
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, "Name a target, or give target_defense"),
        ({"target": "Wall", "target_defense": 3}, "Name a target, or give target_defense"),
        ({"target": "Wall", "reduction": 2}, "reduction and armored go with target_defense"),
        ({"target_defense": 3, "parry": "melee"}, "parry needs a target's sheet"),
        ({"target": "Wall", "melee_others": 2}, "add into melee"),
        ({"target": "Wall", "block": True}, "Wall has no shield to block with."),
        ({"target": "Nobody"}, "Nobody"),
        ({"target": "Wall", "weapon": "Longbow"}, "carries Concealable blunt"),
        ({"target": "Wall", "maneuver": "trip", "defense": "mind"}, "Trip targets"),
        ({"target": "Brann"}, "can't attack itself"),
    ],
)
async def test_odds_attack_refusals(
    bot: TableBot, slash: SlashHarness, options: dict[str, object], words: str
) -> None:
    result = await slash.run("odds attack", **options, **player(slash))
    refused(result, words)
    await dpytest.empty_queue()


async def test_odds_task_refusals(bot: TableBot, slash: SlashHarness) -> None:
    refused(
        await slash.run("odds task", attribute="mind", difficulty="-30", **player(slash)),
        "Difficulty goes from +5 (very easy) to -25 (legendary)",
    )
    refused(await slash.run("odds task", rank=2, **player(slash)), "rank goes with score")
    refused(await slash.run("odds task", **player(slash)), "Name the attribute to roll with")
    refused(
        await slash.run("odds task", attribute="mind", target="Nobody", **player(slash)),
        "There is no character called Nobody here",
    )
    await dpytest.empty_queue()


async def test_npc_hp_line_hidden_from_players(bot: TableBot, slash: SlashHarness) -> None:
    # The Ogre is the GM's antagonist and the campaign hides NPC HP from players.
    result = await slash.run("odds attack", target="Ogre", **player(slash))
    fields = {f["name"]: f["value"] for f in result.embeds[0]["fields"]}
    assert "to 0 HP" not in fields["Damage to the target"]
    gm_view = await slash.run("odds attack", target="Ogre", character="Brann", **gm(slash))
    fields = {f["name"]: f["value"] for f in gm_view.embeds[0]["fields"]}
    assert "to 0 HP or below" in fields["Damage to the target"]
    await dpytest.empty_queue()


def test_two_places_rounds_half_away_from_zero() -> None:
    assert two_places(Fraction(3, 40)) == "0.08"
    assert two_places(Fraction(-3, 40)) == "-0.08"
    assert two_places(Fraction(1, 1000)) == "0.00"
    assert two_places(Fraction(10)) == "10.00"


async def test_attack_odds_option_shows_the_chance_above_the_dice(
    bot: TableBot, slash: SlashHarness
) -> None:
    script(bot, 1, 1)  # a natural 2: no damage dice
    result = await slash.run("attack", target="Wall", odds=True, **player(slash))
    assert not result.ephemeral, result.content
    assert result.content == "-# Odds before the roll: hit 1.00% · expected damage 0.08"
    assert result.embeds
    await dpytest.empty_queue()


async def test_help_shows_the_odds_rulings(bot: TableBot, slash: SlashHarness) -> None:
    attack = text(await slash.run("help", command="odds attack", **player(slash)))
    assert "a missed shot into melee that strays into someone else" in attack
    assert "doesn't read a parry waiting on the tracker" in attack
    task = text(await slash.run("help", command="odds task", **player(slash)))
    assert "natural 2 on its own row" in task
    await dpytest.empty_queue()


async def test_odds_party_lists_living_player_characters_best_first(
    bot: TableBot, slash: SlashHarness
) -> None:
    # Finesse 5 succeeds on naturals 5+ (94 in 100), finesse 0 on 10+ (64); the Ogre is an
    # antagonist and not listed.
    result = await slash.run("odds party", attribute="finesse", **gm(slash))
    assert not result.ephemeral, result.content
    [embed] = result.embeds
    assert embed["title"] == "Odds for the party: Finesse"
    assert embed["description"].splitlines() == [
        "Success against difficulty Normal (+0)",
        "**Wall**: 94.00% (+5)",
        "**Brann**: 64.00% (+0)",
    ]
    refused(await slash.run("odds party", attribute="finesse", **player(slash)), "Only the GM")
    await dpytest.empty_queue()
