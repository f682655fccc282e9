"""The "keep another die" buttons under a damage roll, as a press reaches them.

They are dynamic items: the custom_id ``dmg:pick:<choice id>:<die index>`` says
what to act on and the state lives in the ``damage_choices`` table, so the
buttons keep working after a restart (registered in ``CombatCog.cog_load``). Replies
carry their payload alone (``cogs.hocs.damage_buttons``, ``bot.render.buttons``).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.delivery.replies import edit_pressed_message
from bot.interactions.error_handler import on_view_error
from cogs.hocs.combat.choices import switch_die
from cogs.hocs.damage_buttons import die_button
from cogs.hocs.points.views import message_view


class DieChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dmg:pick:(?P<choice>[0-9]{1,19}):(?P<index>[0-9]{1,2})",
):
    """Built only when a click arrives; replies carry ``die_button``'s payload."""

    def __init__(
        self, choice_id: int, index: int, *, label: str = "Keep this die", chosen: bool = False
    ) -> None:
        shown = die_button(choice_id, index, label=label, chosen=chosen)
        super().__init__(shown.as_item())
        self.choice_id = choice_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> DieChoiceButton:
        return cls(int(match["choice"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            switched = await switch_die(interaction.client, interaction, self.choice_id, self.index)
        except Exception as exc:  # answered like any command error
            await on_view_error(interaction, exc, "damage die choice")
            return
        async with interaction.client.db.read() as conn:  # type: ignore[attr-defined]
            view = await message_view(conn, interaction.message, switched.choice_id)
        await edit_pressed_message(interaction, embed=switched.embed, view=view)
