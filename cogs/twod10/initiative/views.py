"""Buttons on the 2d10 tracker's side-turn and end-of-turn messages.

They are ``DynamicItem``s: the custom_id names the encounter, the round, the side and
what to mark (``d10init:act:<encounter>:<round>:<side>:<choice>``,
``d10init:react:<encounter>:<round>:<side>``), so they keep working after a restart
with no state in memory, and a press on an old turn's message is refused instead of
marking the current turn. A button marks the presser's own combatant on that side;
someone playing several (the GM's NPCs) names one with /init act. Messages carry the
buttons' payload alone (``turn_button``, ``react_button`` laid out by
``bot.render.buttons``): discord.py dispatches a click by its custom_id and builds the
item then, so no ``discord.ui.View`` is built per turn, nor kept in its ViewStore for
every turn message ever sent.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord

from bot.delivery.replies import tell_presser
from bot.errors import GuildOnly, UserError
from bot.interactions.error_handler import answer_press
from bot.render.buttons import Button, Buttons
from bot.render.twod10.initiative import events_text
from bot.rules.twod10.initiative.model import Phase, Side
from cogs.twod10.initiative.operations import ActChoice, ReactChoice, act, react
from cogs.twod10.initiative.service import ChangeContext, Operation, SideTrackerService

COG_NAME = "2d10 initiative"
TOKENS = {
    "movement": ActChoice.MOVEMENT,
    "attack": ActChoice.ATTACK,
    "interact": ActChoice.INTERACT,
    "bonus": ActChoice.BONUS,
    "dash": ActChoice.DASH,
    "disengage": ActChoice.DISENGAGE,
    "prepare": ActChoice.PREPARE,
    "stand": ActChoice.STAND,
    "load": ActChoice.LOAD,
}
LABELS = {
    "movement": "Movement",
    "attack": "Attack",
    "interact": "Interact",
    "bonus": "Bonus action",
    "dash": "Dash",
    "disengage": "Disengage",
    "prepare": "Prepare",
    "stand": "Stand up",
    "load": "Load",
}
ACT_TEMPLATE = (
    r"d10init:act:(?P<encounter>[0-9]{1,20}):(?P<round>[0-9]{1,6}):(?P<side>players|npcs):"
    r"(?P<choice>movement|attack|interact|bonus|dash|disengage|prepare|stand|load)"
)
REACT_TEMPLATE = (
    r"d10init:react:(?P<encounter>[0-9]{1,20}):(?P<round>[0-9]{1,6}):(?P<side>players|npcs)"
)
TURN_OVER = "That turn is over: use the buttons on the current turn's message."
# In grey, apart from the turn's usual movement, attack, interaction and bonus action.
SECONDARY = ("dash", "disengage", "prepare", "stand", "load")


def turn_button(encounter_id: int, round_: int, side: Side, token: str) -> Button:
    """The button ``TurnButton`` stands for: what a side-turn message shows."""
    return Button(
        custom_id=f"d10init:act:{encounter_id}:{round_}:{side.value}:{token}",
        label=LABELS[token],
        style=discord.ButtonStyle.secondary if token in SECONDARY else discord.ButtonStyle.primary,
    )


def react_button(encounter_id: int, round_: int, side: Side) -> Button:
    """The button ``ReactButton`` stands for: what an end-of-turn message shows."""
    return Button(
        custom_id=f"d10init:react:{encounter_id}:{round_}:{side.value}",
        label="Undeclared reaction",
    )


def _service(interaction: discord.Interaction) -> SideTrackerService:
    cog: Any = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    return cog.service


def in_turn(round_: int, side: Side, phases: tuple[Phase, ...], operation: Operation) -> Operation:
    """``operation``, refused unless the encounter is still in that round, side and phase."""

    async def run(ctx: ChangeContext) -> Any:
        enc = ctx.tracker.encounter
        if enc.round != round_ or enc.acting is not side or enc.phase not in phases:
            raise UserError(TURN_OVER)
        # Buttons act for the presser's own combatant even when the presser is the GM.
        return await operation(replace(ctx, is_gm=False))

    return run


async def _press(interaction: discord.Interaction, encounter_id: int, operation: Operation) -> None:
    if interaction.guild_id is None or interaction.channel is None:
        raise GuildOnly()
    service = _service(interaction)
    outcome = await service.change(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        member=interaction.user,
        operation=operation,
        encounter_id=encounter_id,
    )
    text = events_text(outcome.tracker.encounter, outcome.events) or "Done."
    try:
        # Privately; in the channel when the press came too late (bot.delivery.replies).
        await tell_presser(interaction, text)
    finally:
        # The change is saved whatever became of the answer: the tracker shows it.
        service.refresh_soon(interaction.channel)  # type: ignore[arg-type]


class TurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACT_TEMPLATE):
    """Marks one action of the presser's combatant on the side whose turn it names."""

    def __init__(self, encounter_id: int, round_: int, side: Side, token: str) -> None:
        self.encounter_id = encounter_id
        self.round = round_
        self.side = side
        self.token = token
        super().__init__(turn_button(encounter_id, round_, side, token).as_item())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TurnButton:
        return cls(
            int(match["encounter"]), int(match["round"]), Side(match["side"]), match["choice"]
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        operation = in_turn(
            self.round,
            self.side,
            (Phase.TURN, Phase.SURPRISE),
            act(TOKENS[self.token], None, feet=None, parry=None),
        )
        await answer_press(
            interaction,
            f"button {self.item.custom_id}",
            _press(interaction, self.encounter_id, operation),
        )


class ReactButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REACT_TEMPLATE):
    """At the end of ``side``'s turn: the presser's combatant on the other side uses its
    undeclared reaction."""

    def __init__(self, encounter_id: int, round_: int, side: Side) -> None:
        self.encounter_id = encounter_id
        self.round = round_
        self.side = side
        super().__init__(react_button(encounter_id, round_, side).as_item())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ReactButton:
        return cls(int(match["encounter"]), int(match["round"]), Side(match["side"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        operation = in_turn(
            self.round,
            self.side,
            (Phase.END_OF_TURN,),
            react(ReactChoice.UNDECLARED, None, trigger=None, opponent=None, reach_entry=False),
        )
        await answer_press(
            interaction,
            f"button {self.item.custom_id}",
            _press(interaction, self.encounter_id, operation),
        )


def turn_view(encounter_id: int, round_: int, side: Side) -> Buttons:
    """A side's turn: one button per choice, for that round and side only."""
    return Buttons(turn_button(encounter_id, round_, side, token) for token in LABELS)


def reaction_view(encounter_id: int, round_: int, side: Side) -> Buttons:
    """The end of ``side``'s turn: the other side's undeclared reaction."""
    return Buttons([react_button(encounter_id, round_, side)])
