"""/attack and /odds attack into soft cover: the look is rolled first, shown, logged and
counted in the odds (ruling soft-cover-look)."""

from __future__ import annotations

from fractions import Fraction

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.render.text import percent
from bot.render.twod10.odds import attack_preview_line
from bot.rules.twod10.attack_inputs import AttackerStats, Situation, TargetStats
from bot.rules.twod10.attributes import Attribute, Attributes
from bot.rules.twod10.character import Character
from bot.rules.twod10.equipment import weapon
from bot.rules.twod10.odds_attack import attack_odds, look_odds
from bot.rules.twod10.ranged import Light
from bot.rules.twod10.skills import Skill, SkillKey, defense
from bot.rules.twod10.soft_cover import LookStats
from bot.rules.twod10.wielding import wield
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Kind
from tests.cogs.twod10.combat_helpers import gm, player, refused, script, sheet, store, twod10
from tests.cogs.twod10.combat_helpers import text as description
from tests.support.slash import SlashHarness

SHORTBOW = wield(weapon("Shortbow"))
# Scout: finesse 2 + ranged 2 to hit; mind 2 + perception 2 = 4 to look.
SCOUT_STATS = AttackerStats(finesse=2, strength=0, ranged=2)
# Sneak: finesse 1 + Defense (finesse) 1 = defense 2; finesse 1 + stealth 2 = 3 to hide.
SNEAK = TargetStats(attribute=Attribute.FINESSE, defense=2)
LOOK = LookStats(sight=4, hiding=3)  # the look adds 2d10 + 1


def _character(name: str, attributes: Attributes, ranks: dict[SkillKey, int], **kw) -> Character:  # type: ignore[no-untyped-def]
    skills = tuple(sorted(ranks.items(), key=lambda kv: kv[0].label))
    return Character(name=name, background="Hunter", attributes=attributes, skills=skills,
                     feats=("Keen", "Quiet"), **kw)  # fmt: skip


async def _table(bot: TableBot, slash: SlashHarness) -> None:
    await twod10(slash)
    scout = _character(
        "Scout", Attributes(finesse=2, mind=2),
        {SkillKey(skill=Skill.RANGED): 2, SkillKey(skill=Skill.PERCEPTION): 2},
        weapons=(weapon("Shortbow"),),
    )  # fmt: skip
    sneak = _character(
        "Sneak", Attributes(finesse=1),
        {SkillKey(skill=Skill.STEALTH): 2, defense(Attribute.FINESSE): 1},
    )  # fmt: skip
    await store(bot, scout, slash.members[1].id)
    await store(bot, sneak, slash.members[0].id, TwoD10Kind.ANTAGONIST)


async def test_a_look_of_ten_removes_a_point_before_the_attack(
    bot: TableBot, slash: SlashHarness
) -> None:
    await _table(bot, slash)
    # The look: 5 + 4 + 4 − 3 = 10, a point of soft cover 2 removed. The attack:
    # 5 + 5 + 2 + 2 − 2 − 1 (the cover left) = 11, the shortbow's d6 shows 4.
    scripted = script(bot, 5, 4, 5, 5, 4)
    body = description(await slash.run("attack", target="Sneak", situation="soft cover 2",
                                       **player(slash)))  # fmt: skip
    assert body.splitlines()[0] == (
        "Look through soft cover 2: 2d10 [5, 4] natural 9 + 4 mind + perception"
        " − 3 target's finesse + stealth = **10** → sees through 1 point: soft cover 1 left."
    )
    assert "natural 10 + 2 finesse + 2 ranged − 2 finesse defense − 1 soft cover = **11**" in body
    assert "Disadvantage" not in body and "**4 damage**" in body
    assert scripted.requests == [10, 10, 10, 10, 6]
    assert (await sheet(bot, "Sneak")).hp == 11
    await dpytest.empty_queue()


async def test_a_look_of_fifteen_removes_two_points(bot: TableBot, slash: SlashHarness) -> None:
    await _table(bot, slash)
    # 7 + 7 + 1 = 15: both points gone. 4 + 4 + 2 = 10 hits unhindered; d6 shows 3.
    scripted = script(bot, 7, 7, 4, 4, 3)
    body = description(await slash.run("attack", target="Sneak", situation="soft cover 2",
                                       **player(slash)))  # fmt: skip
    assert "= **15** → sees through 2 points: no soft cover left." in body
    assert "soft cover =" not in body and "natural 8 + 2 finesse + 2 ranged" in body
    assert "= **10**" in body and "**3 damage**" in body
    assert scripted.requests == [10, 10, 10, 10, 6]
    await dpytest.empty_queue()


