"""One table-driven error handler for prefix commands, slash commands and buttons.

A user mistake gets one ephemeral sentence saying what to do; anything unexpected
is logged with a short code that the user also sees, so a report can be matched
to its traceback.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery.replies import (
    NO_PINGS,
    is_expired_interaction,
    post_for_presser,
    send_ephemeral_to_interaction,
)
from bot.errors import UserError
from bot.interactions.user_text import code, fit_message
from bot.rules.errors import RulesError
from bot.storage.errors import StorageError

log = logging.getLogger(__name__)

# What a Discord client with an out-of-date command menu sends (a command or subcommand
# since removed, or without an option that is now required) gets this, not an error code.
STALE_COMMAND = (
    "That command has changed since your Discord loaded its menu: the menu refreshes by"
    " itself shortly (or restart Discord), then try again."
)


def _unwrap(error: BaseException) -> BaseException:
    """Peel discord.py's wrappers off to reach the exception a command raised."""
    seen = 0
    while seen < 10:
        seen += 1
        if (
            isinstance(
                error,
                commands.HybridCommandError
                | commands.CommandInvokeError
                | app_commands.CommandInvokeError
                | commands.ConversionError,
            )
            and error.__cause__ is not None
        ):
            error = error.__cause__
        elif isinstance(error, commands.HybridCommandError | app_commands.CommandInvokeError):
            error = error.original
        else:
            break
    return error


def _option_name(error: BaseException) -> str:
    param = getattr(error, "param", None)
    if param is not None:
        return str(getattr(param, "name", param))
    transformer_error = error if isinstance(error, app_commands.TransformerError) else None
    if transformer_error is not None:
        return "that option"
    return "an option"


def user_message(error: BaseException) -> str | None:
    """The sentence to show for a user mistake, or None when it is our fault."""
    error = _unwrap(error)
    if isinstance(error, UserError | RulesError):
        return str(error)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return STALE_COMMAND
    if isinstance(error, commands.MissingRequiredArgument):
        return f"`{error.param.name}` is missing: add it after the command and try again."
    if isinstance(error, commands.TooManyArguments):
        return "That command got more than it takes: check `/help` for its options."
    if isinstance(error, commands.RangeError) and isinstance(error.value, str):
        if error.minimum is not None and len(error.value) < error.minimum:
            return f"That text needs at least {error.minimum} characters: add some and try again."
        return f"That text must be at most {error.maximum} characters: shorten it and try again."
    if isinstance(error, commands.RangeError):
        low = "" if error.minimum is None else f" at least {error.minimum}"
        high = "" if error.maximum is None else f" at most {error.maximum}"
        joiner = " and" if low and high else ""
        return f"That value must be{low}{joiner}{high}: try again with one in range."
    if isinstance(error, commands.BadArgument | commands.BadUnionArgument):
        return f"That value for `{_option_name(error)}` isn't valid: check `/help` and try again."
    if isinstance(error, commands.NoPrivateMessage | app_commands.NoPrivateMessage):
        return "That command only works in a server, where your campaign lives."
    if isinstance(error, app_commands.TransformerError):
        return f"{code(error.value)} isn't a valid value there: pick one of the offered choices."
    if isinstance(error, commands.CommandOnCooldown | app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    if isinstance(error, commands.MaxConcurrencyReached):
        return "That command is already running here: wait for it to finish."
    if isinstance(error, commands.CheckFailure | app_commands.CheckFailure):
        return "You can't use that command here."
    if isinstance(error, commands.UserInputError):
        return "I couldn't read that command: check `/help` for its options and try again."
    if isinstance(error, discord.Forbidden):
        return "I'm missing a Discord permission in this channel: ask an admin to check my role."
    return None


def _expired(error: BaseException, where: str) -> bool:
    """Discord no longer takes this interaction's answer (its 3 seconds passed): no one
    can be told anything through it, so it is logged, not answered (see bot.delivery.replies)."""
    if not is_expired_interaction(_unwrap(error)):
        return False
    log.info("an interaction expired before %s could answer it", where)
    return True


def _error_code() -> str:
    return secrets.token_hex(3).upper()


def _log_unexpected(error: BaseException, where: str) -> str:
    code = _error_code()
    original = _unwrap(error)
    if isinstance(original, StorageError):
        log.error("error %s in %s: %s", code, where, original)
    else:
        log.error("error %s in %s", code, where, exc_info=original)
    return code


def unexpected_message(code: str) -> str:
    return (
        f"Something went wrong on my side (error code `{code}`): try again, and if it"
        " keeps happening tell the bot's operator that code."
    )


async def on_command_error(ctx: commands.Context[Any], error: commands.CommandError) -> None:
    """Handler for prefix commands and the slash side of hybrid commands."""
    if isinstance(error, commands.CommandNotFound):
        return  # someone else's prefix, or a typo in chat: stay quiet
    if _expired(error, "command"):
        return
    message = user_message(error)
    if message is None:
        message = unexpected_message(
            _log_unexpected(error, f"command {ctx.command.qualified_name if ctx.command else '?'}")
        )
    await _answer_context(ctx, message)


async def _answer_context(ctx: commands.Context[Any], message: str) -> None:
    try:
        if ctx.interaction is not None:
            await send_ephemeral_to_interaction(ctx.interaction, message)
        else:
            await ctx.reply(fit_message(message), mention_author=False, allowed_mentions=NO_PINGS)
    except discord.HTTPException:
        log.warning("could not deliver an error message in channel %s", ctx.channel.id)


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """Handler for pure application commands and checks run by the command tree."""
    if _expired(error, "slash command"):
        return
    message = user_message(error)
    if message is STALE_COMMAND:
        log.info("answered a stale command from interaction %s: %s", interaction.id, error)
    elif message is None:
        name = interaction.command.qualified_name if interaction.command else "?"
        message = unexpected_message(_log_unexpected(error, f"slash command {name}"))
    await _answer_interaction(interaction, message)


async def on_view_error(interaction: discord.Interaction, error: Exception, where: str) -> None:
    """Handler for button and select callbacks."""
    if _expired(error, where):
        return
    message = user_message(error)
    if message is None:
        message = unexpected_message(_log_unexpected(error, where))
    try:
        await send_ephemeral_to_interaction(interaction, message)
    except discord.NotFound as failed:
        # A refused press that came too late (the tracker's turn moved on, the dying roll
        # was made) is told in the channel as a late press's answer is: never silent.
        if not is_expired_interaction(failed) or not await _post_quietly(interaction, message):
            log.warning("could not deliver an error message for interaction %s", interaction.id)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


async def _post_quietly(interaction: discord.Interaction, message: str) -> bool:
    try:
        return await post_for_presser(interaction, message)
    except discord.HTTPException:
        return False


async def answer_press(
    interaction: discord.Interaction, where: str, press: Awaitable[None]
) -> None:
    """Run a button's work; any error is answered like a command error."""
    try:
        await press
    except Exception as error:
        await on_view_error(interaction, error, where)


async def refuse_interaction(interaction: discord.Interaction, message: str) -> None:
    """Answer a user mistake found before any command ran (see ``bot.client.TableTree``)."""
    await _answer_interaction(interaction, message)


async def _answer_interaction(interaction: discord.Interaction, message: str) -> None:
    try:
        await send_ephemeral_to_interaction(interaction, message)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


async def no_choices(interaction: discord.Interaction) -> None:
    """Answer an autocomplete the bot can't serve with no choices (Discord shows none)."""
    try:
        await interaction.response.autocomplete([])
    except discord.HTTPException:
        log.warning("could not answer autocomplete interaction %s", interaction.id)
