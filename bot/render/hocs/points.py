"""Hero, fortune and determination points and sessions as lines and embeds.

Names arrive already escaped (``safe_name``); nothing here pings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord

from bot.render.hocs.character import conditions_text
from bot.render.hocs.combat import DESCRIPTION_LIMIT, vitals_text, wound_name
from bot.render.text import clip, plural
from bot.rules.hocs.attack import HitReduction
from bot.rules.hocs.pool import SUCCESS_FACE, PoolResult

COLOUR = discord.Colour.purple()
MAX_LISTED_DICE = 10
FIELD_LIMIT = 1024


def _face(face: int) -> str:
    return f"**{face}**" if face >= SUCCESS_FACE else str(face)


def _changes(before: PoolResult, after: PoolResult, dice: Sequence[int]) -> str:
    shown = [
        f"#{i + 1} {before.dice[i].rolled_face}→{_face(after.dice[i].rolled_face)}"
        for i in list(dice)[:MAX_LISTED_DICE]
    ]
    more = len(dice) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def spend_line(
    name: str,
    kind: Literal["determination", "hero", "fortune"],
    *,
    left: int | None = None,
    source: str | None = None,
    before: PoolResult | None = None,
    after: PoolResult | None = None,
    dice: Sequence[int] = (),
) -> str:
    """The line the table sees under a changed roll: who spent what, and what it did."""
    if kind == "determination":
        return f"{name} spent a determination point after the roll ({left} left)."
    assert before is not None and after is not None
    rerolled = "rerolled 1 die" if len(dice) == 1 else f"rerolled {len(dice)} dice"
    changes = _changes(before, after, dice)
    if kind == "hero":
        return f"{name} spent a hero point: {rerolled} ({changes}); {left} left."
    return f"{name} spent a fortune point ({source}): {rerolled} ({changes})."


def hero_point_line(name: str, option: str, left: int, extra: str = "") -> str:
    """A hero point spent on something other than a reroll."""
    text = {
        "determination": f"{name} spent a hero point to regain 1 determination point{extra}.",
        "action": f"{name} spent a hero point: 1 extra action until the end of their turn{extra}.",
    }[option]
    return f"{text} Hero points left: {left}."


def names_field(names: Sequence[str]) -> str:
    """Names on one line, cut to fit a field."""
    text = ", ".join(names) if names else "none yet"
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def session_started_embed(
    *,
    number: int,
    adventure: int,
    one_shot: bool,
    new_adventure: bool,
    hero_points: int | None,
    names: Sequence[str],
) -> discord.Embed:
    """Announce a new session to the table."""
    if not one_shot:
        lines = [
            f"Every player character now has {hero_points} hero point; unspent hero points"
            " from the last session are gone."
        ]
    elif new_adventure:
        lines = [
            f"One-shot mode: adventure {adventure} begins. Every player character now has"
            f" {hero_points} hero point for the whole adventure; older ones are gone."
        ]
    else:
        lines = [
            f"One-shot mode: adventure {adventure} continues. No new hero points: each"
            " player character keeps what is left of the adventure's one."
        ]
    embed = discord.Embed(
        title=f"Session {number} begins", description="\n".join(lines), colour=COLOUR
    )
    embed.add_field(name="Player characters", value=names_field(names), inline=False)
    return embed


def session_ended_embed(*, number: int, dropped: bool, names: Sequence[str]) -> discord.Embed:
    if dropped:
        text = "Unspent hero points are gone."
    else:
        text = "One-shot mode: hero points are kept for the rest of the adventure."
    embed = discord.Embed(title=f"Session {number} ends", description=text, colour=COLOUR)
    if dropped and names:
        embed.add_field(name="Hero points dropped for", value=names_field(names), inline=False)
    return embed


def session_status_embed(
    *,
    number: int | None,
    running: bool,
    started_at: str | None,
    adventure: int | None,
    one_shot: bool,
    rows: Sequence[tuple[str, int, int, int, Sequence[str]]],
) -> discord.Embed:
    """The session and every player character's points: (name, hero, det, det max, fortune)."""
    if number is None:
        title, text = "No session yet", "Start one with /session start."
    elif running:
        title = f"Session {number} is running"
        text = f"Started {started_at[:16].replace('T', ' ') if started_at else '?'} UTC."
    else:
        title, text = f"Session {number} has ended", "Start the next with /session start."
    mode = (
        f"One-shot mode: one hero point per adventure (adventure {adventure or 1})."
        if one_shot
        else "One hero point per session."
    )
    embed = discord.Embed(title=title, description=f"{text}\n{mode}", colour=COLOUR)
    lines = [
        f"{name}: {plural(hero, 'hero point')} · determination {det}/{det_max}"
        + (f" · fortune ({', '.join(fortune)})" if fortune else "")
        for name, hero, det, det_max, fortune in rows
    ]
    value = "\n".join(lines) if lines else "none yet"
    if len(value) > FIELD_LIMIT:
        value = value[: FIELD_LIMIT - 1] + "…"
    embed.add_field(name="Player characters", value=value, inline=False)
    return embed


