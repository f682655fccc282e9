"""``Buttons`` sends exactly what a ``discord.ui.View`` of the same buttons would: the
same JSON, byte for byte, and the same refusals when a row or the message is full."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from bot.render.buttons import Button, Buttons, buttons_or_none
from cogs.hocs.combat.hero_reroll import HeroDamageButton
from cogs.hocs.combat.views import DieChoiceButton
from cogs.hocs.damage_buttons import die_button, hero_button
from cogs.hocs.points.spending import Spend
from cogs.hocs.points.stored import Side
from cogs.hocs.points.views import RollSpendButton, spend_button


def wire(components: list[dict[str, Any]]) -> str:
    """As discord.py puts it on the wire (key order included)."""
    return json.dumps(components)


def view_of(items: list[tuple[discord.ui.Item[Any], int | None]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item, row in items:
        item.row = row
        view.add_item(item)
    return view


def test_a_skill_rolls_buttons_fill_the_first_row() -> None:
    spends = (Spend.DETERMINATION, Spend.HERO, Spend.FORTUNE)
    light = Buttons(spend_button(spend, 42, 3) for spend in spends)
    view = view_of([(RollSpendButton(spend, 42, 3), None) for spend in spends])
    assert wire(light.to_components()) == wire(view.to_components())
    assert [c["custom_id"] for c in light.to_components()[0]["components"]] == [
        "roll:det:42:3",
        "roll:hero:42:3",
        "roll:fortune:42:3",
    ]


def test_an_attacks_rows_per_side_then_its_die_choices() -> None:
    rows = {Side.A: 0, Side.B: 1, Side.T: 2}
    spends = [
        (Spend.HERO, Side.A, "Bram"),
        (Spend.DETERMINATION, Side.B, "Gob"),
        (Spend.FORTUNE, Side.A, "Bram"),
        (Spend.DETERMINATION, Side.T, "Gob"),
    ]
    light = [spend_button(s, 7, 1, side, name) for s, side, name in spends]
    heavy: list[tuple[discord.ui.Item[Any], int | None]] = [
        (RollSpendButton(s, 7, 1, side, name), rows[side]) for s, side, name in spends
    ]
    light.append(hero_button(99, 0).at_row(3))
    heavy.append((HeroDamageButton(99, 0), 3))
    for index in range(7):  # 8 choice buttons with the hero one: rows 3 and 4
        row = 3 + (index + 1) // 5
        label = f"d{index + 4} source: {index + 1}"
        light.append(die_button(99, index, label=label, chosen=index == 2).at_row(row))
        heavy.append((DieChoiceButton(99, index, label=label, chosen=index == 2), row))
    components = Buttons(light).to_components()
    assert wire(components) == wire(view_of(heavy).to_components())
    assert [len(row["components"]) for row in components] == [2, 1, 1, 5, 3]
    kept = components[3]["components"][3]
    assert kept == {
        "type": 2,
        "style": discord.ButtonStyle.success.value,
        "disabled": True,
        "label": "d6 source: 3",
        "custom_id": "dmg:pick:99:2",
    }


def test_unplaced_buttons_go_where_a_view_puts_them() -> None:
    # A button without a row takes the first row with room at the moment it comes.
    order: list[tuple[str, int | None]] = [
        ("a", 1),
        ("b", None),
        ("c", None),
        ("d", 0),
        *((f"n{i}", None) for i in range(9)),
    ]
    light = Buttons(Button(f"x:{name}", name, row=row) for name, row in order)
    heavy = view_of(
        [(discord.ui.Button(label=name, custom_id=f"x:{name}"), row) for name, row in order]
    )
    assert wire(light.to_components()) == wire(heavy.to_components())


def test_twenty_five_buttons_fit_and_more_are_refused_as_a_view_refuses_them() -> None:
    full = Buttons(Button(f"x:{i}", str(i)) for i in range(25))
    assert [len(row["components"]) for row in full.to_components()] == [5] * 5
    with pytest.raises(ValueError):
        Buttons(Button(f"x:{i}", str(i)) for i in range(26))
    with pytest.raises(ValueError):
        Buttons(Button(f"x:{i}", str(i), row=2) for i in range(6))
    with pytest.raises(ValueError):
        Buttons([Button("x:0", "0", row=5)])


def test_no_buttons_is_no_view_and_discord_py_stores_nothing() -> None:
    assert buttons_or_none([]) is None
    shown = Buttons([Button("x:1", "one")])
    # What discord.py asks before handing a view to its ViewStore, or timing it out.
    assert shown.is_finished() and not shown.is_dispatchable() and shown.timeout is None
    assert not shown.has_components_v2()
    assert shown.custom_ids == ["x:1"]
