"""What /pool, /check and /clash share: condition banes, determination before the roll,
the roll log row, and the skill autocomplete.

A character's pool is built from its effective (wounded) values: a strength wound
lowers a strength skill's dice, and injuries add their banes beside the conditions'.
"""

from __future__ import annotations

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from bot.render.hocs.skill_roll import RollHeading
from bot.render.text import safe_line
from bot.rules.errors import RulesError
from bot.rules.hocs.attributes import Attribute
from bot.rules.hocs.character import SkillPool
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.luck import SNAPSHOT_KEY as LUCK_KEY
from bot.rules.hocs.luck import first_throw
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.roll_log import LoggedRoll, RollLogRepository
from cogs.hocs.access import resolve_character
from cogs.hocs.skill_rolls.options import escape_user_text, skill_choices

ROLL_FOR_THEM = "roll for them"


def sheet_pool(character: Character, name: str) -> SkillPool:
    """The pool of a skill or attribute with the character's wounded attributes."""
    try:
        return character.effective.skill_pool(name[:100])
    except RulesError as exc:
        # The message quotes what the user typed: keep it from formatting or pinging.
        raise UserError(escape_user_text(str(exc))) from None


def banes_with_conditions(
    banes: int, character: Character, attribute: Attribute
) -> tuple[int, tuple[tuple[str, int], ...]]:
    """``banes`` plus the character's banes on a roll of ``attribute`` (conditions:
    staggered, fatigued; injuries), capped; and where they come from, for the embed."""
    parts = character.effective.roll_banes(attribute, character.state.conditions)
    return min(MAX_MODIFIER, banes + sum(n for _, n in parts)), parts


def sheet_roll(
    character: Character, skill: str, *, boons: int, banes: int, **modifiers: int | bool
) -> tuple[PoolSpec, RollHeading]:
    """The pool of ``skill`` on the character's sheet with its condition and injury banes
    added (``sheet_pool``, ``banes_with_conditions``), and the heading that names them."""
    pool = sheet_pool(character, skill)
    all_banes, from_conditions = banes_with_conditions(banes, character, pool.attribute)
    spec = pool.spec(boons=boons, banes=all_banes, **modifiers)
    return spec, RollHeading(who=character.name, what=pool.label, condition_banes=from_conditions)


async def rolling_for(
    conn: aiosqlite.Connection, ctx: commands.Context[TableBot], name: str | None
) -> tuple[Campaign, Character]:
    """The campaign, and the named (or active) character the author may roll for."""
    campaign = await campaign_of(conn, ctx)
    assert campaign is not None
    character = await resolve_character(
        conn, campaign=campaign, member=ctx.author, name=name, action=ROLL_FOR_THEM
    )
    return campaign, character


def determination_note(character: Character, left: int) -> str:
    return f"Determination point spent from {safe_line(character.name)}: {left} left."


class NoDeterminationLeft(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"{safe_line(character.name)} has no determination points left, so nothing was"
            " rolled: roll again without determination."
        )


async def spend_determination(conn: aiosqlite.Connection, character: Character) -> int:
    """Spend one point (conditional UPDATE); raise NoDeterminationLeft; return points left."""
    left = await CharacterRepository(conn).spend_determination_left(character.id)
    if left is None:
        raise NoDeterminationLeft(character)
    return left


def secret_allowed(ctx: commands.Context[TableBot], secret: bool | None) -> bool:
    # Message commands are always public (as with /roll); DMs have no GM to tell.
    return bool(secret) and ctx.guild is not None and ctx.interaction is not None


async def campaign_of(
    conn: aiosqlite.Connection, ctx: commands.Context[TableBot]
) -> Campaign | None:
    if ctx.guild is None:
        return None
    return await CampaignRepository(conn).get_or_create(ctx.guild.id)


async def log_roll(
    conn: aiosqlite.Connection,
    ctx: commands.Context[TableBot],
    *,
    kind: str,
    heading: RollHeading,
    roll: PoolResult,
    difficulty: Difficulty | None,
    expression: str,
    character: Character | None,
    secret: bool,
) -> int:
    """Record a /pool or /check roll (revision 0: nothing spent on it after the roll yet)."""
    logged = await log_roll_row(
        conn, ctx, kind=kind, heading=heading, roll=roll, difficulty=difficulty,
        expression=expression, character=character, secret=secret,
    )  # fmt: skip
    return logged.id


async def log_roll_row(
    conn: aiosqlite.Connection,
    ctx: commands.Context[TableBot],
    *,
    kind: str,
    heading: RollHeading,
    roll: PoolResult,
    difficulty: Difficulty | None,
    expression: str,
    character: Character | None,
    secret: bool,
) -> LoggedRoll:
    """``log_roll``, returning the stored row (so nothing has to read it back)."""
    if difficulty is not None:
        expression += f" vs {int(difficulty)}"
    if heading.label:
        expression += f" {heading.label}"
    result = {
        "heading": heading.to_dict(),
        "difficulty": int(difficulty) if difficulty is not None else None,
        "roll": roll.to_dict(),
        "revision": 0,
    }
    # The first throw, for luck (ruling luck-first-throw): a spend rewrites "roll".
    result[LUCK_KEY] = first_throw(kind, result)
    return await RollLogRepository(conn).add(
        guild_id=ctx.guild.id if ctx.guild else None,
        channel_id=ctx.channel.id,
        user_id=ctx.author.id,
        kind=kind,
        expression=expression[:500],
        result=result,
        total=roll.successes,
        secret=secret,
        character_id=character.id if character else None,
    )


async def lookup_character(
    bot: TableBot, interaction: discord.Interaction, name: object, *, active: bool
) -> Character | None:
    """A character for autocomplete (by name, or the active one); None if not found."""
    if interaction.guild_id is None:
        return None
    async with bot.db.read() as conn:
        repo = CharacterRepository(conn)
        if isinstance(name, str) and name.strip():
            return await repo.find(interaction.guild_id, name[:64])
        if active:
            return await repo.get_active(interaction.guild_id, interaction.user.id)
    return None


async def sheet_skill_choices(
    bot: TableBot, interaction: discord.Interaction, current: str, *, whose: str, active: bool
) -> list[app_commands.Choice[str]]:
    """Skill autocomplete from the sheet named in the ``whose`` option (else, if ``active``,
    the user's active character)."""
    named = getattr(interaction.namespace, whose, None)
    character = await lookup_character(bot, interaction, named, active=active)
    return skill_choices(current, character.sheet if character else None)
