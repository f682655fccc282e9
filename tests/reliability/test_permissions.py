"""Permissions: every command × {GM, the character's owner, another player}.

GM-only commands allow the GM only; character-scoped commands (aimed at Mira, owned by
``table.owner``) allow the GM and the owner; open commands allow everyone. A deny is
the shared handler's refusal: ephemeral, one sentence, about who may act, nothing
written. An allow is answered without a refusal. Every leaf command of the tree must
be classified here: a new command fails ``test_every_command_is_classified``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import discord.ext.test as dpytest
import pytest

from bot.campaign_file.format import CampaignFile, dump
from bot.client import TableBot
from tests.reliability.conftest import Table, fingerprint, is_sentence, use_ruleset
from tests.reliability.figures import count
from tests.reliability.tree import leaf_commands
from tests.support.slash import AttachmentFile, SlashHarness

ACTORS = ("gm", "owner", "other")
PERMISSION_WORDS = re.compile(
    r"Only the GM|isn't yours|only its owner or the GM|owner or the GM can"
)
EMPTY_FILE = dump(CampaignFile(ruleset="hocs", exported_at="2025-01-02T03:04:05.678Z"))
GM, OWNER, OWNER_ONLY, OPEN = "gm only", "owner or gm", "owner only", "anyone"
ALLOWED = {GM: {"gm"}, OWNER: {"gm", "owner"}, OWNER_ONLY: {"owner"}, OPEN: set(ACTORS)}


@dataclass(frozen=True)
class Case:
    command: str
    scope: str
    options: dict[str, Any] = field(default_factory=dict)
    setup: tuple[tuple[str, dict[str, Any]], ...] = ()  # run as the GM first
    variant: str = ""
    ruleset: str = "hocs"  # the guild plays this ruleset (its own Mira, Bram and Ogre)

    @property
    def leaf(self) -> str:
        return self.command if self.ruleset == "hocs" else f"{self.command} [{self.ruleset}]"

    @property
    def id(self) -> str:
        return self.leaf + (f" ({self.variant})" if self.variant else "")


STATS = {"strength": 3, "agility": 2, "mind": 2, "presence": 1}
MIRA = {"name": "Mira"}
CASES = [
    # --- GM only -------------------------------------------------------------------------
    Case("campaign export", GM),
    Case("campaign import", GM, {"file": AttachmentFile("campaign.json", EMPTY_FILE)}),
    Case("campaign set", GM, {"show_npc_hp": True}),
    Case("session start", GM),
    Case("session end", GM, setup=(("session start", {}),)),
    Case("hero give", GM, {"character": "Mira"}),
    Case("hero take", GM, {"character": "Mira"}),
    Case("fortune grant", GM, {"character": "Mira", "source": "cooking"}),
    Case("fortune revoke", GM, {"character": "Mira", "source": "luck"}),
    Case("hp", GM, {"target": "Mira", "change": "-1"}),
    Case("condition add", GM, {"target": "Mira", "condition": "staggered"}),
    Case("condition remove", GM, {"target": "Mira", "condition": "staggered"},
         setup=(("condition add", {"target": "Mira", "condition": "staggered"}),)),
    Case("condition test", GM, {"target": "Mira"},
         setup=(("condition add", {"target": "Mira", "condition": "unconscious"}),)),
    Case("character create", GM, {"name": "Troll", **STATS, "kind": "antagonist"},
         variant="kind=antagonist"),
    Case("character create", GM, {"name": "Squire", **STATS, "kind": "ally"},
         variant="kind=ally"),
    Case("character wounds add", GM, {"wound": "speed -10", **MIRA}),
    Case("character wounds heal", GM, {"number": 1, **MIRA},
         setup=(("character wounds add", {"wound": "speed -10", **MIRA}),)),
    Case("rest", GM, {"place": "good", "resources": "good", "time": "good", "party": True},
         variant="party"),
    Case("odds party", GM, {"skill": "athletics", "difficulty": "2"}),
    Case("init begin", GM, setup=(("init end", {}),)),
    Case("init add", GM, {"name": "Orc"}),
    Case("init set", GM, {"name": "Goblin 1", "successes": 2}),
    Case("init effect", GM, {"name": "Goblin 1", "condition": "bleeding"}),
    Case("init move", GM, {"name": "Goblin 2"}, setup=(("init next", {}),)),
    Case("init remove", GM, {"name": "Goblin 1"}),
    Case("init prev", GM, setup=(("init next", {}), ("init next", {}))),
    Case("init skipdown", GM, {"on": True}),
    Case("init end", GM),
    # Before round 1 only the GM may start it; later the player whose turn it is may end it.
    Case("init next", GM, variant="first round"),
    # --- the character's owner or the GM -------------------------------------------------
    Case("character edit", OWNER, {"strength": 4, **MIRA}),
    Case("character delete", OWNER, {"confirm": True, **MIRA}),
    Case("character skill", OWNER, {"skill": "stealth", "training": 1, **MIRA}),
    Case("character customskill", OWNER, {"skill_name": "sailing", "attribute": "agility", **MIRA}),
    Case("character trait add", OWNER, {"trait": "brave", **MIRA}),
    Case("character trait remove", OWNER, {"trait": "brave", **MIRA},
         setup=(("character trait add", {"trait": "brave", **MIRA}),)),
    Case("character fundamentals", OWNER, {"who": "a sailor", **MIRA}),
    Case("character weapon add", OWNER, {"weapon": "Sword", "dice": "1d8", **MIRA}),
    Case("character weapon remove", OWNER, {"weapon": "Sword", **MIRA},
         setup=(("character weapon add", {"weapon": "Sword", "dice": "1d8", **MIRA}),)),
    Case("character defenses", OWNER, {"speed": 25, **MIRA}),
    # Selecting makes it *your* active character: only the owner (the GM uses name=).
    Case("character select", OWNER_ONLY, MIRA),
    Case("check", OWNER, {"skill": "athletics", "character": "Mira"}),
    Case("odds check", OWNER, {"skill": "athletics", "character": "Mira"}),
    Case("odds pool", OPEN, {"dice": 3}),
    Case("odds damage", OPEN, {"dice": "1d8", "target": "Ogre"}),
    Case("odds clash", OWNER, {"skill": "athletics", "opponent": "Ogre", "character": "Mira"}),
    Case("clash", OWNER, {"skill": "athletics", "opponent": "Ogre", "character": "Mira"}),
    Case("attack", OWNER, {"target": "Ogre", "weapon": "1d8", "character": "Mira"}),
    # Plain dice are anyone's to roll; naming a weapon rolls that character's weapon.
    Case("damage", OWNER, {"dice": "Sword", "target": "Ogre", "character": "Mira"},
         setup=(("character weapon add", {"weapon": "Sword", "dice": "1d8", **MIRA}),),
         variant="weapon"),
    Case("damage", OPEN, {"dice": "1d6", "target": "Ogre"}, variant="dice"),
    # The target's point on its threshold test: its owner's or the GM's to spend.
    Case("damage", OWNER, {"dice": "1d6", "target": "Mira", "threshold_determination": True},
         variant="threshold point"),
    Case("hero spend", OWNER, {"option": "action", "character": "Mira"}),
    Case("fortune spend", OWNER, {"source": "luck", "character": "Mira"}),
    Case("determination spend", OWNER, {"character": "Mira"}),
    Case("rest", OWNER, {"place": "good", "resources": "good", "time": "good",
                         "character": "Mira"}, variant="character"),
    Case("respite", OWNER, {"regain": "hp", "character": "Mira"},
         setup=(("hp", {"target": "Mira", "change": "-3"}),)),
    Case("init join", OWNER, {"character": "Mira"}, setup=(("init remove", {"name": "Mira"}),)),
    Case("init act", OWNER, {"kind": "reaction", "name": "Mira"}, setup=(("init next", {}),)),
    # --- anyone ----------------------------------------------------------------------------
    Case("help", OPEN),
    Case("campaign show", OPEN),
    Case("roll", OPEN, {"expression": "1d6"}),
    Case("pool", OPEN, {"dice": 3}),
    Case("character create", OPEN, {"name": "Newcomer", **STATS}, variant="pc"),
    Case("character show", OPEN, MIRA),
    Case("character list", OPEN),
    Case("character wounds list", OPEN, MIRA),
    Case("condition list", OPEN, {"target": "Mira"}),
    Case("init list", OPEN),
    Case("session status", OPEN),
    Case("fortune list", OPEN, {"character": "Mira"}),
]  # fmt: skip

BUILD_2D10 = {
    "background": "Sailor",
    "finesse": 2,
    "strength": 1,
    "toughness": 1,
    "mind": 0,
    "social": 0,
    "background_skills": "athletics 2, melee 2, stealth 1",
    "extra_skills": "perception 2, insight 2, stealth 1",
    "feat1": "Sea legs",
    "feat2": "Knots",
}
CASES += [
    Case("character create", GM, {"name": "Troll", **BUILD_2D10, "kind": "antagonist"},
         variant="kind=antagonist", ruleset="2d10"),
    Case("character advance", GM, {"attribute": "mind", **MIRA}, ruleset="2d10"),
    Case("character edit", OWNER, {"background": "Smith", **MIRA}, ruleset="2d10"),
    Case("character delete", OWNER, {"confirm": True, **MIRA}, ruleset="2d10"),
    Case("character select", OWNER_ONLY, MIRA, ruleset="2d10"),
    Case("task", OWNER, {"attribute": "mind", "character": "Mira"}, ruleset="2d10"),
    Case("character create", OPEN, {"name": "Newcomer", **BUILD_2D10}, variant="pc",
         ruleset="2d10"),
    Case("character show", OPEN, MIRA, ruleset="2d10"),
    Case("character list", OPEN, ruleset="2d10"),
]  # fmt: skip
# The 2d10 side tracker: Mira joins (her seat is the owner's), the GM adds an Orc.
BEGUN = (("init begin", {}),)
FOUGHT = (*BEGUN, ("init join", {"character": "Mira"}), ("init add", {"name": "Orc"}))
DECLARING = (*FOUGHT, ("init next", {}))
CASES += [
    Case("init begin", GM, ruleset="2d10"),
    Case("init add", GM, {"name": "Orc"}, setup=BEGUN, ruleset="2d10"),
    Case("init next", GM, setup=FOUGHT, ruleset="2d10"),
    Case("init down", GM, {"name": "Orc"}, setup=FOUGHT, ruleset="2d10"),
    Case("init revive", GM, {"name": "Orc"}, setup=(*FOUGHT, ("init down", {"name": "Orc"})),
         ruleset="2d10"),
    Case("init remove", GM, {"name": "Orc"}, setup=FOUGHT, ruleset="2d10"),
    Case("init end", GM, setup=BEGUN, ruleset="2d10"),
    Case("init join", OWNER, {"character": "Mira"}, setup=BEGUN, ruleset="2d10"),
    Case("init act", OWNER, {"action": "declare spell", "name": "Mira"}, setup=DECLARING,
         ruleset="2d10"),
    Case("init react", OWNER, {"kind": "declare", "name": "Mira", "trigger": "the orc attacks"},
         setup=DECLARING, ruleset="2d10"),
    Case("init list", OPEN, setup=BEGUN, ruleset="2d10"),
]  # fmt: skip
CASES += [  # 2d10 combat
    Case("hp", GM, {"target": "Mira", "change": "-3"}, ruleset="2d10"),
    Case("condition add", GM, {"target": "Mira", "condition": "prone"}, ruleset="2d10"),
    Case("condition remove", GM, {"target": "Mira", "condition": "prone"}, ruleset="2d10",
         setup=(("condition add", {"target": "Mira", "condition": "prone"}),)),
    Case("shield repair", GM, {"target": "Mira"}, ruleset="2d10",
         setup=(("character edit", {"shield": "Buckler", **MIRA}),)),
    Case("attack", OWNER, {"target": "Ogre", "character": "Mira"}, ruleset="2d10"),
    Case("condition list", OPEN, {"target": "Mira"}, ruleset="2d10"),
    # Odds read the sheets (as /character show does) and change nothing: anyone may ask.
    Case("odds task", OPEN, {"attribute": "mind", "character": "Mira"}, ruleset="2d10"),
    Case("odds attack", OPEN, {"target": "Ogre", "character": "Mira"}, ruleset="2d10"),
    Case("odds party", GM, {"attribute": "mind"}, ruleset="2d10"),
]  # fmt: skip


def _hp(hp: int) -> tuple[str, dict[str, Any]]:
    return ("character edit", {"name": "Mira", "hp": hp})


MIRA_MEDIC = {"patient": "Mira", "medic": "Mira"}
TORCH = ("light add", {"kind": "torch", "character": "Mira"})
CASES += [
    Case("rest short", OWNER, {"character": "Mira"}, setup=(_hp(5),), ruleset="2d10"),
    Case("rest long", OWNER, {"character": "Mira"}, ruleset="2d10"),
    Case("dying roll", OWNER, {"character": "Mira"}, setup=(_hp(0),), ruleset="2d10"),
    Case("medicine daily", OWNER, MIRA_MEDIC, ruleset="2d10"),
    Case("medicine stabilise", OWNER, MIRA_MEDIC, setup=(_hp(-1),), ruleset="2d10"),
    Case("medicine attribute", OWNER, MIRA_MEDIC, ruleset="2d10"),
    Case("medicine supplies", GM, {"character": "Mira", "units": 3}, variant="set",
         ruleset="2d10"),
    Case("medicine supplies", OPEN, {"character": "Mira"}, variant="show", ruleset="2d10"),
    Case("explore", GM, ruleset="2d10"),
    Case("light add", OWNER, {"kind": "torch", "character": "Mira"}, ruleset="2d10"),
    Case("light drop", OWNER, {"character": "Mira"}, setup=(TORCH,), ruleset="2d10"),
    Case("light relight", OWNER, {"character": "Mira", "oil": True},
         setup=(("light add", {"kind": "lantern", "character": "Mira"}),
                ("explore", {"turns": 8}), ("light oil", {"character": "Mira", "units": 1})),
         ruleset="2d10"),
    Case("light oil", GM, {"character": "Mira", "units": 2}, variant="set", ruleset="2d10"),
    Case("light oil", OPEN, {"character": "Mira"}, variant="show", ruleset="2d10"),
    Case("morale set", GM, {"score": -5}, setup=FOUGHT, ruleset="2d10"),
    Case("morale roll", GM, setup=(*FOUGHT, ("morale set", {"score": 0})), ruleset="2d10"),
    Case("ammo show", OPEN, {"character": "Mira"}, ruleset="2d10"),
    Case("ammo set", GM, {"quivers": 1, "character": "Mira"}, ruleset="2d10"),
    Case("ammo scavenge", OWNER, {"character": "Mira"}, ruleset="2d10",
         setup=(("ammo set", {"quivers": 1, "points": 0, "spent": 2, "character": "Mira"}),)),
    Case("light list", OPEN, setup=(TORCH,), ruleset="2d10"),
]  # fmt: skip
# Disease, rations, inventory: Mira is exposed to a disease no roll beats (-25), so she
# carries it whatever the dice.
PLAGUE = {"character": "Mira", "disease": "Plague", "difficulty": "-25", "course": "acute",
          "severity": "moderate"}  # fmt: skip
SICK = (("disease expose", PLAGUE), ("rations day", {}))
FED = (("rations add", {"rations": 2, "character": "Mira"}),)
ROPE = (("inventory add", {"item": "Rope", "character": "Mira"}),)
CASES += [
    Case("disease expose", GM, PLAGUE, ruleset="2d10"),
    Case("disease cure", GM, {"character": "Mira"}, setup=SICK, ruleset="2d10"),
    Case("disease overcome", OWNER, {"character": "Mira"}, setup=SICK, ruleset="2d10"),
    Case("disease treat", OWNER, MIRA_MEDIC, setup=SICK, ruleset="2d10"),
    Case("disease list", OPEN, setup=SICK, ruleset="2d10"),
    Case("rations day", GM, ruleset="2d10"),
    Case("rations eat", OWNER, {"character": "Mira"}, setup=FED, ruleset="2d10"),
    Case("rations add", OWNER, {"rations": 1, "character": "Mira"}, ruleset="2d10"),
    Case("rations show", OPEN, {"character": "Mira"}, setup=FED, ruleset="2d10"),
    Case("inventory add", OWNER, {"item": "Rope", "character": "Mira"}, ruleset="2d10"),
    Case("inventory remove", OWNER, {"item": "Rope", "character": "Mira"}, setup=ROPE,
         ruleset="2d10"),
    Case("inventory draw", OWNER, {"item": "Rope", "character": "Mira"}, setup=ROPE,
         ruleset="2d10"),
    Case("inventory list", OPEN, {"character": "Mira"}, setup=ROPE, ruleset="2d10"),
    Case("inventory cart", OPEN, {"weight": 35}, ruleset="2d10"),
]  # fmt: skip
CASES += [  # 2d10 magic
    Case("cast", OWNER, {"tier": 1, "category": "fire", "character": "Mira"}, ruleset="2d10"),
    Case("ritual", OWNER, {"tier": 1, "ritual": "ward", "character": "Mira"}, ruleset="2d10"),
    Case("concentration end", OWNER, {"character": "Mira"}, ruleset="2d10"),
    Case("concentration list", OPEN, ruleset="2d10"),
]  # fmt: skip


PLAYED = (("session start", {}), ("session end", {}))
CASES += [  # sessions, recaps and stats (both rulesets)
    Case("session recap", OPEN, setup=PLAYED),
    Case("session recap", GM, {"private": True}, variant="private", setup=PLAYED),
    Case("stats", OPEN),
    Case("stats", GM, {"private": True}, variant="private"),
    Case("session start", GM, ruleset="2d10"),
    Case("session end", GM, setup=(("session start", {}),), ruleset="2d10"),
    Case("session status", OPEN, ruleset="2d10"),
    Case("session recap", OPEN, setup=PLAYED, ruleset="2d10"),
    Case("session recap", GM, {"private": True}, variant="private", setup=PLAYED,
         ruleset="2d10"),
    Case("stats", OPEN, {"character": "Mira"}, ruleset="2d10"),
    Case("stats", GM, {"private": True}, variant="private", ruleset="2d10"),
]  # fmt: skip
CASES += [  # the web pages' links (a platform command: every ruleset's guilds have it)
    Case("web links", OPEN),
    Case("web revoke", GM),
]  # fmt: skip


def test_every_command_is_classified() -> None:
    classified = {case.leaf for case in CASES}
    missing = sorted(str(leaf) for leaf in leaf_commands() if str(leaf) not in classified)
    assert not missing, f"add these commands to the permission matrix: {missing}"
    stale = sorted(classified - {str(leaf) for leaf in leaf_commands()})
    assert not stale, f"the matrix names commands the tree no longer has: {stale}"


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
async def test_permission(
    bot: TableBot, slash: SlashHarness, table: Table, refusals: list[str], case: Case, actor: str
) -> None:
    await use_ruleset(bot, slash, table, case.ruleset)
    for command, options in case.setup:
        done = await slash.run(command, options=options, **table.as_gm())
        assert not done.ephemeral or done.embeds, f"setup /{command}: {done.content}"
    before = await fingerprint(bot)
    first = len(refusals)
    result = await slash.run(case.command, options=case.options, **table.actor(actor))
    count("permission_cases")
    refused = refusals[first:]
    where = f"/{case.id} as {actor}"
    assert not result.command_errors, f"{where}: {result.command_errors}"
    if actor in ALLOWED[case.scope]:
        assert not refused, f"{where} should be allowed, was refused: {refused}"
    else:
        assert refused, f"{where} should be denied, was answered: {result.content!r}"
        [message] = refused
        assert result.ephemeral and is_sentence(message), f"{where}: {message!r}"
        assert PERMISSION_WORDS.search(message), f"{where} refused for another reason: {message!r}"
        assert await fingerprint(bot) == before, f"{where} was denied but wrote"
    await dpytest.empty_queue()
