"""Buttons on turn messages (Action, Quick action, Reaction, End turn) and on dying and
unconscious test prompts (Physique, Willpower).

They are ``DynamicItem``s: the custom_id carries the encounter, the participant and
what to do (``init:act:<encounter>:<participant>:<kind>``,
``init:end:<encounter>:<participant>:<turn>``,
``init:test:<encounter>:<participant>:<clock>:<skill>``), so they keep working after a
restart once the cog registers the classes again, with no state in memory. Messages
carry the buttons' payload alone (``act_button``, ``end_button``, ``recovery_button`` laid
out by ``bot.render.buttons``): discord.py dispatches a click by its custom_id and builds
the item then, so no ``discord.ui.View`` is built per turn, nor kept in its ViewStore
for every turn message ever sent.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.delivery.replies import edit_pressed_message
from bot.errors import GuildOnly
from bot.interactions.error_handler import answer_press
from bot.render.buttons import Button, Buttons
from bot.render.hocs.initiative import actions_text, event_lines, turn_announcement
from bot.render.hocs.recovery import test_prompt
from bot.rules.hocs.initiative import ActionKind, Encounter, Event, RecoveryTestDue
from cogs.hocs.initiative.operations import act, advance, recovery_test
from cogs.hocs.initiative.service import InitiativeService, Outcome

log = logging.getLogger(__name__)

ACT_TEMPLATE = (
    r"init:act:(?P<encounter>[0-9]{1,20}):(?P<participant>[0-9]{1,10}):"
    r"(?P<kind>action|quick|reaction)"
)
END_TEMPLATE = (
    r"init:end:(?P<encounter>[0-9]{1,20}):(?P<participant>[0-9]{1,10}):(?P<turn>[0-9]{1,12})"
)
END_PATTERN = re.compile(END_TEMPLATE)
TEST_TEMPLATE = (
    r"init:test:(?P<encounter>[0-9]{1,20}):(?P<participant>[0-9]{1,10}):"
    r"(?P<clock>[0-9]{1,12}):(?P<skill>physique|willpower)"
)
LABELS = {
    ActionKind.ACTION: "Action",
    ActionKind.QUICK: "Quick action",
    ActionKind.REACTION: "Reaction",
}
ACTIONS_FIELD = "This round"


def act_button(
    encounter_id: int, participant_id: int, kind: ActionKind, *, label: str = "",
    disabled: bool = False,
) -> Button:  # fmt: skip
    """The button ``ActButton`` stands for: what a turn message shows."""
    return Button(
        custom_id=f"init:act:{encounter_id}:{participant_id}:{kind.value}",
        label=label or LABELS[kind],
        disabled=disabled,
    )


def end_button(encounter_id: int, participant_id: int, turn: int) -> Button:
    """The button ``EndTurnButton`` stands for."""
    return Button(
        custom_id=f"init:end:{encounter_id}:{participant_id}:{turn}",
        label="End turn",
        style=discord.ButtonStyle.primary,
    )


def recovery_button(encounter_id: int, participant_id: int, clock_id: int, skill: str) -> Button:
    """The button ``RecoveryTestButton`` stands for: what a test prompt shows."""
    return Button(
        custom_id=f"init:test:{encounter_id}:{participant_id}:{clock_id}:{skill}",
        label=f"Roll with {skill}",
        style=discord.ButtonStyle.danger,
    )


def _service(interaction: discord.Interaction) -> InitiativeService:
    cog: Any = interaction.client.get_cog("Initiative")  # type: ignore[attr-defined]
    return cog.service


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACT_TEMPLATE):
    """Marks one of the participant's actions as used."""

    def __init__(
        self, encounter_id: int, participant_id: int, kind: ActionKind, *, label: str = "",
        disabled: bool = False,
    ) -> None:  # fmt: skip
        self.encounter_id = encounter_id
        self.participant_id = participant_id
        self.kind = kind
        super().__init__(
            act_button(encounter_id, participant_id, kind, label=label, disabled=disabled).as_item()
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(int(match["encounter"]), int(match["participant"]), ActionKind(match["kind"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction,
            f"button {self.item.custom_id}",
            press_act(interaction, self.encounter_id, self.participant_id, self.kind),
        )


class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=END_TEMPLATE):
    """Ends the turn it was posted for (and only that one) and starts the next."""

    def __init__(self, encounter_id: int, participant_id: int, turn: int) -> None:
        self.encounter_id = encounter_id
        self.participant_id = participant_id
        self.turn = turn
        super().__init__(end_button(encounter_id, participant_id, turn).as_item())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> EndTurnButton:
        return cls(int(match["encounter"]), int(match["participant"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction,
            f"button {self.item.custom_id}",
            press_end(interaction, self.encounter_id, self.participant_id, self.turn),
        )


class RecoveryTestButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEST_TEMPLATE):
    """Rolls one dying or unconscious test (the clock it names) with physique or willpower."""

    def __init__(self, encounter_id: int, participant_id: int, clock_id: int, skill: str) -> None:
        self.encounter_id = encounter_id
        self.participant_id = participant_id
        self.clock_id = clock_id
        self.skill = skill
        super().__init__(recovery_button(encounter_id, participant_id, clock_id, skill).as_item())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RecoveryTestButton:
        return cls(
            int(match["encounter"]), int(match["participant"]), int(match["clock"]), match["skill"]
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction,
            f"button {self.item.custom_id}",
            press_test(
                interaction, self.encounter_id, self.participant_id, self.clock_id, self.skill
            ),
        )


def test_view(encounter_id: int, event: RecoveryTestDue) -> Buttons:
    return Buttons(
        recovery_button(encounter_id, event.participant_id, event.clock_id, skill)
        for skill in ("physique", "willpower")
    )


async def send_test_prompts(channel: Any, outcome: Outcome) -> None:
    """One prompt per test that fell due in this change, pinging only a PC's player."""
    for event in outcome.events:
        if not isinstance(event, RecoveryTestDue):
            continue
        prompt = test_prompt(outcome.state, event)
        await channel.send(
            prompt.content,
            embed=prompt.embed,
            view=test_view(outcome.record.id, event),
            allowed_mentions=prompt.allowed_mentions,
        )


def turn_view(encounter_id: int, state: Encounter, turn: int | None = None) -> Buttons | None:
    """Buttons for the current turn: a lone participant's actions, and End turn."""
    members = state.current_participants
    if not members:
        return None
    shown: list[Button] = []
    if len(members) == 1 and not (members[0].group and members[0].group_roll):
        p = members[0]
        allowance, spent = p.allowance, p.spent
        either_used = allowance.either_or and spent.actions + spent.quick >= p.either_or_limit
        action_left = spent.actions < allowance.actions and not either_used
        quick_left = (spent.quick < allowance.quick_actions or action_left) and not either_used
        for kind, label, usable in (
            (ActionKind.ACTION, f"Action {spent.actions}/{allowance.actions}", action_left),
            (ActionKind.QUICK, f"Quick action {spent.quick}/{allowance.quick_actions}", quick_left),
            (
                ActionKind.REACTION,
                f"Reaction {spent.reactions}/{allowance.reactions}",
                spent.reactions < allowance.reactions,
            ),
        ):
            shown.append(act_button(encounter_id, p.id, kind, label=label, disabled=not usable))
    shown.append(end_button(encounter_id, members[0].id, state.turn if turn is None else turn))
    return Buttons(shown)


def _turn_of(message: discord.Message | None) -> int | None:
    """The turn a turn message was posted for, read from its End turn button."""
    if message is None:
        return None
    for row in message.components:
        for component in getattr(row, "children", ()):
            match = END_PATTERN.fullmatch(getattr(component, "custom_id", None) or "")
            if match:
                return int(match["turn"])
    return None


def _guild_id(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None or interaction.channel is None:
        raise GuildOnly()
    return interaction.guild_id


async def press_act(
    interaction: discord.Interaction, encounter_id: int, participant_id: int, kind: ActionKind
) -> None:
    service = _service(interaction)
    outcome = await service.change(
        guild_id=_guild_id(interaction),
        channel_id=interaction.channel_id or 0,
        member=interaction.user,
        operation=act(kind, None, participant_id=participant_id),
        encounter_id=encounter_id,
    )
    participant = outcome.state.participant(participant_id)
    message = interaction.message
    if message is not None and message.embeds:
        embed = message.embeds[0].copy()
        index = next((i for i, f in enumerate(embed.fields) if f.name == ACTIONS_FIELD), None)
        if index is None:
            embed.add_field(name=ACTIONS_FIELD, value=actions_text(participant), inline=False)
        else:
            embed.set_field_at(
                index, name=ACTIONS_FIELD, value=actions_text(participant), inline=False
            )
    else:
        embed = turn_announcement(outcome.state, []).embed
    state = outcome.state
    turn = _turn_of(message)
    if state.current_slot and participant_id in state.current_slot:
        view = turn_view(outcome.record.id, state, turn)
    else:  # a reaction off-turn: this message's turn is gone, keep only the record
        view = None
    await edit_pressed_message(interaction, embed=embed, view=view)
    if interaction.channel is not None:
        service.refresh_soon(interaction.channel)  # type: ignore[arg-type]


async def press_test(
    interaction: discord.Interaction,
    encounter_id: int,
    participant_id: int,
    clock_id: int,
    skill: str,
) -> None:
    service = _service(interaction)
    outcome = await service.change(
        guild_id=_guild_id(interaction),
        channel_id=interaction.channel_id or 0,
        member=interaction.user,
        operation=recovery_test(participant_id, clock_id, skill),
        encounter_id=encounter_id,
    )
    message = interaction.message
    embed = (
        message.embeds[0].copy()
        if message is not None and message.embeds
        else discord.Embed(title="Test")
    )
    events: list[Event] = list(outcome.events)
    embed.description = "\n".join(event_lines(outcome.state, events))[:4000]
    await edit_pressed_message(interaction, embed=embed, view=None)
    if interaction.channel is not None:
        service.refresh_soon(interaction.channel)  # type: ignore[arg-type]


async def press_end(
    interaction: discord.Interaction, encounter_id: int, participant_id: int, turn: int
) -> None:
    service = _service(interaction)
    outcome = await service.change(
        guild_id=_guild_id(interaction),
        channel_id=interaction.channel_id or 0,
        member=interaction.user,
        operation=advance(end_of=(participant_id, turn)),
        encounter_id=encounter_id,
    )
    await edit_pressed_message(interaction, view=None)  # the finished turn's buttons go
    announcement = turn_announcement(outcome.state, outcome.events)
    view = turn_view(outcome.record.id, outcome.state)
    fields: dict[str, Any] = {
        "embed": announcement.embed,
        "allowed_mentions": announcement.allowed_mentions,
        **({"view": view} if view is not None else {}),
    }
    if interaction.response.is_done():
        await interaction.followup.send(announcement.content, **fields)
    elif interaction.channel is not None:
        # The press came too late (its message was edited through the channel): an
        # unanswered interaction takes no follow-up, so the next turn is posted there.
        await interaction.channel.send(announcement.content, **fields)  # type: ignore[union-attr]
    if interaction.channel is not None:
        await send_test_prompts(interaction.channel, outcome)
        service.refresh_soon(interaction.channel)  # type: ignore[arg-type]
