"""/odds for the 2d10 system: the exact chances of a task or an attack before rolling.

``/odds task`` takes /task's options, ``/odds attack`` /attack's (a target's sheet, or
raw numbers: ``target_defense``, ``reduction``, ``armored``). Nothing is rolled, spent,
logged or written; the figures come from ``bot.rules.twod10.odds`` and ``odds_attack``,
which drive the same rules functions as the dice. A query takes milliseconds
(bench/odds.py), so it is answered in place, without a worker thread.
"""

from __future__ import annotations

import logging
from fractions import Fraction

import aiosqlite
import discord
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import percent, safe
from bot.render.twod10.odds import attack_chart, attack_odds_embed, task_chart, task_odds_embed
from bot.rules.errors import RulesError
from bot.rules.twod10.attack_inputs import TargetStats, parry_value
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.difficulty import difficulty_label
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds_attack import attack_odds
from bot.rules.twod10.rulings import ruling
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rulesets import Ruleset
from bot.storage.twod10.characters import (
    TwoD10CharacterRepository,
    TwoD10Condition,
    TwoD10Kind,
    TwoD10Sheet,
)
from bot.storage.twod10.shields import ShieldBlockRepository, ShieldBroken
from bot.tables.permissions import require_gm
from cogs.declared_options import Chosen, odds_twin, pick, takes
from cogs.twod10.access import campaign_for_reading, find_sheet, shows_state
from cogs.twod10.combat import situation_for
from cogs.twod10.combat_options import parse_situation, user_rules_error
from cogs.twod10.encumbrance_state import burdened_target, encumbrance_points, load_encumbrance
from cogs.twod10.odds_attacker import (
    ODDS_ATTACK_OPTIONS,
    RAW_RULING,
    attacker_for,
    check_raw,
    look_for,
)
from cogs.twod10.rulings import RULINGS
from cogs.twod10.task_inputs import (
    PARTY_OPTIONS,
    TASK_OPTIONS,
    Against,
    chances,
    resolve_against,
    task_numbers,
    task_options,
)

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]

ODDS_RULING = (
    "Odds are exact (every face of every die, no sampling) and come from the same rules"
    " functions as the dice; nothing is rolled, spent or logged."
)
TRACKER_RULING = (
    "/odds attack doesn't read a parry waiting on the tracker: name it with parry: to see"
    " its effect. The HP line shows only when you may see the target's HP."
)
_RULES = [ruling(k).text for k in ("odds-natural-two", "odds-stray", "soft-cover-look")]
PARTY_LINES = 40  # keeps the embed far under Discord's 4,096-character description
PARTY_RULING = (
    "/odds party is the GM's: every living player character's chance at the same task, from"
    " their own sheets, best first."
)
TASK_ODDS_RULINGS = [ODDS_RULING, _RULES[0], *RULINGS["task"][:4]]
ATTACK_ODDS_RULINGS = [ODDS_RULING, *_RULES, TRACKER_RULING, RAW_RULING]


