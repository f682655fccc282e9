"""/help as embeds, built from the commands themselves so it never goes stale.

A command's rulings live beside its code in ``extras={"rulings": [...]}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.rulesets import Ruleset

if TYPE_CHECKING:
    from bot.interactions.command_sets import CommandSets

COLOUR = discord.Colour.blurple()


def root_commands(
    bot: commands.Bot, rulesets: Iterable[Ruleset] | None = None
) -> list[commands.Command]:
    """The top-level commands a table has: the platform's plus those of ``rulesets``
    (a guild passes its own; ``()`` in DMs; None = every ruleset's, for tooling)."""
    roots = list(bot.commands)
    command_sets: CommandSets | None = getattr(bot, "command_sets", None)
    if command_sets is not None:
        wanted = list(command_sets.catalogues) if rulesets is None else list(rulesets)
        for ruleset in wanted:
            roots.extend(command_sets.catalogues[ruleset].roots())
    return roots


def walk_leaf_commands(
    bot: commands.Bot, rulesets: Iterable[Ruleset] | None = None
) -> Iterable[commands.Command]:
    """Every invocable command, subcommands instead of their groups; sorted by name."""
    leaves: list[commands.Command] = []
    for root in root_commands(bot, rulesets):
        walked = [root, *root.walk_commands()] if isinstance(root, commands.Group) else [root]
        for command in walked:
            if isinstance(command, commands.HybridGroup):
                if command.fallback:
                    leaves.append(command)
                continue
            if isinstance(command, commands.Group):
                continue
            leaves.append(command)
    return sorted(leaves, key=display_name)


def display_name(command: commands.Command) -> str:
    if isinstance(command, commands.HybridGroup) and command.fallback:
        return f"{command.qualified_name} {command.fallback}"
    return command.qualified_name


def _app_parameters(command: commands.Command) -> list[app_commands.Parameter]:
    app = getattr(command, "app_command", None)
    if isinstance(app, app_commands.Group) and isinstance(command, commands.HybridGroup):
        fallback = app.get_command(command.fallback or "")
        return list(fallback.parameters) if isinstance(fallback, app_commands.Command) else []
    if isinstance(app, app_commands.Command):
        return list(app.parameters)
    return []


def usage(command: commands.Command) -> str:
    parts = [f"/{display_name(command)}"]
    for param in _app_parameters(command):
        parts.append(f"<{param.name}>" if param.required else f"[{param.name}]")
    return " ".join(parts)


def _describe_parameter(param: app_commands.Parameter) -> str:
    text = f"`{param.name}`: {param.description}"
    bounds = []
    if param.type is discord.AppCommandOptionType.string:
        # discord.py keeps a string's length limits in min_value/max_value.
        if param.max_value is not None:
            bounds.append(f"up to {param.max_value} characters")
    elif param.min_value is not None or param.max_value is not None:
        span = f"{param.min_value}–{param.max_value}"
        if span not in param.description:  # short descriptions often are just the range
            bounds.append(span)
    if param.choices:
        names = ", ".join(choice.name for choice in param.choices[:10])
        bounds.append(f"one of {names}")
    if bounds:
        text += f" ({'; '.join(bounds)})"
    if not param.required:
        text += " — optional"
    return text


def _short(command: commands.Command) -> str:
    return (command.short_doc or command.help or "").strip() or "No description."


def _root_lines(bot: commands.Bot, rulesets: Iterable[Ruleset] | None) -> list[str]:
    """One line per top-level command: its subcommands' names, or its own summary.

    Per-command detail lives in ``/help <command>``; the overview must stay inside
    one embed (6000 characters) however many commands the bot grows.
    """
    tops = {root.name: root for root in root_commands(bot, rulesets)}
    by_root: dict[str, list[commands.Command]] = {}
    for command in walk_leaf_commands(bot, rulesets):
        root = command.qualified_name.split(" ")[0]
        by_root.setdefault(root, []).append(command)
    lines = []
    for root, leaves in sorted(by_root.items()):
        top = tops.get(root)
        if len(leaves) == 1 and leaves[0] is top and not isinstance(top, commands.Group):
            lines.append(f"`/{root}` — {_short(top)}")
            continue
        names = " · ".join(display_name(leaf).split(" ", 1)[1] for leaf in leaves)
        summary = (top.description or _short(top)) if top is not None else ""
        lines.append(f"`/{root}` {names}" + (f" — {summary}" if summary else ""))
    return lines


def overview_embed(
    bot: commands.Bot, rulesets: Iterable[Ruleset] | None = None, blurb: str = ""
) -> discord.Embed:
    embed = discord.Embed(
        title="Commands",
        description=(blurb + " " if blurb else "")
        + "Use `/help <command>` (e.g. `/help roll`) for options and the rulings"
        " the bot applies.",
        colour=COLOUR,
    )
    chunk: list[str] = []
    for line in _root_lines(bot, rulesets):
        line = line[:1000]
        if sum(len(item) + 1 for item in chunk) + len(line) > 1000:
            embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
            chunk = []
        chunk.append(line)
    if chunk:
        embed.add_field(name="\u200b", value="\n".join(chunk), inline=False)
    return embed


PAGE_BUDGET = 5800  # Discord takes 6000 characters across one message's embeds
MAX_FIELDS = 25


def command_pages(command: commands.Command) -> list[discord.Embed]:
    """/help for one command, one embed per message: its options, then its rulings, with
    a page more whenever one message would not hold them all (/attack's rulings alone
    come near Discord's 6000 characters)."""
    title = usage(command)[:256]
    first = discord.Embed(title=title, description=_short(command), colour=COLOUR)
    params = _app_parameters(command)
    if params:
        _add_lines(first, "Options", [_describe_parameter(p) for p in params])
    aliases = [a for a in command.aliases]
    if aliases:
        first.add_field(
            name="Also as a message", value=", ".join(f"`!{a}`" for a in aliases), inline=False
        )
    pages = [first]
    name = "Rulings"
    for value in _field_values([f"• {r}" for r in command.extras.get("rulings") or []]):
        page = pages[-1]
        if len(page) + len(name) + len(value) > PAGE_BUDGET or len(page.fields) >= MAX_FIELDS:
            page = discord.Embed(title=f"{title} (rulings, continued)"[:256], colour=COLOUR)
            pages.append(page)
            name = "Rulings"
        page.add_field(name=name, value=value, inline=False)
        name = "\u200b"
    return pages


def _add_lines(embed: discord.Embed, name: str, lines: list[str]) -> None:
    """Lines in as many fields as Discord's 1,024-character limit needs (a command with
    many options, such as /attack, would otherwise be cut)."""
    for value in _field_values(lines):
        embed.add_field(name=name, value=value, inline=False)
        name = "\u200b"


def _field_values(lines: list[str]) -> list[str]:
    """The lines joined into field values of at most 1,024 characters, none split."""
    values: list[str] = []
    chunk: list[str] = []
    for line in (line[:1024] for line in lines):
        if chunk and len("\n".join([*chunk, line])) > 1024:
            values.append("\n".join(chunk))
            chunk = []
        chunk.append(line)
    if chunk:
        values.append("\n".join(chunk))
    return values


def find_command(
    bot: commands.Bot, name: str, rulesets: Iterable[Ruleset] | None = None
) -> commands.Command | None:
    wanted = " ".join(name.lower().lstrip("/!").split())
    for command in walk_leaf_commands(bot, rulesets):
        if wanted in (display_name(command), command.qualified_name, *command.aliases):
            return command
    return None


def command_names(bot: commands.Bot, rulesets: Iterable[Ruleset] | None = None) -> list[str]:
    return [display_name(command) for command in walk_leaf_commands(bot, rulesets)]
