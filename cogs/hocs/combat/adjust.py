"""/hp and /condition: the GM's manual adjustments (anyone may list conditions)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.events import notify_characters_changed
from bot.delivery.replies import send
from bot.errors import GuildOnly, UserError
from bot.interactions.hp_change import MAX_HP_CHANGE
from bot.interactions.ruleset_cog import RulesetCog
from bot.render.hocs.character import hidden_state_embed
from bot.render.hocs.combat import conditions_embed, hp_embed
from bot.render.hocs.recovery import test_line
from bot.render.text import safe
from bot.rules.hocs.attack import Vitals
from bot.rules.hocs.conditions import Condition, ConditionKind, Conditions
from bot.rules.hocs.damage import heal
from bot.rules.hocs.threshold import (
    clear_staggered_if_recovered,
    recovery_kind,
    roll_recovery_test,
)
from bot.rulesets import Ruleset
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_vitals import CharacterVitalsRepository
from bot.storage.hocs.characters import CharacterRepository
from bot.storage.hocs.combat import CombatCharacter, CombatRepository
from bot.tables.character_access import NoActiveCharacter
from bot.tables.permissions import require_gm
from cogs.hocs.combat.options import (
    CONDITION_RULINGS,
    HP_RULINGS,
    ConditionChoice,
    ConditionValue,
    Name,
    Text,
    character_names,
    condition_from,
    parse_hp_change,
)
from cogs.hocs.combat.targets import find_target
from cogs.hocs.visibility import shows_state

log = logging.getLogger(__name__)

RECOVERY_TEST_RULINGS = [
    "GM only. A dying character tests physique or willpower vs 3: success, stable (still"
    " unconscious); failure, dead. An unconscious one tests the same: success, awake"
    " (staggered at 0 HP or below); failure, still unconscious.",
    "Without a choice the pool with more dice after banes is rolled (physique on a tie).",
    "In an encounter the tracker prompts the test itself when it falls due (STR minutes,"
    " then every half hour, at 10 rounds a minute); this command is for any other time.",
]

Ctx = commands.Context[TableBot]


def change_hp(target: CombatCharacter, mode: str, amount: int) -> tuple[Vitals, str]:
    """The vitals after a /hp change, and a label for it. UserError to refuse."""
    values = target.effective
    vitals = target.vitals
    maximum = values.max_hp
    if mode == "heal":
        state = values.hit_points(vitals.hp, temporary=vitals.temp_hp, nonlethal=vitals.nonlethal)
        healed = heal(state, amount)
        conditions = clear_staggered_if_recovered(vitals.conditions, healed)
        after = replace(
            vitals, hp=healed.current, nonlethal=healed.nonlethal_taken, conditions=conditions
        )
        return after, f"Healed {amount}"
    if mode == "lose":
        hp = max(-MAX_HP_CHANGE, vitals.hp - amount)
        return replace(vitals, hp=hp, nonlethal=min(vitals.nonlethal, max(0, maximum - hp))), (
            f"Lost {amount}"
        )
    if mode == "temp":
        return replace(vitals, temp_hp=amount), f"Temporary HP set to {amount}"
    if amount > maximum:
        raise UserError(
            f"{safe(target.character.name)}'s maximum is {maximum} hit points:"
            " set a value up to that."
        )
    after = replace(vitals, hp=amount, nonlethal=min(vitals.nonlethal, max(0, maximum - amount)))
    if amount >= 1:
        after = replace(after, conditions=after.conditions.remove(Condition.STAGGERED))
    return after, f"HP set to {amount}"


class AdjustCog(RulesetCog, name="Adjustments"):
    ruleset = Ruleset.HOCS

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    # --- /hp -----------------------------------------------------------------------------

    @commands.hybrid_command(name="hp", extras={"rulings": HP_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        target="The character",
        change="+5 heals, -5 takes away, temp 5 sets temporary HP, set 5 sets HP",
    )
    @app_commands.autocomplete(target=character_names)
    async def hp(self, ctx: Ctx, target: Name, *, change: Text) -> None:
        """GM: adjust a character's hit points or temporary hit points by hand."""
        if ctx.guild is None:
            raise GuildOnly()
        mode, amount = parse_hp_change(change)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "adjust hit points")
            found = await find_target(conn, ctx.guild.id, target)
            after, what = change_hp(found, mode, amount)
            await CombatRepository(conn).save_vitals(found.character.id, after)
        notify_characters_changed(self.bot, ctx.guild.id, [found.character.id])
        values = found.effective
        log.info("hp of %s: %s by %s", found.character.id, what, ctx.author.id)
        await send(
            ctx,
            embed=hp_embed(
                found.character.name,
                found.vitals,
                after,
                values.max_hp,
                values.threshold,
                what,
            ),
        )

    # --- /condition ----------------------------------------------------------------------

    @commands.hybrid_group(name="condition", invoke_without_command=True)
    @commands.guild_only()
    async def condition(self, ctx: Ctx) -> None:
        """Conditions: list a character's, or (GM) add and remove them."""
        raise UserError(
            "Add a subcommand: /condition list, /condition add, /condition remove or"
            " /condition test."
        )

    @condition.command(name="list", extras={"rulings": CONDITION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(target="The character (default: your active one)")
    @app_commands.autocomplete(target=character_names)
    async def condition_list(
        self,
        ctx: Ctx,
        *,
        target: Name = None,  # type: ignore[assignment]
    ) -> None:
        """List a character's conditions and what they do."""
        if ctx.guild is None:
            raise GuildOnly()
        async with self.bot.db.read() as conn:
            if target:
                found = await find_target(conn, ctx.guild.id, target)
            else:
                active = await CharacterRepository(conn).get_active(ctx.guild.id, ctx.author.id)
                if active is None:
                    raise NoActiveCharacter()
                found = await CombatRepository(conn).with_wounds(active)
            shown = await shows_state(conn, ctx.author, found.character, channel_id=ctx.channel.id)
        if shown:
            embed = conditions_embed(found.character.name, found.vitals, found.effective.max_hp)
        else:  # an NPC whose state the GM hides (cogs.hocs.visibility)
            embed = hidden_state_embed(found.character, "Conditions")
        await send(ctx, embed=embed)

    @condition.command(name="add", extras={"rulings": CONDITION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        target="The character",
        condition="The condition",
        value="Fatigued: instances to add (default 1); bleeding: its value (default 1)",
    )
    @app_commands.autocomplete(target=character_names)
    async def condition_add(
        self,
        ctx: Ctx,
        target: Name,
        condition: ConditionChoice,
        value: ConditionValue = None,  # type: ignore[assignment]
    ) -> None:
        """GM: give a character a condition."""
        chosen = condition_from(condition)
        if chosen.kind is ConditionKind.FLAG and value not in (None, 1):
            raise UserError(f"{chosen.value.title()} has no value: add it without one.")
        await self._change(
            ctx, target, lambda c: c.add(chosen, value or 1), f"{chosen.value} added"
        )

    @condition.command(name="remove", extras={"rulings": CONDITION_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        target="The character",
        condition="The condition",
        value="Fatigued: instances to remove (default all)",
    )
    @app_commands.autocomplete(target=character_names)
    async def condition_remove(
        self,
        ctx: Ctx,
        target: Name,
        condition: ConditionChoice,
        value: ConditionValue = None,  # type: ignore[assignment]
    ) -> None:
        """GM: take a condition away from a character."""
        chosen = condition_from(condition)

        def remove(current: Conditions) -> Conditions:
            if chosen not in current:
                raise UserError(f"{safe(target[:64])} isn't {chosen.value}: nothing to remove.")
            left = current.value(chosen) - (value or 0)
            if chosen.kind is ConditionKind.STACKS and value and left > 0:
                return current.remove(chosen).add(chosen, left)
            return current.remove(chosen)

        await self._change(ctx, target, remove, f"{chosen.value} removed")

    @condition.command(name="test", extras={"rulings": RECOVERY_TEST_RULINGS})
    @commands.guild_only()
    @app_commands.describe(
        target="A dying or unconscious character",
        skill="Physique or willpower (default: the one with more dice)",
    )
    @app_commands.autocomplete(target=character_names)
    async def condition_test(
        self,
        ctx: Ctx,
        target: Name,
        skill: Literal["physique", "willpower"] | None = None,
    ) -> None:
        """GM: call for a dying or unconscious character's test now and apply its outcome."""
        if ctx.guild is None:
            raise GuildOnly()
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "call for a dying or unconscious test")
            found = await find_target(conn, ctx.guild.id, target)
            vitals = found.vitals
            if recovery_kind(vitals.conditions) is None:
                raise UserError(
                    f"{safe(found.character.name)} is neither dying nor unconscious: no test to"
                    " make."
                )
            test = roll_recovery_test(
                found.effective, vitals.conditions, vitals.hp, self.bot.dice, skill=skill
            )
            # Conditional on the row's version: a change made meanwhile refuses the test.
            written = await CharacterVitalsRepository(conn).set_conditions(
                found.character.id, test.after, expected_version=found.character.version
            )
            if not written:
                raise UserError("The character changed at the same moment: call for it again.")
        notify_characters_changed(self.bot, ctx.guild.id, [found.character.id])
        log.info("%s test of %s: %s", test.kind.value, found.character.id, test.result.value)
        after = replace(vitals, conditions=test.after)
        embed = conditions_embed(found.character.name, after, found.effective.max_hp)
        await send(ctx, test_line(found.character.name, test), embed=embed)

    async def _change(
        self, ctx: Ctx, target: str, update: Callable[[Conditions], Conditions], what: str
    ) -> None:
        if ctx.guild is None:
            raise GuildOnly()
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(ctx.guild.id)
            require_gm(ctx.author, campaign, "add or remove conditions")
            found = await find_target(conn, ctx.guild.id, target)
            before = found.vitals
            after = replace(before, conditions=update(before.conditions))
            await CombatRepository(conn).save_vitals(found.character.id, after)
        notify_characters_changed(self.bot, ctx.guild.id, [found.character.id])
        log.info("conditions of %s: %s by %s", found.character.id, what, ctx.author.id)
        embed = conditions_embed(found.character.name, after, found.effective.max_hp)
        await send(ctx, f"{safe(found.character.name)}: {what}.", embed=embed)
