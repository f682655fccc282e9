"""Every ruling the bot makes on the 2d10 system's text, for /help and the README.

Each entry's ``key`` appears (as ``key`` in double backquotes) in a comment or
docstring at the code that applies it; a test checks both directions.
"""

from __future__ import annotations

from bot.rules.twod10.ruling_entry import Ruling as Ruling
from bot.rules.twod10.rulings_combat import TASK_RULINGS, TRACKED_RULINGS
from bot.rules.twod10.rulings_luck import LUCK_RULINGS

RULINGS: tuple[Ruling, ...] = (
    # Characters
    Ruling(key="penalty-point", topic="Attributes",
           text="Only one attribute may take the -1 penalty (for a 5th point); every attribute "
                "point must be spent, so the five attributes add up to 4."),
    Ruling(key="specialisations", topic="Specialisations",
           text="Optional, but a positive specialisation needs a negative one; they are recorded "
                "on the sheet and the GM applies them (the text gives them no number)."),
    Ruling(key="background-relevance", topic="Skills",
           text="The bot checks the 5 background and 5 extra points are all spent and no skill "
                "starts above 2; whether a skill fits the background is the GM's call."),
    Ruling(key="several-subskills", topic="Skills",
           text="Defense, Mysteries and Knowledge can be taken once per attribute or subfield."),
    Ruling(key="death-threshold", topic="Death",
           text="The death threshold is the lower of -2 x toughness and -1; a character dies on "
                "reaching it."),
    Ruling(key="advancement", topic="Advancement",
           text="The text prices no advancement, so the GM grants it; the bot enforces only the "
                "final maximum of 6 for attributes and skills."),
    Ruling(key="armor-penalty", topic="Armor penalty",
           text="Armor and shield penalties add up, a positive strength lowers the sum, and the "
                "rest (never below 0) comes off the finesse defense."),
    # Tasks and attacks (rulings_combat)
    *TASK_RULINGS,
    # Rounds
    Ruling(key="surprise", topic="Surprise",
           text="Only the attackers act in the surprise round; at its end only those of the "
                "surprised side who were aware may react."),
    Ruling(key="momentum", topic="Momentum",
           text="A side that loses over half of those standing at the round's start narrows "
                "its range by one on the next round's roll; if both sides do, nothing changes."),
    Ruling(key="disengage-initiative", topic="Disengage",
           text="A side that disengaged has the GM roll two d6 and keep the face better for it; "
                "both sides disengaging cancel."),
    Ruling(key="bonus-action", topic="Bonus actions",
           text="Anyone may mark a bonus action; the GM judges the special circumstance."),
    Ruling(key="extra-action", topic="Extra attacks",
           text="A roll of 25+ grants one more attack this turn outside the action economy, "
                "as endless cleave does; the GM may let it be another action instead."),
    Ruling(key="stand-from-prone", topic="Prone",
           text="Standing up costs half a round's movement, also when dashing: 15 feet, or "
                "half of what encumbrance leaves, rounded up to whole feet. /init act stand up "
                "clears a linked sheet's prone; a combatant without a sheet just spends the "
                "feet."),
    Ruling(key="movement-encumbrance", topic="Movement",
           text="Each encumbrance point left after toughness takes 5 feet off a character's "
                "30 a round, down to 0; a dash doubles what is left. The tracker follows a "
                "linked sheet's load and shows the feet when they are fewer than 30; a "
                "combatant without a sheet moves 30."),
    Ruling(key="parry-expiry", topic="Parry",
           text="A parry waits for the next attack this round and ends with the round."),
    Ruling(key="undeclared-after-declared", topic="Reactions",
           text="Declaring a reaction commits it: no undeclared reaction that round, even if the "
                "trigger never came."),
    Ruling(key="opportunity-attack", topic="Reactions",
           text="Attacking an opponent who leaves your threat range needs no declaration and "
                "uses your reaction; a disengaging opponent gives no such opening."),
    Ruling(key="two-weapon-finesse", topic="Weapons",
           text="In a tracked fight a round with an offhand attack is a two-weapon round: no "
                "offhand attack after a strength attack, and the main weapon then uses finesse."),
    Ruling(key="crossbow-loading", topic="Weapons",
           text="In a tracked fight a crossbow starts loaded and each shot unloads it; /init "
                "act load gives up the attack (or, once it is used, an extra attack) to load "
                "the one shot first, and an extra attack needs a loaded one too. Outside a "
                "tracked fight there is no action economy: loading is free."),
    Ruling(key="cleave-weapons", topic="Weapons",
           text="Endless cleave comes with the tables' melee weapons and bows: an unarmed or "
                "improvised kill gives no extra attack."),
    Ruling(key="improvised-concealable", topic="Weapons",
           text="A concealable improvised weapon's \"+1 (as unarmed)\" is the wielder's unarmed "
                "damage + 1, its die moved by the brawl 2 and 4 steps like every improvised one."),
    Ruling(key="block-reaction", topic="Reactions",
           text="In a tracked fight a shield block is the blocker's reaction for the round: "
                "not after another reaction or a declared one, and none left after it."),
    # Dying and healing
    Ruling(key="dying-turn", topic="Dying",
           text="In a tracked fight the dying roll is due once on each of the dying "
                "character's side's turns; outside a fight the GM calls for it."),
    Ruling(key="dying-awake", topic="Dying",
           text="A character at 0 HP or below stays conscious until a dying roll fails, and "
                "wakes on returning to 1 HP by any means."),
    Ruling(key="next-toughness-roll", topic="Dying",
           text="A stabilisation's advantage is kept for the patient's next toughness roll, "
                "normally the next dying roll."),
    Ruling(key="short-rest-gain", topic="Resting",
           text="A short rest gains toughness or 1 HP, whichever is higher."),
    Ruling(key="short-rest-cap", topic="Resting",
           text="A short rest (and its medicine) can't lift HP past what the character had "
                "when their last short rest ended; a long rest clears that cap and the "
                "once-a-day medicine uses."),
    Ruling(key="rest-damage", topic="Resting",
           text="Only damage re-opens the short rest; HP lost to a medicine mishap or a "
                "failed dying roll is not damage taken."),
    Ruling(key="rest-while-dying", topic="Resting",
           text="A character at 0 HP or below can't rest; dying rolls and stabilisation "
                "bring them back first."),
    # Medicine and disease
    Ruling(key="medicine-bands", topic="Medicine",
           text="Medicine bands don't add up: each total gives its own row (6-9 does "
                "nothing); half of toughness rounds down."),
    Ruling(key="medicine-day", topic="Medicine",
           text="Daily medicine heals a patient once a day and attribute damage one point a "
                "day; the day ends with the patient's long rest."),
    Ruling(key="short-rest-medicine", topic="Medicine",
           text="Short-rest medicine is one roll with a short rest, spends one unit of "
                "supplies (disadvantage without) and adds to the rest's gain under the same "
                "cap; \"toughness 2+\" is the patient's."),
    Ruling(key="stabilise-at-zero", topic="Medicine",
           text="Stabilisation helps any dying patient, 0 HP included, and needs no "
                "supplies."),
    Ruling(key="attribute-severity", topic="Medicine",
           text="The GM sets the total needed to heal a point of attribute damage, from 15 "
                "to 20; it spends a unit of supplies (disadvantage without)."),
    Ruling(key="momentary-contact", topic="Disease",
           text="Momentary contact eases the disease's difficulty by 5 (a -10 disease rolls "
                "at -5); long contact rolls at the full difficulty."),
    Ruling(key="overcoming-roll", topic="Disease",
           text="The roll to overcome a disease is the infection roll (2d10 + toughness + "
                "defense (toughness) + difficulty), with the severity's rolls, once a day, "
                "week or month by its course."),
    Ruling(key="treatment-advantage", topic="Disease",
           text="Treatment's advantage goes on the first roll of the next set; a set of "
                "rolls stops once its outcome is certain."),
    Ruling(key="disease-calendar", topic="Disease",
           text="A course counts campaign days (a week is 7, a month 30): the first "
                "overcoming roll is due one period after infection, the next one period "
                "after each roll; a failed set leaves the disease as it was, a passed set "
                "cures it."),
    # Light and resources
    Ruling(key="burn-time", topic="Light",
           text="A torch burns for the highest of 2d6 turns (1-6), a lantern the highest of "
                "3d8 (1-8); each exploration action, encounter or room the GM advances is "
                "one turn."),
    Ruling(key="light-drop", topic="Light",
           text="A dropped torch goes out on a d4 showing 1, a lantern on a d12 showing 1; "
                "either relights free with its remaining time."),
    Ruling(key="torch-spent", topic="Light",
           text="A burned-out torch is spent; a burned-out lantern relights with a unit of "
                "oil and a fresh burn time."),
    Ruling(key="light-warning", topic="Light",
           text="The party is warned when a light has one turn left, never told the number; "
                "the GM alone sees it."),
    Ruling(key="ammo-ones", topic="Ammo",
           text="A 1 on either kept die spends one ammo point, one per attack even when both "
                "show 1; with no ammo points left you can't shoot; thrown weapons use none."),
    Ruling(key="ammo-capacity", topic="Ammo",
           text="Ammo points are held 2 to a pouch or quiver; scavenged points beyond that "
                "room are left behind."),
    Ruling(key="scavenge-gain", topic="Ammo",
           text="\"Gain 1/2 ammo points\" is half the points spent since the last scavenge, "
                "rounded up; one d10 per lot, succeeding at or under the turns spent, at most "
                "the higher of 2 and perception."),
    Ruling(key="ration-days", topic="Rations",
           text="On the nth day of half rations since the last full day the roll is 2d10 + "
                "toughness + defense (toughness) - 5 - n (quarter rations -10 - n); the two "
                "portions count separately."),
    Ruling(key="ration-exhaustion", topic="Rations",
           text="Exhaustion has no number in the text: the bot marks it and the GM applies "
                "it; a new failure keeps the longer recovery, and the full days needn't be "
                "in a row."),
    Ruling(key="ep-rounding", topic="Encumbrance",
           text="Only full 6s of backpack weight and full 4s of worn weight count, each pile "
                "on its own; worn armor, shield and weapons are readily accessible."),
    Ruling(key="toughness-six", topic="Encumbrance",
           text="The ignore table stops at toughness 5; toughness 6 ignores what 5 does."),
    Ruling(key="pack-supplies", topic="Encumbrance",
           text="Rations (1/2 each) and medical supplies (1 a unit) ride in the backpack; "
                "the sheet's armor, shield and weapons count as worn."),
    Ruling(key="encumbrance-rolls", topic="Encumbrance",
           text="Encumbrance penalises Athletics, Stealth and every Finesse roll (attacks "
                "and Defense (finesse) included)."),
    Ruling(key="backpack-draw", topic="Encumbrance",
           text="Drawing from a backpack with n EP rolls a d(2 + 2n) and succeeds on its top "
                "face, each earlier consecutive try adding 1; with no EP there it is drawn "
                "at once."),
    Ruling(key="mount-loads", topic="Encumbrance",
           text="A cart's or mount's EP count full 10s of item weight (15s for what a mount "
                "pulls) and burden the cart or mount, not the character."),
    Ruling(key="quiver-weight", topic="Encumbrance",
           text="Each pouch or quiver of the ammo count weighs 1 with its ammo (the points "
                "weigh nothing more) and is readily accessible, listed after the sheet's "
                "weapons."),
    Ruling(key="item-damage", topic="Encumbrance",
           text="Over 20 damage from one hit damages the item the d20 numbers, readily "
                "accessible items first; a number past the list hits nothing."),
    Ruling(key="morale-score", topic="Morale",
           text="The morale score is a ladder number added to 2d10 and the leader's social "
                "(+5 a steadfast unit, -10 a rabble); 10 or more holds."),
    Ruling(key="morale-down", topic="Morale",
           text="An NPC out of the fight counts as killed; each trigger calls one roll for "
                "the whole unit, once per encounter, and both at once make one roll."),
    Ruling(key="morale-gm-call", topic="Morale",
           text="The GM may also call a morale roll at any time; a called roll leaves the "
                "text's two triggers still to come."),
    # Magic
    Ruling(key="spell-tiers", topic="Magic",
           text="A spontaneous spell of tier n rolls at the ritual tier's difficulty (-10, "
                "-15, -20); the GM checks the caster's special covers its category."),
    Ruling(key="ritual-time", topic="Magic",
           text="Tier one takes a minute to an hour, tier two an hour to a day and always a "
                "component; casting for the tier's maximum (an hour, a day) gives advantage. "
                "Tier three's time is the GM's, and it gains advantage only from one more "
                "round."),
    Ruling(key="casting-advantage", topic="Magic",
           text="A longer casting and a component give one advantage between them; being "
                "attacked while casting cancels it."),
    Ruling(key="backlash-bands", topic="Magic",
           text="A failed total of 8 or 9 is only a random magical effect; 7 or less adds "
                "consequences the GM scales by tier and by how far below 8 it fell."),
    Ruling(key="random-effect", topic="Magic",
           text="The text has no table of random magical effects: the bot announces each one "
                "and the GM names it. Casting dangerously brings one and a backlash its own, "
                "so a dangerous casting that fails brings two."),
    Ruling(key="no-mysteries", topic="Magic",
           text="A caster without a Mysteries skill rolls mind alone (mysteries 0); one "
                "with several names the subfield that fits, and one with a single subfield "
                "rolls it."),
    Ruling(key="rituals-known", topic="Magic",
           text="The bot keeps no experience points: the GM checks the caster knows a ritual "
                "(1 xp each); the bot rolls any ritual named."),
    Ruling(key="damage-fails", topic="Magic",
           text="A caster damaged in combat while casting fails with no roll, so no "
                "backlash; their concentration ends too."),
    Ruling(key="one-concentration", topic="Magic",
           text="A caster holds one concentration at a time: casting another spell or ritual "
                "that needs it ends the one held, even if the new casting fails; only a "
                "success holds the new one."),
    Ruling(key="cast-in-tracker", topic="Magic",
           text="In a tracked fight a seated caster's /cast marks the tracker: a declared "
                "spell is cast (one a round); an undeclared one only on its side's turn, "
                "taking the attack action. Rituals mark nothing."),
    Ruling(key="attacked-while-casting", topic="Magic",
           text="An /attack on a caster whose declared spell's turn hasn't begun marks it "
                "attacked while casting, and its /cast has the disadvantage by itself; "
                "attacked: adds what the tracker can't see (a casting begun in an earlier "
                "round)."),
    Ruling(key="spell-interrupted", topic="Magic",
           text="Damage before its side's turn (an /attack's, or /cast damaged:True) "
                "interrupts a declared spell; an attack alone doesn't. That turn /init act "
                "declare spell declares it again with the attack action; it goes off at the end "
                "of the caster's turn next round (damage meanwhile fails it)."),
    Ruling(key="concentration-damage", topic="Magic",
           text="An attack's damage is damage in combat and ends the target's concentration; "
                "the GM's /hp loss ends it when the character is in a tracked encounter. HP "
                "lost to a failed dying roll is not damage taken."),
    # Odds
    Ruling(key="odds-natural-two", topic="Odds",
           text="The odds show a natural 2 on its own row, apart from the band its total "
                "would fall in (the dice name it a failure), so the rows add up to 100%."),
    Ruling(key="odds-stray", topic="Odds",
           text="Attack odds give the damage the aimed target takes; a missed shot into melee "
                "that strays into someone else deals the target nothing and shows on its own "
                "line."),
    # Tracked maneuvers (rulings_combat)
    *TRACKED_RULINGS,
    # Luck (rulings_luck)
    *LUCK_RULINGS,
)  # fmt: skip


def ruling(key: str) -> Ruling:
    for entry in RULINGS:
        if entry.key == key:
            return entry
    raise KeyError(key)


def rulings_by_topic() -> tuple[tuple[str, tuple[Ruling, ...]], ...]:
    """Rulings grouped by topic, in the order above (for /help and the README)."""
    topics: dict[str, list[Ruling]] = {}
    for entry in RULINGS:
        topics.setdefault(entry.topic, []).append(entry)
    return tuple((topic, tuple(items)) for topic, items in topics.items())
