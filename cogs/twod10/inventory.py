"""/inventory add|remove|list|draw|cart: what a 2d10 character carries and its encumbrance.

The sheet's armor, shield and weapons are always worn; other items are added with
their weight, worn (readily accessible) or in the backpack; rations and medical
supplies ride in the backpack (ruling pack-supplies). The encumbrance points that
result take effect on /task and /attack by themselves (cogs.twod10.encumbrance_state).
"""

from __future__ import annotations

import logging
import re
from fractions import Fraction
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.client import TableBot
from bot.delivery.replies import send
from bot.errors import UserError
from bot.interactions.guild_context import campaign_of, guild_of
from bot.interactions.ruleset_cog import RulesetCog
from bot.interactions.user_text import normalise_text
from bot.render.text import safe
from bot.render.twod10.inventory import draw_text, inventory_embed
from bot.render.twod10.rations import amount, rations_text
from bot.rules.errors import RulesError
from bot.rules.twod10.encumbrance import (
    CART_PER_EP,
    MAX_ITEMS,
    MAX_TRIES,
    MAX_WEIGHT,
    MOUNT_CARRY_PER_EP,
    MOUNT_PULL_PER_EP,
    Item,
    draw_from_backpack,
    equipped_items,
    load_ep,
)
from bot.rules.twod10.rations import RationState
from bot.rulesets import Ruleset
from bot.storage.roll_log import RollLogRepository
from bot.storage.twod10.characters import SheetChanged
from bot.storage.twod10.items import MAX_ROWS, ItemRow, TwoD10ItemRepository
from cogs.twod10 import options
from cogs.twod10.access import campaign_for_reading, find_sheet, resolve_sheet, shows_state
from cogs.twod10.encumbrance_state import load_encumbrance
from cogs.twod10.supplies_rulings import RULINGS

log = logging.getLogger(__name__)

Ctx = commands.Context[TableBot]
Name = commands.Range[str, 1, 64]
ItemName = commands.Range[str, 1, 60]
WeightText = commands.Range[str, 1, 10]
Count = commands.Range[int, 1, MAX_ITEMS]
Attempt = commands.Range[int, 1, MAX_TRIES]
MAX_LOAD = 100 * MAX_ITEMS
LoadWeight = commands.Range[int, 0, MAX_LOAD]
Carrier = Literal["cart", "mount carrying", "mount pulling"]
_MIXED = re.compile(r"^\s*(\d{1,2})\s+(\d)\s*/\s*(\d)\s*$")


