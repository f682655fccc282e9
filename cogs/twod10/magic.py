"""/cast and /ritual: the 2d10 casting roll (mind + mysteries against the tier's
difficulty), its backlash, and the concentration a lasting effect holds.

One transaction per command: the sheet and its concentration are read, the dice
rolled, the roll logged (kind ``2d10-cast`` or ``2d10-ritual``; the roll log's
``character_id`` points at HOCS characters, so the 2d10 id goes in the logged
result) and the concentration written. The GM keeps the narrative: the bot keeps
the numbers, names the band and says how many random magical effects to describe.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.events import notify_characters_changed
from bot.render.character import safe
from bot.render.twod10.magic import cast_embed
from bot.replies import send
from bot.rules.errors import RulesError
from bot.rules.twod10.magic import (
    Casting,
    CastResult,
    Concentration,
    Extension,
    Form,
    Tier,
    after_casting,
    cast,
    interrupted,
)
from bot.rules.twod10.magic_time import parse_duration, ritual_extension
from bot.rules.twod10.tasks import MAX_EDGE
from bot.rulesets import Ruleset, RulesetCog
from bot.secret_rolls import deliver_to_gm
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10_characters import TwoD10Sheet
from bot.storage.twod10_magic import Held, TwoD10MagicRepository
from cogs.characters.options import clean_text
from cogs.twod10 import options
from cogs.twod10.access import campaign_of, guild_of, resolve_sheet
from cogs.twod10.magic_options import mysteries_choices, mysteries_of
from cogs.twod10.magic_rulings import RULINGS

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
TierNumber = commands.Range[int, 1, 3]
Count = commands.Range[int, 0, MAX_EDGE]
Name = commands.Range[str, 1, 64]
Text = commands.Range[str, 1, 100]
Subfield = commands.Range[str, 1, 40]
Label = commands.Range[str, 1, 80]
Duration = commands.Range[str, 1, 40]
MAX_EXPRESSION = 500
MAX_TEXT = 100
KINDS = {Form.SPELL: "2d10-cast", Form.RITUAL: "2d10-ritual"}


@dataclass(frozen=True, kw_only=True)
class Request:
    """What the caster asked for, before the dice."""

    form: Form
    tier: int
    what: str  # the spell's category, or the ritual's name
    mysteries: str | None
    extend: bool
    component: bool = False
    minutes: int | None = None
    dangerously: bool
    attacked: bool
    damaged: bool
    concentrate: str | None
    advantage: int
    disadvantage: int
    character: str | None
    label: str | None
    secret: bool


class MagicCog(RulesetCog, name="2d10 magic"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="cast", description="Cast a spontaneous 2d10 spell",
                             extras={"rulings": RULINGS["cast"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        tier="The spell's tier: 1 (difficulty -10), 2 (-15) or 3 (-20)",
        category="The category of magic your special covers, e.g. lightning",
        mysteries="Your Mysteries subfield to roll (default: your only one)",
        dangerously="Cast dangerously: +5 and a random magical effect",
        attacked="You were attacked while casting: disadvantage",
        extend="Extend the casting by a full round: advantage",
        concentrate="A lasting effect you concentrate on, e.g. 'levitating'",
        damaged="You took damage in combat while casting: it fails unrolled",
        advantage="Other advantage sources (each cancels one disadvantage)",
        disadvantage="Other disadvantage sources",
        character="Who casts (default: your active character)",
        label="What the spell is for",
        secret="Show the result only to you and the GM",
    )
    @app_commands.autocomplete(mysteries=mysteries_choices, character=options.character_names)
    async def cast(
        self,
        ctx: Ctx,
        tier: TierNumber,
        category: Text,
        mysteries: Subfield = None,  # type: ignore[assignment]
        dangerously: bool = False,
        attacked: bool = False,
        extend: bool = False,
        concentrate: Text = None,  # type: ignore[assignment]
        damaged: bool = False,
        advantage: Count = 0,
        disadvantage: Count = 0,
        character: Name = None,  # type: ignore[assignment]
        label: Label = None,  # type: ignore[assignment]
        secret: bool = False,
    ) -> None:
        """Roll 2d10 + mind + mysteries against the tier; a failure is magical backlash."""
        await self._cast(ctx, Request(
            form=Form.SPELL, tier=tier, what=category, mysteries=mysteries, extend=extend,
            dangerously=dangerously, attacked=attacked, damaged=damaged,
            concentrate=concentrate, advantage=advantage, disadvantage=disadvantage,
            character=character, label=label, secret=secret,
        ))  # fmt: skip

    @commands.hybrid_command(name="ritual", description="Cast a 2d10 ritual",
                             extras={"rulings": RULINGS["ritual"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        tier="The ritual's tier: 1 (difficulty -10), 2 (-15) or 3 (-20)",
        ritual="The ritual, e.g. 'speak with the dead'",
        time="Casting time, e.g. '10 minutes', '1 hour', '1 day' (the maximum gives advantage)",
        component="A ritual component is used (tier 2 always needs one)",
        mysteries="Your Mysteries subfield to roll (default: your only one)",
        extend="Extend the casting by a full round: advantage",
        dangerously="Cast dangerously: +5 and a random magical effect",
        attacked="You were attacked while casting: disadvantage",
        concentrate="A lasting effect (or one prepared in an object) you concentrate on",
        damaged="You took damage in combat while casting: it fails unrolled",
        advantage="Other advantage sources (each cancels one disadvantage)",
        disadvantage="Other disadvantage sources",
        character="Who casts (default: your active character)",
        secret="Show the result only to you and the GM",
    )
    @app_commands.autocomplete(mysteries=mysteries_choices, character=options.character_names)
    async def ritual(
        self,
        ctx: Ctx,
        tier: TierNumber,
        ritual: Text,
        time: Duration = None,  # type: ignore[assignment]
        component: bool = False,
        mysteries: Subfield = None,  # type: ignore[assignment]
        extend: bool = False,
        dangerously: bool = False,
        attacked: bool = False,
        concentrate: Text = None,  # type: ignore[assignment]
        damaged: bool = False,
        advantage: Count = 0,
        disadvantage: Count = 0,
        character: Name = None,  # type: ignore[assignment]
        secret: bool = False,
    ) -> None:
        """Roll 2d10 + mind + mysteries against the tier, with the time's advantage."""
        try:
            minutes = parse_duration(time) if time is not None else None
        except RulesError as exc:
            raise options.rules(exc) from None
        await self._cast(ctx, Request(
            form=Form.RITUAL, tier=tier, what=ritual, mysteries=mysteries, extend=extend,
            component=component, minutes=minutes, dangerously=dangerously,
            attacked=attacked, damaged=damaged, concentrate=concentrate,
            advantage=advantage, disadvantage=disadvantage, character=character,
            label=None, secret=secret,
        ))  # fmt: skip

    async def _cast(self, ctx: Ctx, request: Request) -> None:
        guild = guild_of(ctx)
        secret = bool(request.secret) and ctx.interaction is not None
        # Typed text is stored and echoed: one honest spelling (bot.text), as names are.
        named = "The spell's category" if request.form is Form.SPELL else "The ritual"
        what = clean_text(request.what, what=named, limit=MAX_TEXT)
        effect = None
        if request.concentrate is not None:
            effect = clean_text(request.concentrate, what="The effect", limit=MAX_TEXT)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, request.character,
                                        "cast for them")  # fmt: skip
            subfield = mysteries_of(sheet, request.mysteries)
            result = self._roll(sheet, request, what, subfield)
            magic = TwoD10MagicRepository(conn)
            held = await magic.get(guild.id, sheet.id)
            state = Concentration(effect=held.effect) if held else Concentration()
            after, ended = after_casting(state, result, effect)
            roll_id = await RollLogRepository(conn).record(
                guild_id=guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                kind=KINDS[request.form], expression=_expression(sheet, request, what, result),
                result=_logged(sheet, request, what, result, effect, ended),
                total=result.roll.total if result.roll else None, secret=secret,
            )  # fmt: skip
            if ended is not None:
                await magic.end(guild.id, sheet.id)
            # A success holds its effect anew, even the same effect re-cast.
            holding = after.effect if effect is not None and result.succeeded else None
            if holding is not None:
                await magic.hold(guild.id, Held(
                    character_id=sheet.id, effect=holding, form=request.form,
                    tier=result.casting.tier, roll_id=roll_id,
                ))  # fmt: skip
        embed = cast_embed(
            result, who=sheet.name, what=what, advantage=request.advantage,
            disadvantage=request.disadvantage, minutes=request.minutes,
            concentrating=holding, ended=ended, label=request.label,
        )  # fmt: skip
        if secret:
            await ctx.defer(ephemeral=True)
            where = await deliver_to_gm(
                guild,
                campaign,
                f"Secret {request.form.value} by {safe(ctx.author.display_name)}",
                embed=embed,
            )
            message = await send(ctx, f"-# Secret: {where}.", embed=embed, ephemeral=True)
        else:
            message = await send(ctx, embed=embed)
        if ended is not None or holding is not None:
            notify_characters_changed(self.bot, guild.id, [sheet.id])  # the tracker shows it
        if message is not None:
            async with self.bot.db.transaction() as conn:
                await RollLogRepository(conn).set_message(roll_id, message.id)
        log.debug("2d10 %s %s by %s", request.form.value, roll_id, ctx.author.id)

    def _roll(self, sheet: TwoD10Sheet, request: Request, what: str, subfield: str) -> CastResult:
        try:
            tier = Tier(request.tier)
            if request.form is Form.RITUAL:
                extension = ritual_extension(tier, request.minutes, extra_round=request.extend)
            else:
                extension = Extension.EXTRA_ROUND if request.extend else Extension.NONE
            casting = Casting(
                form=request.form, tier=tier, subfield=subfield,
                category=what if request.form is Form.SPELL else "", extension=extension,
                component=request.component, dangerously=request.dangerously,
                attacked=request.attacked,
            )  # fmt: skip
            if request.damaged:
                return interrupted(casting)
            return cast(sheet.character, casting, advantage=request.advantage,
                        disadvantage=request.disadvantage, dice=self.bot.dice)  # fmt: skip
        except RulesError as exc:
            raise options.rules(exc) from None


