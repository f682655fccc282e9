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
from dataclasses import dataclass, replace
from typing import Any

from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.delivery.secret_rolls import deliver_to_gm
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.interactions.user_text import clean_text
from bot.render.text import safe
from bot.render.twod10.magic import cast_embed
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
from bot.rulesets import Ruleset
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Sheet
from bot.storage.twod10.magic import Held, TwoD10MagicRepository
from cogs.declared_options import Chosen, takes
from cogs.twod10 import options
from cogs.twod10.access import resolve_sheet
from cogs.twod10.magic_fight import cast_in_fight
from cogs.twod10.magic_options import CAST_OPTIONS, RITUAL_OPTIONS, mysteries_of
from cogs.twod10.magic_rulings import RULINGS

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
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


def _request(o: Chosen, form: Form, what: str, **own: Any) -> Request:
    """The options /cast and /ritual share (``CASTING``), with the command's ``own``."""
    return Request(
        form=form, tier=o.tier, what=what, mysteries=o.mysteries, extend=o.extend,
        dangerously=o.dangerously, attacked=o.attacked, damaged=o.damaged,
        concentrate=o.concentrate, advantage=o.advantage, disadvantage=o.disadvantage,
        character=o.character, secret=o.secret, **own,
    )  # fmt: skip


class MagicCog(RulesetCog, name="2d10 magic"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="cast", description="Cast a spontaneous 2d10 spell",
                             extras={"rulings": RULINGS["cast"]})  # fmt: skip
    @commands.guild_only()
    @takes(*CAST_OPTIONS)
    async def cast(self, ctx: Ctx, o: Chosen) -> None:
        """Roll 2d10 + mind + mysteries against the tier; a failure is magical backlash."""
        await self._cast(ctx, _request(o, Form.SPELL, o.category, label=o.label))

    @commands.hybrid_command(name="ritual", description="Cast a 2d10 ritual",
                             extras={"rulings": RULINGS["ritual"]})  # fmt: skip
    @commands.guild_only()
    @takes(*RITUAL_OPTIONS)
    async def ritual(self, ctx: Ctx, o: Chosen) -> None:
        """Roll 2d10 + mind + mysteries against the tier, with the time's advantage."""
        try:
            minutes = parse_duration(o.time) if o.time is not None else None
        except RulesError as exc:
            raise options.rules(exc) from None
        await self._cast(ctx, _request(
            o, Form.RITUAL, o.ritual, component=o.component, minutes=minutes, label=None
        ))  # fmt: skip

    async def _cast(self, ctx: Ctx, request: Request) -> None:
        guild = guild_of(ctx)
        secret = bool(request.secret) and ctx.interaction is not None
        # Typed text is stored and echoed: one honest spelling (user_text), as names are.
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
            if request.form is Form.SPELL:  # a ritual takes minutes: no round's action
                seen = await cast_in_fight(conn, guild.id, ctx.channel.id, sheet,
                                           damaged=request.damaged)  # fmt: skip
                # The tracker saw the attack (ruling attacked-while-casting); attacked: adds
                # what it can't see.
                request = replace(request, attacked=request.attacked or seen)
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
