"""Dying rolls in the 2d10 tracker: due on the dying character's side's turn, rolled once.

Ruling ``dying-turn``: a linked character at 0 HP or below (and above its death
threshold) owes one dying roll on each of its side's turns. When ``/init next`` starts
that side's turn the roll is recorded as due in the tracker's document, (combatant,
round), and a prompt with a button is posted for the owner (the GM may press it too).
A press rolls only while its entry is there and removes it in the same versioned save
as the sheet's new HP, so of two presses at once exactly one rolls. A roll not made
before the next turn comes stays due (each due turn gives one roll); entries of a
character no longer dying are dropped. The button's custom_id names the encounter,
the combatant and the round, so a prompt works after a restart; a prompt carries the
button's payload alone (``dying_button``), with no ``discord.ui.View`` kept for it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import discord

from bot.delivery.replies import edit_pressed_message
from bot.errors import GuildOnly, UserError
from bot.interactions.error_handler import answer_press
from bot.render.buttons import Button, Buttons
from bot.render.twod10.dying_prompt import dying_prompt, rolled_content
from bot.render.twod10.survival import dying_embed
from bot.rules.errors import RulesError
from bot.rules.twod10.dying import roll_dying
from bot.rules.twod10.initiative.turns import revive
from bot.storage.twod10.characters import TwoD10CharacterRepository
from bot.storage.twod10.encounters import Tracker
from cogs.twod10 import options
from cogs.twod10.initiative.dying_due import DyingRollDue, DyingRolled
from cogs.twod10.initiative.operations import may_act_for
from cogs.twod10.initiative.service import ChangeContext, Operation, Outcome, SideTrackerService
from cogs.twod10.survival_log import log_roll
from cogs.twod10.survival_state import load, save

DYING_TEMPLATE = (
    r"d10dying:(?P<encounter>[0-9]{1,20}):(?P<combatant>[0-9]{1,9}):(?P<round>[0-9]{1,6})"
)
ROLLED = "That dying roll has already been made (or is no longer due)."
COG_NAME = "2d10 initiative"


def dying_roll(combatant_id: int, round_: int, *, channel_id: int) -> Operation:
    """Roll the due dying roll once: the sheet, the roll log and the tracker in one save."""

    async def run(ctx: ChangeContext) -> tuple[Tracker, list[object]]:
        tracker = ctx.tracker
        if (combatant_id, round_) not in tracker.dying_due:
            raise UserError(ROLLED)
        combatant = tracker.encounter.combatant(combatant_id)
        may_act_for(ctx, combatant)
        seat = tracker.seat(combatant_id)
        assert seat is not None and seat.sheet_id is not None  # only linked ones fall due
        guild_id = ctx.record.guild_id
        sheet = await TwoD10CharacterRepository(ctx.conn).get(guild_id, seat.sheet_id)
        if sheet is None:
            raise UserError(f"{combatant.name}'s sheet is gone: the GM can /init remove them.")
        loaded = await load(ctx.conn, sheet)
        try:
            result = roll_dying(sheet.character, loaded.state, dice=ctx.dice)
        except RulesError as exc:
            raise options.rules(exc) from None
        after = await save(ctx.conn, sheet, result.after)
        await log_roll(
            ctx.conn, guild_id=guild_id, channel_id=channel_id, user_id=ctx.member.id,
            kind="2d10-dying", expression=f"dying roll {sheet.name}: {result.roll.total}",
            result=result.roll,
            details={"character_id": sheet.id, "hp": [sheet.hp, after.hp],
                     "round": round_, "died": result.died},
        )  # fmt: skip
        enc = tracker.encounter
        if after.hp >= 1 and enc.combatant(combatant_id).down:
            enc = revive(enc, combatant_id)  # back at 1 HP: conscious and in the fight
        due = tuple(e for e in tracker.dying_due if e != (combatant_id, round_))
        tracker = replace(tracker, encounter=enc, dying_due=due)
        return tracker, [DyingRolled(combatant_id, combatant.name, result)]

    return run


def dying_button(encounter_id: int, combatant_id: int, round_: int) -> Button:
    """The button ``DyingButton`` stands for: what a dying prompt shows."""
    return Button(
        custom_id=f"d10dying:{encounter_id}:{combatant_id}:{round_}",
        label="Roll the dying roll",
        style=discord.ButtonStyle.danger,
    )


def _service(interaction: discord.Interaction) -> SideTrackerService:
    cog: Any = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    return cog.service


async def press_dying(
    interaction: discord.Interaction, encounter_id: int, combatant_id: int, round_: int
) -> None:
    if interaction.guild_id is None or interaction.channel is None:
        raise GuildOnly()
    service = _service(interaction)
    outcome = await service.change(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        member=interaction.user,
        operation=dying_roll(combatant_id, round_, channel_id=interaction.channel_id or 0),
        encounter_id=encounter_id,
    )
    rolled = next(e for e in outcome.events if isinstance(e, DyingRolled))
    # The prompt becomes the result, without its button: nobody presses it again.
    await edit_pressed_message(
        interaction,
        content=rolled_content(rolled.name, round_), embed=dying_embed(rolled.name, rolled.result),
        view=None,
    )  # fmt: skip
    # The tracker's edit waits until after the reply (bot.delivery.followups), as /init's do.
    service.refresh_soon(interaction.channel)  # type: ignore[arg-type]


class DyingButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DYING_TEMPLATE):
    """Rolls the dying roll that fell due for one combatant in one round."""

    def __init__(self, encounter_id: int, combatant_id: int, round_: int) -> None:
        self.encounter_id = encounter_id
        self.combatant_id = combatant_id
        self.round = round_
        super().__init__(dying_button(encounter_id, combatant_id, round_).as_item())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> DyingButton:
        return cls(int(match["encounter"]), int(match["combatant"]), int(match["round"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction,
            f"button {self.item.custom_id}",
            press_dying(interaction, self.encounter_id, self.combatant_id, self.round),
        )


async def send_dying_prompts(channel: Any, outcome: Outcome) -> None:
    """One prompt per dying roll that fell due in this change."""
    for event in outcome.events:
        if not isinstance(event, DyingRollDue):
            continue
        prompt = dying_prompt(event.name, event.owner_id if event.ping else None)
        view = Buttons([dying_button(outcome.record.id, event.combatant_id, event.round)])
        await channel.send(
            prompt.content, embed=prompt.embed, view=view, allowed_mentions=prompt.allowed_mentions
        )
