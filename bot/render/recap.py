"""The recap of a session (or any span): one embed, every figure counted from the log.

Names are user text (escaped); a jump link needs the roll's message, which a roll
logged without one (older rows, secret rolls whose reply was private) doesn't have.
"""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.render.text import plural, safe
from bot.rules.generic.luck import luck_summary
from bot.rules.generic.recap import Figures, Highlight, Recap, RollFacts

COLOUR = discord.Colour.blurple()
MAX_CHARACTERS = 20  # embed fields: a table rarely has more; the rest are summed in


def luck_line(figures: Figures) -> str:
    summary = luck_summary(figures.scored)
    if summary.n == 0:
        return "luck: no roll of a known distribution"
    mean = round(summary.mean * 100)
    return f"luck {mean} % over {plural(summary.n, 'roll')} ({summary.verdict})"


def figures_lines(figures: Figures, *, ruleset: str) -> list[str]:
    """A character's (or the party's) figures, the ruleset's own dice words."""
    lines = [
        f"{plural(figures.rolls, 'roll')}: {figures.successes} succeeded, {figures.failures} failed"
    ]
    if ruleset == "hocs":
        crits = plural(figures.critical_failures, "critical failure")
        sixes = f"{figures.sixes} six" + ("" if figures.sixes == 1 else "es")
        lines.append(f"{sixes}, {crits}")
    else:
        lines.append(
            f"{plural(figures.natural_twenties, 'natural 20')},"
            f" {plural(figures.natural_twos, 'natural 2')}"
        )
    lines.append(f"damage dealt {figures.damage_dealt}, taken {figures.damage_taken}")
    hurt = []
    if ruleset == "hocs" or figures.wounds:
        hurt.append(plural(figures.wounds, "wound"))
    hurt += [plural(figures.downs, "down"), f"dying {figures.dying}×"]
    lines.append(", ".join(hurt))
    for word, points in (("gained", figures.gained), ("spent", figures.spent)):
        if points:  # HOCS points, by kind
            lines.append(f"{word} " + ", ".join(f"{n} {k}" for k, n in sorted(points.items())))
    lines.append(luck_line(figures))
    if figures.unscored:
        lines.append(f"{figures.unscored} not scored (distribution unknown or secret)")
    return lines


def _highlight(word: str, chosen: Highlight | None, guild_id: int) -> str | None:
    if chosen is None:
        return None
    facts, luck = chosen.facts, chosen.luck
    percent = round(float(luck.percentile) * 100)
    what = safe(facts.label) if facts.label else facts.kind
    if luck.part:
        what += f" ({luck.part})"
    if luck.owner:
        what = f"{safe(luck.owner)}: {what}"
    where = ""
    if facts.message_id is not None and facts.channel_id is not None:
        link = f"https://discord.com/channels/{guild_id}/{facts.channel_id}/{facts.message_id}"
        where = f" ([jump]({link}))"
    return f"**{word}**: {what}, {percent} %{where}"


def recap_embed(title: str, result: Recap, *, ruleset: str, guild_id: int) -> discord.Embed:
    embed = discord.Embed(title=title[:256], colour=COLOUR)
    if result.rolls == 0:
        embed.description = "No rolls were logged in this span."
        return embed
    head = [
        f"{plural(result.rolls, 'roll')} in all; {plural(result.fights, 'fight')},"
        f" {plural(result.rounds, 'round')} fought."
    ]
    if result.other_rolls:
        head.append(f"{plural(result.other_rolls, 'roll')} for NPCs or nobody in particular.")
    for word, facts in (("Luckiest", result.luckiest), ("Unluckiest", result.unluckiest)):
        line = _highlight(word, facts, guild_id)
        if line:
            head.append(line)
    if result.private:
        head.append("*Private: secret rolls included.*")
    embed.description = "\n".join(head)[:4096]
    shown = result.characters[:MAX_CHARACTERS]
    for name, figures in shown:
        embed.add_field(
            name=safe(name)[:256], value="\n".join(figures_lines(figures, ruleset=ruleset))[:1024]
        )
    embed.add_field(
        name="The party", value="\n".join(figures_lines(result.party, ruleset=ruleset))[:1024],
        inline=False,
    )  # fmt: skip
    return embed


def kind_name(kind: str) -> str:
    """A log kind in the table's words ("2d10-attack" → "attack")."""
    return kind.removeprefix("2d10-").replace("_", " ")


def by_kind_lines(facts: list[RollFacts], *, public: bool, only: str | None) -> list[str]:
    """Rolls and luck per kind of roll (of ``only``'s rolls, or the party's)."""
    kinds: dict[str, tuple[int, list[tuple[Fraction, Fraction]]]] = {}
    for f in facts:
        if f.roller is None or (only is not None and f.roller != only):
            continue
        count, scored = kinds.get(f.kind, (0, []))
        if not (public and f.secret):
            scored += [(x.percentile, x.variance) for x in f.luck if x.owner == f.roller]
        kinds[f.kind] = (count + 1, scored)
    lines = []
    for kind, (count, scored) in sorted(kinds.items(), key=lambda kv: -kv[1][0]):
        summary = luck_summary(scored)
        luck = f"luck {round(summary.mean * 100)} %" if summary.n else "not scored"
        lines.append(f"{kind_name(kind)}: {plural(count, 'roll')}, {luck}")
    return lines


def stats_embed(
    title: str, result: Recap, facts: list[RollFacts], *, ruleset: str, guild_id: int,
    public: bool,
) -> discord.Embed:  # fmt: skip
    embed = recap_embed(title, result, ruleset=ruleset, guild_id=guild_id)
    only = result.characters[0][0] if len(result.characters) == 1 else None
    lines = by_kind_lines(facts, public=public, only=only)
    if lines:
        embed.add_field(name="By kind", value="\n".join(lines)[:1024], inline=False)
    return embed