class TwoD10OddsCog(RulesetCog, name="2d10 odds"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="odds")
    async def odds(self, ctx: Ctx) -> None:
        """Exact chances of a 2d10 task or attack before you roll it."""

    @odds.command(name="task", extras={"rulings": TASK_ODDS_RULINGS})
    @commands.guild_only()
    @takes(*odds_twin(TASK_OPTIONS))
    async def odds_task(self, ctx: Ctx, o: Chosen) -> None:
        """The chance of each band of the to-hit table for a /task, with a chart."""
        guild = guild_of(ctx)
        level, key = task_options(o)
        async with self.bot.db.read() as conn:
            sheet = None if o.score is not None else await find_sheet(
                conn, guild.id, ctx.author.id, o.character
            )  # fmt: skip
            vs = await resolve_against(conn, guild.id, level, o.target, o.target_defense)
            load = await load_encumbrance(conn, sheet) if sheet is not None else None
        numbers = task_numbers(
            sheet, o.attribute, key, score=o.score, rank=o.rank,
            fallback_who=ctx.author.display_name, load=load,
        )  # fmt: skip
        odds = chances(numbers, vs.modifier, o)
        title = f"Odds: {safe(numbers.who)}, {safe(numbers.what)}"
        embed = task_odds_embed(title, vs.text, odds)
        await send(ctx, embed=embed, file=task_chart(odds))

    @odds.command(name="attack", extras={"rulings": ATTACK_ODDS_RULINGS})
    @commands.guild_only()
    @takes(*ODDS_ATTACK_OPTIONS)
    async def odds_attack(self, ctx: Ctx, o: Chosen) -> None:
        """The chance of each to-hit band of an /attack and the damage it deals, with a chart."""
        guild = guild_of(ctx)
        check_raw(
            score=o.score, rank=o.rank, strength_score=o.strength_score, character=o.character,
            perception_score=o.perception_score,
        )  # fmt: skip
        raw = o.target_defense is not None
        if raw == (o.target is not None):
            raise UserError("Name a target, or give target_defense for raw numbers (not both).")
        if not raw and (o.reduction is not None or o.armored is not None):
            raise UserError("reduction and armored go with target_defense: the sheet has its own.")
        if not raw and o.target_stealth is not None:
            raise UserError(
                "target_stealth goes with target_defense: the sheet has its own finesse + stealth."
            )
        if raw and o.parry is not None:
            raise UserError("parry needs a target's sheet; with raw numbers put it in bonus.")
        flags = parse_situation(o.situation)
        if o.melee_others and not flags.into_melee:
            raise UserError("melee_others counts those in a melee you shoot into: add into melee.")
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            attacker = None if o.score is not None else await find_sheet(
                conn, guild.id, ctx.author.id, o.character
            )  # fmt: skip
            victim = None if raw else await find_sheet(conn, guild.id, ctx.author.id, o.target)
            for sheet, role in ((attacker, "attack"), (victim, "be attacked")):
                if sheet is not None and sheet.has(TwoD10Condition.DEAD):
                    raise UserError(f"{safe(sheet.name)} is dead and can't {role}.")
            if victim is not None and attacker is not None and victim.id == attacker.id:
                raise UserError(f"{safe(attacker.name)} can't attack itself: pick another target.")
            if o.block and victim is not None:
                await _check_shield(conn, victim)
            # The EP /attack would take off the attacker's finesse roll and the target's
            # finesse defense (ruling encumbrance-rolls).
            loads = await encumbrance_points(conn, [s for s in (attacker, victim) if s])
        chosen = Maneuver(o.maneuver) if o.maneuver else None
        attribute = Attribute(o.defense) if o.defense else (
            chosen.targets[0] if chosen is not None else Attribute.FINESSE
        )  # fmt: skip
        try:
            hands = attacker_for(
                attacker, ctx.author.display_name, o.weapon, score=o.score, rank=o.rank,
                strength_score=o.strength_score, finesse=o.finesse, thrown=o.thrown,
                two_handed=o.two_handed, offhand=o.offhand,
            )  # fmt: skip
            if victim is not None:
                stats = burdened_target(victim, attribute, loads)
                against = f"{victim.name}'s {attribute.value} defense {stats.defense}"
            else:
                stats = TargetStats(
                    attribute=attribute, defense=o.target_defense, reduction=o.reduction or 0,
                    armored=bool(o.armored),
                )  # fmt: skip
                against = f"{attribute.value} defense {o.target_defense}"
            situation = situation_for(
                flags, victim, others=o.melee_others, parry=_parry(victim, o.parry),
                advantage=o.advantage, disadvantage=o.disadvantage, bonus=o.bonus,
                encumbrance=loads[attacker.id] if attacker is not None else 0,
            )  # fmt: skip
            # Into soft cover, the look /attack rolls first (ruling soft-cover-look).
            look = look_for(
                hands, victim, loads, situation, perception_score=o.perception_score,
                target_stealth=o.target_stealth,
            )  # fmt: skip
            odds = attack_odds(
                hands.wielded, hands.stats, stats, use_finesse=o.finesse,
                maneuver=chosen, block=o.block, situation=situation, look=look,
            )  # fmt: skip
        except RulesError as exc:
            raise user_rules_error(exc) from None
        hp = victim.hp if victim is not None and shows_state(ctx.author, campaign, victim) else None
        title = f"Odds: {safe(hands.who)} attacks with {safe(hands.wielded.name)}"
        embed = attack_odds_embed(title, against, odds, target_hp=hp)
        await send(ctx, embed=embed, file=attack_chart(odds, target_hp=hp))

    @odds.command(name="party", extras={"rulings": [ODDS_RULING, PARTY_RULING]})
    @commands.guild_only()
    @takes(*pick(TASK_OPTIONS, *PARTY_OPTIONS))
    async def odds_party(self, ctx: Ctx, o: Chosen) -> None:
        """GM: every player character's chance at one task, one line each, best first."""
        guild = guild_of(ctx)
        level, key = task_options(o)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            require_gm(ctx.author, campaign, "ask the whole party's odds")
            sheets = await TwoD10CharacterRepository(conn).list(guild.id)
            sheets = [
                s for s in sheets if s.kind is TwoD10Kind.PC and not s.has(TwoD10Condition.DEAD)
            ]
            loads = {s.id: await load_encumbrance(conn, s) for s in sheets}
        vs = Against(text=f"difficulty {difficulty_label(level)}", modifier=level, target=None)
        lines: list[tuple[Fraction, str]] = []
        what = ""
        for sheet in sheets:
            n = task_numbers(
                sheet, o.attribute, key, score=None, rank=None, fallback_who="",
                load=loads[sheet.id],
            )  # fmt: skip
            what = n.what
            odds = chances(n, level, o)
            line = f"**{safe(sheet.name)}**: {percent(odds.success)} ({odds.modifier:+d})"
            lines.append((odds.success, line))
        if not lines:
            raise UserError("No living player character here yet: players create one first.")
        # Best chance first; equal chances keep the sheets' name order (a stable sort).
        lines.sort(key=lambda pair: pair[0], reverse=True)
        shown = [line for _, line in lines[:PARTY_LINES]]
        if len(lines) > PARTY_LINES:
            shown.append(f"… and {len(lines) - PARTY_LINES} more.")
        embed = discord.Embed(
            title=f"Odds for the party: {safe(what)}"[:256],
            description=f"Success against {vs.text}\n" + "\n".join(shown),
            colour=discord.Colour.blurple(),
        )
        await send(ctx, embed=embed)


def _parry(victim: TwoD10Sheet | None, parry: str | None) -> int:
    """The target's finesse + melee (or ranged), as /attack's parry: spends it."""
    if victim is None or parry is None:
        return 0
    skill = Skill.MELEE if parry == "melee" else Skill.RANGED
    c = victim.character
    return parry_value(c.attributes.finesse, c.skill(SkillKey(skill=skill)))


async def _check_shield(conn: aiosqlite.Connection, victim: TwoD10Sheet) -> None:
    """A block needs a shield that isn't broken, as /attack asks."""
    shield = victim.character.shield
    if shield is None:
        raise UserError(f"{safe(victim.name)} has no shield to block with.")
    used = await ShieldBlockRepository(conn).used(victim.id, shield.name)
    if used >= shield.blocks:
        raise ShieldBroken(victim.name, shield.name)


async def setup(bot: TableBot) -> None:
    await bot.add_cog(TwoD10OddsCog(bot))
