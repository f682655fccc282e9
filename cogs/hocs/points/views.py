"""Buttons under skill rolls: Spend determination, Hero reroll, Fortune reroll.

/pool and /check replies carry one set; /clash and /attack replies one row per side,
labelled with the side's name, for that side's character; a /damage reply one row for
its target's threshold test. Each is a ``DynamicItem`` whose custom_id names what to
do, the roll, the roll's revision and the side (``roll:hero:42:0``, ``roll:det:43:1:b``,
``roll:det:44:0:t``), registered once at startup: the buttons keep working after a
restart with nothing kept in memory. Replies carry the buttons' payload alone
(``spend_button``, ``bot.render.buttons``); the item is built when a click arrives.
A click changes the roll in one transaction (``spending.spend_on_roll``) and edits the
same message; a click made for an older revision (a double click, a second device) is
refused, spending nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite
import discord
from discord.ext import commands

from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import NO_PINGS, edit_pressed_message, send
from bot.delivery.secret_rolls import deliver_to_gm
from bot.errors import GuildOnly, UserError
from bot.interactions.error_handler import answer_press
from bot.render.buttons import Button, Buttons, buttons_or_none
from bot.render.hocs.combat import MAX_BUTTONS
from bot.render.text import safe_line
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.combat import DamageChoice, remember_choice_message
from bot.storage.roll_log import LoggedRoll, RollLogRepository, remember_message
from cogs.hocs.damage_buttons import attack_choice_items, damage_view
from cogs.hocs.points.spending import Spend, SpendOutcome, available_spends, spend_on_roll
from cogs.hocs.points.stored import THRESHOLD_ONLY_KINDS, Side, SideRolls, StoredRoll

log = logging.getLogger(__name__)

ROWS = {Side.A: 0, Side.B: 1, Side.T: 2}  # a clash's or attack's buttons, a row per side


TEMPLATE = (
    r"roll:(?P<spend>det|hero|fortune):(?P<roll_id>[0-9]{1,20}):(?P<revision>[0-9]{1,9})"
    r"(?::(?P<side>[abt]))?"
)

LABELS = {
    Spend.DETERMINATION: "Spend determination",
    Spend.HERO: "Hero reroll",
    Spend.FORTUNE: "Fortune reroll",
}
STYLES = {
    Spend.DETERMINATION: discord.ButtonStyle.primary,
    Spend.HERO: discord.ButtonStyle.success,
    Spend.FORTUNE: discord.ButtonStyle.secondary,
}


class RollGone(UserError):
    def __init__(self) -> None:
        super().__init__("That roll is no longer stored, so nothing was spent: roll again.")


def spend_button(
    spend: Spend, roll_id: int, revision: int, side: Side | None = None, name: str = ""
) -> Button:
    """The button ``RollSpendButton`` stands for: what a reply shows (``roll_view``)."""
    prefix, suffix, label, style, row = _SHAPES[spend, side]
    if name:
        label = f"{name}: {label}"
    return Button(f"{prefix}{roll_id}:{revision}{suffix}", label[:80], style, False, row)


# What a spend button's payload takes from its spend and side, worked out once (the enum
# lookups cost a roll's buttons more than the rest of them).
_SHAPES = {
    (spend, side): (
        f"roll:{spend.value}:",
        f":{side.value}" if side is not None else "",
        LABELS[spend],
        STYLES[spend],
        ROWS[side] if side is not None else None,
    )
    for spend in Spend
    for side in (None, *Side)
}


class RollSpendButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Spends one point of the roll's (side's) character on it, for its owner or the GM.
    Built only when a click arrives; replies carry ``spend_button``'s payload."""

    def __init__(
        self, spend: Spend, roll_id: int, revision: int, side: Side | None = None, name: str = ""
    ) -> None:
        self.spend = spend
        self.roll_id = roll_id
        self.revision = revision
        self.side = side
        shown = spend_button(spend, roll_id, revision, side, name)
        super().__init__(shown.as_item())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> RollSpendButton:
        side = Side(match["side"]) if match["side"] else None
        return cls(Spend(match["spend"]), int(match["roll_id"]), int(match["revision"]), side)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer_press(
            interaction,
            f"button {self.custom_id}",
            press(interaction, self.spend, self.roll_id, self.revision, self.side),
        )


