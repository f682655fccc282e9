"""/inventory cart: "Every 10 items in a cart counts as one EP. A 4 legged mount can carry
10 items per an EP and pull 15 per an EP." (ruling mount-loads: full 10s and 15s)."""

from __future__ import annotations

import discord.ext.test as dpytest
import pytest

from tests.cogs.twod10.combat_helpers import player, twod10
from tests.support.slash import SlashHarness


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"weight": 35}, "A cart holding 35 item weight bears 3 EP (one per full 10)."),
        ({"weight": 9}, "A cart holding 9 item weight bears 0 EP (one per full 10)."),
        (
            {"weight": 35, "carrier": "mount carrying"},
            "A mount carrying 35 item weight bears 3 EP (one per full 10).",
        ),
        (
            {"weight": 35, "carrier": "mount pulling"},
            "A mount pulling 35 item weight bears 2 EP (one per full 15).",
        ),
        ({"weight": 0}, "A cart holding 0 item weight bears 0 EP (one per full 10)."),
    ],
)
async def test_a_load_in_eps(slash: SlashHarness, options: dict[str, object], said: str) -> None:
    await twod10(slash)
    result = await slash.run("inventory cart", **options, **player(slash))
    assert result.content == said and not result.ephemeral
    await dpytest.empty_queue()


async def test_a_load_past_the_bound_is_refused_in_one_sentence(slash: SlashHarness) -> None:
    await twod10(slash)
    result = await slash.run("inventory cart", weight=20001, client_checks=False, **player(slash))
    assert result.ephemeral and (result.content or "").count(". ") == 0
    await dpytest.empty_queue()
