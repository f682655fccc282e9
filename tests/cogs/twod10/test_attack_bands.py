"""2d10 /attack: a hit in each band of the to-hit table moves the damage die as the table says."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from tests.cogs.twod10.combat_helpers import player, script, sheet, table, text
from tests.support.slash import SlashHarness


@pytest.mark.parametrize(
    ("bonus", "faces", "band", "die", "dice", "hp"),
    [
        # natural 4 + 5 − 2 defense − 4 = 3: extreme band, −7 categories: no damage.
        (-4, (2, 2), "Failure with extreme complication (miss)", None, (), 15),
        # 6 + 3 = 9: a miss one below 10, d8 → d6: 4 + 2 + 3 = 9 damage.
        (0, (3, 3), "Failure (miss)", "d8 -1 category → d6", (4,), 6),
        # 8 + 3 = 11: success with complication, no move: 5 + 5 = 10.
        (0, (4, 4), "Success with complication (hit)", "d8 no change → d8", (5,), 5),
        # 12 + 3 = 15: +2 categories, d8 → d12.
        (0, (6, 6), "Success with no complication (hit)", "d8 +2 categories → d12", (7,), 3),
        # 17 + 3 = 20: +5, capped at d12.
        (0, (8, 9), "Success with an additional bonus (hit)", "(capped at d12)", (1,), 9),
        # 19 + 3 + 3 = 25: an extra action, +7 capped.
        (3, (9, 10), "Ridiculously good success: an additional action (hit)", "→ d12", (2,), 8),
    ],
)  # fmt: skip
async def test_each_band(
    bot: TableBot,
    slash: SlashHarness,
    bonus: int,
    faces: tuple[int, int],
    band: str,
    die: str | None,
    dice: tuple[int, ...],
    hp: int,
) -> None:
    await table(bot, slash)
    scripted = script(bot, *faces, *dice)
    result = await slash.run("attack", target="Gob", bonus=bonus, **player(slash))
    body = text(result)
    assert band in body
    if die is None:
        assert "below a d4 on a miss, no damage" in body
    else:
        assert die in body
    assert scripted.remaining == 0
    assert (await sheet(bot, "Gob")).hp == hp
    await dpytest.empty_queue()


async def test_the_roll_line_shows_every_modifier(bot: TableBot, slash: SlashHarness) -> None:
    await table(bot, slash)
    script(bot, 4, 4, 5)
    body = text(await slash.run("attack", target="Gob", **player(slash)))
    assert "2d10 [4, 4] natural 8 + 3 strength + 2 melee − 2 finesse defense = **11**" in body
    assert "Rolled [5] + 2 weapon + 3 strength = 10" in body
    assert "Gob: 15/15 HP → **5/15 HP**" in body
    await dpytest.empty_queue()
