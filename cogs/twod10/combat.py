"""/attack for the 2d10 system: the roll on the to-hit table, damage, and the target's HP."""

from __future__ import annotations

import logging
from dataclasses import replace

from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.text import safe
from bot.render.twod10.combat import attack_embed
from bot.render.twod10.odds import attack_preview_line
from bot.rules.errors import RulesError
from bot.rules.twod10.attack import (
    AttackResult,
    Situation,
    attacker_stats,
    parry_value,
    redirect_attack,
    roll_attack,
)
from bot.rules.twod10.attack_inputs import MISSILE
from bot.rules.twod10.attributes import Attribute
from bot.rules.twod10.initiative.defenses import use_defense
from bot.rules.twod10.maneuvers import Maneuver
from bot.rules.twod10.odds_attack import attack_odds
from bot.rules.twod10.skills import Skill, SkillKey
from bot.rules.twod10.soft_cover import look_stats
from bot.rules.twod10.wielding import Wielded
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import TwoD10Condition, TwoD10Sheet
from bot.storage.twod10.shields import ShieldBlockRepository, ShieldBroken
from cogs.declared_options import Chosen, takes
from cogs.twod10.access import find_sheet, resolve_sheet
from cogs.twod10.combat_ammo import AMMO_RULINGS, check_ammo, spend_ammo
from cogs.twod10.combat_apply import apply_attack, extra_attack, log_attack
from cogs.twod10.combat_defense import defense_waiting, rend_the_slain
from cogs.twod10.combat_opponent import hurt_the_swung, names_opponent, swing_opponent
from cogs.twod10.combat_options import (
    ATTACK_OPTIONS,
    ATTACK_RULINGS,
    SituationFlags,
    parse_situation,
    split_names,
    user_rules_error,
)
from cogs.twod10.combat_tracker import after_attack, tracker_here
from cogs.twod10.combat_tracker import save as save_tracker
from cogs.twod10.combat_weapons import wielded_for
from cogs.twod10.encumbrance_state import (
    burdened_target,
    encumbrance_points,
    item_damage,
)

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]


def situation_for(
    flags: SituationFlags, target: TwoD10Sheet | None, *, others: int, parry: int,
    advantage: int, disadvantage: int, bonus: int, encumbrance: int = 0,
    pins: tuple[bool, bool] = (False, False), defended: bool = False, rend: bool = False,
) -> Situation:  # fmt: skip
    """``target`` None: raw numbers (/odds attack), no tracked conditions to add.
    ``pins``: (attacker pinned, target pinned by the attacker) as the tracker has them;
    ``defended``: the target's declared defense answers this attack (defending-use)."""
    prone = target is not None and target.has(TwoD10Condition.PRONE)
    attacker_pinned, target_pinned = pins
    return Situation(
        flanking=flags.flanking,
        # A prone target tracked by the bot gives advantage without being named, as a
        # pin on the tracker does (ruling pin-tracked).
        target_prone=flags.target_prone or prone,
        target_pinned_by_attacker=flags.target_pinned or target_pinned,
        attacker_pinned=flags.attacker_pinned or attacker_pinned,
        prepared=flags.prepared,
        firing_into_melee=flags.into_melee,
        melee_others=others,
        beyond_range=flags.beyond_range,
        engaged=flags.engaged,
        light=flags.light,
        soft_cover=flags.soft_cover,
        soft_cover_disadvantage=flags.unseen,
        hard_cover=flags.hard_cover,
        buckler_same_hand=flags.buckler_hand,
        hands=flags.hands,
        parry=parry,
        advantage=advantage,
        disadvantage=disadvantage,
        bonus=bonus,
        encumbrance=encumbrance,
        defended=defended or flags.defended,
        rend=rend,
    )


def attacked_attribute(maneuver: str | None, defense: str | None) -> Attribute:
    """The defense an attack targets: named, else the maneuver's first, else finesse."""
    if defense is not None:
        return Attribute(defense)
    if maneuver is not None:
        return Maneuver(maneuver).targets[0]
    return Attribute.FINESSE


