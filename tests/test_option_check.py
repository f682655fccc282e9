"""Options checked against their declarations before any command runs (option_check)."""

from __future__ import annotations

from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.client import TableBot
from bot.delivery.replies import send
from bot.interactions.command_sync import command_payload
from bot.interactions.option_check import option_problem
from bot.interactions.user_text import (
    MESSAGE_LIMIT,
    code,
    control_characters,
    cut,
    echo,
    fit_message,
)
from bot.rules.dice_source import ScriptedDice
from bot.rulesets import Ruleset
from tests.support.slash import SlashHarness
from tests.support.slash_payloads import find_app_command


def app_command(bot: TableBot, name: str) -> Any:
    hocs = bot.command_sets.catalogues[Ruleset.HOCS].app  # HOCS commands are guild commands
    return find_app_command(bot.tree, name, hocs)[0]


async def test_every_declaration_is_checked(bot: TableBot) -> None:
    rest = app_command(bot, "rest")
    good = {"place": "good", "resources": "subpar", "time": "extreme"}
    assert option_problem(rest, good) is None
    assert option_problem(rest, {**good, "time": "GOOD"}) == (
        "`GOOD` isn't one of the offered choices for `time`: pick one from the list."
    )
    assert option_problem(rest, {**good, "determination": -1}) == (
        "`determination` must be from 0 to 20: try again with a value in that range."
    )
    assert option_problem(rest, {**good, "hp": "3"}) == (
        "`hp` must be a whole number: try again with one."
    )
    assert option_problem(rest, {**good, "character": "x" * 65}) == (
        "`character` must be at most 64 characters: shorten it and try again."
    )
    assert option_problem(rest, {**good, "character": "\x00Mira"}) == (
        "`character` contains control characters: retype it without them."
    )
    # A subcommand of a hybrid group, and a bound shown as typed (not 1e+06).
    edit = app_command(bot, "character edit")
    assert option_problem(edit, {"exp": 10**7}) == (
        "`exp` must be from 0 to 1000000: try again with a value in that range."
    )
    # A huge echoed value stays short, and a backtick can't end the code span.
    assert option_problem(edit, {"size": "`" + "x" * 5000}) == (
        f"`'{'x' * 38}…` isn't one of the offered choices for `size`: pick one from the list."
    )


async def test_optional_bounded_options_keep_their_bounds(bot: TableBot) -> None:
    # `Range[...] | None` on a hybrid command silently drops the bounds on the slash side.
    options = {
        option["name"]: option
        for command in command_payload(bot.tree, None)
        + bot.command_sets.catalogues[Ruleset.HOCS].payload(bot.tree)
        if command["name"] == "rest"
        for option in command["options"]
    }
    assert options["character"]["max_length"] == 64


@pytest.mark.parametrize(
    ("command", "options", "answer"),
    [
        ("init add", {"name": "Rat", "side": "x"}, "`x` isn't one of the offered choices"),
        ("init effect", {"name": "Goblin 1", "condition": "x", "value": 99}, "`x` isn't"),
        ("character weapon remove", {"weapon": "x" * 3000}, "`weapon` must be at most 40"),
        ("fortune grant", {"character": "Mira", "source": "\x00luck"}, "control characters"),
    ],
)
async def test_a_forged_payload_is_refused_before_the_command(
    bot: TableBot, slash: SlashHarness, command: str, options: dict[str, Any], answer: str
) -> None:
    ran: list[str] = []

    async def on_command(ctx: Any) -> None:
        ran.append(ctx.command.qualified_name)

    bot.add_listener(on_command)
    result = await slash.run(command, client_checks=False, manage_guild=True, options=options)
    assert result.ephemeral and answer in (result.content or ""), result.content
    assert not result.command_errors and ran == []
    await dpytest.empty_queue()


async def test_autocomplete_is_not_checked(bot: TableBot, slash: SlashHarness) -> None:
    # The user is still typing: an empty or partial value must still get suggestions.
    choices = await slash.autocomplete("character wounds add", "wound", "", name="Mira")
    assert choices and all(c["value"] for c in choices)
    await dpytest.empty_queue()


async def test_prefix_commands_refuse_control_characters(bot: TableBot) -> None:
    await dpytest.message("!character create Mi\x00ra 3 2 2 1")
    refusal = dpytest.get_message().content
    assert refusal == "That message contains control characters: retype the command without them."
    bot.dice = ScriptedDice([4])
    await dpytest.message("!roll 1d6\n")  # line breaks are ordinary whitespace
    assert dpytest.get_message().content.endswith("= **4**")
    await dpytest.empty_queue()


def test_text_helpers() -> None:
    assert control_characters("a\x00b") and control_characters("\x1b[31m")
    assert not control_characters("two\nlines\tand a tab\r") and not control_characters("é🎲")
    assert cut("abcdef", 4) == "abc…" and cut("abc", 4) == "abc"
    assert echo("**@everyone**" + "x" * 100).startswith("\\*\\*@\u200beveryone")
    assert len(echo("y" * 100)) == 40
    assert code("") == "`(blank)`" and code("a`b") == "`a'b`"
    assert fit_message(None) is None
    long = fit_message("z" * 5000)
    assert long is not None and len(long) == MESSAGE_LIMIT and long.endswith("…")


async def test_send_never_exceeds_the_message_limit(bot: TableBot) -> None:
    sent: list[str] = []

    class Ctx:
        interaction = None

        async def reply(self, content: str, **kwargs: Any) -> None:
            sent.append(content)

    await send(Ctx(), "w" * 3000)  # type: ignore[arg-type]
    assert len(sent[0]) == MESSAGE_LIMIT and sent[0].endswith("…")


async def test_the_first_bad_option_as_declared_is_the_one_refused(bot: TableBot) -> None:
    attack = app_command(bot, "attack")  # declares target first and character last
    given = {"character": "x" * 65, "boons": 99, "target": "Gob\x07"}
    assert option_problem(attack, given) == (
        "`target` contains control characters: retype it without them."
    )
    assert option_problem(attack, {"character": "x" * 65, "boons": 99}) == (
        "`boons` must be from 0 to 30: try again with a value in that range."
    )


async def test_unprintable_text_is_refused_only_for_control_characters(bot: TableBot) -> None:
    attack = app_command(bot, "attack")
    # A tab, a no-break space, a zero-width joiner: not printable, not control characters.
    for fine in ("Gob\tthe Bold", "Gob\u00a0the Bold", "Gob\u200dthe Bold", "Gob the Bold"):
        assert option_problem(attack, {"target": fine}) is None, repr(fine)
    # NEL (U+0085) and DEL are control characters as much as NUL is.
    for bad in ("Gob\u0085", "Gob\x7f", "\x00Gob"):
        assert option_problem(attack, {"target": bad}) == (
            "`target` contains control characters: retype it without them."
        ), repr(bad)
