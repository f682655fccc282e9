"""The rulings /help shows for each 2d10 character and task command.

Rules rulings come from ``bot.rules.twod10.rulings`` by key; the lines here are
this cog's own rulings (who may do what, how options are written).
"""

from __future__ import annotations

from bot.rules.twod10.rulings import ruling

OWNER_OR_GM = "Players change only their own characters; the GM can change any."
# Ruling npc-build: the text's creation budgets are for player characters; the GM's
# allies and antagonists keep only the final maxima, so a veteran foe is one command.
NPC_BUILD = (
    "Allies and antagonists belong to the GM: only the GM creates them, and they are not"
    " held to the starting budgets, only to the final maxima (attributes -1 to 6, skills"
    " 1 to 6)."
)
SKILL_TEXT = (
    "Skills are written as “athletics 2, melee 2, defense (finesse) 1, knowledge"
    " (smithing) 1”; background points and extra points are separate options."
)
# Ruling advance-gm: the text prices no advancement (ruling advancement), so granting
# it is the GM's call and only the GM runs /character advance.
ADVANCE_GM = "Only the GM advances a character (the text sets no price: the GM grants it)."

# Ruling seat-deleted: a fight can't go on with a sheet that no longer exists (no hit
# points to follow, no owner to ping), so its combatant goes, as /init remove takes it.
SEAT_DELETED = (
    "A deleted character leaves every encounter it was in, as /init remove takes it out;"
    " the tracker is redrawn without it."
)


def _rules(*keys: str) -> list[str]:
    return [ruling(key).text for key in keys]


RULINGS: dict[str, list[str]] = {
    "create": [
        *_rules(
            "penalty-point", "specialisations", "background-relevance", "several-subskills",
            "death-threshold", "armor-penalty",
        ),
        SKILL_TEXT,
        "A new character has exactly 2 feats and at most 3 weapons; HP is (toughness x 5)"
        " + 15 or 12, whichever is higher.",
        NPC_BUILD,
        "Your first player character becomes your active character.",
    ],
    "show": [
        "NPC hit points are shown to the GM and the owner, and to players only when the"
        " campaign's show_npc_hp is on.",
        *_rules("armor-penalty"),
    ],
    "list": ["★ marks each player's active character."],
    "select": ["You can select only your own characters; the GM acts for others by name."],
    "edit": [
        OWNER_OR_GM,
        "Only the GM sets hit points or changes a character's kind.",
        "After creation only the GM limits how many weapons a character carries.",
        "HP is kept between the death threshold and the maximum when toughness changes.",
    ],
    "advance": [ADVANCE_GM, *_rules("advancement")],
    "delete": [
        "Deleting is irreversible, so it needs confirm:True.",
        "Only the owner or the GM can delete a character.",
        SEAT_DELETED,
    ],
    "task": [
        *_rules("ladder-signs", "two-heroics", "advantage-stack", "natural-two", "blank-bands",
                "encumbrance-rolls", "sight-tasks"),
        "Against a target, the roll subtracts the target's defense in the attribute you"
        " name (default finesse, less its armor penalty).",
        "With score (and rank) the roll uses those numbers instead of a sheet.",
    ],
}  # fmt: skip
