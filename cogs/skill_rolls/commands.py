"""/pool, /check and /clash: skill rolls from a raw pool, a character sheet, or two sides.

Each command validates its options, then in ONE transaction loads what it needs,
spends a determination point (a conditional UPDATE), rolls and writes the roll
log; only then is the reply sent and its message id stored on the log row, so
later features (rerolls, determination after the roll) can find and change it.
"""

from __future__ import annotations

import logging
from typing import Any

import aiosqlite
import discord
from discord import app_commands
from discord.ext import commands

from bot.character_access import UnknownCharacter, resolve_character
from bot.client import TableBot
from bot.errors import GuildOnly, UserError
from bot.render.skill_roll import (
    ClashSides,
    RollHeading,
    clash_embed,
    escape,
    skill_roll_embed,
)
from bot.replies import send
from bot.rules.errors import RulesError
from bot.rules.hocs.character import SkillPool, skill_pool
from bot.rules.hocs.clash import ClashSide, resolve_clash
from bot.rules.hocs.conditions import Condition, Conditions, skill_roll_banes
from bot.rules.hocs.difficulty import Difficulty
from bot.rules.hocs.modifiers import MAX_MODIFIER
from bot.rules.hocs.pool import PoolResult, PoolSpec
from bot.rules.hocs.rolling import roll_pool
from bot.secret_rolls import deliver_to_gm
from bot.storage.campaigns import Campaign, CampaignRepository
from bot.storage.characters import Character, CharacterRepository
from bot.storage.roll_log import RollLogRepository
from cogs.skill_rolls.options import (
    CHECK_RULINGS,
    CLASH_RULINGS,
    POOL_RULINGS,
    Count,
    Dice,
    Name,
    Text,
    clean_label,
    difficulty_choices,
    escape_user_text,
    opponent_pool_size,
    parse_difficulty_option,
    skill_choices,
)

log = logging.getLogger(__name__)

ROLL_FOR_THEM = "roll for them"


def _condition_banes(conditions: Conditions) -> tuple[int, tuple[tuple[str, int], ...]]:
    """Banes from conditions and where they come from (for the embed)."""
    parts: list[tuple[str, int]] = []
    if Condition.STAGGERED in conditions:
        parts.append(("staggered", 2))
    fatigued = conditions.value(Condition.FATIGUED)
    if fatigued:
        parts.append(("fatigued", fatigued))
    total = skill_roll_banes(conditions)
    assert total == sum(n for _, n in parts)
    return total, tuple(parts)


def _sheet_pool(character: Character, name: str) -> SkillPool:
    try:
        return skill_pool(character.sheet, name[:100])
    except RulesError as exc:
        # The message quotes what the user typed: keep it from formatting or pinging.
        raise UserError(escape_user_text(str(exc))) from None


def _banes_with_conditions(banes: int, character: Character | None) -> tuple[int, Any]:
    if character is None:
        return banes, ()
    extra, parts = _condition_banes(character.state.conditions)
    return min(MAX_MODIFIER, banes + extra), parts


def _determination_note(character: Character, left: int) -> str:
    return f"Determination point spent from {escape(character.name)}: {left} left."


class NoDeterminationLeft(UserError):
    def __init__(self, character: Character) -> None:
        super().__init__(
            f"{escape(character.name)} has no determination points left, so nothing was"
            " rolled: roll again without determination."
        )


async def _spend_determination(conn: aiosqlite.Connection, character: Character) -> int:
    """Spend one point (conditional UPDATE); raise NoDeterminationLeft; return points left."""
    repo = CharacterRepository(conn)
    if not await repo.spend_determination(character.id):
        raise NoDeterminationLeft(character)
    fresh = await repo.get(character.id)
    return fresh.state.determination if fresh is not None else 0


