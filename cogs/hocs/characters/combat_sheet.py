"""/character weapon, defenses and wounds: the combat part of the sheet.

The subcommands hang off the /character group of ``CharactersCog``; this
subclass (of ``SkillsTraitsCog``, itself one of ``CharactersCog``) holds them so
they are bound to the cog like the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.choices import name_choices
from bot.interactions.guild_context import guild_of
from bot.interactions.user_text import clean_text, echo
from bot.render.hocs.character import Change, hidden_state_embed
from bot.render.hocs.combat import wound_name, wounds_embed
from bot.render.text import safe
from bot.rules.hocs.attack import apply_wound_list, dice_text, parse_damage_dice, parse_type_list
from bot.rules.hocs.damage_pool import AttackKind, DamageType
from bot.rules.hocs.effective import effective_values
from bot.rules.hocs.wounds import InjuryKind, Wound, WoundKind, roll_recovery
from bot.storage.campaigns import CampaignRepository
from bot.storage.hocs.character_codec import (
    MAX_SPEED,
    MAX_WEAPON_NAME,
    MAX_WEAPONS,
    CharacterDetails,
    Weapon,
)
from bot.storage.hocs.characters import Character, CharacterRepository
from bot.storage.hocs.combat import CombatRepository
from bot.tables.character_access import UnknownCharacter
from bot.tables.permissions import require_gm
from cogs.hocs.characters import options
from cogs.hocs.characters.commands import NAME_HELP, CharactersCog
from cogs.hocs.characters.edits import Outcome
from cogs.hocs.characters.lookup import change_sheet, find_for_viewing
from cogs.hocs.characters.options import Name
from cogs.hocs.characters.rulings import OWNER_OR_GM
from cogs.hocs.characters.skills_traits import SkillsTraitsCog
from cogs.hocs.visibility import shows_state

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
WeaponName = commands.Range[str, 1, MAX_WEAPON_NAME]
DiceText = commands.Range[str, 1, 40]
TypesText = commands.Range[str, 1, 200]
Speed = commands.Range[int, 0, MAX_SPEED]
WoundNumber = commands.Range[int, 1, 50]
WeaponKind = Literal["melee", "ranged", "magic"]
WoundText = commands.Range[str, 1, 40]
TYPES_HELP = "Damage types, e.g. fire, cold (- clears)"
_WOUND_KINDS: dict[str, WoundKind | InjuryKind] = {
    "speed -10": WoundKind.SPEED_MINUS_10,
    "max hp -2": WoundKind.MAX_HP_MINUS_2,
    "threshold tests +1": WoundKind.THRESHOLD_DIFFICULTY,
    "max hp -4": WoundKind.MAX_HP_MINUS_4,
    "agility -1": WoundKind.AGILITY_MINUS_1,
    "speed halved": WoundKind.SPEED_HALVED,
    "strength -1": WoundKind.STRENGTH_MINUS_1,
    "resting -5": WoundKind.RESTING_MINUS_5,
    "strength and agility -1": WoundKind.STRENGTH_AND_AGILITY_MINUS_1,
    **{kind.value: kind for kind in InjuryKind},
}


async def wound_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The wound and injury table entries containing what was typed."""
    text = current.strip().lower()
    return name_choices(k for k in _WOUND_KINDS if text in k)