def spend_view(roll_id: int, revision: int, spends: Sequence[Spend]) -> Buttons | None:
    """The buttons for the spends that apply, or None when none does."""
    return buttons_or_none(spend_button(spend, roll_id, revision) for spend in spends)


async def spend_items(
    conn: aiosqlite.Connection,
    logged: LoggedRoll,
    known: Mapping[int, Character] | None = None,
    rolls: SideRolls | None = None,
) -> list[Button]:
    """The spend buttons of a stored roll: for a clash or attack, each side's own row,
    labelled with its name, for what that side's character has and could change.
    ``known``: characters as they are stored now (the command just read them and spent
    nothing of theirs since), so they need not be read again; ``rolls``: the sides'
    rolls as the command that logged them has them (``StoredRoll.load``)."""
    repo = CharacterRepository(conn)
    sides: tuple[Side | None, ...] = (None,)
    if logged.kind == "clash":
        sides = (Side.A, Side.B)
    elif logged.kind == "attack":
        sides = (Side.A, Side.B, Side.T)
    elif logged.kind in THRESHOLD_ONLY_KINDS:
        sides = (Side.T,)  # a /damage roll: the target's threshold test
    items: list[Button] = []
    for side in sides:
        if rolls is not None and side in rolls and rolls[side] is None:
            continue  # that side rolled nothing (``StoredRoll.load`` would refuse it)
        try:
            stored = StoredRoll.load(logged, side, rolls)
        except UserError:
            continue  # that side rolled nothing points could change
        owner = stored.owner_id
        if owner is not None and known and owner in known:
            character: Character | None = known[owner]
        else:
            character = await repo.get(owner) if owner else None
        name = escape_button(stored.name) if side is not None else ""
        for spend in available_spends(stored, character):
            items.append(spend_button(spend, logged.id, stored.revision, side, name))
    return items


def escape_button(name: str) -> str:
    """A character name on a button label (labels don't render markdown or ping)."""
    return " ".join(name.split())[:40]