class SkillRollsCog(commands.Cog, name="Skill rolls"):
    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    # --- /pool ---------------------------------------------------------------------------

    @commands.hybrid_command(name="pool", extras={"rulings": POOL_RULINGS})
    @app_commands.describe(
        dice="Number of d6 in the pool (0–30)",
        difficulty="Test difficulty: a number 0–10 or a name such as Hard",
        boons="Boons (any net boon adds 1d6; they cancel banes)",
        banes="Banes (−1d6 per 2 banes, rounded up, after boons cancel them)",
        focus="Focus: +1 to one die each",
        rerolls="Rerolls: roll one failed die again each",
        guaranteed="Guaranteed successes: turn one die into a 4 each",
        determination="Spend a determination point of your active character (exploding boon)",
        label="What the roll is for",
        secret="Show the result only to you and the GM",
    )
    async def pool(
        self,
        ctx: commands.Context[TableBot],
        dice: Dice,
        difficulty: str | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: Count = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        label: Text | None = None,
        secret: bool = False,
    ) -> None:
        """Roll a pool of d6s (successes on 4–6), optionally against a difficulty."""
        level = parse_difficulty_option(difficulty)
        spec = PoolSpec(
            base=dice,
            boons=boons,
            banes=banes,
            determination=bool(determination),
            focus=focus,
            rerolls=rerolls,
            guaranteed=guaranteed,
        )
        secret = self._secret(ctx, secret)
        notes: list[str] = []
        async with self.bot.db.transaction() as conn:
            campaign = await self._campaign(conn, ctx)
            character = None
            if determination:
                character = await self._active_for_determination(conn, ctx)
                left = await _spend_determination(conn, character)
                notes.append(_determination_note(character, left))
            roll = roll_pool(spec, self.bot.dice)
            heading = RollHeading(
                who=ctx.author.display_name,
                what=f"{dice}d6",
                label=clean_label(label),
                notes=tuple(notes),
            )
            roll_id = await self._log(
                conn, ctx, kind="pool", heading=heading, roll=roll, difficulty=level,
                expression=f"pool {dice}d6", character=character, secret=secret,
            )  # fmt: skip
        embed = skill_roll_embed(heading, roll, level)
        await self._reply(ctx, roll_id, embed, campaign=campaign, secret=secret)

    # --- /check --------------------------------------------------------------------------

    @commands.hybrid_command(name="check", extras={"rulings": CHECK_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        skill="Skill or attribute from the character's sheet",
        difficulty="Test difficulty: a number 0–10 or a name such as Hard",
        boons="Boons (any net boon adds 1d6; they cancel banes)",
        banes="Banes besides the conditions' (added automatically)",
        focus="Focus: +1 to one die each",
        rerolls="Rerolls: roll one failed die again each",
        guaranteed="Guaranteed successes: turn one die into a 4 each",
        determination="Spend one of the character's determination points (exploding boon)",
        character="Whose sheet (default: your active character)",
        secret="Show the result only to you and the GM",
    )
    async def check(
        self,
        ctx: commands.Context[TableBot],
        skill: Text,
        difficulty: str | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: Count = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        character: Name | None = None,
        secret: bool = False,
    ) -> None:
        """Roll a skill or attribute from a character sheet, with condition banes applied."""
        if ctx.guild is None:
            raise GuildOnly()
        level = parse_difficulty_option(difficulty)
        secret = self._secret(ctx, secret)
        async with self.bot.db.transaction() as conn:
            campaign = await self._campaign(conn, ctx)
            assert campaign is not None
            who = await resolve_character(
                conn, campaign=campaign, member=ctx.author, name=character, action=ROLL_FOR_THEM
            )
            pool = _sheet_pool(who, skill)
            all_banes, from_conditions = _banes_with_conditions(banes, who)
            spec = pool.spec(
                boons=boons,
                banes=all_banes,
                determination=bool(determination),
                focus=focus,
                rerolls=rerolls,
                guaranteed=guaranteed,
            )
            notes = []
            if determination:
                notes.append(_determination_note(who, await _spend_determination(conn, who)))
            roll = roll_pool(spec, self.bot.dice)
            heading = RollHeading(
                who=who.name, what=pool.label, condition_banes=from_conditions, notes=tuple(notes)
            )
            roll_id = await self._log(
                conn, ctx, kind="check", heading=heading, roll=roll, difficulty=level,
                expression=f"check {pool.label}", character=who, secret=secret,
            )  # fmt: skip
        embed = skill_roll_embed(heading, roll, level)
        await self._reply(ctx, roll_id, embed, campaign=campaign, secret=secret)

    # --- /clash --------------------------------------------------------------------------

    @commands.hybrid_command(name="clash", extras={"rulings": CLASH_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        skill="Your skill or attribute",
        opponent="A character's name, or a number of dice such as 4",
        opponent_skill="The opponent's skill (default: yours, or defense in an attack)",
        attack="You attack: the attacker wins ties",
        boons="Your boons",
        banes="Your banes besides your conditions'",
        opponent_boons="The opponent's boons",
        opponent_banes="The opponent's banes besides its conditions'",
        character="Your character (default: your active character)",
    )
    async def clash(
        self,
        ctx: commands.Context[TableBot],
        skill: Text,
        opponent: Name,
        opponent_skill: Text | None = None,
        attack: bool = False,
        boons: Count = 0,
        banes: Count = 0,
        opponent_boons: Count = 0,
        opponent_banes: Count = 0,
        character: Name | None = None,
    ) -> None:
        """Roll a clash (or an attack) against another character or a pool of dice."""
        if ctx.guild is None:
            raise GuildOnly()
        size = opponent_pool_size(opponent)
        notes: list[str] = []
        async with self.bot.db.transaction() as conn:
            campaign = await self._campaign(conn, ctx)
            assert campaign is not None
            mine = await resolve_character(
                conn, campaign=campaign, member=ctx.author, name=character, action=ROLL_FOR_THEM
            )
            my_pool = _sheet_pool(mine, skill)
            my_banes, my_conditions = _banes_with_conditions(banes, mine)
            a_spec = my_pool.spec(boons=boons, banes=my_banes)
            a_heading = RollHeading(
                who=mine.name, what=my_pool.label, condition_banes=my_conditions
            )
            rival: Character | None = None
            if size is not None:
                b_spec = PoolSpec(base=size, boons=opponent_boons, banes=opponent_banes)
                b_heading = RollHeading(who="Opponent", what=f"{size}d6")
                if opponent_skill:
                    notes.append("The opponent is a plain pool, so opponent_skill was not used.")
            else:
                rival = await CharacterRepository(conn).find(ctx.guild.id, opponent)
                if rival is None:
                    raise UnknownCharacter(opponent)
                if rival.id == mine.id:
                    raise UserError(
                        f"{escape(mine.name)} can't clash with itself: pick another opponent."
                    )
                their_skill = opponent_skill or ("defense" if attack else skill)
                b_pool = _sheet_pool(rival, their_skill)
                b_banes, b_conditions = _banes_with_conditions(opponent_banes, rival)
                b_spec = b_pool.spec(boons=opponent_boons, banes=b_banes)
                b_heading = RollHeading(
                    who=rival.name, what=b_pool.label, condition_banes=b_conditions
                )
            result = resolve_clash(a_spec, b_spec, dice=self.bot.dice, attack=attack)
            sides = ClashSides(a=a_heading, b=b_heading, notes=tuple(notes))
            data = {
                "a_heading": a_heading.to_dict(),
                "b_heading": b_heading.to_dict(),
                "opponent_character_id": rival.id if rival else None,
                "clash": result.to_dict(),
            }
            winner = {ClashSide.A: "a", ClashSide.B: "b", None: "stand-off"}[result.winner]
            roll_id = await RollLogRepository(conn).record(
                guild_id=ctx.guild.id,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                kind="clash",
                expression=(
                    f"clash {my_pool.label} vs {b_heading.who} {b_heading.what}"
                    f"{' (attack)' if attack else ''} → {winner}"
                )[:500],
                result=data,
                total=result.final.a.successes,
                secret=False,
                character_id=mine.id,
            )
        await self._reply(ctx, roll_id, clash_embed(sides, result), campaign=campaign, secret=False)

    # --- autocomplete --------------------------------------------------------------------

    @pool.autocomplete("difficulty")
    @check.autocomplete("difficulty")
    async def difficulty_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return difficulty_choices(current)

    @check.autocomplete("character")
    @clash.autocomplete("character")
    async def character_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        async with self.bot.db.read() as conn:
            names = await CharacterRepository(conn).search_names(
                interaction.guild_id, current[:64], owner_id=interaction.user.id
            )
        return [app_commands.Choice(name=n, value=n) for n in names][:25]

    @clash.autocomplete("opponent")
    async def opponent_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices: list[app_commands.Choice[str]] = []
        try:
            size = opponent_pool_size(current) if current.strip() else None
        except UserError:
            size = None
        if size is not None:
            choices.append(app_commands.Choice(name=f"{size} dice (a plain pool)", value=str(size)))
        if interaction.guild_id is not None:
            async with self.bot.db.read() as conn:
                names = await CharacterRepository(conn).search_names(
                    interaction.guild_id, current[:64]
                )
            choices.extend(app_commands.Choice(name=n, value=n) for n in names)
        return choices[:25]

    @check.autocomplete("skill")
    @clash.autocomplete("skill")
    async def skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        named = getattr(interaction.namespace, "character", None)
        character = await self._lookup(interaction, named, active=True)
        return skill_choices(current, character.sheet if character else None)

    @clash.autocomplete("opponent_skill")
    async def opponent_skill_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        named = getattr(interaction.namespace, "opponent", None)
        character = await self._lookup(interaction, named, active=False)
        return skill_choices(current, character.sheet if character else None)

    async def _lookup(
        self, interaction: discord.Interaction, name: object, *, active: bool
    ) -> Character | None:
        """A character for autocomplete (by name, or the active one); None if not found."""
        if interaction.guild_id is None:
            return None
        async with self.bot.db.read() as conn:
            repo = CharacterRepository(conn)
            if isinstance(name, str) and name.strip():
                return await repo.find(interaction.guild_id, name[:64])
            if active:
                return await repo.get_active(interaction.guild_id, interaction.user.id)
        return None

    # --- shared steps --------------------------------------------------------------------

    @staticmethod
    def _secret(ctx: commands.Context[TableBot], secret: bool | None) -> bool:
        # Message commands are always public (as with /roll); DMs have no GM to tell.
        return bool(secret) and ctx.guild is not None and ctx.interaction is not None

    @staticmethod
    async def _campaign(
        conn: aiosqlite.Connection, ctx: commands.Context[TableBot]
    ) -> Campaign | None:
        if ctx.guild is None:
            return None
        return await CampaignRepository(conn).get_or_create(ctx.guild.id)

    @staticmethod
    async def _active_for_determination(
        conn: aiosqlite.Connection, ctx: commands.Context[TableBot]
    ) -> Character:
        if ctx.guild is None:
            raise UserError(
                "Determination points belong to a character in a server: roll without"
                " determination here."
            )
        character = await CharacterRepository(conn).get_active(ctx.guild.id, ctx.author.id)
        if character is None:
            raise UserError(
                "Determination is spent from your active character and you have none here:"
                " pick one with /character select, or roll without determination."
            )
        return character

    @staticmethod
    async def _log(
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
        if difficulty is not None:
            expression += f" vs {int(difficulty)}"
        if heading.label:
            expression += f" {heading.label}"
        return await RollLogRepository(conn).record(
            guild_id=ctx.guild.id if ctx.guild else None,
            channel_id=ctx.channel.id,
            user_id=ctx.author.id,
            kind=kind,
            expression=expression[:500],
            result={
                "heading": heading.to_dict(),
                "difficulty": int(difficulty) if difficulty is not None else None,
                "roll": roll.to_dict(),
            },
            total=roll.successes,
            secret=secret,
            character_id=character.id if character else None,
        )

    async def _reply(
        self,
        ctx: commands.Context[TableBot],
        roll_id: int,
        embed: discord.Embed,
        *,
        campaign: Campaign | None,
        secret: bool,
    ) -> None:
        """Send the embed (secretly: to the roller and the GM) and remember the message."""
        if secret:
            assert ctx.guild is not None and campaign is not None
            await ctx.defer(ephemeral=True)
            who = escape(ctx.author.display_name)
            where = await deliver_to_gm(ctx.guild, campaign, f"Secret roll by {who}", embed=embed)
            message = await send(ctx, f"-# Secret: {where}.", embed=embed, ephemeral=True)
        else:
            message = await send(ctx, embed=embed)
        if message is not None:
            async with self.bot.db.transaction() as conn:
                await RollLogRepository(conn).set_message(roll_id, message.id)
        log.debug("skill roll %s by %s", roll_id, ctx.author.id)