RULINGS = {
    "weapon": [
        OWNER_OR_GM,
        f"Up to {MAX_WEAPONS} weapons, names up to {MAX_WEAPON_NAME} characters, unique per"
        " sheet (ignoring case); adding a weapon with a name in use replaces it.",
        "Source dice: 1 to 4 dice of d4, d6, d8, d10, d12 or d20 (a dagger 1d6, a"
        " greatsword 1d12). Types default to physical; lethal by default.",
        "Kind: melee adds the STR die, ranged the AGI die, magic the die of the mettle"
        " attribute (mind or presence). /attack uses the first weapon when none is named.",
    ],
    "defenses": [
        OWNER_OR_GM,
        "Each list replaces the current one; - clears it. Types: "
        + ", ".join(t.value for t in DamageType)
        + ". Physical covers slash, pierce and blunt.",
        "Resistance: +2 toughness or mettle against damage of that type (one resistance per"
        " attack). Immunity: those dice and that damage are ignored. Weakness: +1d10 of"
        " that type on damage rolls against the character.",
        "Speed: the text gives no base speed, so it defaults to 30 (paces); wounds and"
        " fatigue reduce it on the sheet.",
    ],
    "wounds": [
        "Anyone may list wounds; only the GM adds or heals them.",
        "A wound's effects (max HP, threshold tests, speed, strength, agility) change the"
        " values used in play (the sheet, rolls, /attack, /hp, rests, the tracker); healing"
        " one restores them (current HP doesn't rise: heal with /hp).",
        "Adding a wound rolls its recovery time. As many wounds and injuries as strength,"
        " or maximum HP reduced to 0, kills the character.",
        "Wounds and injuries: " + ", ".join(_WOUND_KINDS) + ".",
    ],
}


def _type_list(text: str | None, current: tuple[DamageType, ...]) -> tuple[DamageType, ...]:
    if text is None:
        return current
    return parse_type_list(text)


def _types_shown(types: tuple[DamageType, ...]) -> str:
    return ", ".join(t.value for t in types) or "none"


def add_weapon(
    details: CharacterDetails,
    name: str,
    dice: str,
    *,
    damage_type: str | None,
    kind: str,
    lethal: bool,
) -> tuple[CharacterDetails, Change]:
    clean = clean_text(name, what="A weapon name", limit=MAX_WEAPON_NAME)
    sizes, bonus = parse_damage_dice(dice)
    if bonus:
        raise UserError("A weapon has source dice only, without a bonus: e.g. 1d12 or 2d6.")
    types = parse_type_list(damage_type) if damage_type else (DamageType.PHYSICAL,)
    weapon = Weapon(
        name=clean,
        dice=sizes,
        types=types or (DamageType.PHYSICAL,),
        kind=AttackKind(kind),
        lethal=lethal,
    )
    old = details.weapon(clean)
    others = tuple(w for w in details.weapons if w.key != weapon.key)
    if old is None and len(others) >= MAX_WEAPONS:
        raise UserError(f"A sheet holds at most {MAX_WEAPONS} weapons: remove one first.")
    new = (
        replace(details, weapons=(*others, weapon))
        if old is None
        else replace(
            details, weapons=tuple(weapon if w.key == weapon.key else w for w in details.weapons)
        )
    )
    return new, Change(f"Weapon {clean}", weapon_text(old) if old else "—", weapon_text(weapon))


def weapon_text(weapon: Weapon) -> str:
    lethal = "" if weapon.lethal else ", non-lethal"
    return (
        f"{dice_text(weapon.dice)} {'/'.join(t.value for t in weapon.types)},"
        f" {weapon.kind.value}{lethal}"
    )