async def test_a_look_below_ten_keeps_the_cover_and_gives_disadvantage(
    bot: TableBot, slash: SlashHarness
) -> None:
    await _table(bot, slash)
    # 2 + 3 + 1 = 6: nothing removed. The attack's 3d10 drops the 9: 8 + 6 + 4 − 2 − 2 = 14,
    # the d6 two categories up: a d10 shows 5.
    scripted = script(bot, 2, 3, 8, 9, 6, 5)
    body = description(await slash.run("attack", target="Sneak", situation="soft cover 2",
                                       **player(slash)))  # fmt: skip
    assert "= **6** → below 10: soft cover 2 stays, and the attack has disadvantage." in body
    assert "Disadvantage: unseen behind soft cover." in body
    assert "2d10 (disadvantage) [8, ~~9~~, 6] natural 14" in body and "= **14**" in body
    assert scripted.requests == [10, 10, 10, 10, 10, 10]
    assert (await sheet(bot, "Sneak")).hp == 10
    await dpytest.empty_queue()


async def test_unseen_rolls_no_look_and_low_light_hinders_it(
    bot: TableBot, slash: SlashHarness
) -> None:
    await _table(bot, slash)
    scripted = script(bot, 8, 9, 6, 5)  # the attack's 3d10 at once: 14, a d10
    body = description(await slash.run("attack", target="Sneak", situation="soft cover 2, unseen",
                                       **player(slash)))  # fmt: skip
    assert "Look through" not in body and "Disadvantage: unseen behind soft cover." in body
    assert scripted.requests == [10, 10, 10, 10]
    # Low light: the look is a perception roll at disadvantage (9 and 2 kept: 11 + 1 = 12,
    # the one point gone), and the shot has its own disadvantage for the light.
    scripted = script(bot, 9, 9, 2, 5, 9, 5, 2)
    result = await slash.run("attack", target="Sneak", situation="soft cover 1, low light",
                             **player(slash))  # fmt: skip
    body = description(result)
    assert body.startswith(
        "Look through soft cover 1, low light: 2d10 (disadvantage) [9, ~~9~~, 2] natural 11"
    )
    assert "→ sees through 1 point: no soft cover left." in body
    assert "Disadvantage: low light." in body
    # The shot: 5 + 5 (the 9 dropped) + 2 + 2 − 2 = 12, the d6 one category up: a d8.
    assert "= **12**" in body
    assert scripted.requests == [10, 10, 10, 10, 10, 10, 8]
    await dpytest.empty_queue()


async def test_the_targets_encumbrance_helps_the_look(bot: TableBot, slash: SlashHarness) -> None:
    await _table(bot, slash)
    # 8 worn (toughness 0 ignores the first EP): 1 EP, off Sneak's finesse + stealth and
    # off its finesse defense (2 → 1).
    said = await slash.run("inventory add", item="Plate", weight="2", worn=True, count=4,
                           character="Sneak", **gm(slash))  # fmt: skip
    assert not said.ephemeral, said.content
    script(bot, 4, 4, 5, 5, 4)
    body = description(await slash.run("attack", target="Sneak", situation="soft cover 2",
                                       **player(slash)))  # fmt: skip
    assert (
        "[4, 4] natural 8 + 4 mind + perception − 3 target's finesse + stealth"
        " + 1 target's encumbrance = **10**"
    ) in body
    assert "− 1 finesse defense − 1 soft cover = **12**" in body
    await dpytest.empty_queue()


async def test_the_look_is_in_the_roll_log(bot: TableBot, slash: SlashHarness) -> None:
    await _table(bot, slash)
    script(bot, 5, 4, 5, 5, 4)
    await slash.run("attack", target="Sneak", situation="soft cover 2", **player(slash))
    script(bot, 5, 5, 4)
    await slash.run("attack", target="Sneak", **player(slash))
    async with bot.db.read() as conn:
        plain, looked = await RollLogRepository(conn).recent(bot.guilds[0].id)
    assert looked.result["look"] == {
        "faces": [5, 4], "dropped": None,
        "modifiers": [["mind + perception", 4], ["target's finesse + stealth", -3]],
        "total": 10, "cover": 2, "removed": 1, "left": 1, "disadvantage": False,
    }  # fmt: skip
    # The attack's own keys are as before: its dice, not the look's.
    assert looked.result["faces"] == [5, 5] and looked.result["total"] == 11
    assert ["soft cover", -1] in looked.result["modifiers"]
    assert plain.result["look"] is None and plain.result["faces"] == [5, 5]
    await dpytest.empty_queue()


