"""The 2d10 rulings on dice luck (``bot.rules.twod10.luck``) and on what the session recap
reads of each roll (``bot.rules.twod10.recap_facts``, topic Recap): part of the registry
in ``rulings``, kept apart so the registry's files stay short."""

from __future__ import annotations

from bot.rules.twod10.ruling_entry import Ruling

LUCK_RULINGS: tuple[Ruling, ...] = (
    Ruling(key="luck-ranked", topic="Luck",
           text="A roll's luck is P(a worse result) + half P(its own) under what was rolled. A "
                "2d10 roll is ranked by its total (modifiers shift all alike), damage by the "
                "damage taken, a die that only passes or fails (hard cover, initiative, "
                "interrupt, scavenge, draw) by that."),
    Ruling(key="luck-parts", topic="Luck",
           text="An attack scores its look, hard cover d4, to-hit, rending rolls and damage as "
                "rolls of their own, the damage among what its dice could deal after the "
                "to-hit. The stray d8 picks a combatant and the item-damage d20 an item, "
                "neither good nor bad: not scored."),
    Ruling(key="luck-defended", topic="Luck",
           text="A defended attack's 2d10 are the defender's dice and score as the defender's "
                "luck (a higher total is better for them); the attacker rolled no to-hit, and "
                "the damage dice stay the attacker's."),
    Ruling(key="luck-certain", topic="Luck",
           text="A roll that could not have come out otherwise (a flat point of damage, damage "
                "the reduction always floors at 1, a draw or scavenge that can't fail, an "
                "interrupt the finesse gap decides) holds no luck: it counts as certain, never in "
                "the mean."),
    Ruling(key="luck-sides", topic="Luck",
           text="The GM's initiative d6 is the players' luck (their side first is better), a "
                "morale roll the NPCs', an interrupt the reactor's (acting first is better), "
                "a medicine roll the medic's."),
    Ruling(key="luck-lights", topic="Luck",
           text="A light's rolls are its bearer's luck: its burn time (2d6 or 3d8, the higher) "
                "is ranked by the turns it gives, a dropped light's d4 or d12 by whether it "
                "stays lit."),
    Ruling(key="luck-old-rows", topic="Luck",
           text="Rolls logged before the bot kept their edge read it from the dropped die; "
                "where that can't tell (three equal faces), or the hard cover's quarters or "
                "the damage dice's sides are missing, the roll is counted but not scored."),
    Ruling(key="recap-owners", topic="Recap",
           text="A recap counts a roll for the player character who rolled it: the task's, "
                "casting, dying or eating character, the attacker, the medic (by name), a "
                "light's bearer. NPCs' "
                "rolls, /roll, side initiative, morale, interrupts and disease treatments (rows "
                "naming no medic) are nobody's, nor is their luck."),
    Ruling(key="recap-naturals", topic="Recap",
           text="A natural 20 or 2 is the roller's own kept 2d10 (a task's, a to-hit's, a "
                "cast's): a defended attack's 2d10 are the defender's, so it has none. A disease "
                "roll set is one roll, with a natural if any of its rolls shows one."),
    Ruling(key="recap-hurt", topic="Recap",
           text="An attack's damage (after armor and block) is dealt by the attacker and taken "
                "by the character it hit. They went down if their HP fell from above 0 to 0 or "
                "less, and are dying if left there alive; HP stopped at the death threshold mean "
                "dead, landing exactly on it counts as dying."),
    Ruling(key="recap-critical", topic="Recap",
           text="A recap's critical failure is a total of 5 or less, the to-hit table's failure "
                "with extreme complication, on any 2d10 task roll (an attack's, a flipped "
                "defense's, a cast's, a dying roll's). A natural 2 with a higher total is a "
                "plain failure, counted as a natural 2."),
)  # fmt: skip