def parse_weight(text: str) -> Fraction:
    """``"1"``, ``"1/2"``, ``"0.25"`` or ``"1 1/2"``: a weight in quarters from 0 to 20."""
    usage = (f"Give the weight as a number from 0 to {MAX_WEIGHT} in quarters at the finest,"
             " e.g. 1, 1/2 or 2.75.")  # fmt: skip
    mixed = _MIXED.match(text)
    try:
        if mixed:
            value = int(mixed[1]) + Fraction(int(mixed[2]), int(mixed[3]))
        else:
            value = Fraction(text.strip().replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        raise UserError(usage) from None
    if not 0 <= value <= MAX_WEIGHT or (value * 4).denominator != 1:
        raise UserError(usage)
    return value


def _pick(rows: list[ItemRow], name: str, worn: bool | None, who: str) -> ItemRow:
    fits = [r for r in rows if worn is None or r.item.worn == worn]
    if not fits:
        raise UserError(f"{safe(who)} carries no {safe(name[:60])} there: see /inventory list.")
    if len(fits) > 1:
        raise UserError(f"{safe(who)} has {safe(name[:60])} worn and in the backpack: say which"
                        " with worn:.")  # fmt: skip
    return fits[0]


class InventoryCog(RulesetCog, name="2d10 inventory"):
    ruleset = Ruleset.TWOD10

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @commands.hybrid_group(name="inventory", invoke_without_command=True,
                           description="2d10 items and encumbrance")  # fmt: skip
    @commands.guild_only()
    async def inventory(self, ctx: Ctx) -> None:
        """Inventory: add, remove, list, draw."""
        raise UserError("Add a subcommand, e.g. /inventory list or /inventory add.")

    @inventory.command(name="add", description="Carry an item (weight 1 a one-handed item)",
                       extras={"rulings": RULINGS["inventory"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        item="What it is", weight="Item weight of one, e.g. 1, 2 or 1/2 (default 1)",
        worn="Readily accessible or worn (default: in the backpack)",
        count="How many (default 1)", character="Whose (default: your active character)",
    )  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def inventory_add(
        self, ctx: Ctx, item: ItemName, weight: WeightText = "1", worn: bool = False,
        count: Count = 1, character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """Same name in the same place adds to the count (the first weight stays)."""
        guild = guild_of(ctx)
        try:
            thing = Item(name=normalise_text(item), weight=parse_weight(weight), worn=worn,
                         count=count)  # fmt: skip
        except RulesError as exc:
            raise options.rules(exc) from None
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "change their items")
            row = await TwoD10ItemRepository(conn).add(guild.id, sheet.id, thing)
            if row is None:
                raise UserError(
                    f"{safe(sheet.name)} can carry at most {MAX_ROWS} kinds of item and"
                    f" {MAX_ITEMS} of one: remove some first."
                )
            load = await load_encumbrance(conn, sheet)
        where = "worn" if worn else "in the backpack"
        await send(ctx, f"{safe(sheet.name)} carries {row.item.count} {safe(row.item.name)} {where}"
                        f" (weight {amount(Fraction(row.item.weight))} each): now {load.ep} EP,"
                        f" movement {load.movement} ft.")  # fmt: skip

    @inventory.command(name="remove", description="Take items off a character",
                       extras={"rulings": RULINGS["inventory"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(
        item="What to remove", count="How many (default: all of them)",
        worn="Only the worn ones (True) or the backpack's (False)",
        character="Whose (default: your active character)",
    )  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def inventory_remove(
        self, ctx: Ctx, item: ItemName, count: Count = None,  # type: ignore[assignment]
        worn: bool | None = None, character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """Used up, sold, dropped or broken."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "change their items")
            repo = TwoD10ItemRepository(conn)
            row = _pick(await repo.find(guild.id, sheet.id, item), item, worn, sheet.name)
            take = row.item.count if count is None else count
            if take > row.item.count:
                raise UserError(f"{safe(sheet.name)} has only {row.item.count}"
                                f" {safe(row.item.name)}.")  # fmt: skip
            left = await repo.remove(guild.id, row, take)
            if left is None:
                raise SheetChanged()
            load = await load_encumbrance(conn, sheet)
        await send(ctx, f"{safe(sheet.name)} puts away {take} {safe(row.item.name)} ({left} left):"
                        f" now {load.ep} EP, movement {load.movement} ft.")  # fmt: skip

    @inventory.command(name="list", description="Items and encumbrance of a character",
                       extras={"rulings": RULINGS["inventory"]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(character="Whose (default: your active character)")
    @app_commands.autocomplete(character=options.character_names)
    async def inventory_list(self, ctx: Ctx, character: Name = None) -> None:  # type: ignore[assignment]
        """Numbered as the text counts them: readily accessible first, then the backpack."""
        guild = guild_of(ctx)
        async with self.bot.db.read() as conn:
            campaign = await campaign_for_reading(conn, guild)
            sheet = await find_sheet(conn, guild.id, ctx.author.id, character)
            if not shows_state(ctx.author, campaign, sheet):
                raise UserError(f"Only the GM and its owner see {safe(sheet.name)}'s inventory.")
            rows = await TwoD10ItemRepository(conn).list(guild.id, sheet.id)
            load = await load_encumbrance(conn, sheet)
            weights = await TwoD10ItemRepository(conn).weights(guild.id, sheet.id)
        food = RationState(quarters=min(weights.ration_quarters, 4 * 400))
        embed = inventory_embed(
            sheet.name, equipped_items(sheet.character, weights.quivers), [r.item for r in rows],
            load,
            rations=rations_text(food.rations), supplies=weights.supplies,
        )  # fmt: skip
        await send(ctx, embed=embed)

    @inventory.command(name="cart", description="The EP a cart or a four-legged mount bears",
                       extras={"rulings": RULINGS["cart"]})  # fmt: skip
    @app_commands.describe(weight=f"Item weight in the load (0-{MAX_LOAD})",
                           carrier="What bears it (default: a cart)")  # fmt: skip
    async def inventory_cart(self, ctx: Ctx, weight: LoadWeight, carrier: Carrier = "cart") -> None:
        """ "Every 10 items in a cart counts as one EP"; a mount carries 10 or pulls 15 per EP."""
        try:
            ep = load_ep(weight, pulled=carrier == "mount pulling", mount=carrier != "cart")
        except RulesError as exc:
            raise UserError(str(exc)) from None
        per = {"cart": CART_PER_EP, "mount carrying": MOUNT_CARRY_PER_EP}.get(
            carrier, MOUNT_PULL_PER_EP
        )
        who = "A cart holding" if carrier == "cart" else f"A mount {carrier.split()[1]}"
        await send(ctx, f"{who} {weight} item weight bears {ep} EP (one per full {per}).")

    @inventory.command(name="draw", description="Try to get an item out of the backpack",
                       extras={"rulings": [*RULINGS["inventory"], *RULINGS["draw"]]})  # fmt: skip
    @commands.guild_only()
    @app_commands.describe(item="What to draw", attempt="Consecutive try (1 the first)",
                           character="Who digs (default: your active character)")  # fmt: skip
    @app_commands.autocomplete(character=options.character_names)
    async def inventory_draw(
        self, ctx: Ctx, item: ItemName, attempt: Attempt = 1, character: Name = None,  # type: ignore[assignment]
    ) -> None:  # fmt: skip
        """One action: a d(2 + 2 x backpack EP) on its top face, +1 a consecutive try."""
        guild = guild_of(ctx)
        async with self.bot.db.transaction() as conn:
            campaign = await campaign_of(conn, guild)
            sheet = await resolve_sheet(conn, campaign, ctx.author, character, "draw for them")
            rows = await TwoD10ItemRepository(conn).find(guild.id, sheet.id, item)
            if not any(not r.item.worn for r in rows):
                raise UserError(f"{safe(sheet.name)} has no {safe(item[:60])} in the backpack.")
            load = await load_encumbrance(conn, sheet)
            draw = draw_from_backpack(load.backpack_ep, attempt=attempt, dice=self.bot.dice)
            if draw.face is not None:
                await RollLogRepository(conn).record(
                    guild_id=guild.id, channel_id=ctx.channel.id, user_id=ctx.author.id,
                    kind="2d10-draw", expression=f"d{draw.sides} draw for {sheet.name}"[:500],
                    result={"character_id": sheet.id, "face": draw.face, "bonus": draw.bonus,
                            "sides": draw.sides, "drawn": draw.drawn},
                    total=draw.face + draw.bonus, secret=False,
                )  # fmt: skip
        await send(ctx, draw_text(sheet.name, rows[0].item.name, draw, attempt))


async def setup(bot: TableBot) -> None:
    await bot.add_cog(InventoryCog(bot))
