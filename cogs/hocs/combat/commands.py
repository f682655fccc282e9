"""/attack and /damage: roll, apply to the target in one transaction, show every step.

Each command loads the characters, resolves the rules (``bot.rules.hocs.attack``),
saves the target's vitals, stores the hit (``choices``) and logs the roll
(``records``) in ONE ``BEGIN IMMEDIATE`` transaction, so twenty simultaneous hits on
one character all count. The reply carries buttons to keep another die.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.buttons import Buttons
from bot.render.hocs.combat import attack_intro, choice_note, combat_embed, damage_intro
from bot.render.text import safe
from bot.rules.hocs.attack import (
    DEFAULT_RANGED_DIFFICULTY,
    Advantage,
    SideModifiers,
    choose_damage,
    dice_text,
    resolve_attack,
    resolve_hit,
    roll_inputs,
    roll_record,
    settle_threshold_pledge,
)
from bot.rules.hocs.conditions import Condition
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.characters import Character
from bot.storage.hocs.combat import CombatRepository, remember_choice_message
from bot.storage.roll_log import remember_message
from cogs.hocs.access import resolve_character
from cogs.hocs.combat.attack_store import store_attack
from cogs.hocs.combat.choices import has_choice, record_choice
from cogs.hocs.combat.damage_source import damage_source
from cogs.hocs.combat.hero_reroll import HeroDamageButton
from cogs.hocs.combat.options import (
    ATTACK_OPTION_HELP,
    ATTACK_RULINGS,
    CHOICE_MINUTES,
    DAMAGE_OPTION_HELP,
    DAMAGE_RULINGS,
    AdvantageChoice,
    Count,
    DifficultyValue,
    KindChoice,
    Name,
    Text,
    ThresholdChoice,
    character_names,
    damage_type_names,
    weapon_names,
)
from cogs.hocs.combat.records import choice_dicts, choice_texts, log_damage
from cogs.hocs.combat.spend_first import (
    check_defender,
    check_threshold_pledge,
    spend_before_roll,
    spend_threshold_pledge,
)
from cogs.hocs.combat.targets import find_target, weapon_use
from cogs.hocs.combat.turns import attack_turns
from cogs.hocs.combat.views import DieChoiceButton
from cogs.hocs.points.stored import Side
from cogs.hocs.points.views import roll_view
from cogs.hocs.skill_rolls.options import Rerolls

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]


class CombatCog(RulesetCog, name="Combat"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DieChoiceButton, HeroDamageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(DieChoiceButton, HeroDamageButton)

    # --- /attack -------------------------------------------------------------------------

    @commands.hybrid_command(name="attack", extras={"rulings": ATTACK_RULINGS})
    @commands.guild_only()
    @app_commands.describe(**ATTACK_OPTION_HELP)
    @app_commands.autocomplete(
        target=character_names, character=character_names, weapon=weapon_names
    )
    async def attack(
        self,
        ctx: Ctx,
        target: Name,
        weapon: Text = None,  # type: ignore[assignment]
        skill: Text = None,  # type: ignore[assignment]
        lethal: bool | None = None,
        boons: Count = 0,
        banes: Count = 0,
        focus: Count = 0,
        rerolls: Rerolls = 0,
        guaranteed: Count = 0,
        determination: bool = False,
        advantage: AdvantageChoice | None = None,
        defense_skill: Text = None,  # type: ignore[assignment]
        defender_boons: Count = 0,
        defender_banes: Count = 0,
        defender_focus: Count = 0,
        defender_rerolls: Rerolls = 0,
        defender_guaranteed: Count = 0,
        defender_determination: bool = False,
        threshold: ThresholdChoice | None = None,
        threshold_determination: bool = False,
        kind: KindChoice | None = None,
        damage_type: Text = None,  # type: ignore[assignment]
        difficulty: DifficultyValue = None,  # type: ignore[assignment]
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Attack a character: the clash, then damage applied with every step shown."""
        if ctx.guild is None:
            raise GuildOnly()
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            mine = await resolve_character(
                conn, campaign=campaign, member=ctx.author, name=character, action="attack with it"
            )
            combat = CombatRepository(conn)
            attacker = await combat.with_wounds(mine)
            victim = await find_target(conn, ctx.guild.id, target)
            if victim.character.id == mine.id:
                raise UserError(f"{safe(mine.name)} can't attack itself: pick another target.")
            use, bonus, notes = weapon_use(
                mine, weapon, kind=kind, damage_type=damage_type, lethal=lethal
            )
            before = victim.combatant
            if defender_determination:
                check_defender(ctx, campaign, victim.character)
            if threshold_determination:
                check_threshold_pledge(ctx, campaign, victim.character, "attack")
            turns = await attack_turns(conn, ctx.channel.id, mine.id, victim.character.id)
            mods = SideModifiers(
                focus=focus, rerolls=rerolls, guaranteed=guaranteed, determination=determination,
                extra_banes=turns.extra_banes if turns else (),
            )  # fmt: skip
            defense = SideModifiers(
                boons=defender_boons,
                banes=defender_banes,
                focus=defender_focus,
                rerolls=defender_rerolls,
                guaranteed=defender_guaranteed,
                determination=defender_determination,
                extra_rerolls=turns.defense_rerolls if turns else (),
            )
            result = resolve_attack(
                attacker.combatant,
                before,
                use,
                dice=self.bot.dice,
                skill=skill,
                defense_skill=defense_skill,
                boons=boons,
                banes=banes,
                advantage=Advantage(advantage) if advantage else None,
                difficulty=DEFAULT_RANGED_DIFFICULTY if difficulty is None else difficulty,
                bonus=bonus,
                mods=mods,
                defense=defense,
                threshold_skill=threshold.capitalize() if threshold else None,
                threshold_determination=threshold_determination,
            )
            spent = await spend_before_roll(
                conn, ctx, campaign, mine, victim.character, result,
                attacker_spends=determination, defender_spends=defender_determination,
            )  # fmt: skip
            pledged = False
            if threshold_determination:
                pledged, note = await spend_threshold_pledge(
                    conn, victim.character, result.hit, "attack"
                )
                spent.append(note)
            if turns is not None:
                await turns.record(conn, result.roll.advantage)
            extra_notes = [*notes, *spent, *([turns.note] if turns and turns.note else [])]
            intro = attack_intro(result, extra_notes=extra_notes)
            hit = result.hit
            stored = await store_attack(
                conn, guild_id=ctx.guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                attacker_id=mine.id, target_id=victim.character.id, result=result, intro=intro,
                source=use.name or dice_text(use.dice),
                options={
                    "advantage_asked": advantage, "bonus": bonus, "extra_notes": extra_notes,
                    "threshold_skill": threshold.capitalize() if threshold else None,
                },
                # A side that spent determination before the roll is read again: the
                # target's threshold test (a roll of its own) may still offer one.
                known={c.id: c for c, paid in ((mine, determination),
                       (victim.character, defender_determination or pledged)) if not paid},
            )  # fmt: skip
        log.info("attack by %s on %s: hit=%s", mine.id, victim.character.id, hit is not None)
        if hit is not None and result.inputs is not None:
            notify_characters_changed(self.bot, ctx.guild.id, [victim.character.id])
        embed = combat_embed(
            intro,
            inputs=result.inputs,
            damage=hit.damage if hit else None,
            suggested=hit.suggested if hit else True,
            hit=hit,
            threshold=before.threshold,
            footer=choice_note(victim.character.name, CHOICE_MINUTES)
            if has_choice(result.inputs)
            else None,
        )
        await self._send(ctx, embed, stored.view, stored.choice_id, stored.log_id)

    # --- /damage -------------------------------------------------------------------------

    @commands.hybrid_command(name="damage", extras={"rulings": DAMAGE_RULINGS})
    @commands.guild_only()
    @app_commands.describe(**DAMAGE_OPTION_HELP)
    @app_commands.autocomplete(target=character_names, character=character_names, dice=weapon_names)
    async def damage(
        self,
        ctx: Ctx,
        dice: Text,
        target: Name = None,  # type: ignore[assignment]
        damage_type: Text = None,  # type: ignore[assignment]
        nonlethal: bool = False,
        threshold: ThresholdChoice | None = None,
        threshold_determination: bool = False,
        character: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Roll damage (many dice, one result) and apply it to a target if given."""
        if ctx.guild is None:
            raise GuildOnly()
        notes: list[str] = []
        if threshold_determination and not target:
            raise UserError(
                "threshold_determination is the target's point for its threshold test:"
                " give a target, or roll without it."
            )
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            victim = await find_target(conn, ctx.guild.id, target) if target else None
            if victim is not None and Condition.DEAD in victim.character.state.conditions:
                raise UserError(f"{safe(victim.character.name)} is already dead.")
            if victim is not None and threshold_determination:
                check_threshold_pledge(ctx, campaign, victim.character, "damage")
            defender = victim.combatant if victim else None
            attacker_id: int | None = None
            known: dict[int, Character] = {}  # read here, points unchanged since
            picked = await damage_source(
                conn, ctx, campaign, dice=dice, character=character, damage_type=damage_type,
                nonlethal=nonlethal, defender=defender,
            )  # fmt: skip
            notes += picked.notes
            pool, types, bonus = picked.pool, picked.types, picked.bonus
            who, attacker_id = picked.who, picked.attacker_id
            if picked.attacker is not None:
                known[picked.attacker.id] = picked.attacker
            source = picked.name
            inputs = roll_inputs(pool, types, self.bot.dice, bonus)
            if threshold or threshold_determination:
                inputs = replace(
                    inputs,
                    threshold_skill=threshold.capitalize() if threshold else None,
                    threshold_determination=threshold_determination,
                )
            if victim is not None and defender is not None:
                hit = resolve_hit(defender, inputs, index=None, dice=self.bot.dice)
                await CombatRepository(conn).save_vitals(victim.character.id, hit.after)
                damage, rolls, suggested = hit.damage, hit.rolls, hit.suggested
                pledged = False
                if threshold_determination:
                    pledged, note = await spend_threshold_pledge(
                        conn, victim.character, hit, "damage"
                    )
                    notes.append(note)
                    inputs = settle_threshold_pledge(inputs, hit)
                # The target's threshold row takes it as read here, unless it just paid.
                if pledged:
                    known.pop(victim.character.id, None)
                else:
                    known.setdefault(victim.character.id, victim.character)
            else:
                hit = None
                damage, rolls, suggested = choose_damage(inputs, None, self.bot.dice)
            intro = damage_intro(who, source, victim.character.name if victim else None, notes)
            # The roll log's record first: the choice stores some of its parts too.
            target_name = victim.character.name if victim else None
            record = roll_record(inputs, damage, hit, target=target_name)
            dicts = choice_dicts(record)
            texts = choice_texts(dicts)  # encoded once: both rows hold them
            choice = await record_choice(
                conn,
                guild_id=ctx.guild.id,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                attacker_id=attacker_id,
                target_id=victim.character.id if victim else None,
                intro=intro,
                inputs=inputs,
                rolls=rolls,
                chosen_index=damage.result.chosen_index if damage.result else None,
                before=hit.before if hit else None,
                after=hit.after if hit else None,
                dicts=dicts,
                texts=texts,
            )
            choice_id = choice.id if choice is not None else None
            logged = await log_damage(
                conn,
                guild_id=ctx.guild.id,
                channel_id=ctx.channel.id,
                user_id=ctx.author.id,
                attacker_id=attacker_id,
                source=source,
                target=target_name,
                inputs=inputs,
                damage=damage,
                hit=hit,
                record=record,
                texts=texts,
                # What the target's points spent on its threshold test later need.
                extra={
                    **({"target_id": victim.character.id} if victim else {}),
                    "choice_id": choice_id,
                    "revision": 0,
                },
            )
            log_id = logged.id
            # The buttons from what was just stored and read (no read after the commit):
            # the target's threshold row, then Hero reroll damage and the die choices.
            test = hit.threshold_test if hit is not None else None
            view = await roll_view(
                conn, logged, known, {Side.T: test.roll if test else None}, choice=choice
            )
        if victim is not None:
            notify_characters_changed(self.bot, ctx.guild.id, [victim.character.id])
        footer = None
        if has_choice(inputs):
            footer = choice_note(victim.character.name if victim else None, CHOICE_MINUTES)
        embed = combat_embed(
            intro,
            inputs=inputs,
            damage=damage,
            suggested=suggested,
            hit=hit,
            threshold=defender.threshold if defender else None,
            footer=footer,
        )
        await self._send(ctx, embed, view, choice_id, log_id)

    async def _send(
        self,
        ctx: Ctx,
        embed: discord.Embed,
        view: Buttons | None,
        choice_id: int | None,
        log_id: int,
    ) -> None:
        message = await send(ctx, embed=embed, **({"view": view} if view is not None else {}))
        if message is not None:
            remember_message(self.bot.db, log_id, message.id)
            if choice_id is not None:
                remember_choice_message(self.bot.db, choice_id, message.id)

    @attack.autocomplete("damage_type")
    @damage.autocomplete("damage_type")
    async def damage_type_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return damage_type_names(current)