async def roll_view(
    conn: aiosqlite.Connection,
    logged: LoggedRoll,
    known: Mapping[int, Character] | None = None,
    rolls: SideRolls | None = None,
    *,
    choice: DamageChoice | None = None,
) -> Buttons | None:
    """Every button a stored roll carries now (an attack's die choices after its spends);
    ``known`` and ``rolls`` as for ``spend_items``; ``choice``: an attack's damage choice
    as just stored (else it is read)."""
    items = await spend_items(conn, logged, known, rolls)  # a row per side
    if logged.kind == "attack":
        # The die choices take the two rows left under the sides' rows.
        choices = await attack_choice_items(conn, logged, room=10, choice=choice, known=known)
        items += (item.at_row(3 + index // 5) for index, item in enumerate(choices))
    elif logged.kind in THRESHOLD_ONLY_KINDS:
        if not items:  # no threshold test to change: Hero reroll damage and the dice alone
            return buttons_or_none(
                await attack_choice_items(
                    conn, logged, room=MAX_BUTTONS, choice=choice, known=known
                )
            )
        # The target's threshold row on top, the die choices in the four rows under it.
        items = [item.at_row(0) for item in items]
        choices = await attack_choice_items(conn, logged, room=20, choice=choice, known=known)
        items += (item.at_row(1 + index // 5) for index, item in enumerate(choices))
    return buttons_or_none(items)


async def message_view(
    conn: aiosqlite.Connection, message: discord.Message | None, choice_id: int
) -> Buttons | None:
    """The buttons a damage roll's message carries after a press changed the choice: an
    attack's reply keeps both sides' spend rows above its die choices; a /damage reply
    keeps its target's threshold row above its die choices (one logged before the
    threshold row existed has the die choices alone)."""
    if message is not None:
        logged = await RollLogRepository(conn).get_by_message(message.id)
        if logged is not None and (
            logged.kind == "attack"
            or (logged.kind in THRESHOLD_ONLY_KINDS and logged.result.get("choice_id") == choice_id)
        ):
            return await roll_view(conn, logged)
    return await damage_view(conn, choice_id)


async def view_for_roll(conn: aiosqlite.Connection, roll_id: int) -> Buttons | None:
    """``roll_view`` by roll id (a fresh roll's buttons); None if the roll is gone."""
    logged = await RollLogRepository(conn).get(roll_id)
    return await roll_view(conn, logged) if logged is not None else None


async def press(
    interaction: discord.Interaction,
    spend: Spend,
    roll_id: int,
    revision: int,
    side: Side | None = None,
) -> None:
    """One click: spend and change the roll atomically, then edit the same message."""
    guild = interaction.guild
    if guild is None:
        raise GuildOnly()
    bot: Any = interaction.client
    async with bot.db.transaction() as conn:
        campaign = await CampaignRepository(conn).get_or_create(guild.id)
        logged = await RollLogRepository(conn).get(roll_id)
        if logged is None or logged.guild_id != guild.id:
            raise RollGone()
        outcome = await spend_on_roll(
            conn, logged=logged, spend=spend, actor=interaction.user, campaign=campaign,
            dice=bot.dice, expected_revision=revision, side=side,
        )  # fmt: skip
        view = await roll_view(conn, outcome.stored.logged)
    await edit_pressed_message(interaction, embed=outcome.embed, view=view)
    if outcome.changed_characters:
        notify_characters_changed(bot, guild.id, list(outcome.changed_characters))
    if outcome.stored.logged.secret:
        await _tell_gm(guild, campaign, interaction.user, outcome, outcome.embed)


async def _tell_gm(
    guild: discord.Guild,
    campaign: Campaign,
    user: discord.abc.User,
    outcome: SpendOutcome,
    embed: discord.Embed,
) -> None:
    who = safe_line(getattr(user, "display_name", user.name))
    await deliver_to_gm(
        guild, campaign, f"Secret roll by {who} changed: {outcome.line}", embed=embed
    )


async def reply_with_roll(
    ctx: commands.Context[Any], campaign: Campaign, outcome: SpendOutcome
) -> None:
    """After a spend by command: post the changed roll with its buttons (secretly if it was).

    The roll log then points at the new message; buttons left on the old one are
    for an older revision and refuse politely.
    """
    bot: Any = ctx.bot
    if outcome.changed_characters and ctx.guild is not None:
        notify_characters_changed(bot, ctx.guild.id, list(outcome.changed_characters))
    embed = outcome.embed
    async with bot.db.read() as conn:
        view = await roll_view(conn, outcome.stored.logged)
    kwargs: dict[str, Any] = {"embed": embed, "allowed_mentions": NO_PINGS}
    if view is not None:
        kwargs["view"] = view
    if outcome.stored.logged.secret and ctx.guild is not None:
        message = await send(
            ctx, f"-# Secret roll changed: {outcome.line}", ephemeral=True, **kwargs
        )
        await _tell_gm(ctx.guild, campaign, ctx.author, outcome, embed)
    else:
        message = await send(ctx, **kwargs)
    if message is not None:
        remember_message(bot.db, outcome.stored.logged.id, message.id)
        _follow_message(bot.db, outcome.stored.logged, message.id)


def _follow_message(db: Any, logged: LoggedRoll, message_id: int) -> None:
    """An attack's open damage choice follows its reply to the new message (written
    with the next transaction, like the roll's own message id)."""
    choice_id = logged.result.get("choice_id") if logged.kind == "attack" else None
    if choice_id is not None:
        remember_choice_message(db, int(choice_id), message_id)
