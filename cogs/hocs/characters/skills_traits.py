"""/character skill, customskill, trait and fundamentals: what a sheet says beyond numbers.

The subcommands hang off the /character group of ``CharactersCog``; this subclass holds
them so they are bound to the cog like the others (``CombatSheetCog`` extends it).
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.errors import UserError
from cogs.hocs.characters import edits, options
from cogs.hocs.characters.commands import NAME_HELP, CharactersCog
from cogs.hocs.characters.options import (
    CustomAttribute,
    CustomSkillName,
    Fundamental,
    Name,
    SkillName,
    Training,
    TraitText,
)
from cogs.hocs.characters.rulings import RULINGS

Ctx = commands.Context[TableBot]


class SkillsTraitsCog(CharactersCog, name="Characters"):
    """/character with the skill, custom skill, trait and fundamentals subcommands."""

    @CharactersCog.character.command(
        name="skill",
        description="Set a skill's training or expertise",
        extras={"rulings": RULINGS["skill"]},
    )
    @commands.guild_only()
    @app_commands.describe(
        skill="Skill to change",
        training="0 up to the tier",
        expertise="True: give it the expertise; False: remove it",
        name=NAME_HELP,
    )
    @app_commands.autocomplete(skill=options.skill_names, name=options.character_names)
    async def character_skill(
        self,
        ctx: Ctx,
        skill: SkillName,
        training: Training = None,  # type: ignore[assignment]
        expertise: bool | None = None,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Set a skill's training (0 up to the tier) and/or give it the expertise."""
        await self._edit(
            ctx, name, "change its skills", edits.set_skill, skill,
            training=training, expertise=expertise,
        )  # fmt: skip

    @CharactersCog.character.command(
        name="customskill",
        description="Add or remove a custom skill",
        extras={"rulings": RULINGS["customskill"]},
    )
    @commands.guild_only()
    @app_commands.describe(
        skill_name="Skill name, e.g. Alchemy",
        attribute="Attribute it uses (to add it)",
        remove="True: remove it",
        name=NAME_HELP,
    )
    @app_commands.autocomplete(skill_name=options.custom_skill_names, name=options.character_names)
    async def character_customskill(
        self,
        ctx: Ctx,
        skill_name: CustomSkillName,
        attribute: CustomAttribute | None = None,
        remove: bool = False,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Add a custom special skill the catalogue lacks, or remove one."""
        await self._edit(
            ctx, name, "change its skills", edits.set_custom_skill, skill_name,
            attribute=attribute, remove=remove,
        )  # fmt: skip

    @CharactersCog.character.group(
        name="trait", invoke_without_command=True, description="Add or remove traits"
    )
    @commands.guild_only()
    async def character_trait(self, ctx: Ctx) -> None:
        """Add or remove a character's traits."""
        raise UserError("Add a subcommand: /character trait add or /character trait remove.")

    @character_trait.command(
        name="add", description="Add a trait", extras={"rulings": RULINGS["trait"]}
    )
    @commands.guild_only()
    @app_commands.describe(trait="An adjective, e.g. bold", name=NAME_HELP)
    @app_commands.autocomplete(name=options.character_names)
    async def character_trait_add(
        self,
        ctx: Ctx,
        trait: TraitText,
        *,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Add a trait (an adjective that defines the character)."""
        await self._edit(ctx, name, "change its traits", edits.change_traits, "add", trait)

    @character_trait.command(
        name="remove", description="Remove a trait", extras={"rulings": RULINGS["trait"]}
    )
    @commands.guild_only()
    @app_commands.describe(trait="Trait to remove", name=NAME_HELP)
    @app_commands.autocomplete(trait=options.trait_names, name=options.character_names)
    async def character_trait_remove(
        self,
        ctx: Ctx,
        trait: TraitText,
        *,
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Remove one of the character's traits."""
        await self._edit(ctx, name, "change its traits", edits.change_traits, "remove", trait)

    @CharactersCog.character.command(
        name="fundamentals",
        description="Set the three fundamentals",
        extras={"rulings": RULINGS["fundamentals"]},
    )
    @commands.guild_only()
    @app_commands.describe(
        who="Who are you? (- clears)",
        believe="What do you believe in? (- clears)",
        want="What do you want? (- clears)",
        name=NAME_HELP,
    )
    @app_commands.autocomplete(name=options.character_names)
    async def character_fundamentals(
        self,
        ctx: Ctx,
        who: Fundamental = None,  # type: ignore[assignment]
        believe: Fundamental = None,  # type: ignore[assignment]
        want: Fundamental = None,  # type: ignore[assignment]
        name: Name = None,  # type: ignore[assignment]
    ) -> None:
        """Answer the three fundamentals: who you are, what you believe, what you want."""
        await self._edit(
            ctx, name, "change its fundamentals", edits.set_fundamentals,
            who=who, believe=believe, want=want,
        )  # fmt: skip