class TwoD10CombatCog(RulesetCog, name="2d10 combat"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_command(name="attack", extras={"rulings": [*ATTACK_RULINGS, *AMMO_RULINGS]})
    @commands.guild_only()
    @takes(*ATTACK_OPTIONS)
    async def attack(self, ctx: Ctx, o: Chosen) -> None:
        """Attack a character: the 2d10 roll, the damage dice it moves, armor, the target's HP."""
        if ctx.guild is None:
            raise GuildOnly()
        if o.pin_prone and o.maneuver != "pin":
            raise UserError("pin_prone: forces a pin's target prone: add maneuver: pin, or"
                            " leave pin_prone: out.")  # fmt: skip
        flags = parse_situation(o.situation)
        names = split_names(o.melee_with)
        if names and not flags.into_melee:
            raise UserError("melee_with: names those in a melee you shoot into: add into melee.")
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            attacker = await resolve_sheet(
                conn, campaign, ctx.author, o.character, "attack with it"
            )
            victim = await find_sheet(conn, ctx.guild.id, ctx.author.id, o.target)
            for sheet, role in ((attacker, "attack"), (victim, "be attacked")):
                if sheet.has(TwoD10Condition.DEAD):
                    raise UserError(f"{safe(sheet.name)} is dead and can't {role}.")
            if victim.id == attacker.id:
                raise UserError(f"{safe(attacker.name)} can't attack itself: pick another target.")
            others = [await find_sheet(conn, ctx.guild.id, ctx.author.id, n) for n in names]
            if {attacker.id, victim.id} & {s.id for s in others}:
                raise UserError(
                    "melee_with: names the others in that melee, not you or the target."
                )
            shield = victim.character.shield
            if o.block:
                if shield is None:
                    raise UserError(f"{safe(victim.name)} has no shield to block with.")
                used = await ShieldBlockRepository(conn).used(victim.id, shield.name)
                if used >= shield.blocks:
                    raise ShieldBroken(victim.name, shield.name)
            view = await tracker_here(conn, ctx.guild.id, ctx.channel.id)
            if o.block and view is not None:
                try:
                    view.check_block(victim.id)
                except RulesError as exc:
                    raise user_rules_error(exc) from None
            waiting = view.parry_waiting(victim.id) if view is not None else 0
            if waiting and o.parry is not None:
                raise UserError(
                    f"{safe(victim.name)}'s parry ({waiting}) waits on the tracker and is used"
                    " by itself: attack without parry:."
                )
            loads = await encumbrance_points(conn, [attacker, victim, *others])
            swung = None
            if names_opponent(o.weapon):  # the opponent a use as weapon holds
                if o.thrown or o.two_handed or o.offhand:
                    raise UserError("An opponent is swung in both hands: leave out thrown,"
                                    " two_handed and offhand.")  # fmt: skip
                swung = swing_opponent(view, attacker.id, attacker.character, victim.id)
            try:
                if swung is not None:
                    wielded = swung.wielded
                else:
                    wielded = wielded_for(
                        attacker.character, o.weapon, thrown=o.thrown, two_handed=o.two_handed,
                        offhand=o.offhand,
                    )  # fmt: skip
                finesse = bool(o.finesse) or wielded.offhand or wielded.kind in MISSILE
                if view is not None:  # ruling two-weapon-finesse
                    # Rulings attack-action and disarm-drops: no attack left, or the
                    # weapon lies dropped, is refused before any die.
                    view.check_attack(attacker.id, offhand=wielded.offhand)
                    view.check_held(attacker.id, wielded.weapon, attacker.character.weapons)
                    view.check_grip(attacker.id, offhand=wielded.offhand, finesse=finesse)
                    view.check_loaded(attacker.id, wielded.weapon, attacker.character.weapons)
                # A ranged attack can't be parried, so a waiting parry stays for the next.
                tracker_parry = waiting if wielded.kind not in MISSILE else 0
                parry_points = tracker_parry or self._parry(victim, o.parry)
                attribute = attacked_attribute(o.maneuver, o.defense)
                defender = defense_waiting(view, victim.id, attribute)
                pins = view.pin_flags(attacker.id, victim.id) if view else (False, False)
                result, preview = self._roll(
                    attacker, victim, others, flags, wielded=wielded, maneuver=o.maneuver,
                    attribute=attribute, finesse=o.finesse, block=o.block, parry=parry_points,
                    advantage=o.advantage, disadvantage=o.disadvantage, bonus=o.bonus,
                    odds=o.odds, loads=loads, pins=pins, defended=defender is not None,
                    rend=o.rend,
                )  # fmt: skip
            except RulesError as exc:
                raise user_rules_error(exc) from None
            ammo = await check_ammo(conn, attacker, result.wielded)
            ammo_use = await spend_ammo(conn, attacker, ammo, result)
            hit = victim
            if result.stray is not None and result.stray.new_target is not None:
                hit = others[result.stray.new_target - 1]
            report = await apply_attack(
                conn, attacker=attacker, aimed_at=victim, hit=hit, result=result, block=o.block,
                pin_prone=o.pin_prone,
            )  # fmt: skip
            if o.rend:  # a foe this attack slew may be rent for a weapon (rending-reach)
                report = rend_the_slain(report, attacker.character, self.bot.dice)
            swung_hurt = None
            if swung is not None:  # half the damage to the opponent swung
                swung_hurt = await hurt_the_swung(conn, ctx.guild.id, swung, result.damage_total)
                report = replace(report, tracker_note=swung_hurt.line, swung_log=swung_hurt.log)
            if ammo_use is not None:  # the reply's line and the roll log's record
                report = replace(report, ammo_note=ammo_use.note, ammo_log=ammo_use.logged())
            if view is not None:
                enc, note = after_attack(
                    view, attacker_id=attacker.id, target_id=victim.id,
                    parry_used=bool(tracker_parry), extra=extra_attack(report), blocked=o.block,
                    grip=(result.wielded.offhand, finesse), weapon=result.wielded.weapon,
                    result=result, hit=hit, pin_prone=o.pin_prone,
                    swung=(swung.combatant_id, swung_hurt.taken) if swung and swung_hurt else None,
                )  # fmt: skip
                if defender is not None:  # the declared defense was this reaction
                    enc = use_defense(enc, defender)
                await save_tracker(conn, view, enc)  # (redrawn after the commit)
                report = replace(report, tracker_note="\n".join(
                    n for n in (report.tracker_note, note) if n))  # fmt: skip
            # Ruling item-damage: over 20 damage on a player damages an inventory item.
            hurt = await item_damage(conn, hit, result.damage_total, self.bot.dice)
            if hurt:
                report = replace(report, tracker_note="\n".join(
                    n for n in (report.tracker_note, hurt.note) if n))  # fmt: skip
            roll_id = await log_attack(
                conn, report, guild_id=ctx.guild.id, channel_id=ctx.channel.id,
                user_id=ctx.author.id, attacker_id=attacker.id,
                item_damage=hurt.logged() if hurt else None,
            )  # fmt: skip
        log.info("2d10 attack %s -> %s: %s", attacker.id, hit.id, result.damage_total)
        message = await send(ctx, preview, embed=attack_embed(report))
        if message is not None:  # the recap links its luckiest and unluckiest rolls
            async with self.bot.db.transaction() as conn:
                await RollLogRepository(conn).set_message(roll_id, message.id)

    @staticmethod
    def _parry(victim: TwoD10Sheet, parry: str | None) -> int:
        """parry: the target's finesse + melee (or ranged), spent on this attack."""
        if parry is None:
            return 0
        skill = Skill.MELEE if parry == "melee" else Skill.RANGED
        target = victim.character
        return parry_value(target.attributes.finesse, target.skill(SkillKey(skill=skill)))

    def _roll(
        self,
        attacker: TwoD10Sheet,
        victim: TwoD10Sheet,
        others: list[TwoD10Sheet],
        flags: SituationFlags,
        *,
        wielded: Wielded,
        maneuver: str | None,
        attribute: Attribute,
        finesse: bool,
        block: bool,
        parry: int,
        advantage: int,
        disadvantage: int,
        bonus: int,
        loads: dict[int, int],
        odds: bool = False,
        pins: tuple[bool, bool] = (False, False),
        defended: bool = False,
        rend: bool = False,
    ) -> tuple[AttackResult, str | None]:
        """Roll the attack (and redirect a stray shot), with the odds line before the dice
        when ``odds``; RulesError for what can't be. ``loads`` holds each sheet's EP: the
        attacker's finesse roll and a target's finesse defense lose them (ruling
        encumbrance-rolls), in the odds as in the roll."""
        chosen = Maneuver(maneuver) if maneuver else None
        situation = situation_for(
            flags, victim, others=len(others), parry=parry, advantage=advantage,
            disadvantage=disadvantage, bonus=bonus, encumbrance=loads[attacker.id], pins=pins,
            defended=defended, rend=rend,
        )  # fmt: skip
        dice = self.bot.dice
        stats, aimed = attacker_stats(attacker.character), burdened_target(victim, attribute, loads)
        # Into soft cover the look is rolled first (ruling soft-cover-look: the target's EP
        # lower its finesse + stealth).
        look = look_stats(attacker.character, victim.character, target_ep=loads[victim.id])
        preview = None
        if odds:  # the same arguments as the roll below, before any die
            preview = attack_preview_line(attack_odds(
                wielded, stats, aimed, use_finesse=finesse, maneuver=chosen,
                situation=situation, look=look, block=block,
            ))  # fmt: skip
        result = roll_attack(
            wielded, stats, aimed, use_finesse=finesse, maneuver=chosen,
            situation=situation, look=look, block=block, dice=dice,
        )  # fmt: skip
        if result.stray is not None and result.stray.new_target is not None:
            stray = others[result.stray.new_target - 1]
            result = redirect_attack(result, burdened_target(stray, attribute, loads), dice=dice)
        return result, preview


async def setup(bot: TableBot) -> None:
    await bot.add_cog(TwoD10CombatCog(bot))
