"""Skill-roll embeds: every die's marks, shortening, limits, redrawing from the log."""

from __future__ import annotations

from bot.render.hocs.skill_roll import (
    ClashSides,
    RollHeading,
    clash_embed,
    dice_markdown,
    die_markdown,
    legend,
    logged_embed,
    pool_summary,
    roll_line,
    skill_roll_embed,
)
from bot.rules.dice_source import ScriptedDice
from bot.rules.hocs.clash import resolve_clash
from bot.rules.hocs.determination import apply_determination_after
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.pool import DieOrigin, DieRoll, PoolSpec, Reroll, RerollSource
from bot.rules.hocs.rolling import roll_pool
from tests.support.discord_schema import embed_limit_errors


def test_die_marks() -> None:
    assert die_markdown(DieRoll(origin=DieOrigin.BASE, first_face=4)) == "**4**"
    assert die_markdown(DieRoll(origin=DieOrigin.BASE, first_face=3)) == "3"
    assert die_markdown(DieRoll(origin=DieOrigin.BASE, first_face=3, focus=True)) == "**3+1**"
    assert die_markdown(DieRoll(origin=DieOrigin.BASE, first_face=2, focus=True)) == "2+1"
    assert die_markdown(DieRoll(origin=DieOrigin.BASE, first_face=1, guaranteed=True)) == (
        "1⇒**4**"
    )
    rerolled = DieRoll(
        origin=DieOrigin.BASE,
        first_face=1,
        rerolls=(Reroll(2, RerollSource.TALENT), Reroll(5, RerollSource.HERO)),
    )
    assert die_markdown(rerolled) == "~~1~~ ~~2~~ **5**"
    assert die_markdown(DieRoll(origin=DieOrigin.BOON, first_face=5)) == "boon **5**"
    chain = DieRoll(origin=DieOrigin.DETERMINATION, first_face=6, explosions=(6, 3))
    assert die_markdown(chain) == "det **6**→**6**→3"
    after = DieRoll(origin=DieOrigin.DETERMINATION, first_face=1, added_after_roll=True)
    assert die_markdown(after) == "det+ 1"
    assert die_markdown(DieRoll(origin=DieOrigin.BASE, first_face=4, added_after_roll=True)) == (
        "new **4**"
    )


def test_pool_summary_and_legend() -> None:
    spec = PoolSpec(base=3, boons=1, banes=4, focus=1, rerolls=2)
    assert pool_summary(spec, (("staggered", 2),)) == (
        "3 base · 1 boon · 4 banes (2 staggered) → −2d6 = **1d6** · with 1 focus, 2 rerolls"
    )
    roll = roll_pool(PoolSpec(base=2), ScriptedDice([4, 1]))
    assert legend([roll]) == "bold = success"
    assert roll_line(roll) == "2d6 [4, 1] = 1 success"


def test_long_pools_shorten_to_counts() -> None:
    roll = roll_pool(PoolSpec(base=30, boons=1), ScriptedDice([1, 6, 4] * 10 + [5]))
    full = dice_markdown(roll)
    assert full.count(" · ") == 30
    short = dice_markdown(roll, limit=80)
    assert short == "**6**×10 · **4**×10 · 1×10 · boon **5**"


def test_a_huge_explosion_chain_is_summarised() -> None:
    roll = roll_pool(PoolSpec(base=30, determination=True), ScriptedDice([1] * 30 + [6] * 51))
    assert len(dice_markdown(roll)) <= 1024  # 51 sixes still fit in full
    assert dice_markdown(roll, limit=300) == "1×30 · det **6**→**6**×50"


def test_user_text_is_escaped() -> None:
    roll = roll_pool(PoolSpec(base=1), ScriptedDice([4]))
    heading = RollHeading(who="*Bo*", what="1d6", label="@everyone __hi__")
    embed = skill_roll_embed(heading, roll)
    assert embed.title == "\\*Bo\\* rolls 1d6 — @\u200beveryone \\_\\_hi\\_\\_"


def test_logged_embed_redraws_the_same_embed() -> None:
    roll = roll_pool(PoolSpec(base=3, focus=1), ScriptedDice([3, 4, 6]))
    heading = RollHeading(who="Mira", what="Athletics (STR 3)", notes=("A note.",))
    stored = {"heading": heading.to_dict(), "difficulty": 3, "roll": roll.to_dict()}
    original = skill_roll_embed(heading, roll, Difficulty.DEMANDING)
    assert logged_embed("check", stored).to_dict() == original.to_dict()
    # Determination after the roll: the log can be updated and redrawn.
    after = apply_determination_after(roll, ScriptedDice([1]))
    redrawn = skill_roll_embed(heading, after, Difficulty.DEMANDING)
    # The spend's own note tells it; the summary shows the determination boon once.
    assert "Determination point spent after the roll." not in (redrawn.description or "")
    assert "determination (1 boon)" in (redrawn.description or "")
    assert redrawn.fields[0].value == "**3+1** · **4** · **6** · det+ 1"


def test_clash_with_many_long_rounds_collapses_the_oldest() -> None:
    # 20 rounds of 30 dice and 10 rerolls (the most a roll takes) a side: far more than
    # one embed can show.
    spec = PoolSpec(base=30, rerolls=10)
    side_faces = [1, 2, 3] * 10 + [2, 1] * 5  # 30 dice, then 10 rerolls: all fail
    dice = ScriptedDice(side_faces * 2 * 19 + [4] * 30 + side_faces)
    result = resolve_clash(spec, spec, dice=dice)
    sides = ClashSides(
        a=RollHeading(who="A" * 64, what="30d6"), b=RollHeading(who="B" * 64, what="30d6")
    )
    embed = clash_embed(sides, result)
    assert len(result.rounds) == 20
    assert len(embed) <= 6000
    assert embed_limit_errors(embed.to_dict()) == []
    names = [f.name for f in embed.fields]
    assert names[0].startswith("Rounds 1–")
    assert names[-1] == "Round 20 (deciding)"
    stored = {
        "a_heading": sides.a.to_dict(),
        "b_heading": sides.b.to_dict(),
        "clash": result.to_dict(),
    }
    assert logged_embed("clash", stored).to_dict() == embed.to_dict()


def test_clash_stand_off_without_dice() -> None:
    result = resolve_clash(PoolSpec(base=0), PoolSpec(base=0), dice=ScriptedDice([]))
    sides = ClashSides(a=RollHeading(who="A", what="0d6"), b=RollHeading(who="B", what="0d6"))
    embed = clash_embed(sides, result)
    assert "**Stand-off**: neither side has any dice" in (embed.description or "")
    assert embed.fields[0].value == "A: no dice → **0** successes\nB: no dice → **0** successes"