def fortune_list_embed(name: str, sources: Sequence[str]) -> discord.Embed:
    if sources:
        text = "\n".join(f"• fortune ({source})" for source in sources)
    else:
        text = "No fortune points. The GM grants them with /fortune grant."
    return discord.Embed(title=f"{name}: fortune points", description=text, colour=COLOUR)


def hero_damage_embed(
    name: str,
    reduction: HitReduction,
    *,
    hit_title: str,
    left: int,
) -> discord.Embed:
    """A hero point spent on the last hit: the 2d6, damage and hit points before and
    after, conditions and wounds the hit no longer causes. ``hit_title`` is the
    hit's stored (already rendered) title."""
    n = name  # already escaped
    before, after = reduction.before, reduction.after
    faces = " + ".join(str(f) for f in reduction.faces)
    lines = [
        f"-# The hit: {hit_title}",
        f"**2d6**: {faces} = **{reduction.total}** (added, can't be modified)",
        f"**Damage**: {before.dealt} → **{after.dealt}** (the roll, before toughness/mettle)",
        f"**Received** after toughness/mettle: {before.application.after_reductions} →"
        f" **{after.application.after_reductions}**",
    ]
    given = [f"{reduction.hp_given_back} HP"]
    if reduction.temp_hp_given_back:
        given.append(f"{reduction.temp_hp_given_back} temporary HP")
    lines.append(
        f"**Given back**: {' and '.join(given)}: {vitals_text(before.after, before.max_hp_after)}"
        f" → **{vitals_text(after.after, after.max_hp_after)}**"
    )
    if after.threshold_test is not None:
        test = after.threshold_test
        lines.append(
            f"**Threshold test** (already rolled) vs {test.outcome.difficulty}:"
            f" {test.roll.successes} success{'es' if test.roll.successes != 1 else ''}"
            f" → **{test.outcome.result.value}**."
        )
    for wound in reduction.wounds_removed:
        lines.append(
            f"**No wound**: {wound_name(wound)} ({wound.description}) is gone: the damage"
            " received is below 10 now."
        )
    if reduction.conditions_removed:
        gone = ", ".join(c.value for c in reduction.conditions_removed)
        lines.append(f"**No longer**: {gone}.")
    if reduction.conditions_added:
        gained = ", ".join(c.value for c in reduction.conditions_added)
        lines.append(f"**Now**: {gained}.")
    lines.append(
        f"**{n} now**: {vitals_text(after.after, after.max_hp_after)};"
        f" conditions: {conditions_text(after.after.conditions)}."
    )
    lines.append(f"Hero points left: {left}.")
    return discord.Embed(
        title=clip(f"{n} spends a hero point: 2d6 off the last hit", 256),
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
        colour=COLOUR,
    )


ExtraActionStatus = Literal["marked", "no encounter", "not in encounter", "not your turn"]


def extra_action_note(
    name: str, status: ExtraActionStatus, *, actions_spent: int = 0, actions_allowed: int = 0
) -> str:
    """Where the hero point's extra action was recorded (a small line under the reply)."""
    if status == "marked":
        return (
            f"-# Marked on the initiative tracker: actions {actions_spent}/{actions_allowed}"
            " this turn; the extra action ends with the turn."
        )
    if status == "no encounter":
        return (
            "-# No initiative encounter runs in this channel: the table keeps track of the"
            " extra action."
        )
    if status == "not in encounter":
        return f"-# {name} isn't in this channel's initiative encounter: the tracker is unchanged."
    return (
        f"-# It isn't {name}'s turn on the initiative tracker, so nothing was marked there:"
        " the table keeps track of the extra action."
    )
