"""/character edit and /character advance for the 2d10 system (added to the group)."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.user_text import clean_name, clean_text
from bot.render.text import safe
from bot.render.twod10.sheet import hp_text
from bot.rules.errors import RulesError
from bot.rules.twod10.attributes import Attribute, check_specialisations
from bot.rules.twod10.character import (
    MAX_FEAT,
    MAX_FEATS,
    Character,
    advance_attribute,
    advance_skill,
    edit_equipment,
)
from bot.rules.twod10.healing import LOWEST_HP, MAX_HP
from bot.storage.twod10.characters import TwoD10CharacterRepository, TwoD10Kind
from bot.tables.permissions import is_gm, require_gm
from cogs.twod10 import options
from cogs.twod10.access import resolve_sheet
from cogs.twod10.character_commands import (
    NAME_HELP,
    Ctx,
    Kind,
    Name,
    Text,
    TwoD10CharacterCommands,
)
from cogs.twod10.rulings import RULINGS

log = logging.getLogger(__name__)

AttributeName = Literal["finesse", "strength", "toughness", "mind", "social"]
Steps = commands.Range[int, 1, 7]
HP = commands.Range[int, LOWEST_HP, MAX_HP]


def _feats(feats: tuple[str, ...], add: str | None, remove: str | None) -> tuple[str, ...]:
    result = list(feats)
    if remove is not None:
        key = remove.strip().lower()
        match = [f for f in result if f.lower() == key]
        if not match:
            raise UserError(
                f"There is no feat “{safe(remove[:40])}” on the sheet: copy its text from"
                " /character show."
            )
        result.remove(match[0])
    if add is not None:
        result.append(clean_text(add, what="A feat", limit=MAX_FEAT))
        if len(result) > MAX_FEATS:
            raise UserError(f"A sheet holds at most {MAX_FEATS} feats: remove one first.")
    return tuple(result)


class TwoD10CharacterEdits(TwoD10CharacterCommands):
    """The group with edit and advance."""

    @TwoD10CharacterCommands.character.command(
        name="edit", description="Change a 2d10 sheet", extras={"rulings": RULINGS["edit"]}
    )
    @commands.guild_only()
    @app_commands.describe(
        name=NAME_HELP,
        new_name="Rename the character",
        background="New background",
        armor="Armor from the table, or none",
        shield="Shield from the table, or none",
        weapons="Replace the weapons (comma-separated), or none",
        add_feat="Add a feat",
        remove_feat="Remove a feat (its text)",
        positive="Positive specialisation (attribute: words), or none",
        negative="Negative specialisation (attribute: words), or none",
        hp="Set hit points (GM only)",
        kind="pc, ally or antagonist (GM only)",
    )
    @app_commands.autocomplete(
        name=options.character_names,
        armor=options.armor_choices,
        shield=options.shield_choices,
        weapons=options.weapon_list_choices,
        remove_feat=options.feat_choices,
    )
    async def character_edit(
        self,
        ctx: Ctx,
        name: Name = None,  # type: ignore[assignment]
        new_name: Name = None,  # type: ignore[assignment]
        background: Text = None,  # type: ignore[assignment]
        armor: Text = None,  # type: ignore[assignment]
        shield: Text = None,  # type: ignore[assignment]
        weapons: Text = None,  # type: ignore[assignment]
        add_feat: Text = None,  # type: ignore[assignment]
        remove_feat: Text = None,  # type: ignore[assignment]
        positive: Text = None,  # type: ignore[assignment]
        negative: Text = None,  # type: ignore[assignment]
        hp: HP = None,  # type: ignore[assignment]
        kind: Kind | None = None,
    ) -> None:
        """Change a sheet's name, background, equipment, feats, specialisations; HP for the GM."""
        given = (new_name, background, armor, shield, weapons, add_feat, remove_feat, positive,
                 negative, hp, kind)  # fmt: skip
        if all(v is None for v in given):
            raise UserError("Give at least one option to change, e.g. armor:Leather.")
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            before = await resolve_sheet(conn, campaign, ctx.author, name, "edit its sheet")
            if (hp is not None or kind is not None) and not is_gm(ctx.author, campaign):
                require_gm(ctx.author, campaign, "set hit points or change a character's kind")
            c = before.character
            changes: list[str] = []
            if new_name is not None:
                c = replace(c, name=clean_name(new_name))
                changes.append(f"name {safe(c.name)}")
            if background is not None:
                c = replace(c, background=clean_text(background, what="The background", limit=60))
                changes.append("background")
            if armor is not None or shield is not None or weapons is not None:
                c = edit_equipment(
                    c,
                    armor=options.parse_armor(armor) if armor is not None else c.armor,
                    shield=options.parse_shield(shield) if shield is not None else c.shield,
                    weapons=options.parse_weapons(weapons) if weapons is not None else c.weapons,
                )
                changes.append("equipment")
            if add_feat is not None or remove_feat is not None:
                c = replace(c, feats=_feats(c.feats, add_feat, remove_feat))
                changes.append("feats")
            if positive is not None or negative is not None:
                c = _specialised(c, positive, negative)
                changes.append("specialisations")
            repo = TwoD10CharacterRepository(conn)
            after = await repo.update_sheet(
                guild.id, before.id, c, kind=TwoD10Kind(kind) if kind else None,
                expected_revision=before.revision,
            )  # fmt: skip
            if kind is not None:
                changes.append(f"kind {kind}")
            if hp is not None:
                after = await repo.set_hp(guild.id, before.id, hp)
                changes.append(f"hit points {after.hp}")
        log.info("2d10 character %s edited by %s", after.id, ctx.author.id)
        await send(
            ctx, f"Updated **{safe(after.name)}**: {', '.join(changes)}. Now {hp_text(after)}."
        )

    @TwoD10CharacterCommands.character.command(
        name="advance", description="Raise an attribute or skill (GM)",
        extras={"rulings": RULINGS["advance"]},
    )  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        name=NAME_HELP,
        attribute="Attribute to raise",
        skill="Skill to raise or learn, e.g. defense (finesse)",
        by="How many points (default 1)",
    )
    @app_commands.autocomplete(name=options.character_names, skill=options.skill_choices)
    async def character_advance(
        self,
        ctx: Ctx,
        name: Name = None,  # type: ignore[assignment]
        attribute: AttributeName | None = None,
        skill: Text = None,  # type: ignore[assignment]
        by: Steps = 1,
    ) -> None:
        """Raise an attribute or a skill up to the final maximum of 6 (the GM grants it)."""
        if (attribute is None) == (skill is None):
            raise UserError("Give either attribute or skill to advance, not both or neither.")
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            require_gm(ctx.author, campaign, "advance a character")
            before = await resolve_sheet(conn, campaign, ctx.author, name, "advance it")
            try:
                if attribute is not None:
                    what = Attribute(attribute)
                    c = advance_attribute(before.character, what, by=by)
                    change = f"{what.label} {c.attribute(what):+d}"
                else:
                    key = options.parse_skill_option(skill)
                    c = advance_skill(before.character, key, by=by)
                    change = f"{key.label} {c.skill(key)}"
            except RulesError as exc:
                raise options.rules(exc) from None
            after = await TwoD10CharacterRepository(conn).update_sheet(
                guild.id, before.id, c, expected_revision=before.revision
            )
        log.info("2d10 character %s advanced by %s", after.id, ctx.author.id)
        await send(ctx, f"Advanced **{safe(after.name)}**: {change}. Now {hp_text(after)}.")


def _specialised(c: Character, positive: str | None, negative: str | None) -> Character:
    pos = (
        c.positive if positive is None else options.parse_specialisation(positive, what="positive")
    )
    neg = (
        c.negative if negative is None else options.parse_specialisation(negative, what="negative")
    )
    try:
        check_specialisations(pos, neg)
    except RulesError as exc:
        raise options.rules(exc) from None
    return replace(c, positive=pos, negative=neg)