async def test_the_odds_line_counts_the_look(bot: TableBot, slash: SlashHarness) -> None:
    await _table(bot, slash)
    expected = attack_odds(SHORTBOW, SCOUT_STATS, SNEAK, situation=Situation(soft_cover=2),
                           look=LOOK)  # fmt: skip
    flat = attack_odds(SHORTBOW, SCOUT_STATS, SNEAK, situation=Situation(soft_cover=2))
    assert expected.hit != flat.hit
    script(bot, 5, 4, 5, 5, 4)
    result = await slash.run("attack", target="Sneak", situation="soft cover 2", odds=True,
                             **player(slash))  # fmt: skip
    assert result.content == attack_preview_line(expected)
    assert f"the look sees through the soft cover {percent(expected.look.seen)}" in (  # type: ignore[union-attr]
        result.content or ""
    )
    await dpytest.empty_queue()


async def test_odds_attack_mixes_the_look_from_sheets_or_raw_numbers(
    bot: TableBot, slash: SlashHarness
) -> None:
    await _table(bot, slash)
    expected = attack_odds(SHORTBOW, SCOUT_STATS, SNEAK, situation=Situation(soft_cover=2),
                           look=LOOK)  # fmt: skip
    seen = look_odds(2, LOOK, Light.NORMAL)
    script(bot)  # nothing may be rolled
    sheets = await slash.run("odds attack", target="Sneak", situation="soft cover 2",
                             **player(slash))  # fmt: skip
    [embed] = sheets.embeds
    lines = embed["description"].splitlines()
    assert lines[0] == (
        "Look through soft cover 2 first: 2d10 +4 mind + perception -3 target's finesse + stealth"
    )
    # 2d10 + 1: 10 needs a natural 9 (72 of 100), 15 a natural 14 (28 of 100).
    assert [p for p, _ in seen.outcomes] == [Fraction(n, 100) for n in (28, 44, 28)]
    assert lines[1] == (
        "Sees through: 72.00%; soft cover 0 left 28.00% · 1 left 44.00% · 2 left,"
        " disadvantage 28.00%"
    )
    assert lines[2] == "2d10 +2 finesse +2 ranged -2 finesse defense - the soft cover left"
    assert f"Hit: **{percent(expected.hit)}**" in embed["description"]
    # The same numbers given raw (score finesse 2, rank ranged 2; mind + perception 4,
    # finesse + stealth 3) give the same figures.
    raw = await slash.run(
        "odds attack", weapon="Shortbow", score=2, rank=2, perception_score=4, target_defense=2,
        target_stealth=3, situation="soft cover 2", **player(slash),
    )  # fmt: skip
    [other] = raw.embeds
    assert other["description"].splitlines()[:2] == lines[:2]
    assert f"Hit: **{percent(expected.hit)}**" in other["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert {f["name"]: f["value"] for f in other["fields"]}["To-hit table"] == fields[
        "To-hit table"
    ]
    assert {f["name"]: f["value"] for f in other["fields"]}["Damage"] == fields["Damage"]
    await dpytest.empty_queue()


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"weapon": "Shortbow", "score": 2, "target_defense": 2, "target_stealth": 3},
         "give perception_score (the attacker's mind + perception)"),
        ({"weapon": "Shortbow", "score": 2, "target_defense": 2, "perception_score": 4},
         "give target_stealth (the target's finesse + stealth)"),
        ({"target": "Sneak", "target_stealth": 3}, "target_stealth goes with target_defense"),
        ({"target": "Sneak", "perception_score": 3}, "perception_score goes with score"),
    ],
)  # fmt: skip
async def test_odds_attack_refuses_a_look_without_its_numbers(
    bot: TableBot, slash: SlashHarness, options: dict[str, object], words: str
) -> None:
    await _table(bot, slash)
    result = await slash.run("odds attack", situation="soft cover 2", **options, **player(slash))
    refused(result, words)
    await dpytest.empty_queue()


async def test_unseen_needs_no_look_numbers(bot: TableBot, slash: SlashHarness) -> None:
    await _table(bot, slash)
    result = await slash.run(
        "odds attack", weapon="Shortbow", score=2, rank=2, target_defense=2,
        situation="soft cover 2, unseen", **player(slash),
    )  # fmt: skip
    assert not result.ephemeral, result.content
    assert "Look through" not in result.embeds[0]["description"]
    await dpytest.empty_queue()


@pytest.mark.parametrize("command", ["attack", "odds attack"])
async def test_help_shows_the_look(bot: TableBot, slash: SlashHarness, command: str) -> None:
    await _table(bot, slash)
    result = await slash.run("help", command=command, **player(slash))
    everything = "".join(
        e.get("description", "") + "".join(f["name"] + f["value"] for f in e.get("fields", []))
        for e in result.all_embeds
    ).replace("\n", " ")
    assert "An attack into soft cover first rolls the look" in everything
    if command == "attack":
        assert "is the GM's judgement" in everything and "The situation term unseen" in everything
    await dpytest.empty_queue()