class CombatSheetCog(SkillsTraitsCog, name="Characters"):
    """/character with the combat subcommands (weapon, defenses, wounds)."""

    @CharactersCog.character.group(
        name="weapon", invoke_without_command=True, description="Weapons for /attack"
    )
    @commands.guild_only()
    async def character_weapon(self, ctx: Ctx) -> None:
        """Add or remove a character's weapons."""
        raise UserError("Add a subcommand: /character weapon add or /character weapon remove.")

    @character_weapon.command(
        name="add", description="Add or replace a weapon", extras={"rulings": RULINGS["weapon"]}
    )
    @commands.guild_only()
    @app_commands.describe(
        weapon="Weapon name",
        dice="Source dice, e.g. 1d12",
        damage_type="e.g. slash, fire (default physical)",
        kind="Default melee",
        lethal="Default true",
        name=NAME_HELP,
    )
    @app_commands.autocomplete(name=options.character_names)
    async def character_weapon_add(
        self,
        ctx: Ctx,
        weapon: WeaponName,
        dice: DiceText,
        damage_type: TypesText = None,  # type: ignore[assignment]
        kind: WeaponKind = "melee",
        lethal: bool = True,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Add a weapon (or replace one of the same name) for /attack."""

        def apply(character: Character) -> Outcome:
            sheet, details = character.sheet, character.details
            new, change = add_weapon(
                details, weapon, dice, damage_type=damage_type, kind=kind, lethal=lethal
            )
            return Outcome(sheet, new, (change,))

        await change_sheet(self.bot, ctx, name, "change its weapons", apply)

    @character_weapon.command(
        name="remove", description="Remove a weapon", extras={"rulings": RULINGS["weapon"]}
    )
    @commands.guild_only()
    @app_commands.describe(weapon="Weapon name", name=NAME_HELP)
    @app_commands.autocomplete(name=options.character_names)
    async def character_weapon_remove(
        self,
        ctx: Ctx,
        weapon: WeaponName,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Remove one of the character's weapons."""

        def apply(character: Character) -> Outcome:
            sheet, details = character.sheet, character.details
            old = details.weapon(weapon)
            if old is None:
                raise UserError(
                    f"{safe(sheet.name)} has no weapon called {echo(weapon)}: see"
                    " /character show for its weapons."
                )
            kept = tuple(w for w in details.weapons if w.key != old.key)
            change = Change(f"Weapon {old.name}", weapon_text(old), "removed")
            return Outcome(sheet, replace(details, weapons=kept), (change,))

        await change_sheet(self.bot, ctx, name, "change its weapons", apply)

    @CharactersCog.character.command(
        name="defenses",
        description="Resistances, immunities, weaknesses, speed",
        extras={"rulings": RULINGS["defenses"]},
    )
    @commands.guild_only()
    @app_commands.describe(
        resistances=TYPES_HELP,
        immunities=TYPES_HELP,
        weaknesses=TYPES_HELP,
        speed="Paces (default 30)",
        name=NAME_HELP,
    )
    @app_commands.autocomplete(name=options.character_names)
    async def character_defenses(
        self,
        ctx: Ctx,
        resistances: TypesText = None,  # type: ignore[assignment]
        immunities: TypesText = None,  # type: ignore[assignment]
        weaknesses: TypesText = None,  # type: ignore[assignment]
        speed: Speed = None,  # type: ignore[assignment]
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Set resistances, immunities, weaknesses and speed."""
        if resistances is None and immunities is None and weaknesses is None and speed is None:
            raise UserError("Nothing to change: give resistances, immunities, weaknesses or speed.")

        def apply(character: Character) -> Outcome:
            sheet, details = character.sheet, character.details
            new = replace(
                details,
                resistances=_type_list(resistances, details.resistances),
                immunities=_type_list(immunities, details.immunities),
                weaknesses=_type_list(weaknesses, details.weaknesses),
                speed=details.speed if speed is None else speed,
            )
            changes = []
            for label, field in (
                ("Resistances", "resistances"),
                ("Immunities", "immunities"),
                ("Weaknesses", "weaknesses"),
            ):
                old, now = getattr(details, field), getattr(new, field)
                if old != now:
                    changes.append(Change(label, _types_shown(old), _types_shown(now)))
            if new.speed != details.speed:
                changes.append(Change("Speed", details.speed, new.speed))
            return Outcome(sheet, new, tuple(changes))

        await change_sheet(self.bot, ctx, name, "change its defenses", apply)

    @CharactersCog.character.group(
        name="wounds", invoke_without_command=True, description="Wounds and injuries"
    )
    @commands.guild_only()
    async def character_wounds(self, ctx: Ctx) -> None:
        """List a character's wounds, or (GM) add and heal them."""
        raise UserError("Add a subcommand: /character wounds list, add or heal.")

    @character_wounds.command(
        name="list", description="List wounds", extras={"rulings": RULINGS["wounds"]}
    )
    @commands.guild_only()
    @app_commands.describe(name=NAME_HELP)
    @app_commands.autocomplete(name=options.character_names)
    async def character_wounds_list(
        self,
        ctx: Ctx,
        *,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """List a character's wounds and injuries with their effects and recovery."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            character = await find_for_viewing(
                CharacterRepository(conn), guild.id, ctx.author.id, name
            )
            shown = await shows_state(conn, ctx.author, character, channel_id=ctx.channel.id)
        if not shown:
            await send(ctx, embed=hidden_state_embed(character, "Wounds"))
            return
        values = character.effective
        await send(
            ctx, embed=wounds_embed(character.name, values.wounds, values.max_hp, values.threshold)
        )

    @character_wounds.command(
        name="add", description="GM: add a wound", extras={"rulings": RULINGS["wounds"]}
    )
    @commands.guild_only()
    @app_commands.describe(wound="Wound or injury", name="Character")
    @app_commands.autocomplete(name=options.character_names, wound=wound_names)
    async def character_wounds_add(self, ctx: Ctx, wound: WoundText, *, name: Name) -> None:
        """GM: give a character a wound or injury (its recovery time is rolled)."""
        kind = _WOUND_KINDS.get(wound.strip().lower())
        if kind is None:
            raise UserError(
                "There is no such wound or injury: pick one from the list offered as you type"
                " (/help character wounds add lists them all)."
            )
        await self._change_wounds(
            ctx, name, lambda wounds: (*wounds, roll_recovery(kind, self.bot.dice))
        )

    @character_wounds.command(
        name="heal", description="GM: heal a wound", extras={"rulings": RULINGS["wounds"]}
    )
    @commands.guild_only()
    @app_commands.describe(number="Its number in /character wounds list", name="Character")
    @app_commands.autocomplete(name=options.character_names)
    async def character_wounds_heal(self, ctx: Ctx, number: WoundNumber, *, name: Name) -> None:
        """GM: a wound or injury has healed; remove it and restore its effects."""

        def heal(wounds: tuple[Wound, ...]) -> tuple[Wound, ...]:
            if not 1 <= number <= len(wounds):
                raise UserError(
                    f"{safe(name)} has {len(wounds)} wounds: pick a number from"
                    " /character wounds list."
                )
            return wounds[: number - 1] + wounds[number:]

        await self._change_wounds(ctx, name, heal)

    async def _change_wounds(
        self, ctx: Ctx, name: str, update: Callable[[tuple[Wound, ...]], tuple[Wound, ...]]
    ) -> None:
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await CampaignRepository(conn).get_or_create(guild.id)
            require_gm(ctx.author, campaign, "add or heal wounds")
            character = await CharacterRepository(conn).find(guild.id, name)
            if character is None:
                raise UnknownCharacter(name)
            found = await CombatRepository(conn).with_wounds(character)
            combatant = found.combatant
            before = found.vitals
            wounds = update(before.wounds)
            after, cause = apply_wound_list(combatant, replace(before, wounds=tuple(wounds)))
            await CombatRepository(conn).save_vitals(found.character.id, after)
        final = effective_values(character.sheet, after.wounds, speed=character.details.speed)
        gained = [w for w in after.wounds if w not in before.wounds]
        lost = [w for w in before.wounds if w not in after.wounds]
        lines = [f"{wound_name(w)} added." for w in gained]
        lines += [f"{wound_name(w)} healed." for w in lost]
        if cause:
            lines.append(f"**{safe(found.character.name)} dies**: {cause}.")
        log.info("wounds of %s changed by %s", found.character.id, ctx.author.id)
        await send(
            ctx,
            " ".join(lines),
            embed=wounds_embed(found.character.name, after.wounds, final.max_hp, final.threshold),
        )