def _expression(sheet: TwoD10Sheet, request: Request, what: str, result: CastResult) -> str:
    outcome = "interrupted" if result.roll is None else str(result.roll.total)
    text = f"{request.form.value} tier {request.tier} {what} by {sheet.name}: {outcome}"
    return text[:MAX_EXPRESSION]


def _logged(
    sheet: TwoD10Sheet,
    request: Request,
    what: str,
    result: CastResult,
    effect: str | None,
    ended: str | None,
) -> dict[str, Any]:
    roll = result.roll
    casting = result.casting
    return {
        "ruleset": "2d10",
        "character_id": sheet.id,  # a twod10_characters id
        "form": casting.form.value,
        "tier": casting.tier.value,
        "what": what,
        "subfield": casting.subfield,
        "minutes": request.minutes,
        "component": casting.component,
        "extension": casting.extension.value,
        "dangerously": casting.dangerously,
        "attacked": casting.attacked,
        "interrupted": roll is None,
        "faces": list(roll.roll.faces) if roll else [],
        "dropped": roll.roll.dropped if roll else None,
        "modifiers": [[m.label, m.value] for m in roll.modifiers] if roll else [],
        "total": roll.total if roll else None,
        "band": roll.band.name.lower() if roll else None,
        "succeeded": result.succeeded,
        "backlash": result.backlash.name.lower(),
        "shortfall": result.shortfall,
        "random_effects": result.random_effects,
        "concentrate": effect,
        "ended": ended,
        "label": request.label,
    }


async def setup(bot: TableBot) -> None:
    await bot.add_cog(MagicCog(bot))
