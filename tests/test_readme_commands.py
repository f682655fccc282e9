"""The command tables of README and docs/ name the options the slash menu really shows.

Each code span in a command row is a command (``/hero spend <option> [dice]``) or, after
the first, another subcommand of the same top-level command (``give``). Every ``<name>``
or ``[name]`` in it must be an option of that command (required ones in angle brackets),
and a span that lists options lists every required one unless it ends in "…".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.client import TableBot
from bot.interactions.command_sync import command_payload
from bot.rulesets import Ruleset

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = README.parent / "docs"
PAGES = {Ruleset.HOCS: ("hocs.md", "campaign.md"), Ruleset.TWOD10: ("twod10.md",)}
_SPAN = re.compile(r"`([^`]+)`")
_TOKEN = re.compile(r"([<\[])([^>\]]*)[>\]]")


def _leaves(options: list[dict[str, Any]], path: str, out: dict[str, dict[str, bool]]) -> None:
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        out[path] = {o["name"]: bool(o.get("required")) for o in options}
    out.setdefault(path, {})
    for sub in subs:
        _leaves(sub.get("options", []), f"{path} {sub['name']}", out)


def _command_rows(ruleset: Ruleset = Ruleset.HOCS) -> list[list[str]]:
    """Rows of ``ruleset``'s tables: README's "### 2d10 system" section and docs/twod10.md
    hold 2d10's rows; the rest of README, docs/hocs.md and docs/campaign.md HOCS's and the
    platform's (every server has /roll, /campaign and /help)."""
    rows, section = [], Ruleset.HOCS
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith(("## ", "### ")):
            section = Ruleset.TWOD10 if line == "### 2d10 system" else Ruleset.HOCS
        if section is ruleset:
            rows += _row(line)
    for page in PAGES[ruleset]:
        for line in (DOCS / page).read_text(encoding="utf-8").splitlines():
            rows += _row(line)
    return rows


def _row(line: str) -> list[list[str]]:
    first = line.split("|")[1].strip() if line.startswith("| `") else ""
    return [_SPAN.findall(first.replace("\\|", "|"))] if first.startswith("`/") else []


async def test_readme_rows_use_real_option_names(bot: TableBot) -> None:
    assert _check_rows(bot, Ruleset.HOCS) >= 40


async def test_readme_2d10_rows_use_real_option_names(bot: TableBot) -> None:
    assert _check_rows(bot, Ruleset.TWOD10) >= 8


def _check_rows(bot: TableBot, ruleset: Ruleset) -> int:
    commands: dict[str, dict[str, bool]] = {}
    payload = command_payload(bot.tree, None)  # platform, then the ruleset's guild commands
    payload += bot.command_sets.catalogues[ruleset].payload(bot.tree)
    for command in payload:
        _leaves(command.get("options", []), "/" + command["name"], commands)
    rows = _command_rows(ruleset)
    assert len(rows) >= 4
    checked = 0
    for spans in rows:
        group = ""
        for span in spans:
            if span.startswith("!"):
                continue  # a prefix alias such as `!r`
            head = " ".join(w for w in span.split() if w[0] not in "<[…")
            if span.startswith("/"):
                path, group = head, head.split()[0]
            else:  # a sibling: `list [player]` after `/character show [name]`
                path = f"{group} {head}"
            if "|" in path or path.endswith("…"):
                continue  # `trait add|remove`: alternatives, no options listed
            assert path in commands, (path, span)
            options = commands[path]
            tokens = _TOKEN.findall(span)
            for bracket, name in tokens:
                assert name in options, (span, name, sorted(options))
                assert (bracket == "<") == options[name], (span, name)
            if tokens and not span.endswith("…"):
                listed = {name for _, name in tokens}
                required = {name for name, needed in options.items() if needed}
                assert required <= listed, (span, required - listed)
            checked += 1
    return checked
